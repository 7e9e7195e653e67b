"""Beliefs (bots/beliefs.py): honest, deterministic, and they find the hidden side.

Honesty: at many decisions, the real state and a world drawn from the deciding seat's view
give the same belief (from a fresh copy of the game's evidence, so no cache carries the real
state's numbers over), the same public belief and the same policy choice; a belief that
peeks at the real sides is caught by the same check.
"""

from __future__ import annotations

import copy

from interpreter.bots import Seat, make_bot
from interpreter.bots.beliefs import Beliefs, beliefs_for
from interpreter.engine.rng import Rng
from interpreter.engine.views import public_world
from interpreter.game import RULESETS, load
from interpreter.runtime.options import SPECTATOR

_loaded: dict = {}


def camelot(variants: tuple = ()):
    if variants not in _loaded:
        _loaded[variants] = load(RULESETS / "shadows_over_camelot", list(variants))
    return _loaded[variants]


def fresh(tab):
    """The same evidence, without the priors the real state already computed."""
    t = copy.copy(tab)
    t._priors = {}
    return t


def twin(bot):
    t = copy.copy(bot)
    t.rng = Rng(bot.rng.s)
    return t


def audit(g, players: int, seed: int, decisions: int, tracker=Beliefs) -> tuple[int, int, int]:
    """(decisions checked, beliefs that differ between the real state and a re-dealt world,
    choices that differ)."""
    st = g.new_game(seed=seed, players=players, record=False)
    spec = g.program.policy.beliefs
    tab = tracker(g, st, spec["role"], spec.get("temperature", 8), spec.get("epsilon", 0.1),
                  worlds=spec.get("worlds", 1))
    bots = [make_bot("policy", seed * 100 + p, g) for p in range(players)]
    rng = Rng(seed * 31 + 7)
    checked = beliefs_differ = choices_differ = 0
    while not st.over and checked < decisions:
        p = st.current_player()
        if len(st.options()) > 1:
            # a belief-weighted world keeps the view; the audit compares with any re-deal
            assert Seat(st, tab).determinize(rng).view(p)["zones"] == st.view(p)["zones"]
            world = st.determinize(p, rng)
            a, b = Seat(st, fresh(tab)), Seat(world, fresh(tab))
            side = tab.sides[-1]
            beliefs_differ += (a.belief() != b.belief()
                               or [a.belief_of(q, side, True) for q in range(players)]
                               != [b.belief_of(q, side, True) for q in range(players)])
            choices_differ += twin(bots[p]).choose(a) != twin(bots[p]).choose(b)
            checked += 1
        oid = bots[p].choose(Seat(st, tab))
        tab.before(st, oid)
        st.apply_in_place(oid)
        tab.after(st)
    return checked, beliefs_differ, choices_differ


def test_beliefs_and_choices_are_the_same_in_every_world_a_seat_cannot_tell_apart():
    g = camelot()
    total = 0
    for seed in (3, 8):
        n, bd, cd = audit(g, 5, seed, 400)
        assert bd == 0 and cd == 0, (seed, n, bd, cd)
        total += n
    assert total >= 400


class PeekingBeliefs(Beliefs):
    """A cheat: the prior of every seat is the real deal of the role cards."""

    def particles(self, st, p):
        parts = super().particles(st, p)
        real = tuple(self.sides.index(st.g.side_fn(st, q)) for q in range(self.n))
        return [x for x in parts if x[0] == real] or parts


def test_a_belief_that_peeks_is_caught():
    g = camelot()
    differ = sum(audit(g, 5, seed, 150, PeekingBeliefs)[1] for seed in (3, 8))
    assert differ > 0


def play(g, players: int, seed: int):
    st = g.new_game(seed=seed, players=players, record=False)
    tab = beliefs_for(g, st)
    bots = [make_bot("policy", seed * 100 + p, g) for p in range(players)]
    while not st.over:
        oid = bots[st.current_player()].choose(Seat(st, tab))
        tab.before(st, oid)
        st.apply_in_place(oid)
        tab.after(st)
    return st, tab


def test_the_table_comes_to_suspect_the_traitor_from_what_he_does():
    g = camelot()
    found = games = 0
    for seed in range(70_000_000, 70_000_012):
        st, tab = play(g, 5, seed)
        sides = [st.g.side_fn(st, q) for q in range(5)]
        if "evil" not in sides:
            continue
        games += 1
        traitor = sides.index("evil")
        assert tab.observed > 10
        # what every player sees: the Traitor is the most suspect (or already unmasked)
        public = tab.belief(st, None)
        found += max(range(5), key=lambda q: public[q]["evil"]) == traitor
    assert games >= 5 and found >= games * 2 // 3, (found, games)


def test_a_public_world_keeps_what_everyone_sees_and_redeals_the_players_secrets():
    g = camelot()
    st = g.new_game(seed=5, players=5, record=False)
    p = st.current_player()
    changed = 0
    for k in range(20):
        w = public_world(st, p, Rng(k))
        assert w.view(None)["zones"] == st.view(None)["zones"]
        assert sorted(map(len, w.zones)) == sorted(map(len, st.zones))
        assert sorted(c for z in w.zones for c in z) == sorted(c for z in st.zones for c in z)
        changed += w.view(p)["zones"] != st.view(p)["zones"]
        # the world's p-side depends on public information only: the same from a re-deal
        other = public_world(st.determinize(p, Rng(99 + k)), p, Rng(k))
        assert other.view(p)["zones"] == w.view(p)["zones"]
    assert changed >= 15
    assert all(st.seen[c] & SPECTATOR == w.seen[c] & SPECTATOR for c in range(len(st.seen)))


def test_no_beliefs_without_a_declaration():
    g = load(RULESETS / "high_tide")
    st = g.new_game(seed=1, players=3, record=False)
    assert beliefs_for(g, st) is None
    assert Seat(st).belief() is None and Seat(st).belief_of(0, "winner") == 0.0


def test_a_belief_role_that_is_no_players_zone_is_refused_where_it_is_written(tmp_path):
    from interpreter.errors import RulesetError
    v = tmp_path / "bad.yaml"
    v.write_text("variant: bad\ntitle: bad\nbase: high_tide\nmerge:\n  policy:\n    beliefs: {role: handz}\n",
                 encoding="utf-8")
    try:
        load(RULESETS / "high_tide", [str(v)])
    except RulesetError as e:
        text = str(e)
    else:
        raise AssertionError("a role that is no zone was accepted")
    assert "beliefs: role 'handz' is no zone every player has (did you mean 'hand'?)" in text
    assert text.split(":")[0].endswith((".yaml", "bad")), text


def test_castle_beliefs_averaged_over_public_worlds_are_honest_and_mostly_right():
    """Castle averages each choice's likelihood over several public worlds (`worlds: 8`):
    still the same belief and choice in every world a seat cannot tell apart, and where a
    seat is 90% sure an unknown player is its ally, he mostly is."""
    g = load(RULESETS / "castle_of_the_devil")
    assert g.program.policy.beliefs.get("worlds", 1) > 1
    n, bd, cd = audit(g, 4, 5, 120)
    assert n >= 100 and bd == 0 and cd == 0, (n, bd, cd)
    sure = right = 0
    for seed in range(71_000_000, 71_000_006):
        st = g.new_game(seed=seed, players=4, record=False)
        tab = beliefs_for(g, st)
        bots = [make_bot("policy", seed * 100 + p, g) for p in range(4)]
        while not st.over:
            p = st.current_player()
            seat = Seat(st, tab)
            oid = bots[p].choose(seat)
            if len(st.options()) > 1 and st.pending["k"] == "act":
                for q, b in enumerate(seat.belief()):
                    unknown = not any(st.seen[c] & (1 << p) for c in st.zones[tab.zones[q]])
                    if q != p and unknown and b[st.g.side_fn(st, p)] >= 0.9:
                        sure += 1
                        right += st.g.side_fn(st, q) == st.g.side_fn(st, p)
            tab.before(st, oid)
            st.apply_in_place(oid)
            tab.after(st)
    assert sure >= 30 and right >= 0.8 * sure, (right, sure)


def test_a_term_that_never_changes_a_score_does_not_change_the_evidence_or_the_play(tmp_path):
    """The evidence must not depend on which names an expression mentions, only on the scores:
    a travel term that reads the role zone and always adds 0 (the shape of a weight left at
    its neutral default) gives the same log-likelihoods and the same games. (It once did not:
    whether a decision was scored was judged by the names its real options' expressions
    mention, though the scores are taken on a public world whose options differ, and every
    scored decision drew from one generator, so one more scored decision moved every later
    world.)"""
    import shutil
    src = RULESETS / "shadows_over_camelot"
    dst = tmp_path / "shadows_over_camelot"
    shutil.copytree(src, dst)
    pol = dst / "policy.yaml"
    text = pol.read_text(encoding="utf-8")
    neutral = ("(0 if any([x == traitor_card for x in cards(loyalty(me)) if knows(me, x)]) else 0) + "
               "(45 if l ==\n      round_table")
    assert text.count("(45 if l ==\n      round_table") == 2
    pol.write_text(text.replace("(45 if l ==\n      round_table", neutral, 1), encoding="utf-8")
    g, h = camelot(), load(dst)
    assert "loyalty" in h.program.policy.base.act["travel"].reads
    assert "loyalty" not in g.program.policy.base.act["travel"].reads
    for seed in (1, 47):
        (a, ta), (b, tb) = play(g, 5, seed), play(h, 5, seed)
        assert ta.ll == tb.ll and ta.observed == tb.observed, seed
        assert a.history == b.history and a.result == b.result, seed
