"""The broken-ruleset corpus: each directory under tests/broken/ is a realistic mistake in a
small ruleset (and its variant or locale), run as a user would: `grimoire validate`, then,
if that passes, a game of bots (`grimoire play`). Its expected.txt is the exact output.

Every case must end in a located message and a non-zero exit code (0 silent), or print a
located warning where the docs allow the mistake (then its `--strict` twin fails), never a
Python traceback, and within a few seconds (0 hangs: each run is bounded by a timer). Regenerate with
GRIMOIRE_UPDATE_BROKEN=1 and read the diff: the positions must be right by eye.

A case directory holds `ruleset.yaml` (and `locales/`), optionally `variant.yaml` (applied
with --variant) and `args` (extra arguments of validate, one line, e.g. `--strict`).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
from pathlib import Path

import pytest

from interpreter import cli, errors

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(p for p in BROKEN.iterdir() if p.is_dir())
SECONDS = 10  # CPU seconds per command: a hang fails the case instead of the suite


class Hang(Exception):
    pass


def _run(argv: list[str]) -> tuple[int, str]:
    out = io.StringIO()

    def alarm(signum, frame):
        raise Hang(f"{' '.join(argv)} ran for more than {SECONDS} s of CPU")

    # CPU time, not wall time: a loaded machine slows a case down, but only a hang spins
    old = signal.signal(signal.SIGPROF, alarm)
    signal.setitimer(signal.ITIMER_PROF, SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = cli.main(argv)
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 2
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return code, re.sub(r"in \d+ ms", "in N ms", out.getvalue())


def run_case(case: Path) -> str:
    """Run one case (the cwd) as a user would; return the transcript."""
    extra = (case / "args").read_text().split() if (case / "args").exists() else []
    variant = ["--variant", "variant.yaml"] if (case / "variant.yaml").exists() else []
    transcript = []
    for argv in (["validate", ".", *variant, *extra],
                 ["play", ".", *variant, "--quiet", "--seed", "1"]):
        code, text = _run(argv)
        transcript.append(f"$ grimoire {' '.join(argv)}\n{text}[exit {code}]\n")
        if code != 0:
            break
    return "".join(transcript)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_broken(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / case.name
    shutil.copytree(case, work, symlinks=True)  # a case may be a symlink loop
    monkeypatch.chdir(work)
    errors._line_cache.clear()
    actual = run_case(work)
    assert "Traceback" not in actual
    expected_file = case / "expected.txt"
    if os.environ.get("GRIMOIRE_UPDATE_BROKEN"):
        expected_file.write_text(actual, encoding="utf-8")
    assert actual == expected_file.read_text(encoding="utf-8")
    warned = ": warning: " in actual  # where the docs allow it, a warning (an error with --strict)
    assert warned or not actual.rstrip().endswith("[exit 0]"), "a silent mistake: validate and play passed"


def test_enough_cases() -> None:
    assert len(CASES) >= 60
