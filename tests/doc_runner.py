"""Run a documentation page as its reader would: write its files, run its commands, compare.

A page's ```yaml block whose first line is `# file: PATH` is written to PATH (relative to a
fresh workspace holding a copy of `rulesets/`); a ```console block holds `$ grimoire ...`
commands, each followed by the output it prints (stdout and stderr, in that order). An output
line `...` stands for any lines, and `...` inside a line for any text (timings). Blocks run in
page order, so a page is one session of an author.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\s*$")


def blocks(page: Path) -> list[tuple[int, str, list[str]]]:
    """(line number, language, lines) of every fenced block of a page."""
    out, cur, lang, start = [], None, "", 0
    for i, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if m and cur is None:
            cur, lang, start = [], m.group(1), i
        elif line.strip() == "```" and cur is not None:
            out.append((start, lang, cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Do the actual lines match the expected ones (`...` lines and `...` in lines are wildcards)?"""
    norm = [" ".join(x.split()) for x in actual]
    pats = [None if e.strip() == "..." else re.compile(
        "^" + ".*".join(re.escape(part) for part in " ".join(e.split()).split("...")) + "$") for e in expected]

    def go(i: int, j: int) -> bool:
        if i == len(pats):
            return j == len(norm)
        if pats[i] is None:
            return any(go(i + 1, k) for k in range(j, len(norm) + 1))
        return j < len(norm) and bool(pats[i].match(norm[j])) and go(i + 1, j + 1)

    return go(0, 0)


def run_page(page: Path, workspace: Path) -> list[str]:
    """Run every file and command block of `page` in `workspace` (the cwd); return the failures."""
    from interpreter.cli import main
    if not (workspace / "rulesets").exists():
        shutil.copytree(ROOT / "rulesets", workspace / "rulesets")
        (workspace / "schemas").symlink_to(ROOT / "schemas")
    failures = []
    ran = 0
    for start, lang, lines in blocks(page):
        if lang == "yaml" and lines and lines[0].startswith("# file: "):
            path = workspace / lines[0].removeprefix("# file: ").strip()
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
        elif lang == "console":
            cmds: list[tuple[int, str, list[str]]] = []
            for k, line in enumerate(lines):
                if line.startswith("$ "):
                    cmds.append((start + 1 + k, line[2:], []))
                elif cmds:
                    cmds[-1][2].append(line)
            for at, cmd, expected in cmds:
                argv = shlex.split(cmd)
                assert argv[0] == "grimoire", f"{page.name}:{at}: only grimoire commands run here"
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    try:
                        main(argv[1:])
                    except SystemExit:
                        pass
                ran += 1
                actual = (out.getvalue() + err.getvalue()).rstrip("\n").splitlines()
                while expected and not expected[-1].strip():
                    expected.pop()
                if not _matches(expected, actual):
                    failures.append(f"{page.name}:{at}: $ {cmd}\n--- the page says:\n" + "\n".join(expected)
                                    + "\n--- it prints:\n" + "\n".join(actual))
    if not ran:
        failures.append(f"{page.name}: no command to run")
    return failures
