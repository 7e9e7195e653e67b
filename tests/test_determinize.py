"""determinize(p) keeps only what p may know: its log, no decision history, suspended cards
re-dealt with the rest (engine/views.py)."""

from __future__ import annotations

import random

import pytest

from interpreter.engine.decisions import ACT_LOG
from interpreter.engine.rng import Rng
from interpreter.engine.views import card_locals, deal_world
from interpreter.game import RULESETS, load


@pytest.fixture(scope="module")
def castle():
    return load(RULESETS / "castle_of_the_devil")


def positions(game, n, seeds, every=1):
    """Decision points of random games (the state is copied at each)."""
    for seed in seeds:
        st = game.new_game(seed=seed, players=n)
        rng = random.Random(seed)
        k = 0
        while not st.over:
            if k % every == 0:
                yield st.clone()
            k += 1
            opts = st.options()
            st.apply_in_place(opts[rng.randrange(len(opts))].id)


def place_of(st, c):
    z = st.where[c]
    return z, st.zones[z].index(c)


def test_world_log_holds_only_what_p_may_read(castle):
    hidden_seen = pending_seen = 0
    for st in positions(castle, 5, range(3), every=7):
        pend_idx = {fr[2]["i"] for fr in st.stack if fr[0] == ACT_LOG}
        for p in range(st.n):
            bit = 1 << p
            hidden_seen += sum(1 for e in st.log if not e[3] & bit)
            w, mapping = deal_world(st, p, Rng(p + 1))
            w_pend = {fr[2]["i"] for fr in w.stack if fr[0] == ACT_LOG}
            assert [e for e in w.log if e[3] & bit] == [e for e in st.log if e[3] & bit]
            for i, e in enumerate(w.log):
                if not e[3] & bit:
                    # only an action's entry whose readers are not settled yet, in the world's cards
                    assert i in w_pend, f"p{p + 1} keeps an entry it may not read: {e}"
                    pending_seen += 1
                    real = st.log[next(j for j in pend_idx if st.log[j][1][:2] == e[1][:2])]
                    assert e[1] == [mapping.get(v, v) if t == "card" else v for v, t in zip(real[1], real[2])]
    assert hidden_seen > 100, "the games must have had entries hidden from someone"
    assert pending_seen > 0, "the games must have had a trade waiting for its answer"


def test_world_keeps_no_decision_history(castle):
    for st in positions(castle, 4, [5], every=25):
        if not st.history:
            continue
        for p in range(st.n):
            w = st.determinize(p, Rng(p + 9))
            assert w.history == []
            assert st.history, "the real game keeps its history"
            if not w.over:
                assert w.apply(w.options()[0].id), "the world plays on"


def test_suspended_cards_follow_their_places(castle):
    """Every card a suspended frame holds (typed, or an untyped parameter every call site
    passes a card to) is, in the world, the card dealt into its place."""
    checked: dict = {}
    for st in positions(castle, 5, range(12)):
        if not st.stack:
            continue
        p = st.pending["p"]
        w, mapping = deal_world(st, p, Rng(len(st.history)))
        for fr, wf in zip(st.stack, w.stack):
            for k, t in card_locals(st.g, fr[0]).items():
                v = fr[2].get(k)
                vals = v if t == "list:card" and isinstance(v, list) else [v]
                wvals = wf[2].get(k) if t == "list:card" and isinstance(v, list) else [wf[2].get(k)]
                for c, wc in zip(vals, wvals):
                    if c is None or c not in mapping:
                        continue
                    z, i = place_of(st, c)
                    assert w.zones[z][i] == wc, f"{fr[0]}: {k} still holds the real card"
                    checked[fr[0]] = checked.get(fr[0], 0) + 1
    assert checked.get("proc:trade_effects", 0) > 0, checked


def test_untyped_parameters_passed_cards_are_known(castle):
    locals_ = card_locals(castle.table(5), "proc:trade_effects")
    assert locals_.get("c") == "card" and locals_.get("r") == "card"
    assert "a0" not in locals_ and "t0" not in locals_


def test_worlds_drawn_from_a_state_leave_it_unchanged(castle):
    """A clone shares its parent's zone lists until it writes one (copy-on-write, ops.zone_w):
    every world a bot draws (determinize, the public world of the beliefs, a role card set to a
    side) must leave the state it was drawn from exactly as it was."""
    from interpreter.engine.views import public_world, set_side_card
    checked = 0
    for st in positions(castle, 4, range(3), every=7):
        before = st.to_json()
        for p in range(st.n):
            st.determinize(p, Rng(p + 1))
            world = public_world(st, p, Rng(p + 7))
            for z, zz in enumerate(world.zones):  # a secret zone of p's, if the ruleset has one
                if zz and all(world.where[c] == z for c in zz):
                    set_side_card(world, p, z, object(), lambda w, q: None)
                    break
        assert st.to_json() == before
        checked += 1
    assert checked > 5
