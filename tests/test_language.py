"""Table-driven tests of the effect language: source -> value, or source -> error."""

from __future__ import annotations

import pytest
from langkit import evaluate, execute, problems, state

VALUES = [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 / 2", 3),
    ("7 // 2", 3),
    ("7 % 3", 1),
    ("-3 + 1", -2),
    ("5 / 0", 0),
    ("1 < 2 and 2 < 3", True),
    ("1 > 2 or not false", True),
    ("3 if 1 == 1 else 4", 3),
    ("3 if 1 == 2 else 4", 4),
    ("[1, 2] + [3]", [1, 2, 3]),
    ("len([1, 2, 3])", 3),
    ("count([1, 2, 2, 3], 2)", 2),
    ("count([1, 2, 2, 3])", 4),
    ("sum([1, 2, 3])", 6),
    ("sum([])", 0),
    ("max([4, 9, 2])", 9),
    ("min([4, 9, 2])", 2),
    ("max([])", None),
    ("distinct([3, 1, 3, 2, 1])", [3, 1, 2]),
    ("sorted([3, 1, 2])", [1, 2, 3]),
    ("reversed([1, 2, 3])", [3, 2, 1]),
    ("groups([3, 1, 3])", [2, 1]),
    ("groups([1, 1, 3, 3])", [2, 2]),
    ("groups([5, 5, 5, 2, 2])", [3, 2]),
    ("straight([1, 2, 3, 4, 5])", True),
    ("straight([1, 2, 4])", False),
    ("straight([2, 3])", False),
    ("any([false, true])", True),
    ("all([true, false])", False),
    ("range(1, 4)", [1, 2, 3]),
    ("abs(-4)", 4),
    ("[x * 2 for x in [1, 2, 3]]", [2, 4, 6]),
    ("[x for x in [1, 2, 3, 4] if x % 2 == 0]", [2, 4]),
    ("[1, 2, 3][0]", 1),
    ("[1, 2, 3][-1]", 3),
    ("[1, 2, 3][5]", None),
    ("2 in [1, 2]", True),
    ("2 not in [1, 2]", False),
    ("\"a\" == 'a'", True),
    ("none == none", True),
    ("hand_size", 3),
    ("goal", 12),
    ("player_count", 3),
    ("players", [0, 1, 2]),
    ("next(players[2])", 0),
    ("prev(players[0])", 2),
    ("order_from(players[1])", [1, 2, 0]),
    ("others(players[1])", [2, 0]),
    ("size(hand(players[0]))", 3),
    ("size(deck) + size(hand(players[0])) * 3", 17),
    ("empty(discard)", True),
    ("top(discard)", None),
    ("top(discard).value", None),
    ("count([c.value for c in copies(shell_1)])", 6),
    ("sum([c.value for c in copies(shell_2)])", 10),
    ("pearl.value", 5),
    ("shell_3.id", "shell_3"),
    ("len(copies(pearl))", 2),
    ("copies(pearl)[0] == pearl", True),
    ("copies(pearl)[0] == shell_1", False),
    ("copies(pearl)[0] in [pearl, shell_1]", True),
    ("\"pearl\" in [c.id for c in copies(pearl)]", True),
    ("copies(pearl)[0].set", "shells"),
    ("score(players[0])", 0),
    ("turn_number", 1),
    ("side(players[0])", "loser"),
    ("game_over", False),
    ("winners", []),
]


@pytest.mark.parametrize("src,expected", VALUES)
def test_value(src, expected):
    assert evaluate(src) == expected


ERRORS = [
    ("size(3)", "size() expects a zone here, found a number"),
    ("size(deck, deck)", "size() takes 1 argument, found 2"),
    ("hand()", "zone 'hand' is per player: it takes 1 argument, found 0"),
    ("score", "counter 'score' is per player: write score(...)"),
    ("scor(me)", "unknown function 'scor' (did you mean 'score'?)"),
    ("dek", "undefined name 'dek' (did you mean 'deck'?)"),
    ("1 + deck", "expected a number, found a zone"),
    ("top(deck).colour", "no card has a property 'colour'"),
    ("draw(deck, hand(me), 2, upside: true)", "draw() has no parameter 'upside'"),
    ("choose(me, cards(deck))", "may ask a player to decide"),
    ("1 < deck", "'<' compares numbers, found a number and a zone"),
    ("2 in 3", "'in' needs a list on the right"),
    ("here", "'here' is only defined in a location's effects"),
    ("this", "'this' is only defined in a card's effects"),
    ("refill", "'refill' is a function: call it as refill(...)"),
    ("draw(deck hand(me))", "effect syntax: missing ')'"),
    ("size(deck) = 3", "effect syntax: '=' is assignment; to compare, write '=='"),
    ("size(deck) $ 3", "effect syntax: unexpected character '$'"),
]


@pytest.mark.parametrize("src,message", ERRORS)
def test_expression_error(src, message):
    found = problems(src, expression=True)
    assert found, f"no error for {src!r}"
    assert any(message in m for _, _, m in found), found


STATEMENT_ERRORS = [
    ("x = 1\ny = z + 1", (2, 5), "undefined name 'z'"),
    ("for c in 3:\n  pass", (1, 10), "'for' needs a list, found a number"),
    ("deck = 3", (1, 1), "cannot assign to 'deck': it names a zone"),
    ("size(deck) += 1", (1, 1), "only counters and local variables can be assigned"),
    ("refill(1)", (1, 1), "refill() takes 0 arguments (), found 1"),
    ("act(me, nothing)", (1, 1), "no action belongs to group 'nothing'"),
    ("x = 1\nif x == 1:\n  draw(deck, hand(me), 2\n", (3, 25), "missing ')'"),
    ("if true\n  pass", (1, 8), "missing ':'"),
    ("run(top(deck), vanish)", (1, 1), "no card or location has a hook named 'vanish'"),
    ("run(top(deck), scored, 1)", (1, 1), "hook 'scored' takes 0 arguments, found 1"),
    ("score(me) += \"x\"", (1, 14), "expected a number, found a string"),
]


@pytest.mark.parametrize("src,pos,message", STATEMENT_ERRORS)
def test_statement_error(src, pos, message):
    found = problems(src)
    assert any(message in m for _, _, m in found), found
    assert any((ln, col) == pos for ln, col, m in found if message in m), found


def test_all_errors_reported_at_once():
    found = problems("size(3)\nscor(me)\nx = dek")
    assert len(found) == 3
    assert [ln for ln, _, _ in found] == [1, 2, 3]


def test_statements_change_the_state():
    st = state()
    me = st.current
    execute("score(me) += 5\nscore(me) -= 2\nwashed = 1", st)
    assert st.ctr[st.g.prog.CB + me * st.g.prog.NPC + st.g.prog.counter_defs["score"].j] == 3


def test_counter_bounds_clamp():
    st = state()
    execute("score(me) = 500", st)
    assert evaluate("score(me)", st) == 99
    execute("score(me) -= 1000", st)
    assert evaluate("score(me)", st) == 0


def test_loops_and_locals():
    st = state()
    execute("total = 0\nfor p in players:\n  total += 2\nrepeat total:\n  draw(deck, discard, 1)", st)
    assert evaluate("size(discard)", st) == 6
    st = state()
    execute("n = 0\nwhile n < 4:\n  n += 1\n  move(top(deck), discard)", st)
    assert evaluate("size(discard)", st) == 4


def test_if_elif_else():
    st = state()
    execute("x = 2\nif x == 1:\n  score(me) = 10\nelif x == 2:\n  score(me) = 20\nelse:\n  score(me) = 30", st)
    assert evaluate("score(me)", st) == 20


def test_draw_runs_on_empty_and_reshuffles():
    st = state()
    n = evaluate("size(deck)", st)
    execute(f"draw(deck, discard, {n})", st)
    assert evaluate("size(deck)", st) == 0
    execute("draw(deck, hand(me), 2)", st)  # on_empty: refill() moves the discard back
    assert evaluate("size(hand(me))", st) == 5
    assert evaluate("size(deck)", st) == n - 2


def test_visibility_follows_zones():
    st = state()
    me = st.current
    other = (me + 1) % st.n
    c = st.zones[st.g.prog.PB + me * st.g.prog.NPZ + st.g.prog.zone_defs["hand"].j][-1]
    assert st.seen[c] & (1 << me) and not st.seen[c] & (1 << other)
    execute("move(top(hand(me)), discard)", st)
    assert st.seen[c] & (1 << other), "a public zone shows the card to everyone"
    execute("move(top(discard), shore(me), facedown: true)", st)
    assert not st.seen[c] & (1 << me), "face down: nobody sees it"
    execute("reveal(top(shore(me)), to: [me])", st)
    assert st.seen[c] & (1 << me) and not st.seen[c] & (1 << other)


def test_place_takes_from_unowned_zones_first():
    st = state()
    execute("move_all(hand(players[0]), deck)\nplace(hand(players[0]), [shell_3])\n"
            "place(hand(players[1]), [shell_3])", st)
    assert evaluate("has(hand(players[0]), shell_3)", st)
    assert evaluate("count([c for c in cards(hand(players[1])) if c == shell_3]) >= 1", st)


def test_a_comprehension_over_a_zone_reads_card_properties_without_a_none_test():
    """A zone's cards are never none: the generated comprehension reads `c.value` at once. A
    list that may hold none (the top of an empty zone) keeps the test, and none stays none."""
    from interpreter.effects import codegen
    st = state()
    before = set(codegen.SOURCES)
    execute("score(me) = sum([c.value for c in cards(hand(me))])\n"
            "washed = len([c for c in [top(discard)] if c.value == none])", st)
    text = "\n".join(codegen.SOURCES[k] for k in set(codegen.SOURCES) - before)
    zone_line = next(ln for ln in text.splitlines() if "sum([" in ln)
    none_line = next(ln for ln in text.splitlines() if "len([" in ln)
    assert "is None" not in zone_line and "v_c is None" in none_line
    assert evaluate("score(me)", st) == evaluate("sum([c.value for c in cards(hand(me))])", st) > 0
    assert evaluate("washed", st) == 1  # the discard is empty: its top is none, its value none
