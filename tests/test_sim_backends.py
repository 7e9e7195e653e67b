"""Backends fail cleanly and runs can be continued: connection errors, failures, --resume.

None of these starts Ray: each connection error is caught before Ray is asked to connect.
"""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path

import pytest
from clikit import one_line_error

from interpreter.cli import main
from interpreter.game import RULESETS
from interpreter.sim import backends

HIGH_TIDE = str(RULESETS / "high_tide")


def only(per_run: dict):
    """The one run of a simulation without --compare."""
    [value] = per_run.values()
    return value


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def simulate(tmp_path, *extra) -> list[str]:
    return ["simulate", HIGH_TIDE, "--games", "4", "--out", str(tmp_path / "out"), "--quiet", *extra]


@pytest.mark.parametrize("extra, says", [
    (["--address", "127.0.0.1:6379"], "is for --backend ray"),
    (["--backend", "ray", "--address", "head-node"], "malformed Ray address"),
    (["--backend", "ray", "--address", "head:99999"], "malformed Ray address"),
    (["--backend", "ray", "--address", f"127.0.0.1:{closed_port()}"], "cannot reach the Ray cluster"),
    (["--backend", "ray", "--address", f"ray://127.0.0.1:{closed_port()}"], "cannot reach the Ray cluster"),
])
def test_connection_problems_are_one_line_and_exit_2(tmp_path, capsys, extra, says):
    pytest.importorskip("ray")
    assert main(simulate(tmp_path, *extra)) == 2
    assert says in one_line_error(capsys)
    assert not (tmp_path / "out").exists()  # nothing written for a run that never started


# an address that never answers: tests/test_ray_connect.py (on loopback, a port whose backlog is full)


def test_missing_ray_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    assert main(simulate(tmp_path, "--backend", "ray")) == 2
    assert "pip install 'grimoire[ray]'" in one_line_error(capsys)


def results(path: Path) -> tuple[str, dict]:
    text = (path / "results.json").read_text(encoding="utf-8")
    return text[:text.index('\n "execution"')], json.loads(text)


def test_a_failed_run_still_writes_its_reports(tmp_path, capsys, monkeypatch):
    real_run = backends.Session.run

    def dies_after_three(self, spec, seed, games, skip=()):
        for k, r in enumerate(real_run(self, spec, seed, games, skip)):
            if k == 3:
                raise RuntimeError("worker node lost")
            yield r

    monkeypatch.setattr(backends.Session, "run", dies_after_three)
    assert main(simulate(tmp_path, "--jobs", "1")) == 1
    assert "worker node lost" in capsys.readouterr().err
    _, data = results(tmp_path / "out")
    assert data["failure"] == "worker node lost" and len(only(data["games"])) == 3
    assert (tmp_path / "out" / "games.csv").is_file() and (tmp_path / "out" / "chart.png").is_file()


def test_resume_plays_only_the_missing_games_and_ends_as_one_run(tmp_path, monkeypatch):
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    monkeypatch.chdir(RULESETS.parent)  # the variant is given relative, and resumed from elsewhere
    castle = "rulesets/castle_of_the_devil"
    args = ["simulate", castle, "--variant", f"{castle}/variants/beginner.yaml",
            "--games", "12", "--players", "4", "--seed", "11", "--jobs", "1", "--quiet"]
    assert main([*args, "--out", str(whole)]) == 0
    assert main([*args, "--out", str(cut)]) == 0
    lines = (cut / "games.jsonl").read_text().splitlines(keepends=True)
    (cut / "games.jsonl").write_text("".join(lines[:7]) + lines[7][:25])  # killed mid-line
    (cut / "results.json").unlink()
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "--resume", str(cut), "--jobs", "2", "--quiet"]) == 0
    text, data = results(cut)
    assert text == results(whole)[0]
    assert data["execution"]["resumed_games"] == 7
    assert len((cut / "games.jsonl").read_text().splitlines()) == 12


def test_resume_keeps_variants_named_by_the_ruleset(tmp_path, monkeypatch):
    # `--variant no_black_pearl` and `--base-variant beginner`, names of the ruleset's own variants stay names in
    # run.json (a path would be resolved against the first run's directory and not be found)
    run = tmp_path / "run"
    monkeypatch.chdir(tmp_path)
    args = ["simulate", "castle_of_the_devil", "--base-variant", "beginner", "--variant", "no_black_pearl",
            "--games", "3", "--players", "4", "--jobs", "1", "--quiet"]
    assert main([*args, "--out", str(run)]) == 0
    req = json.loads((run / "run.json").read_text())
    assert req["variant"] == ["no_black_pearl"] and req["base_variant"] == ["beginner"]
    monkeypatch.chdir(RULESETS.parent)
    assert main(["simulate", "--resume", str(run), "--games", "5", "--jobs", "1", "--quiet"]) == 0
    assert len((run / "games.jsonl").read_text().splitlines()) == 5


def test_resume_needs_a_run_directory(tmp_path, capsys):
    assert main(["simulate", "--resume", str(tmp_path), "--quiet"]) == 2
    assert "holds no run.json" in one_line_error(capsys)
