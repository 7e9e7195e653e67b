"""The search bot's horizon, macro-steps and root-parallel search (interpreter/bots/mcts.py,
interpreter/bots/parallel.py): what each one does to the tree, and that they stay honest and
reproducible."""

from __future__ import annotations

import pytest

from interpreter.bots.mcts import MctsBot
from interpreter.bots.parallel import close
from interpreter.bots.random_bot import RandomBot
from interpreter.engine.state import State
from interpreter.game import RULESETS, load

CAMELOT = RULESETS / "shadows_over_camelot"


@pytest.fixture(scope="module")
def camelot():
    return load(CAMELOT, [str(CAMELOT / "variants" / "first_game.yaml")])


def heroic_position(game, seed=3, players=3):
    """The first Heroic-phase decision of a game played at random up to there."""
    st = game.new_game(seed=seed, players=players, record=False)
    bot = RandomBot(seed)
    while not (st.pending["k"] == "act" and st.pending["g"] == "heroic" and len(st.options()) > 1):
        st.apply_in_place(bot.choose(st))
    return st


def test_rollouts_stop_at_the_horizon_where_the_ruleset_has_an_evaluate(camelot, monkeypatch):
    st = heroic_position(camelot)
    assert MctsBot(0, camelot).horizon == "round"  # Camelot has `evaluate:`
    turns = []
    real = MctsBot._rewards

    def spy(self, s):
        turns.append((s.over, s.turn))
        return real(self, s)

    monkeypatch.setattr(MctsBot, "_rewards", spy)
    MctsBot(1, camelot, iterations=20).choose(st)
    assert len(turns) == 20
    # one round of the table (3 turns) at most: scored by the heuristic, not played out
    assert all(over or t <= st.turn + 3 for over, t in turns)
    assert any(not over for over, _ in turns)
    turns.clear()
    MctsBot(1, camelot, iterations=5, horizon=None).choose(st)
    assert all(over for over, _ in turns)  # no horizon: every rollout plays to the end


def test_macro_steps_keep_only_the_players_own_decisions_of_this_turn(camelot):
    st = heroic_position(camelot)
    me, turn = st.current_player(), st.turn
    bot = MctsBot(2, camelot, iterations=60)
    bot.choose(st)

    def depth(node):
        return 1 + max((depth(ch) for ch in node.children.values()), default=0)

    def movers(node):
        for ch in node.children.values():
            yield ch.mover
            yield from movers(ch)

    assert set(movers(bot.last_root)) == {me}
    assert depth(bot.last_root) >= 3  # a plan for the turn: action, then more of the same turn
    flat = MctsBot(2, camelot, iterations=60, macro=False)
    flat.choose(st)
    assert set(movers(flat.last_root)) != {me}  # without macro-steps the tree reaches the others
    assert st.turn == turn


def test_root_parallel_search_is_reproducible_and_searches_only_sampled_worlds(camelot, monkeypatch):
    st = heroic_position(camelot, seed=5)
    a = MctsBot(4, camelot, iterations=30, workers=2)
    b = MctsBot(4, camelot, iterations=30, workers=2)
    try:
        first = a.choose(st)
        assert first == b.choose(st)
        assert first in [o.id for o in st.options()]
        assert sum(ch.visits for ch in a.last_root.children.values()) == 30
        # the real state is read once, to draw the world the workers search
        calls = []
        real = State.determinize

        def spy(self, player, rng):
            calls.append(self is st)
            return real(self, player, rng)

        monkeypatch.setattr(State, "determinize", spy)
        a.choose(st)
        assert calls == [True]
    finally:
        close(a)
        close(b)
