"""Ruleset-level constructs, each on a tiny ruleset written for the test."""

from __future__ import annotations

import textwrap

import pytest

import interpreter
from interpreter.errors import RulesetError

BASE = """\
ruleset: t
version: "1"
title: T
players: {min: 2, max: 4}
max_turns: 50
zones:
  deck: {visibility: hidden, holds: [c]}
  hand: {per: player, visibility: owner}
cards:
  coin: {set: c, count: 10, props: {value: 1}}
"""


def make(tmp_path, extra: str):
    d = tmp_path / "rs"
    d.mkdir(exist_ok=True)
    (d / "ruleset.yaml").write_text(BASE + textwrap.dedent(extra))
    return interpreter.load(d)


def ctr(st, name, p=None):
    prog = st.g.prog
    cd = prog.counter_defs[name]
    if cd.per == "player":
        return st.ctr[prog.CB + p * prog.NPC + cd.j]
    return st.ctr[cd.j]


def test_counter_bounds_may_be_params(tmp_path):
    g = make(tmp_path, """
        params: {cap: {by_players: {2: 3, 4: 7}, default: 5}, floor: 1}
        counters:
          gold: {per: player, min: floor, max: cap, initial: floor}
        turn: "gold(me) += 100"
        """)
    assert g.program.counter_defs["gold"].max == 7 and g.program.counter_defs["gold"].min == 1
    st = g.new_game(seed=1, players=2)
    assert st.over and ctr(st, "gold", 0) == 7  # the game runs out of turns; clamped at the max


def test_bad_counter_bound_is_located(tmp_path):
    with pytest.raises(RulesetError) as e:
        make(tmp_path, """
            counters:
              gold: {min: 0, max: nope}
            turn: "pass"
            """)
    assert any(p.message == "max must be a number or an expression of params: 'nope' is not a param"
               for p in e.value.problems)


def test_modifiers_add_and_set(tmp_path):
    g = make(tmp_path, """
        params: {draw_n: 2}
        counters:
          got: {per: player, max: 999}
        modifiers:
          - {param: draw_n, when: "me == players[1]", add: 1}
          - {param: draw_n, when: "me == players[2]", set: 10}
        turn: "got(me) += draw_n"
        """)
    st = g.new_game(seed=1, players=3)
    assert [ctr(st, "got", p) for p in range(3)] == [2 * 17, 3 * 17, 10 * 16]


def test_triggers_run_in_order_with_args(tmp_path):
    g = make(tmp_path, """
        counters:
          x: {max: 1000}
        triggers:
          - {on: ping, with: [n], effect: "x = x * 10 + n"}
          - {on: ping, with: [n], when: "n > 1", effect: "x = x * 10 + 9"}
        setup: |
          emit(ping, 1)
          emit(ping, 2)
        turn: "end(done, [])"
        """)
    st = g.new_game(seed=1, players=2)
    assert ctr(st, "x") == 129  # 1, then 2 and 9


def test_once_per_turn_and_free_actions(tmp_path):
    g = make(tmp_path, """
        counters:
          n: {per: player, max: 99}
        actions:
          look: {group: main, free: true, once_per_turn: true, effect: "n(me) += 10"}
          take: {group: main, effect: "n(me) += 1"}
        turn: "act(me, main)"
        """)
    st = g.new_game(seed=1, players=2)
    assert [o.id for o in st.options()] == ["look", "take"]
    st = st.apply("look")
    assert [o.id for o in st.options()] == ["take"], "a free action asks again; once per turn"
    st = st.apply("take")
    assert st.current == 1 and [o.id for o in st.options()] == ["look", "take"]


def test_typed_procedure_parameters_are_checked(tmp_path):
    with pytest.raises(RulesetError) as e:
        make(tmp_path, """
            procedures:
              "give(p: player, c: card)": "move(c, hand(p))"
            turn: "give(me, deck)"
            """)
    assert any("give() expects a card for 'c', found a zone" in p.message for p in e.value.problems)


def test_untyped_value_compared_with_card_id_is_refused(tmp_path):
    with pytest.raises(RulesetError) as e:
        make(tmp_path, """
            procedures:
              check(c): "x = c == coin"
            turn: "pass"
            """)
    assert any("give the parameter a type" in p.message for p in e.value.problems)
    make(tmp_path, """
        procedures:
          "check(c: card)": "x = c == coin"
        turn: "pass"
        """)


def test_end_turn_and_skip(tmp_path):
    g = make(tmp_path, """
        counters:
          n: {per: player, max: 99}
          out: {per: player, max: 1}
        turn_order: {first: "players[1]", skip: "out(p) == 1"}
        setup: "out(players[0]) = 1"
        turn: |
          n(me) += 1
          end_turn()
          n(me) += 100
        """)
    st = g.new_game(seed=1, players=3)
    assert ctr(st, "n", 0) == 0, "a skipped player never plays"
    assert ctr(st, "n", 1) == 25 and ctr(st, "n", 2) == 25, "end_turn stops the turn at once"


def test_action_log_hides_cards_the_reader_cannot_see(tmp_path):
    from interpreter.engine.state import SPECTATOR
    d = tmp_path / "rs"
    d.mkdir()
    base = BASE.replace("  hand: {per: player, visibility: owner}\n",
                        "  hand: {per: player, visibility: owner}\n  table: {visibility: public}\n")
    (d / "ruleset.yaml").write_text(base + textwrap.dedent("""
        actions:
          show: {group: main, args: {c: "cards(hand(me))"}, effect: "move(c, table)"}
          slip: {group: main, args: {c: "cards(hand(me))"}, effect: "move(c, hand(next(me)))"}
          burn: {group: main, public: true, args: {c: "cards(hand(me))"}, effect: "move(c, deck)"}
        setup: "for p in players: draw(deck, hand(p), 2)"
        turn: "act(me, main)"
        """))
    g = interpreter.load(d)
    st = g.new_game(seed=1, players=3)
    st = st.apply("show:coin")
    shown = [e for e in st.log if e[0] == "act"][-1]
    assert shown[3] == -1 and shown[1][2] is not None, "a card played face up is public"
    st = st.apply("slip:coin")
    full, hidden = [e for e in st.log if e[0] == "act"][-2:]
    assert full[3] & 0b110 == 0b110 and not full[3] & 0b001, "giver and receiver read the card"
    assert hidden[1][2] is None and hidden[3] & 0b001 and hidden[3] & SPECTATOR
    st = st.apply("burn:coin")
    burned = [e for e in st.log if e[0] == "act"][-1]
    assert burned[3] == -1 and burned[1][2] is not None, "a public action shows its card to all"


def test_a_game_without_a_log_is_the_same_game(tmp_path):
    """Simulations keep no log (record=False) and skip computing log arguments, except those
    that change the state or draw chance: the game itself must not differ."""
    g = make(tmp_path, """
        counters:
          total: {max: 10000}
        turn: |
          log(rolled, player: me, n: roll(6))
          total += roll(6)
          log(top_card, c: top(deck))
          if turn_number > 20:
            end(done, [])
        """)
    from interpreter.bots import make_bot

    def play(record):
        st = g.new_game(seed=4, players=3, record=record)
        bot = make_bot("random", 4)
        while not st.over:
            st.apply_in_place(bot.choose(st))
        d = st.to_json()
        return d.pop("log"), d.pop("history"), d
    log_on, _, with_log = play(True)
    log_off, _, without = play(False)
    assert log_on and not log_off
    assert with_log == without


def test_procedures_that_never_ask_run_as_direct_calls(tmp_path):
    """Statements that never ask a player run as one generated function, and procedures
    that never ask are called directly from it: values, early returns, loops, and a game
    ended in the middle of a run must behave as on the VM."""
    g = make(tmp_path, """
        counters:
          total: {max: 100000}
          after: {max: 100000}
          asked: {max: 100000}
        procedures:
          double(x): |
            if x > 50:
              return x
            return 2 * x
          add_up(n): |
            s = 0
            for i in range(0, n):
              d = double(i)
              s += d
            repeat 2:
              s += 1
            return s
          maybe_end(): |
            if total > 5000:
              end(done, [])
            total += 1
          ask(): |
            a = choose(me, ["x", "y"], prompt: pick)
            asked += 1
        turn: |
          t = add_up(60)
          total += t
          maybe_end()
          after += 1
          ask()
        """)
    comp_sync = {c for c, code in g.program.codes.items() if code.direct is not None}
    assert comp_sync == {"proc:double", "proc:add_up", "proc:maybe_end"}, "ask() may ask: on the VM"
    st = g.new_game(seed=1, players=2)
    while not st.over:
        st.apply_in_place(st.options()[0].id)
    # add_up(60) = 2*(0+..+50) + (51+..+59) + 2 = 2550 + 495 + 2 = 3047, and 1 in the first turn
    assert ctr(st, "total") == 2 * 3047 + 1 and st.result["reason"] == "done"
    assert ctr(st, "after") == 1 and ctr(st, "asked") == 1, "nothing runs after the game ended"


def test_run_time_error_in_generated_code_names_its_line(tmp_path):
    g = make(tmp_path, """
        counters:
          n: {max: 100}
        procedures:
          spin(): |
            n = 1
            while n > 0:
              n = 1
        turn: |
          n = 0
          spin()
        """)
    from interpreter.engine.flow import EffectRuntimeError
    with pytest.raises(EffectRuntimeError, match="ran more than") as info:
        g.new_game(seed=1, players=2)
    assert info.value.loc.line == 17, "in spin(), not at its call"


def test_save_of_another_state_format_is_refused(tmp_path):
    g = make(tmp_path, """
        turn: |
          a = choose(me, ["x", "y"], prompt: pick)
        """)
    data = g.new_game(seed=1, players=2).to_json()
    data["version"] = 1
    with pytest.raises(RulesetError, match="version 1 of the state format"):
        g.state_from_json(data)


def test_loops_that_ask_run_on_the_vm(tmp_path):
    """Loops whose bodies ask a player stay VM code (entered in one step, jumps threaded):
    empty and full `for`, a `while` false at once and one that runs, an if/else ending a
    body, hidden loop counters left as before."""
    g = make(tmp_path, """
        counters:
          asked: {max: 1000}
          odd: {max: 1000}
          done: {max: 1000}
        turn: |
          for x in []:
            a = choose(me, ["x"], prompt: never)
          for i in range(0, 3):
            a = choose(me, ["y", "n"], prompt: pick)
            asked += 1
            if i == 1:
              odd += 1
            else:
              b = choose(me, ["z"], prompt: again)
          k = 0
          while k > 5:
            a = choose(me, ["x"], prompt: never)
          while k < 2:
            a = choose(me, ["w"], prompt: loop)
            k += 1
          done += 1
          end(finished, [])
        """)
    st = g.new_game(seed=1, players=2)
    seen = []
    while not st.over:
        d = st.decision()
        seen.append(d.prompt)
        st.apply_in_place(d.options[0].id)
    assert seen == ["pick", "again", "pick", "pick", "again", "loop", "loop"]
    assert (ctr(st, "asked"), ctr(st, "odd"), ctr(st, "done")) == (3, 1, 1)
