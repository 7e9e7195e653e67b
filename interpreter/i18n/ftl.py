"""Fluent (.ftl) files for Pontoon and Weblate: one file per locale, every message in standard
Fluent syntax (selects on their own lines, so `fluent.syntax` parses the file with no Junk).

A translated message carries the hash of the English it was made from in a `# source: HASH`
comment; the grammatical forms of a name (`forms:` in the locale file) are the message's
attributes (`.in = в Поиске Грааля`). The file's resource comment names the locale and the
ruleset (`### Locale: pl`, `### Ruleset: NAME`), and import honours them.

Pipeline position: exchange format over the locale YAML files (which stay the source of truth).
"""

from __future__ import annotations

import re

from ..errors import Loc, Problem
from .fluent import expand_selects, to_ftl


def _attr(name: str, pattern: str) -> str:
    text = expand_selects(str(pattern).rstrip("\n"))
    lines = text.split("\n")
    if len(lines) == 1:
        return f"    .{name} = {lines[0]}\n"
    return f"    .{name} =\n" + "".join(("        " + ln if ln.strip() else "") + "\n" for ln in lines)


def to_ftl_file(messages: dict, sources: dict | None = None, header: str = "", forms: dict | None = None) -> str:
    """A whole .ftl file: the resource comment, then each message (with its source hash and forms)."""
    out = []
    if header:
        out.append("".join(f"### {ln}\n" for ln in header.splitlines()) + "\n")
    for key, pattern in messages.items():
        if sources and key in sources:
            out.append(f"# source: {sources[key]}\n")
        out.append(to_ftl({key: str(pattern)}))
        for name, form in ((forms or {}).get(key) or {}).items():
            out.append(_attr(name, form))
    return "".join(out)


def _pattern_text(text: str, span) -> str:
    """The YAML pattern back from its Fluent source: continuation lines lose the indentation
    the export gave them."""
    raw = text[span.start:span.end]
    lines = raw.split("\n")
    rest = [ln for ln in (lines if lines[0][:1].isspace() else lines[1:]) if ln.strip()]
    cut = min((len(ln) - len(ln.lstrip(" ")) for ln in rest), default=0)
    if lines[0][:1].isspace():
        return "\n".join(ln[cut:] for ln in lines)
    return "\n".join([lines[0]] + [ln[cut:] for ln in lines[1:]])


def ftl_header(text: str) -> dict[str, str]:
    """`### Key: value` lines of the resource comment (Locale, Ruleset)."""
    out = {}
    for m in re.finditer(r"^###\s*([A-Za-z-]+):\s*(\S.*?)\s*$", text, re.M):
        out.setdefault(m.group(1).lower(), m.group(2))
    return out


def parse_ftl_file(text: str, name: str = "<ftl>") -> tuple[dict, dict, list[Problem], dict, dict]:
    """Messages (as YAML pattern text), source hashes, syntax problems, forms {id: {form: text}},
    and each message's line in the file."""
    from fluent.syntax import FluentParser
    from fluent.syntax import ast as FA
    res = FluentParser(with_spans=True).parse(text)
    msgs, sources, problems, forms, lines = {}, {}, [], {}, {}
    for entry in res.body:
        if isinstance(entry, FA.Junk):
            off = entry.annotations[0].span.start if entry.annotations else entry.span.start
            line = text.count("\n", 0, off) + 1
            col = off - (text.rfind("\n", 0, off) + 1) + 1
            problems.append(Problem(Loc(name, line, col), "Fluent syntax: " +
                                    (entry.annotations[0].message if entry.annotations else "junk")))
            continue
        if not isinstance(entry, FA.Message) or entry.value is None:
            continue
        key = entry.id.name
        msgs[key] = _pattern_text(text, entry.value.span)
        lines[key] = text.count("\n", 0, entry.id.span.start) + 1
        for a in entry.attributes:
            forms.setdefault(key, {})[a.id.name] = _pattern_text(text, a.value.span)
        if entry.comment is not None:
            m = re.search(r"source:\s*([0-9a-f]+)", entry.comment.content)
            if m:
                sources[key] = m.group(1)
    return msgs, sources, problems, forms, lines
