"""Every YAML file the project ships names its schema on its first line (editor completion),
and that schema file exists."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def shipped_yaml() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "*.yaml"], cwd=ROOT, capture_output=True, text=True)
    files = [ROOT / f for f in out.stdout.split()] if out.returncode == 0 else list(ROOT.rglob("*.yaml"))
    return [f for f in files if "tests/golden" not in str(f) and f.is_file()]


def test_every_shipped_yaml_names_its_schema():
    missing = []
    for f in shipped_yaml():
        first = f.read_text(encoding="utf-8").splitlines()[:1]
        m = re.match(r"^# yaml-language-server: \$schema=(\S+)$", first[0]) if first else None
        if not m:
            missing.append(f"{f.relative_to(ROOT)}: no schema line")
            continue
        target = (f.parent / m.group(1)).resolve()
        if not target.is_file():
            missing.append(f"{f.relative_to(ROOT)}: schema {m.group(1)} not found")
    assert not missing, "\n".join(missing)
