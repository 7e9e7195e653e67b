"""The README is run as written, as a new user in a fresh clone would: its Quick start is what
CI runs (.ci/run), every line of its tour runs and exits 0, and its Python example runs from
any directory.

The tour runs in a fresh workspace holding what a clone holds (a copy of the package,
`rulesets/` and `schemas/`, the package imported from there as an editable install does), one
command after another, so a line that needs a file an earlier line did not write fails here as
it would for the reader. Three things are bounded, and only these: a `--games N` plays at most
GAMES games (1 with rollout bots), `--trials N` at most 2 trials and `--budget N` at most BUDGET
iterations (the commands are the same, the run shorter); the human seat of `play` answers `q`
(quit, which saves) on stdin; and `serve` listens on a free port and is stopped once it has
printed its links."""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from doc_runner import blocks

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
GAMES = 2
BUDGET = 8    # MCTS iterations per decision


def _sh_blocks() -> list[tuple[int, list[str]]]:
    return [(start, lines) for start, lang, lines in blocks(README) if lang == "sh"]


def _commands(lines: list[str]) -> list[str]:
    """The commands of a sh block: comments dropped, whitespace squeezed."""
    out = []
    for line in lines:
        cmd = re.sub(r"(^|\s)#.*$", "", line).strip()
        if cmd:
            out.append(" ".join(cmd.split()))
    return out


def test_ci_runs_exactly_the_quick_start():
    """.ci/run: the README's system packages, its install command, its test command; nothing else."""
    quick = [c for _, lines in _sh_blocks()[:3] for c in _commands(lines)]
    assert quick[1] == ('python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[dev]" && '
                        'grimoire play shadows_over_camelot'), quick
    assert quick[2] == "python -m pytest -q"
    assert quick[0].startswith("sudo apt-get update && sudo apt-get install -y ")
    for pkg in ("chromium", "chromium-driver", "gettext"):
        assert pkg in quick[0].split(), pkg
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.lstrip().startswith("#")]
    scaffold = ["set -euo pipefail", 'cd "$(dirname "$0")/.."', 'sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"']
    assert ci[:3] == scaffold, ci
    assert [" ".join(c.replace("$sudo ", "sudo ").split()) for c in ci[3:]] == quick


def test_dev_brings_every_extra_the_suite_uses():
    """`pip install -e ".[dev]"` alone is enough for the whole suite: no test skips for a missing extra."""
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    brought = set()
    for req in extras["dev"]:
        m = re.fullmatch(r"grimoire\[(.*)\]", req)
        if m:
            brought |= {x.strip() for x in m.group(1).split(",")}
    # `bench` (OpenSpiel, for benchmarks/bench_peers.py) is no test's: no test may need it
    assert brought == set(extras) - {"dev", "bench"}, brought
    uses = [f.name for f in (ROOT / "tests").glob("*.py") if "open_spiel" in f.read_text(encoding="utf-8")
            and f.name != "test_readme.py"]
    assert uses == [], uses


def test_the_python_example_runs_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = next("\n".join(lines) for start, lang, lines in blocks(README) if lang == "python")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.returncode == 0, out.stderr
    assert "winners" in out.stdout, out.stdout


def _tour() -> list[tuple[int, str]]:
    start, lines = next((s, lines) for s, lines in _sh_blocks() if any("grimoire validate" in x for x in lines))
    return [(start + 1 + k, " ".join(shlex.split(line, comments=True))) for k, line in enumerate(lines)
            if line.strip()]


def _bounded(argv: list[str]) -> list[str]:
    out = list(argv)
    games = 1 if "rollout" in out else GAMES      # rollout bots play out every decision: the slowest
    for flag, most in (("--games", games), ("--trials", 2), ("--budget", BUDGET)):
        if flag in out:
            i = out.index(flag) + 1
            out[i] = str(min(int(out[i]), most))
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(argv, cwd, env) -> str:
    """Start a tour line's `serve`, return what it printed up to its links (a table's host link,
    or the lobby's address), then stop it. The output is read by a thread, so a server that
    prints nothing more can never hang the test past its deadline."""
    argv = argv + ["--port", str(_free_port())]
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in p.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    seen = []
    try:
        deadline = time.monotonic() + 120
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = lines.get(timeout=left)
            except queue.Empty:
                break
            seen.append(line)
            if "host (links, save, replay)" in line:
                return "".join(seen)
            if line.startswith("lobby: http"):  # the lobby has no seats yet: its page must answer
                url = line.split()[1]
                while True:  # (it says where before it listens)
                    try:
                        with urllib.request.urlopen(url, timeout=30) as page:
                            return "".join(seen) + f"GET {url} -> {page.status} {page.read().decode()[:200]}"
                    except urllib.error.URLError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.2)
        raise AssertionError("serve printed no links:\n" + "".join(seen))
    finally:
        os.killpg(p.pid, signal.SIGTERM)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()


TOUR = _tour()


def test_the_tour_is_long_and_starts_where_a_new_user_does():
    assert len(TOUR) >= 20
    assert TOUR[0][1].startswith("grimoire validate")


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A workspace as a fresh clone has it: the package, rulesets and schemas, nothing written yet."""
    work = tmp_path_factory.mktemp("clone")
    for name in ("interpreter", "rulesets", "schemas"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__", "_data"))
    return work


@pytest.mark.parametrize("at,line", TOUR, ids=[f"README.md:{at}" for at, _ in TOUR])
def test_the_tour_line_runs_as_written(at, line, clone):
    """Each line in page order (pytest runs them in order), in the same workspace."""
    argv = _bounded(shlex.split(line))   # (the line's comment is gone already)
    assert argv[0] == "grimoire", f"README.md:{at}: the tour runs grimoire commands"
    env = {**os.environ, "PYTHONPATH": str(clone), "CI": "true"}
    env.pop("COLUMNS", None)
    cmd = [sys.executable, "-c", "import sys; from interpreter.cli import main; sys.exit(main())"] + argv[1:]
    if argv[1] == "serve":
        out = _serve(cmd, clone, env)
        if len(argv) > 2 and not argv[2].startswith("-"):  # a table: one link per seat
            assert "seat 1:" in out and "seat 2:" in out, out
        else:
            assert " -> 200 " in out and "<html" in out.lower(), out
        return
    human = "human" in line
    r = subprocess.run(cmd, cwd=clone, env=env, capture_output=True, text=True, timeout=900,
                       input="q\n" if human else None, stdin=None if human else subprocess.DEVNULL)
    assert r.returncode == 0 and "Traceback" not in r.stderr, \
        f"README.md:{at}: {line}\nexit {r.returncode}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    assert not re.search(r"…\s*[│┃]", r.stdout), f"README.md:{at}: a table was cut:\n{r.stdout}"
    if "--out" in argv:
        target = clone / argv[argv.index("--out") + 1]
        assert target.exists(), f"README.md:{at}: wrote no {target.name}"
        if target.suffix == ".po":
            assert target.is_file(), f"README.md:{at}: --out {target.name} made a folder"
