"""`grimoire test` failures in the reader's language: scenarios broken on purpose (a copy of
High Tide's goal scenario) fail with the scenario runner's real English, which the problem
catalogue matches (given back exactly) and prints in ru/pl/pt, the file:line:col kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.commands.test import failure_text
from interpreter.i18n.problems import _text, localize, match
from interpreter.scenarios.run import run_scenario

HIGH_TIDE = Path(__file__).resolve().parent.parent / "rulesets" / "high_tide"
GOAL = (HIGH_TIDE / "scenarios" / "goal.yaml").read_text(encoding="utf-8")
BROKEN = {  # name -> the goal scenario, broken one way
    "expect_fails": GOAL.replace("score(players[0]) == 12", "score(players[0]) == 13"),
    "wrong_seat": GOAL.replace('{player: p1, choose: "play:shell_2"}', '{player: p2, choose: "play:shell_2"}'),
    "accepted": GOAL.replace("{player: p2, choose: pass}", "{player: p2, choose: pass, refused: true}"),
    "not_legal": GOAL.replace('choose: "play:shell_2"', 'choose: "play:shell_9"'),
    "never_refused": GOAL + 'expect_error: "no such card"\n',
    "log_lacks": GOAL + '  - {log: p1, has: "a line nobody wrote"}\n',
    "view_not": GOAL + '  - {view: p1, at: "turn", equals: 99}\n',
    "no_player": GOAL + '  - {view: p7, at: "turn", equals: 1}\n',
}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ht") / "high_tide"
    shutil.copytree(HIGH_TIDE, root)
    for f in (root / "scenarios").glob("*.yaml"):
        f.unlink()
    for name, text in BROKEN.items():
        (root / "scenarios" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return root / "scenarios"


def _failures(folder: Path) -> list[str]:
    out = []
    for name in BROKEN:
        result = run_scenario(folder / f"{name}.yaml")
        assert not result.passed, name
        out += result.failures
    return out


def test_every_broken_scenario_fails_with_a_catalogue_message(scenarios):
    """8 failures of 8 kinds; each one's message matches a problem-* message whose English,
    formatted with the captured arguments, is the runner's text exactly."""
    failures = _failures(scenarios)
    assert len(failures) == len(BROKEN)
    for f in failures:
        head, _, message = f.partition(": ")
        message = message.replace(" (did you mean 'play:shell_3'?)", "")
        found = match(message)
        assert found is not None, message
        assert _text("en", found[0], found[1]) == message
        for lang in ("ru", "pl", "pt"):
            said = failure_text(f, lang)
            assert said.startswith(head + ": ") and said != f, (lang, f)


EXACT = [
    ("expect_fails", "ru", "expect_fails.yaml:16:5: ожидалось score(players[0]) == 13 (слева 12, справа 13)"),
    ("wrong_seat", "ru", "wrong_seat.yaml:10:5: ожидалось решение p2, но решает p1 "
     "(варианты: draw_card, play:shell_3, play:shell_1, play:shell_2)"),
    ("not_legal", "pl", "not_legal.yaml:10:5: 'play:shell_9' nie jest teraz dozwolone (dozwolone: draw_card, "
     "play:shell_3, play:shell_1, play:shell_2) (czy chodziło o 'play:shell_3'?)"),
    ("accepted", "pl", "accepted.yaml:11:5: 'pass' miało zostać odrzucone, ale zostało przyjęte"),
    ("view_not", "pt", "view_not.yaml:17:5: a vista de p1 em 'turn' é 1, não 99"),
    ("no_player", "pt", "no_player.yaml:17:5: não há nenhum jogador 'p7' neste jogo"),
]


@pytest.mark.parametrize("name,lang,expected", EXACT, ids=[f"{n}-{lang}" for n, lang, _ in EXACT])
def test_grimoire_test_prints_the_failure_in_the_language(name, lang, expected, scenarios, capsys):
    assert main(["--lang", lang, "test", str(scenarios / f"{name}.yaml")]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].strip() == str(scenarios / expected)


def test_english_is_unchanged(scenarios, capsys):
    assert main(["test", str(scenarios / "view_not.yaml")]) == 1
    line = capsys.readouterr().out.splitlines()[1].strip()
    assert line.endswith("view_not.yaml:17:5: p1's view at 'turn' is 1, not 99")
    assert localize("p1's view at 'turn' is 1, not 99", "de") == "p1's view at 'turn' is 1, not 99"
