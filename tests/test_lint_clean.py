"""The lint the project keeps clean (pyflakes, pycodestyle, import order, pyupgrade: see
[tool.ruff] in pyproject.toml), run as part of the README's test command."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    r = subprocess.run([sys.executable, "-m", "ruff", "check", "interpreter", "tests", "benchmarks", "conftest.py"],
                       cwd=ROOT, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout + r.stderr
