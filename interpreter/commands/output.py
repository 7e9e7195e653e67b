"""How commands print located problems: text on stderr, or JSON on stdout.

Pipeline position: commands (shared by every command and by cli.py's dispatch).
"""

from __future__ import annotations

import sys

from ..errors import Problem, format_problems, problems_json


def print_problems(problems: list[Problem], fmt: str = "text") -> None:
    """Print problems as text on stderr, or as JSON on stdout."""
    if fmt == "json":
        print(problems_json(problems))
    else:
        print(format_problems(problems), file=sys.stderr)
