"""The scenario format: fixtures (shared given blocks) and what a scenario file may say."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.scenario import run_scenario, scenario_files

ROOT = Path(__file__).resolve().parent.parent
CASTLE = ROOT / "rulesets" / "castle_of_the_devil" / "scenarios"


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_fixture_runs_before_the_scenarios_own_given(tmp_path):
    _write(tmp_path / "fixtures" / "empty_deck.yaml",
           "name: the deck emptied\nruleset: high_tide\ngiven:\n  - move_all(deck, discard)\n")
    sc = _write(tmp_path / "a.yaml",
                "name: fixture first\nruleset: high_tide\nsetup: {players: 2, seed: 1}\n"
                "fixtures: [empty_deck]\ngiven:\n  - move(top(discard), deck)\n"
                "expect:\n  - size(deck) == 1\n")
    out = run_scenario(sc)
    assert out.passed, out.failures
    # without the fixture the same given leaves more than one card in the deck
    _write(sc, sc.read_text().replace("fixtures: [empty_deck]\n", ""))
    assert not run_scenario(sc).passed


def test_a_missing_fixture_is_a_located_error(tmp_path):
    sc = _write(tmp_path / "a.yaml",
                "name: x\nruleset: high_tide\nsetup: {players: 2}\nfixtures: [nowhere]\n"
                "expect:\n  - \"true\"\n")
    with pytest.raises(RulesetError) as e:
        run_scenario(sc)
    (p,) = e.value.problems
    assert (p.loc.line, p.loc.col) == (4, 12) and "no fixture 'nowhere'" in p.message


def test_a_failing_fixture_statement_is_reported_in_the_fixture_file(tmp_path):
    fx = _write(tmp_path / "fixtures" / "bad.yaml",
                "name: bad\nruleset: high_tide\ngiven:\n  - move(top(deck), hand(players[7]))\n")
    sc = _write(tmp_path / "a.yaml", "name: x\nruleset: high_tide\nsetup: {players: 2}\n"
                "fixtures: [bad]\nexpect:\n  - \"true\"\n")
    out = run_scenario(sc)
    assert not out.passed
    assert out.failures[0].startswith(f"{fx}:4:5: given statement failed")


def test_a_fixture_file_is_checked_against_its_schema(tmp_path):
    _write(tmp_path / "fixtures" / "typo.yaml", "name: t\nruleset: high_tide\ngiven: [pass]\nwehn: []\n")
    sc = _write(tmp_path / "a.yaml", "name: x\nruleset: high_tide\nsetup: {players: 2}\n"
                "fixtures: [typo]\nexpect:\n  - \"true\"\n")
    with pytest.raises(RulesetError) as e:
        run_scenario(sc)
    assert any("wehn" in p.message and p.loc.line == 4 for p in e.value.problems)


def test_fixtures_are_not_collected_as_scenarios():
    files = scenario_files([CASTLE])
    assert len(files) == len(list(CASTLE.glob("*.yaml"))) >= 81  # every scenario, no fixture
    assert not [f for f in files if "fixtures" in f.parts]
    uses = [f for f in files if "fixtures: [clear_table]" in f.read_text(encoding="utf-8")]
    assert len(uses) >= 71


def test_the_castle_scenarios_are_hand_kept_files():
    assert not (ROOT / "rulesets" / "castle_of_the_devil" / "tools").exists()
    for f in scenario_files([CASTLE]):
        assert "generated" not in f.read_text(encoding="utf-8"), f
