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
    # every score runs on the real state (no world to draw: the speed of policy games), except
    # Arthur's give, which reads the Knight he gives to: a player the asking effect names, which
    # the check cannot prove visible, so that one score (once a turn at most) runs on a drawn world
    reads = load(CAMELOT).program.policy.hidden_reads()
    assert reads, "arthur_give reads `k`, a player local of the asking effect"
    lines = (CAMELOT / "policy.yaml").read_text(encoding="utf-8").splitlines()
    give = next(i for i, line in enumerate(lines, 1) if line.strip() == "arthur_give: >-")
    for r in reads:
        line = int(r.split("policy.yaml:", 1)[1].split(":", 1)[0])
        assert line in (give, give + 1), r
        assert "may be hidden" in r


def test_arthur_gives_the_card_that_fits_the_chosen_knights_quest():
    # the give reads `k`, the Knight Arthur chose, from the asking effect's frame (on a drawn
    # world): Arthur holding a Grail card and giving to a Knight on the running Grail gives him
    # a Grail card, whatever else he holds; the Knight gives back anything but that card
    game = load(CAMELOT, [FIRST_GAME])
    grail_q = game.program.loc_index["quest_grail"]
    checked = returned = 0
    for st, seat in decisions(game, 5, range(80), "arthur_give"):
        frame = st.stack[-1][2]
        k = frame["k"]
        ids = {o.id: st.g.inst_ids[o.value] for o in seat.options}
        if st.at[k] != grail_q or "grail" not in ids.values():
            continue
        oid = make_bot("policy", 7, game).choose(seat)
        assert ids[oid] == "grail", (ids[oid], sorted(set(ids.values())))
        checked += 1
        if checked >= 3:
            break
    assert checked
    for st, seat in decisions(game, 5, range(40), "arthur_return"):
        given = st.stack[-1][2]["c"]
        oid = make_bot("policy", 7, game).choose(seat)
        if len({o.value for o in seat.options}) > 1:
            assert next(o for o in seat.options if o.id == oid).value != given
            returned += 1
    assert returned


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
