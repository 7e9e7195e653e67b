"""How commands print located problems: text on stderr, or JSON on stdout.

Pipeline position: commands (shared by every command and by cli.py's dispatch).
"""

from __future__ import annotations

import os
import sys

from ..errors import Problem, format_problems, problems_json


def print_problems(problems: list[Problem], fmt: str = "text") -> None:
    """Print problems as text on stderr, or as JSON on stdout."""
    if fmt == "json":
        print(problems_json(problems))
    else:
        print(format_problems(problems), file=sys.stderr)


# a file or a pipe has no edge: its tables are printed whole, never cut to 80 columns
UNBOUNDED = 10_000


def console(stderr: bool = False):
    """A rich Console for a command's output: a terminal's width in a terminal, the width COLUMNS
    says when set, and otherwise (a file, a pipe) no limit, so no table is cut with an ellipsis."""
    from rich.console import Console
    stream = sys.stderr if stderr else sys.stdout
    tty = hasattr(stream, "isatty") and stream.isatty()
    return Console(stderr=stderr, width=None if tty or os.environ.get("COLUMNS") else UNBOUNDED)
