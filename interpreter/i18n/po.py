"""Gettext (.po) files for every other translation tool: `msgctxt` is the message id, `msgid`
the English Fluent pattern, `msgstr` the translation; an entry whose English changed since it
was translated is `fuzzy`.

Pipeline position: exchange format over the locale YAML files (which stay the source of truth)."""

from __future__ import annotations

import re

from ..errors import Loc, Problem
from .fluent import parse_pattern, pattern_hash, plural_categories, scan


def _po_quote(s: str) -> str:
    s = s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
    if "\n" not in s:
        return f'"{s}"'
    parts = s.split("\n")
    chunks = [p + "\\n" for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    return '""\n' + "\n".join(f'"{c}"' for c in chunks)


def _po_unquote(chunks: list[str]) -> str:
    out = []
    for c in chunks:
        c = c.strip()
        if not (c.startswith('"') and c.endswith('"')):
            raise ValueError(f"expected a quoted string, found {c!r}")
        body, i, buf = c[1:-1], 0, []
        while i < len(body):
            ch = body[i]
            if ch == "\\" and i + 1 < len(body):
                nxt = body[i + 1]
                buf.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}.get(nxt, nxt))
                i += 2
                continue
            buf.append(ch)
            i += 1
        out.append("".join(buf))
    return "".join(out)


def to_po(en: dict, msgs: dict, sources: dict, lang: str, ruleset: str, en_lines: dict | None = None) -> str:
    out = ['# Grimoire: ' + ruleset + ' (' + lang + ')',
           '# msgctxt is the message id; msgid the English Fluent pattern; msgstr the translation.',
           '# Keep Fluent syntax: { $var } placeholders and { $n -> [one] ... *[other] ... } selects.',
           'msgid ""', 'msgstr ""',
           '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Language: {lang}\\n"',
           f'"X-Grimoire-Ruleset: {ruleset}\\n"',
           f'"X-Grimoire-Plural-Categories: {" ".join(plural_categories(lang))}\\n"', ""]
    for key, english in en.items():
        english = str(english)
        msg, _ = parse_pattern(key, english)
        variables = sorted(scan(msg).vars)
        if variables:
            out.append("#. variables: " + ", ".join("$" + v for v in variables))
        if en_lines and key in en_lines:
            out.append(f"#: locales/en.yaml:{en_lines[key]}")
        tr = msgs.get(key)
        if tr is not None and sources.get(key) != pattern_hash(english):
            out.append("#, fuzzy")
        out.append(f"msgctxt {_po_quote(key)}")
        out.append(f"msgid {_po_quote(english)}")
        out.append(f"msgstr {_po_quote(str(tr) if tr is not None else '')}")
        out.append("")
    for key, tr in msgs.items():          # translations English no longer has: kept, obsolete
        if key not in en:
            out.append(f"#~ msgctxt {_po_quote(key)}".replace("\n", "\n#~ "))
            out.append(f"#~ msgid {_po_quote('')}")
            out.append(f"#~ msgstr {_po_quote(str(tr))}".replace("\n", "\n#~ "))
            out.append("")
    return "\n".join(out)


def parse_po(text: str, name: str = "<po>") -> tuple[list[dict], dict, list[Problem]]:
    """Entries [{ctx, id, str, fuzzy, obsolete}], header fields, problems."""
    entries, problems = [], []
    cur: dict = {}
    field = None
    lineno = 0

    def flush():
        nonlocal cur
        if "msgid" in cur:
            entries.append({"ctx": _po_unquote(cur.get("msgctxt", ['""'])), "id": _po_unquote(cur["msgid"]),
                            "str": _po_unquote(cur.get("msgstr", ['""'])), "fuzzy": cur.get("fuzzy", False),
                            "obsolete": cur.get("obsolete", False), "line": cur.get("line", 0)})
        cur = {}

    try:
        for lineno, line in enumerate(text.splitlines(), 1):
            obsolete = line.startswith("#~")
            if obsolete:
                line = line[2:].lstrip()
            s = line.strip()
            if not s:
                flush()
                field = None
                continue
            if s.startswith("#"):
                if s.startswith("#,") and "fuzzy" in s:
                    if "msgid" in cur:
                        flush()
                    cur["fuzzy"] = True
                continue
            m = re.match(r"(msgctxt|msgid|msgstr)\s+(.*)$", s)
            if m:
                if m.group(1) in ("msgctxt", "msgid") and "msgid" in cur and field == "msgstr":
                    flush()
                field = m.group(1)
                cur.setdefault("line", lineno)
                cur[field] = [m.group(2)]
                if obsolete:
                    cur["obsolete"] = True
                continue
            if s.startswith('"') and field:
                cur[field].append(s)
                continue
            problems.append(Problem(Loc(name, lineno, 1), f"unexpected line in a .po file: {s[:40]!r}"))
        flush()
    except ValueError as e:
        problems.append(Problem(Loc(name, lineno, 1), str(e)))
    header = {}
    for e in entries:
        if e["id"] == "" and e["ctx"] == "":
            for ln in e["str"].splitlines():
                if ":" in ln:
                    k, v = ln.split(":", 1)
                    header[k.strip()] = v.strip()
    return [e for e in entries if not (e["id"] == "" and e["ctx"] == "" and not e["obsolete"])], header, problems


