"""validate warns where who is asked, or whether anyone is, depends on hidden cards
(interpreter/effects/hidden.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.effects.hidden import hidden_asking
from interpreter.errors import format_problem
from interpreter.game import RULESETS, load

LEAKY = Path(__file__).parent / "fixtures" / "castle_leaky_windows.yaml"


def warnings(ruleset, *variants):
    return hidden_asking(load(RULESETS / ruleset, [str(v) for v in variants]).program)


def variant(tmp_path, base, merge: str) -> Path:
    p = tmp_path / "v.yaml"
    p.write_text(f"variant: v\ntitle: t\nbase: {base}\nmerge:\n{merge}", encoding="utf-8")
    return p


def draw_card(tmp_path, effect: str) -> Path:
    """High Tide with another effect for draw_card (its first line is the variant's line 9)."""
    body = textwrap.indent(textwrap.dedent(effect).lstrip("\n"), "        ")
    return variant(tmp_path, "high_tide", f"  actions:\n    draw_card:\n      effect: |\n{body}")


@pytest.mark.parametrize("ruleset", ["high_tide", "castle_of_the_devil", "shadows_over_camelot"])
def test_shipped_rulesets_ask_without_telling(ruleset):
    assert [format_problem(p) for p in warnings(ruleset)] == []


def test_each_castle_leak_of_the_old_windows_is_located():
    found = {(p.loc.file.rsplit("/", 1)[-1], p.loc.line): p for p in warnings("castle_of_the_devil", LEAKY)}
    assert set(found) == {("castle_leaky_windows.yaml", n) for n in (21, 28, 35, 52)}
    windows = ((21, "priest", "use_priest"), (28, "hypnosis", "use_hypnotist"), (35, "fight", "show_item"))
    for n, group, action in windows:
        p = found[("castle_leaky_windows.yaml", n)]
        assert p.severity == "warning"
        assert f"group {group!r}" in p.message and repr(action) in p.message and "ask_all: true" in p.message
        assert p.loc.col == (7 if n == 21 else 9)
    trade = found[("castle_leaky_windows.yaml", 52)]
    assert "whether choose() asks at all depends on hidden cards" in trade.message
    text = format_problem(trade)
    assert 'answer = choose(t, ["accept", "decline"], prompt: trade_answer)' in text  # the source line
    assert text.splitlines()[2].index("^") == text.splitlines()[1].index("choose")  # the caret


def test_a_window_asking_only_who_can_answer(tmp_path):
    v = variant(tmp_path, "high_tide", """  actions:
    play:
      effect: |
        move(c, shore(me))
        window(others(me), wash, until: washed == 1)
        if washed == 1:
          move(c, discard)
        else:
          score(me) += c.value
          run(c, scored)
""")
    (p,) = warnings("high_tide", v)
    assert p.loc.file == str(v) and p.loc.line == 9
    assert "who this window asks depends on hidden cards" in p.message and "'wash'" in p.message


def test_a_window_over_players_picked_by_their_hands(tmp_path):
    """Camelot's old 3-Merlin window: only the holders, and only when they hold 3."""
    v = variant(tmp_path, "shadows_over_camelot", """  procedures:
    merlin_cancel(c0): |
      c = [x for x in cards(zone_of(c0)) if x == c0][0]
      holders = [k for k in order_from(me) if in_game(k) == 1 and has(hand(k), merlin)]
      if sum([count([x for x in cards(hand(k)) if x == merlin]) for k in holders]) < three_merlins:
        return false
      window(holders, merlin_window, until: size(merlin_offer(me)) >= three_merlins, ask_all: true)
      return false
""")
    (p,) = warnings("shadows_over_camelot", v)
    assert p.loc.line == 11 and "whether window() asks at all" in p.message


def test_a_hidden_player_asked(tmp_path):
    v = draw_card(tmp_path, """
        p = [q for q in players if has(hand(q), pearl)][0]
        c = choose(p, cards(hand(p)), prompt: give)
    """)
    (p,) = warnings("high_tide", v)
    assert p.loc.line == 9 and "who choose() asks depends on hidden cards" in p.message


def test_a_branch_that_tells_everyone_is_not_a_leak(tmp_path):
    """A rule may say out loud what a hidden test found (a Diplomat's demand, say)."""
    v = draw_card(tmp_path, """
        if has(hand(me), pearl):
          log(drew, player: me, n: 0)
          c = choose(me, cards(hand(me)), prompt: give)
        else:
          c = choose(me, cards(deck), prompt: give)
    """)
    assert warnings("high_tide", v) == []
    quiet = draw_card(tmp_path, """
        if has(hand(me), pearl):
          c = choose(me, cards(hand(me)), prompt: give)
    """)
    (p,) = warnings("high_tide", quiet)
    assert "only on a hidden condition" in p.message


def test_how_many_hidden_cards_is_public(tmp_path):
    v = draw_card(tmp_path, """
        if size(hand(me)) > 2 and not empty(deck):
          c = choose(me, cards(hand(me)), prompt: give)
    """)
    assert warnings("high_tide", v) == []


def test_validate_warns_and_strict_refuses(capsys):
    from interpreter.cli import main
    castle = str(RULESETS / "castle_of_the_devil")
    assert main(["validate", castle, "--variant", str(LEAKY)]) == 0
    err = capsys.readouterr().err
    assert "4 warnings (an error with --strict)" in err
    assert f"{LEAKY}:21:7: warning: who this window asks depends on hidden cards" in err
    assert main(["validate", castle, "--variant", str(LEAKY), "--strict"]) == 1
    err = capsys.readouterr().err
    assert f"{LEAKY}:21:7: error: who this window asks" in err and "4 errors" in err
    assert main(["validate", castle, "--strict"]) == 0
