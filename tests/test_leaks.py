"""The leak check catches each of the three Castle leaks on the windows as they were, and
finds none in the same games once they are fixed (tests/leakcheck.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from leakcheck import leaks_in_game, prompts_of, same_trace, step_trace

from interpreter.game import RULESETS, load

LEAKY = Path(__file__).parent / "fixtures" / "castle_leaky_windows.yaml"
GAMES = [(3, 2), (4, 2), (5, 0)]  # (players, seed): short games that hold every case


@pytest.fixture(scope="module")
def leaky():
    g = load(RULESETS / "castle_of_the_devil", [str(LEAKY)])
    return [leak for n, seed in GAMES for leak in leaks_in_game(g, n, seed, worlds=2)[0]]


def _asked(leak, prompt):
    """The first difference: a question with this prompt on one side, something else on the other."""
    a, b = leak.first_difference()
    sides = [ev for ev in (a, b) if ev and ev[0] == "asked" and ev[2] == prompt]
    return len(sides) == 1


def test_priest_window_asking_only_the_holder_is_caught(leaky):
    hits = [x for x in leaky if _asked(x, "act-priest")]
    assert hits, "the Priest window asked only the Priest's holder and nobody noticed"
    # an observer who is neither attacker nor holder sees who holds the Priest
    assert any(x.observer != x.decider for x in hits)


def test_hypnosis_window_is_caught(leaky):
    assert any(_asked(x, "act-hypnosis") for x in leaky)


def test_item_window_is_caught(leaky):
    assert any(_asked(x, "act-fight") for x in leaky)


def test_must_accept_item_without_a_question_is_caught(leaky):
    # the target of a Black Pearl or a Broken Mirror went straight to giving an item back
    assert any(prompts_of(x) == {"trade_answer", "trade_return"} for x in leaky)


def test_bag_declined_without_a_question_is_caught(leaky):
    hits = [x for x in leaky if any(ev and ev[0] == "trade_declined" for ev in x.first_difference())
            and _asked(x, "trade_answer")]
    assert hits, "a bag declined without a question must be caught"
    assert any(x.observer == x.decider for x in hits), "even the offerer may not know why"


def test_fixed_windows_leak_nothing_in_the_same_games():
    g = load(RULESETS / "castle_of_the_devil")
    for n, seed in GAMES:
        leaks, compared = leaks_in_game(g, n, seed, worlds=2)
        assert compared > 100
        assert not leaks, "\n".join(str(x) for x in leaks[:5])


def test_a_trace_cut_at_what_p_is_shown():
    """Traces are compared up to the first card shown: what follows may differ by rights."""
    assert same_trace([("a",), ("revealed",), ("b",)], [("a",), ("c",)])
    assert not same_trace([("a",), ("b",)], [("a",), ("c",)])
    assert not same_trace([("x",), ("revealed",)], [("a",), ("revealed",)])


def test_a_refused_option_has_no_trace():
    g = load(RULESETS / "high_tide")
    st = g.new_game(seed=1, players=2)
    assert step_trace(st.clone(), 0, "no_such_option") is None
