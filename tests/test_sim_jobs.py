"""simulate's numbers are bounded, and its worker processes never outlive it (issue 25).

`--jobs` is capped by the cores, nonsense (`--jobs 0`, `--jobs -3`, `--games 10**12`) is
refused in one line before anything starts, and when the parent dies (SIGTERM, or SIGKILL,
which it cannot catch) every worker process it forked ends within seconds. The subprocess
tests start the command in a session of its own, with no stdin: they do not depend on how
pytest itself was launched (a parent ignoring SIGINT, CI=true).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clikit import one_line_error

from interpreter.cli import main
from interpreter.game import RULESETS
from interpreter.sim.backends import Session, default_jobs

HIGH_TIDE = str(RULESETS / "high_tide")
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("extra, says", [
    (["--jobs", "0"], "--jobs must be at least 1, not 0"),
    (["--jobs", "-3"], "--jobs must be at least 1, not -3"),
    (["--games", str(10**12)], "--games must be from 1 to 1000000, not 1000000000000"),
    (["--games", "0"], "--games must be from 1 to 1000000, not 0"),
    (["--budget", "0"], "--budget must be at least 1, not 0"),
    (["--depth", "-1"], "--depth must be at least 0, not -1"),
    (["--temperature", "nan"], "--temperature must be at least 0, not nan"),
    (["--connect-timeout", "-5"], "--connect-timeout must be a positive number of seconds, not -5.0"),
])
def test_nonsense_numbers_are_refused_in_one_line(tmp_path, capsys, extra, says):
    out = tmp_path / "out"
    games = [] if "--games" in extra else ["--games", "2"]
    assert main(["simulate", HIGH_TIDE, *games, *extra, "--out", str(out), "--quiet"]) == 2
    assert says in one_line_error(capsys)
    assert not out.exists()


def test_the_refusals_speak_the_users_language(tmp_path, capsys):
    assert main(["--lang", "ru", "simulate", HIGH_TIDE, "--games", "2", "--jobs", "0", "--quiet",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "ошибка: --jobs должно быть не меньше 1, а не 0", err


def test_jobs_are_capped_by_the_cores(tmp_path, capsys):
    s = Session("local", 10000)
    assert s.jobs == default_jobs() and s.info()["jobs_requested"] == 10000
    s.close()
    out = tmp_path / "out"
    assert main(["simulate", HIGH_TIDE, "--games", "4", "--jobs", "10000", "--out", str(out), "--quiet"]) == 0
    assert f"--jobs 10000 is more than the {default_jobs()} cores" in capsys.readouterr().err
    ex = json.loads((out / "results.json").read_text())["execution"]
    assert ex["jobs"] == ex["workers"] == default_jobs() and ex["jobs_requested"] == 10000


# ---- the parent dies ----------------------------------------------------------------------------

def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    out = set()
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
                out.add(int(d.name))
    return out


def running(pid: int) -> bool:
    """The process exists and is not a zombie (a dead child its new parent has not reaped)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def start_run(out: Path) -> tuple[subprocess.Popen, set[int]]:
    """A long local run with two workers, once both play: the process and its workers."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "CI": "true"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli", "simulate", HIGH_TIDE, "--games", "100000",
         "--players", "4", "--jobs", "2", "--out", str(out), "--quiet"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True, env=env)
    log = out / "games.jsonl"
    deadline = time.time() + 60
    while time.time() < deadline and proc.poll() is None:
        if log.exists() and len(log.read_text().splitlines()) >= 10:
            break
        time.sleep(0.1)
    workers = children(proc.pid)
    return proc, workers


def wait_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.time() + seconds
    while time.time() < deadline:
        left = {p for p in pids if running(p)}
        if not left:
            return left
        time.sleep(0.1)
    return {p for p in pids if running(p)}


needs_two_cores = pytest.mark.skipif(not Path("/proc").is_dir() or default_jobs() < 2,
                                     reason="needs /proc and two cores (one core runs no worker process)")


@needs_two_cores
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_no_worker_outlives_its_parent(tmp_path, sig):
    out = tmp_path / "run"
    proc, workers = start_run(out)
    try:
        assert proc.poll() is None, proc.communicate()
        assert len(workers) == 2, workers
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        left = wait_gone(workers, 10)
        assert not left, f"{len(left)} workers still running after the parent died"
        if sig == signal.SIGTERM:  # a clean stop: the reports are written, as for Ctrl-C
            assert proc.returncode == 143, err.decode()
            data = json.loads((out / "results.json").read_text())
            assert data["interrupted"] and len(data["games"]["high_tide"]) >= 10
        else:
            assert proc.returncode == -signal.SIGKILL
    finally:
        for p in workers | ({proc.pid} if proc.poll() is None else set()):
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass
