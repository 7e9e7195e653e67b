"""Traps a house-rule author hit writing real variants (issue 26): each one is found, at the
variant's own line, or no longer a trap."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.game import load

ROOT = Path(__file__).resolve().parent.parent
HIGH_TIDE = ROOT / "rulesets" / "high_tide"


def _variant(tmp_path, text: str, name: str = "v") -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"variant: {name}\ntitle: V\nbase: high_tide\n" + text, encoding="utf-8")
    return str(p)


def _problems(tmp_path, text, root=HIGH_TIDE):
    with pytest.raises(RulesetError) as e:
        load(root, [_variant(tmp_path, text)])
    return e.value.problems


def test_a_variant_adds_a_procedure_with_parameters(tmp_path):
    game = load(HIGH_TIDE, [_variant(tmp_path, """merge:
  procedures:
    "gain(p: player, a, b)": |
      score(p) += a + b
  actions:
    bonus:
      group: main
      effect: "gain(me, 1, 2)"
""")])
    assert game.program.proc_sigs["gain"] == ["p", "a", "b"]
    assert game.program.proc_types["gain"] == ["player", "any", "any"]
    assert "gain(p: player, a, b)" in game.ruleset.data["procedures"]


def test_a_variant_that_changes_a_procedures_signature_is_held_to_it(tmp_path):
    found = _problems(tmp_path, """merge:
  procedures:
    "refill(n)": |
      move_all(discard, deck)
      score(players[0]) += n
""")
    # the base still calls refill() with no argument: that call is now wrong
    assert [(Path(p.loc.file).name, p.loc.line, p.message) for p in found] == [
        ("ruleset.yaml", 21, "refill() takes 1 argument (n), found 0")]
