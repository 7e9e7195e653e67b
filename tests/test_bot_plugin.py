"""--bots package.module:Class: a bot of one's own in play and simulate."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
BOT = '''
class Greedy:
    """Plays the last legal option."""

    def __init__(self, seed, game=None):
        self.seed = seed

    def choose(self, seat):
        return seat.options[-1].id
'''


def test_simulate_plays_a_bot_class_of_ones_own(tmp_path, monkeypatch, capsys):
    (tmp_path / "mybots.py").write_text(BOT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code = main(["simulate", str(ROOT / "rulesets" / "high_tide"), "--players", "2", "--games", "6",
                 "--jobs", "2", "--bots", "mybots:Greedy,random", "--out", "o", "--quiet"])
    assert code == 0, capsys.readouterr().err
    data = json.loads((tmp_path / "o" / "results.json").read_text())
    games = data["games"]["high_tide"]
    assert len(games) == 6 and all(g["reason"] != "error" for g in games)
    assert games[0]["bots"] == ["mybots:Greedy", "random"]


def test_play_takes_a_bot_class_and_refuses_an_unusable_one(tmp_path):
    (tmp_path / "mybots.py").write_text(BOT, encoding="utf-8")
    run = lambda *a: subprocess.run([sys.executable, "-m", "interpreter.cli", "play", "high_tide", *a],  # noqa: E731
                                    cwd=tmp_path, capture_output=True, text=True, timeout=120)
    r = run("--bots", "mybots:Greedy", "--seed", "2", "--quiet")
    assert r.returncode == 0, r.stderr
    r = run("--bots", "mybots:Nobody")
    assert r.returncode == 1 and "module 'mybots' has no 'Nobody' (its classes: Greedy)" in r.stderr
    r = run("--seats", "nomodule:X,random")
    assert r.returncode == 1 and "cannot import module 'nomodule'" in r.stderr
    assert "Traceback" not in r.stderr
