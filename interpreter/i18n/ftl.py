"""Fluent (.ftl) files for Pontoon and Weblate: one file per locale, each message as standard
Fluent source; a translated message carries its English source hash in a `# source: HASH` comment.

Pipeline position: exchange format over the locale YAML files (which stay the source of truth)."""

from __future__ import annotations

import re

from ..errors import Loc, Problem
from .fluent import to_ftl


def to_ftl_file(messages: dict, sources: dict | None = None, header: str = "") -> str:
    out = []
    if header:
        out.append("".join(f"### {ln}\n" for ln in header.splitlines()))
    for key, pattern in messages.items():
        if sources and key in sources:
            out.append(f"# source: {sources[key]}\n")
        out.append(to_ftl({key: str(pattern)}))
    return "".join(out)


def parse_ftl_file(text: str, name: str = "<ftl>") -> tuple[dict, dict, list[Problem]]:
    """Messages (as canonical YAML pattern text), source hashes, and syntax problems."""
    from fluent.syntax import FluentParser
    from fluent.syntax import ast as FA
    res = FluentParser(with_spans=True).parse(text)
    msgs, sources, problems = {}, {}, []
    for entry in res.body:
        if isinstance(entry, FA.Junk):
            off = entry.annotations[0].span.start if entry.annotations else entry.span.start
            line = text.count("\n", 0, off) + 1
            problems.append(Problem(Loc(name, line, 1), "Fluent syntax: " +
                                    (entry.annotations[0].message if entry.annotations else "junk")))
            continue
        if not isinstance(entry, FA.Message) or entry.value is None:
            continue
        key = entry.id.name
        raw = text[entry.span.start:entry.span.end]
        body = raw.split("=", 1)[1]
        if body.startswith(" ") and not body.startswith(" \n") and "\n" not in body.strip("\n"):
            value = body[1:].rstrip("\n")
        else:
            lines = body.lstrip(" ").split("\n")
            if lines and lines[0] == "":
                lines = lines[1:]
            while lines and not lines[-1].strip():
                lines.pop()
            value = "\n".join(ln[4:] if ln.startswith("    ") else ln.lstrip(" ") for ln in lines)
        msgs[key] = value
        if entry.comment is not None:
            m = re.search(r"source:\s*([0-9a-f]+)", entry.comment.content)
            if m:
                sources[key] = m.group(1)
    return msgs, sources, problems


