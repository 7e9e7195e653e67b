"""`grimoire explain` and `grimoire diff`, and variant errors as the user sees them.

Golden style: each case writes small variant files against rulesets/high_tide into a temporary
directory (the working directory, so messages name the files as the user typed them) and
compares the whole output, file:line:col, source line and caret included.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.commands.variants import rule_diff
from interpreter.game import RULESETS

HIGH_TIDE = str(RULESETS / "high_tide")
BASE = "rulesets/high_tide/ruleset.yaml"

VARIANTS = {
    "bigger.yaml": """\
        variant: bigger
        title: Bigger hands
        base: high_tide
        merge:
          params:
            hand_size: 4
            goal: 15
          cards:
            pearl: {count: 3}
            shell_1: null
          actions:
            play:
              effect: |
                move(c, shore(me))
                score(me) += c.value
        patch:
          - {op: replace, path: /end/0/when, value: "any([score(p) >= goal + 1 for p in players])"}
        """,
    "more_pearls.yaml": """\
        variant: more_pearls
        title: More pearls
        base: high_tide
        requires: [bigger]
        merge:
          cards:
            pearl: {count: 4, props: {value: 6}}
          end: null
        """,
    "low.yaml": """\
        variant: low
        title: Low goal
        base: high_tide
        conflicts: [high]
        merge:
          params: {goal: 10}
        """,
    "high.yaml": """\
        variant: high
        title: High goal
        base: high_tide
        merge:
          params: {goal: 14}
        """,
    "castle_only.yaml": """\
        variant: castle_only
        title: Written for another game
        base: castle_of_the_devil
        merge:
          params: {goal: 14}
        """,
    "bad_path.yaml": """\
        variant: bad_path
        title: Patches what is not there
        base: high_tide
        patch:
          - {op: replace, path: /cards/pearl/props/worth, value: 6}
          - {op: remove, path: /end/7}
        """,
}


@pytest.fixture
def tmp_variants(tmp_path, monkeypatch):
    for name, text in VARIANTS.items():
        (tmp_path / name).write_text(textwrap.dedent(text), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.replace(HIGH_TIDE + "/ruleset.yaml", BASE), err


def variants(*names) -> list[str]:
    out = []
    for n in names:
        out += ["--variant", n]
    return out


# ---- variant errors ------------------------------------------------------------------------------

ERROR_CASES = {
    "conflict": (["low.yaml", "high.yaml"], """\
        high.yaml:1:10: error: variant 'low' (low.yaml) conflicts with 'high'
            variant: high
                     ^
        1 error
        """),
    "wrong_base": (["castle_only.yaml"], """\
        castle_only.yaml:3:7: error: variant 'castle_only' is written for 'castle_of_the_devil', not for 'high_tide'
            base: castle_of_the_devil
                  ^
        1 error
        """),
    "bad_patch_path": (["bad_path.yaml"], """\
        bad_path.yaml:5:25: error: nothing at /cards/pearl/props/worth to replace (use op: add)
              - {op: replace, path: /cards/pearl/props/worth, value: 6}
                                    ^
        bad_path.yaml:6:24: error: no entry '7' in end (it has 1; ids: tide_turned)
              - {op: remove, path: /end/7}
                                   ^
        2 errors
        """),
    "missing_requirement": (["more_pearls.yaml"], """\
        more_pearls.yaml:4:12: error: variant 'more_pearls' requires 'bigger'; apply 'bigger' first (earlier --variant)
            requires: [bigger]
                       ^
        1 error
        """),
}


@pytest.mark.parametrize("command", ["diff", "explain", "validate"])
@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_variant_errors_are_located(tmp_variants, capsys, case, command):
    names, expected = ERROR_CASES[case]
    argv = [command, HIGH_TIDE, *variants(*names)] + (["params.goal"] if command == "explain" else [])
    code, out, err = run(capsys, *argv)
    assert code == 1
    assert out == ""
    assert err == textwrap.dedent(expected)


# ---- diff ----------------------------------------------------------------------------------------

def test_diff_lists_changes_in_rule_terms(tmp_variants, capsys):
    code, out, err = run(capsys, "diff", HIGH_TIDE, *variants("bigger.yaml"))
    assert (code, err) == (0, "")
    assert "    --- base\n    +++ variant\n" in out  # changed code is shown as a unified diff
    out = "".join(line for line in out.splitlines(keepends=True) if not line.startswith("    "))
    assert out == textwrap.dedent("""\
        bigger on high_tide: 6 changes
          param hand_size: 3 -> 4  (bigger.yaml:6:16)
          param goal: 12 -> 15  (bigger.yaml:7:11)
          card shell_1 removed  (bigger.yaml:10:5)
          card pearl: count 2 -> 3  (bigger.yaml:9:20)
          action play: effect changed  (bigger.yaml:13:15)
          end condition tide_turned: when changed  (bigger.yaml:17:45)
        """)


def test_diff_of_composed_variants(tmp_variants, capsys):
    code, out, _ = run(capsys, "diff", HIGH_TIDE, *variants("bigger.yaml", "more_pearls.yaml"))
    assert code == 0
    out = "".join(line for line in out.splitlines(keepends=True) if not line.startswith("    "))
    assert out == textwrap.dedent("""\
        bigger, more_pearls on high_tide: 7 changes
          param hand_size: 3 -> 4  (bigger.yaml:6:16)
          param goal: 12 -> 15  (bigger.yaml:7:11)
          card shell_1 removed  (bigger.yaml:10:5)
          card pearl: count 2 -> 4  (more_pearls.yaml:7:20)
          card pearl: props.value 5 -> 6  (more_pearls.yaml:7:38)
          action play: effect changed  (bigger.yaml:13:15)
          end condition tide_turned removed  (more_pearls.yaml:8:3)
        """)


def test_diff_without_changes(tmp_variants, capsys):
    (tmp_variants / "same.yaml").write_text(
        "variant: same\ntitle: Same\nbase: high_tide\nmerge:\n  params: {goal: 12}\n", encoding="utf-8")
    code, out, err = run(capsys, "diff", HIGH_TIDE, *variants("same.yaml"))
    assert (code, out) == (1, "")  # a variant that changes nothing is a mistake, said where
    assert "same.yaml:5:18: error: sets params.goal to 12, which it already is: this changes nothing" in err


@pytest.mark.parametrize("a, b, expected", [
    ({"params": {"hand_limit": 12}}, {"params": {"hand_limit": 13}}, ["param hand_limit: 12 -> 13"]),
    ({"cards": {"fight_5": {"count": 7}}}, {"cards": {"fight_5": {"count": 8}}}, ["card fight_5: count 7 -> 8"]),
    ({"actions": {"x": {"effect": "a()\nb()\n"}}}, {"actions": {"x": {"effect": "a()\n"}}},
     ["action x: effect changed"]),
    ({"end": [{"id": "y", "when": "true"}]}, {}, ["end condition y removed"]),
    ({}, {"params": {"n": 2}}, ["param n added: 2"]),
    ({"cards": {"c": {"props": {"v": 1}}}}, {"cards": {"c": {"props": {}}}}, ["card c: props.v removed"]),
    ({"procedures": {"heal(k, n)": "x"}}, {"procedures": {"heal(k, n)": "y"}}, ["procedure heal: x -> y"]),
    ({"evaluate": {"a": "1"}}, {"evaluate": {"a": "2"}}, ["evaluate: a 1 -> 2"]),
    ({"setup": "a()"}, {"setup": "b()"}, ["setup changed"]),
    ({"max_turns": 100}, {"max_turns": 50}, ["max_turns: 100 -> 50"]),
    ({"params": {"k": {"by_players": {3: 2}, "default": 1}}}, {"params": {"k": 1}},
     ["param k: {by_players: {3: 2}, default: 1} -> 1"]),
])
def test_rule_diff_table(a, b, expected):
    assert [c.text for c in rule_diff(a, b)] == expected


# ---- explain ---------------------------------------------------------------------------------------

def test_explain_shows_the_chain_of_files(tmp_variants, capsys):
    code, out, _ = run(capsys, "explain", HIGH_TIDE, *variants("bigger.yaml", "more_pearls.yaml"),
                       "cards.pearl.count")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "cards.pearl.count = 4"
    assert lines[1].startswith(f"  {BASE}:30:33  [base]  pearl:")
    assert lines[2] == "  bigger.yaml:9:20  [variant]  pearl: {count: 3}"
    assert lines[3] == "  more_pearls.yaml:7:20  [variant]  pearl: {count: 4, props: {value: 6}}"
    assert len(lines) == 4


def test_explain_a_param_without_variants(tmp_variants, capsys):
    code, out, _ = run(capsys, "explain", HIGH_TIDE, "params.goal")
    assert code == 0
    assert out == f"params.goal = 12\n  {BASE}:14:9  [base]  goal: 12\n"


def test_explain_a_patched_list_entry(tmp_variants, capsys):
    code, out, _ = run(capsys, "explain", HIGH_TIDE, *variants("bigger.yaml"), "end.tide_turned.when")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "end.tide_turned.when = any([score(p) >= goal + 1 for p in players])"
    assert lines[1].startswith(f"  {BASE}:79:11  [base]  when:")
    assert lines[2].startswith("  bigger.yaml:17:45  [variant]  - {op: replace, path: /end/0/when")


def test_explain_a_removed_value(tmp_variants, capsys):
    code, out, _ = run(capsys, "explain", HIGH_TIDE, *variants("bigger.yaml"), "cards.shell_1.count")
    assert code == 0
    assert out.splitlines()[0] == "cards.shell_1.count: removed by a variant (the base has 6)"
    assert out.splitlines()[-1] == "  bigger.yaml:10:5  [variant]  shell_1: null"


@pytest.mark.parametrize("path, message", [
    ("params.goals", "error: no param 'goals'; did you mean 'goal'?\n"),
    ("cardz.pearl", "error: no section 'cardz'; did you mean 'cards'?\n"),
    ("cards.pearl.worth",
     "error: cards.pearl.worth: no such value in 'pearl' (it has: set, count, props, params, effects)\n"),
])
def test_explain_unknown_paths(tmp_variants, capsys, path, message):
    code, out, err = run(capsys, "explain", HIGH_TIDE, path)
    assert (code, out, err) == (1, "", message)


def test_patching_a_list_entry_changes_the_merged_rules(tmp_variants):
    """Regression: /end/0/when used to look for a key '0' inside the entry."""
    from interpreter.game import load
    game = load(HIGH_TIDE, [str(Path("bigger.yaml"))])
    assert game.ruleset.end[0].value["when"] == "any([score(p) >= goal + 1 for p in players])"
