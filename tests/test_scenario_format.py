"""The scenario format: fixtures (shared given blocks) and what a scenario file may say."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.scenarios.run import run_scenario, scenario_files

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
    assert files == sorted(CASTLE.glob("*.yaml")) and len(files) >= 81  # every scenario, no fixture
    assert not [f for f in files if "fixtures" in f.parts]
    assert (CASTLE / "fixtures" / "clear_table.yaml").is_file()
    uses = [f for f in files if "fixtures: [clear_table]" in f.read_text(encoding="utf-8")]
    assert len(uses) >= 71


def test_the_castle_scenarios_are_hand_kept_files():
    assert not (ROOT / "rulesets" / "castle_of_the_devil" / "tools").exists()
    for f in scenario_files([CASTLE]):
        assert "generated" not in f.read_text(encoding="utf-8"), f


HT = "name: t\nruleset: high_tide\nsetup: {players: 2, seed: 1}\n"


def _run(tmp_path, body: str):
    return run_scenario(_write(tmp_path / "s.yaml", HT + body))


def test_option_ids_match_exactly_and_a_near_miss_is_named(tmp_path):
    out = _run(tmp_path, "when:\n  - {player: p1, choose: draw}\nexpect:\n  - size(hand(players[0])) == 4\n")
    assert not out.passed
    assert "s.yaml:5:5: 'draw' is not a legal option now (did you mean 'draw_card'?)" in out.failures[0]
    good = "when:\n  - {player: p1, choose: draw_card}\nexpect:\n  - size(hand(players[0])) == 4\n"
    assert _run(tmp_path, good).passed


def test_a_refused_step_leaves_the_game_and_the_file_goes_on(tmp_path):
    out = _run(tmp_path, "when:\n  - {player: p1, choose: 'play:pearl', refused: not a legal option}\n"
                         "  - {player: p1, choose: draw_card}\nexpect:\n  - size(hand(players[0])) == 4\n")
    assert out.passed, out.failures
    out = _run(tmp_path, "when:\n  - {player: p1, choose: draw_card, refused: true}\nexpect:\n  - 'true'\n")
    assert out.failures == [f"{tmp_path / 's.yaml'}:5:5: expected 'draw_card' to be refused, but it was accepted"]


def test_a_misspelled_id_does_not_pass_as_an_expected_refusal(tmp_path):
    out = _run(tmp_path, "when:\n  - {player: p1, choose: 'ply:pearl', refused: true}\nexpect:\n  - 'true'\n")
    assert not out.passed and "'ply:pearl' names no action or option of this ruleset" in out.failures[0]


def test_expect_reads_a_players_log_and_view(tmp_path):
    body = ("when:\n  - {player: p1, choose: draw_card}\nexpect:\n"
            "  - {log: p2, has: Player 1 draws a card.}\n"
            "  - {log: p2, lacks: shell}\n"
            "  - {view: p2, at: zones.hand@p1, equals: [null, null, null, null]}\n"
            "  - {view: p1, at: zones.hand@p1, lacks: null}\n"
            "  - {view: p2, at: counters, has: score@p1}\n")
    out = _run(tmp_path, body)
    assert out.passed, out.failures
    out = _run(tmp_path, body.replace("has: Player 1 draws", "has: Player 2 draws")
               .replace("at: zones.hand@p1, equals", "at: zones.hand@p9, equals"))
    assert len(out.failures) == 2
    assert "p2's log has no line containing 'Player 2 draws a card.'" in out.failures[0]
    assert "the view has nothing at 'zones.hand@p9'" in out.failures[1]


def test_fixed_dice_are_the_next_rolls_and_must_fit_the_die():
    from interpreter.engine.rng import Rng
    from interpreter.scenarios.checks import LoadedDice
    d = LoadedDice(Rng(7).s, [3, 8])
    c = d.copy()
    assert [d.roll(8), d.roll(8)] == [3, 8] and c.roll(8) == 3  # a clone keeps its own queue
    assert d.roll(8) == Rng(7).roll(8)  # then the seeded rolls, unchanged
    with pytest.raises(ValueError, match="a fixed die roll of 8 does not fit a roll\\(6\\)"):
        LoadedDice(1, [8]).roll(6)
