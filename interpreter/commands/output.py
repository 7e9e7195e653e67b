"""How commands print located problems: text on stderr, or JSON on stdout.

Pipeline position: commands (shared by every command and by cli.py's dispatch). The words
around a problem (its severity, the count line) are the command line's, in its language
(`set_language`, called by cli.py with `grimoire --lang` or LANG), and so is the problem's own
message where the engine's catalogue has it (interpreter/i18n/problems.py; English otherwise).
JSON output keeps the English a check wrote: it is read by programs.
"""

from __future__ import annotations

import os
import sys

from ..errors import Problem, format_problem, problems_json

_LANG = ["en"]


def set_language(lang: str) -> None:
    """The language problems are framed in (the command line's)."""
    _LANG[0] = lang or "en"


def language() -> str:
    return _LANG[0]


def problem_text(p: Problem, lang: str | None = None) -> str:
    """One problem, `file:line:col: SEVERITY: message` with its source line, the severity in
    the command line's language."""
    from dataclasses import replace

    from ..i18n.problems import localize
    from .cli_text import cli_text
    lang = lang or _LANG[0]
    text = format_problem(replace(p, message=localize(p.message, lang)))
    word = cli_text(lang, "cli-severity-" + p.severity, default=p.severity)
    head = f"{p.loc.file}:{p.loc.line}:{p.loc.col}: {p.severity}: "
    return text.replace(head, f"{p.loc.file}:{p.loc.line}:{p.loc.col}: {word}: ", 1)


def count_line(n: int, lang: str | None = None) -> str:
    from .cli_text import cli_text
    return cli_text(lang or _LANG[0], "cli-problems", {"n": n})


def print_problems(problems: list[Problem], fmt: str = "text") -> None:
    """Print problems as text on stderr, or as JSON on stdout."""
    if fmt == "json":
        print(problems_json(problems))
    else:
        body = "\n".join(problem_text(p) for p in problems)
        print(f"{body}\n{count_line(len(problems))}", file=sys.stderr)


# a file or a pipe has no edge: its tables are printed whole, never cut to 80 columns
UNBOUNDED = 10_000


def console(stderr: bool = False):
    """A rich Console for a command's output: a terminal's width in a terminal, the width COLUMNS
    says when set, and otherwise (a file, a pipe) no limit, so no table is cut with an ellipsis."""
    from rich.console import Console
    stream = sys.stderr if stderr else sys.stdout
    tty = hasattr(stream, "isatty") and stream.isatty()
    return Console(stderr=stderr, width=None if tty or os.environ.get("COLUMNS") else UNBOUNDED)
