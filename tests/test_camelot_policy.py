"""Shadows over Camelot's policy (rulesets/shadows_over_camelot/policy.yaml) and its shares by
agreement: what the bots do follows from what each Knight may see, games end, and the choices
the policy is written to make are the ones it makes."""

from __future__ import annotations

import pytest

from interpreter.bots import Seat, make_bot
from interpreter.game import RULESETS, load
from interpreter.sim.runner import run_one

CAMELOT = RULESETS / "shadows_over_camelot"
FIRST_GAME = str(CAMELOT / "variants" / "first_game.yaml")


@pytest.fixture(scope="module")
def first_game():
    return load(CAMELOT, [FIRST_GAME])


def test_the_policy_reads_only_what_each_knight_sees():
    # every score runs on the real state (no world to draw: the speed of policy games)
    assert load(CAMELOT).program.policy.hidden_reads() == []


@pytest.mark.parametrize("players,variants", [(3, ("first_game",)), (5, ("first_game",)), (5, ()), (7, ())])
def test_policy_games_replay_and_end(players, variants):
    vs = tuple(str(CAMELOT / "variants" / f"{v}.yaml") for v in variants)
    a = run_one(str(CAMELOT), 21, players, ("policy",), vs)
    b = run_one(str(CAMELOT), 21, players, ("policy",), vs)
    assert a["reason"] not in ("error", "decision_limit")
    assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}
    if "first_game" in variants:  # Loyalty is open: nobody accuses a Knight he knows is Loyal
        assert a["stats"]["false_accusations"] == 0
        assert a["stats"]["engines_chosen"] == 0  # and nobody adds an engine by choice


def decisions(game, players, seeds, prompt):
    """(state, seat) at every decision asking `prompt` in policy games of these seeds."""
    for seed in seeds:
        st = game.new_game(seed=seed, players=players, record=False)
        bots = [make_bot("policy", seed * 1000 + p, game) for p in range(players)]
        while not st.over:
            seat = Seat(st)
            if seat.prompt == prompt and len(seat.options) > 1:
                yield st, seat
            st.apply_in_place(bots[st.current_player()].choose(seat))


def test_a_siege_fight_stops_adding_cards_once_they_are_enough(first_game):
    # `picked` (the cards already put into the fight) tells the policy when to stop
    pol = first_game.program.policy
    need = pol.weights_of(None)["siege_sum"]
    seen = {True: 0, False: 0}
    for st, seat in decisions(first_game, 5, range(60), "siege_cards"):
        scores = dict(zip([o.id for o in seat.options], pol.scores(st, seat.player, seat.options)))
        total = sum(int(st.g.inst_ids[c].removeprefix("fight_")) for c in st.pending["picked"])
        enough = total >= need
        seen[enough] += 1
        assert (max(scores, key=scores.get) == "pass") == enough, (total, scores)
        if seen[True] >= 2 and seen[False] >= 2:
            break
    assert seen[True] and seen[False]


def hand_size(st, p) -> int:
    return len(st.zones[st.g.zone_label.index(("hand", None, p))])


def test_the_hander_keeps_a_shared_card_that_pairs_with_his_own(first_game):
    # the one handing out sees his own hand: a card matching his own cards stays with him
    # (pooling the pairs a solo quest needs) rather than going to a Knight with as many cards
    pol = first_game.program.policy
    checked = 0
    for st, seat in decisions(first_game, 5, range(60), "share"):
        me = seat.player
        mine = [st.g.inst_ids[c] for c in st.zones[st.g.zone_label.index(("hand", None, me))]]
        scores = dict(zip([o.value[1] for o in seat.options], pol.scores(st, me, seat.options)))
        for (c, k), s in scores.items():
            if k != me or not st.g.inst_ids[c].startswith("fight_") or st.g.inst_ids[c] not in mine:
                continue
            others = [s2 for (c2, k2), s2 in scores.items()
                      if c2 == c and k2 != me and hand_size(st, k2) >= hand_size(st, me)]
            assert all(s > x for x in others), (s, others)
            checked += 1
        if checked >= 3:
            break
    assert checked
