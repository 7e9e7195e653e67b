"""One error hierarchy; every problem found before play is located (file:line:col).

Pipeline position: used by every stage. A stage collects `Problem`s and raises one
`RulesetError` carrying all of them, so a rules author sees every mistake at once.
Illegal moves during play are *not* exceptions: they come back as `Refusal` values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class Loc:
    """A position in a source file; line and col are 1-based (0 means unknown)."""

    file: str = "<unknown>"
    line: int = 0
    col: int = 0

    def shifted(self, line_off: int, col: int) -> Loc:
        """Return a location `line_off` lines below this one, at column `col`."""
        return Loc(self.file, self.line + line_off, col)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Problem:
    """One located message: what is wrong, and where."""

    loc: Loc
    message: str
    path: tuple = field(default=(), compare=False)
    severity: str = "error"
    # False for files that are data, not text a person wrote (a save): the message names the
    # place, and the line is not printed (it may be megabytes long and hold hidden cards)
    quote: bool = field(default=True, compare=False)

    def to_dict(self) -> dict:
        return {
            "file": self.loc.file,
            "line": self.loc.line,
            "col": self.loc.col,
            "message": self.message,
            "path": [str(p) for p in self.path],
            "severity": self.severity,
        }


class GrimoireError(Exception):
    """Base of every error this package raises on purpose."""


class RulesetError(GrimoireError):
    """One or more located problems in user-written files (ruleset, variant, locale, scenario, save)."""

    def __init__(self, problems: list[Problem] | Problem):
        if isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(f"{p.loc}: {p.message}" for p in self.problems))

    def __reduce__(self):  # rebuilt from its problems, so it survives a worker process
        return (RulesetError, (self.problems,))


class Collector:
    """Gathers problems during a stage; `raise_if_any` ends the stage with all of them."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, loc: Loc, message: str, path: tuple = ()) -> None:
        """Record one problem."""
        self.problems.append(Problem(loc, message, path))

    def extend(self, problems: list[Problem]) -> None:
        """Record several problems."""
        self.problems.extend(problems)

    def __bool__(self) -> bool:
        return bool(self.problems)

    def raise_if_any(self) -> None:
        """Raise a RulesetError holding every problem collected so far."""
        if self.problems:
            raise RulesetError(dedupe(self.problems))


def dedupe(problems: list[Problem]) -> list[Problem]:
    """Drop exact repeats, keeping first-seen order."""
    seen: set = set()
    out = []
    for p in problems:
        key = (p.loc, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


_line_cache: dict[str, list[str]] = {}


def source_line(file: str, line: int) -> str | None:
    """Return line `line` (1-based) of `file`, or None if it cannot be read."""
    if line <= 0:
        return None
    try:
        key = str(Path(file).resolve())
    except OSError:
        key = file
    lines = _line_cache.get(key)
    if lines is None:
        try:
            raw = Path(file).read_bytes()
        except OSError:
            return None
        lines = raw.decode("utf-8", errors="replace").splitlines()
        _line_cache[key] = lines
    if line - 1 < len(lines):
        return lines[line - 1]
    return None


MAX_QUOTE = 160  # characters of a source line printed under a message


def format_problem(p: Problem) -> str:
    """Render one problem gcc-style: `file:line:col: message`, the source line, a caret."""
    head = f"{p.loc.file}:{p.loc.line}:{p.loc.col}: {p.severity}: {p.message}"
    text = source_line(p.loc.file, p.loc.line) if p.quote else None
    if text is None:
        return head
    text = text.replace("\t", " ")
    col = max(p.loc.col - 1, 0)
    if len(text) > MAX_QUOTE:  # a window around the column, not a whole minified file
        start = max(0, min(col - MAX_QUOTE // 2, len(text) - MAX_QUOTE))
        text = ("..." if start else "") + text[start:start + MAX_QUOTE] + (
            "..." if start + MAX_QUOTE < len(text) else "")
        col = col - start + (3 if start else 0)
    caret = " " * col + "^"
    return f"{head}\n    {text}\n    {caret}"


def format_problems(problems: list[Problem]) -> str:
    """Render every problem, then a count line."""
    body = "\n".join(format_problem(p) for p in problems)
    n = len(problems)
    return f"{body}\n{n} error{'s' if n != 1 else ''}"


def problems_json(problems: list[Problem]) -> str:
    """Render problems as a JSON document for editor integrations."""
    return json.dumps({"errors": [p.to_dict() for p in problems]}, ensure_ascii=False, indent=2)


@dataclass(frozen=True)
class Refusal:
    """An illegal choice, returned instead of a new state; the state is unchanged."""

    message: str
    option: object = None

    def __bool__(self) -> bool:  # a refusal is falsy so `if state.apply(x):` reads naturally
        return False
