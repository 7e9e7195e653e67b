"""Runaway rules stop with a located error that names the chain of procedures, and run-time
failures are said in the rule author's words; the game before the failing move is intact."""

from __future__ import annotations

import textwrap

import pytest
from test_program import make as make_ruleset

from interpreter.engine import faults
from interpreter.engine.flow import EffectRuntimeError
from interpreter.errors import RulesetError

COUNTERS = """
    counters:
      n: {min: 0, max: 100000}
      life: {per: player, min: 0, max: 10}
    """


def make(tmp_path, extra: str):
    return make_ruleset(tmp_path, textwrap.dedent(COUNTERS) + textwrap.dedent(extra))


RING = """
    procedures:
      ping(k): |
        if k >= 0:
          pong(k)
      pong(k): "ping(k + 1)"
    actions:
      go: {group: main, effect: "ping(0)"}
    turn: "act(me, main)"
    """


def test_a_ring_of_procedures_stops_at_the_depth_limit(tmp_path):
    st = make(tmp_path, RING).new_game(seed=1, players=2)
    with pytest.raises(EffectRuntimeError) as e:
        st.apply("go")
    msg = e.value.message
    assert msg.startswith(f"calls nest more than {faults.MAX_DEPTH} deep: turn -> action go -> "
                          "(ping() -> pong()) x")
    assert e.value.loc.file.endswith("ruleset.yaml") and e.value.loc.line > 0
    assert st.current_player() == 0 and st.options()[0].id == "go", "the state before is unchanged"


def test_unconditional_recursion_is_a_validate_error(tmp_path):
    with pytest.raises(RulesetError) as e:
        make(tmp_path, """
            procedures:
              spin(k): "spin(k + 1)"
              a(): |
                n += 1
                b()
              b(): "a()"
              fine(k): |
                if k > 3:
                  return
                fine(k + 1)
            turn: "spin(0)"
            """)
    msgs = [p.message for p in e.value.problems]
    assert len(msgs) == 2, msgs
    assert msgs[0].startswith("spin() -> spin(): this procedure calls itself on every path")
    assert msgs[1].startswith("a() -> b() -> a(): these procedures call each other on every path")


def test_steps_without_a_decision_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(faults, "STEP_BUDGET", 5_000)
    monkeypatch.setattr("interpreter.engine.flow.STEP_BUDGET", 5_000)
    g = make(tmp_path, """
        procedures:
          down(k): |
            if k > 0:
              down(k - 1)
        actions:
          go:
            group: main
            effect: |
              for i in range(0, 1000):
                down(10)
        turn: "act(me, main)"
        """)
    st = g.new_game(seed=1, players=2)
    with pytest.raises(EffectRuntimeError, match="more than 5,000 steps without a player's decision, "
                                                 r"in turn -> action go -> \(down\(\)\) x"):
        st.apply("go")


@pytest.mark.parametrize("stmt,words", [
    ("life(players[20]) += 1", "players[20] is not a player: a game of 2 has players[0] to players[1]"),
    ("n += top(hand(me)).value * 2", "none * a number: a value here is none"),
])
def test_run_time_errors_in_the_authors_words(tmp_path, stmt, words):
    g = make(tmp_path, f"""
        actions:
          go: {{group: main, effect: "{stmt}"}}
        turn: "act(me, main)"
        """)
    st = g.new_game(seed=1, players=2)
    with pytest.raises(EffectRuntimeError) as e:
        st.apply("go")
    assert e.value.message.startswith(words)
    assert "Error" not in e.value.message and "NoneType" not in e.value.message
    assert e.value.loc.line == 17  # the action's line in ruleset.yaml


def test_chain_names():
    stack = [["turn", 0, {}, None], ["action:go", 0, {}, None]] + [["proc:f", 0, {}, None]] * 5
    assert faults.chain(stack) == "turn -> action go -> (f()) x5"
    assert faults.chain([["card:pearl:scored", 0, {}, None]]) == "pearl.scored"
