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


# the standard gettext plural rules (PO editors show them; the msgstr itself uses Fluent selects)
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}


def po_header(lang: str, ruleset: str, template: bool = False, now: str | None = None) -> list[str]:
    """The header entry: every field `msgfmt --check-format -c` asks for, and Grimoire's own."""
    import datetime
    now = now or datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M+0000")
    fields = [("Project-Id-Version", f"Grimoire {ruleset}"), ("Report-Msgid-Bugs-To", ""),
              ("POT-Creation-Date", now), ("PO-Revision-Date", now),
              ("Last-Translator", "Grimoire translators"), ("Language-Team", f"Grimoire {lang}"),
              ("Language", lang), ("MIME-Version", "1.0"),
              ("Content-Type", "text/plain; charset=UTF-8"), ("Content-Transfer-Encoding", "8bit"),
              ("Plural-Forms", PLURAL_FORMS.get(lang, "nplurals=2; plural=(n != 1);")),
              ("X-Grimoire-Ruleset", ruleset),
              ("X-Grimoire-Plural-Categories", " ".join(plural_categories(lang)))]
    return ['msgid ""', 'msgstr ""'] + [f'"{k}: {v}\\n"' for k, v in fields]


def to_po(en: dict, msgs: dict, sources: dict, lang: str, ruleset: str, en_lines: dict | None = None,
          previous: dict | None = None, forms: dict | None = None, template: bool = False,
          source_file: str = "locales/en.yaml") -> str:
    """A .po (or, `template`, a .pot) file: one entry per English message; a stale translation
    is `fuzzy` with the English it was made from as `#| msgid` when `previous` knows it; the
    grammatical forms of a name are entries `ID.FORM`."""
    out = ["# Grimoire: " + ruleset + " (" + lang + ")",
           "# msgctxt is the message id; msgid the English Fluent pattern; msgstr the translation.",
           "# Keep Fluent syntax: { $var } placeholders and { $n -> [one] ... *[other] ... } selects.",
           "# ID.FORM entries are grammatical forms (cases) of the name ID: English has none.",
           *po_header(lang, ruleset, template), ""]
    for key, english in en.items():
        english = str(english)
        msg, _ = parse_pattern(key, english)
        variables = sorted(scan(msg).vars)
        if variables:
            out.append("#. variables: " + ", ".join("$" + v for v in variables))
        if en_lines and key in en_lines:
            out.append(f"#: {source_file}:{en_lines[key]}")
        tr = msgs.get(key)
        if tr is not None and sources.get(key) != pattern_hash(english):
            out.append("#, fuzzy")
            old = (previous or {}).get(key)
            if old is not None and old != english:
                out.append(f"#| msgctxt {_po_quote(key)}".replace("\n", "\n#| "))
                out.append(f"#| msgid {_po_quote(old)}".replace("\n", "\n#| "))
        out.append(f"msgctxt {_po_quote(key)}")
        out.append(f"msgid {_po_quote(english)}")
        out.append(f"msgstr {_po_quote(str(tr) if tr is not None else '')}")
        out.append("")
        for form, text in ((forms or {}).get(key) or {}).items():
            out.append(f"#. the form '{form}' of {key} (e.g. with a preposition or in a case)")
            out.append(f"msgctxt {_po_quote(key + '.' + form)}")
            out.append(f"msgid {_po_quote(english)}")
            out.append(f"msgstr {_po_quote(str(text))}")
            out.append("")
    for key, tr in msgs.items():          # translations English no longer has: kept, obsolete
        if key not in en:
            out.append(f"#~ msgctxt {_po_quote(key)}".replace("\n", "\n#~ "))
            out.append(f"#~ msgid {_po_quote('')}")
            out.append(f"#~ msgstr {_po_quote(str(tr))}".replace("\n", "\n#~ "))
            out.append("")
    return "\n".join(out)


def parse_po(text: str, name: str = "<po>") -> tuple[list[dict], dict, list[Problem]]:
    """Entries [{ctx, id, str, fuzzy, obsolete, line}], header fields, problems (each at its
    file:line:col, all of them)."""
    entries, problems = [], []
    cur: dict = {}
    field = None

    def unquote(chunks: list[tuple[int, int, str]]) -> str:
        out = []
        for line, col, chunk in chunks:
            try:
                out.append(_po_unquote([chunk]))
            except ValueError as e:
                problems.append(Problem(Loc(name, line, col), str(e)))
        return "".join(out)

    def flush():
        nonlocal cur
        if "msgid" in cur:
            entries.append({"ctx": unquote(cur.get("msgctxt", [(0, 0, '""')])), "id": unquote(cur["msgid"]),
                            "str": unquote(cur.get("msgstr", [(0, 0, '""')])), "fuzzy": cur.get("fuzzy", False),
                            "obsolete": cur.get("obsolete", False), "line": cur.get("line", 0)})
        elif cur.get("line"):
            problems.append(Problem(Loc(name, cur["line"], 1), "an entry without msgid"))
        cur = {}

    for lineno, line in enumerate(text.splitlines(), 1):
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].lstrip()
        s = line.strip()
        col = len(line) - len(line.lstrip()) + 1
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
            cur[field] = [(lineno, col + len(field) + 1, m.group(2))]
            if obsolete:
                cur["obsolete"] = True
            continue
        if s.startswith('"') and field:
            cur[field].append((lineno, col, s))
            continue
        problems.append(Problem(Loc(name, lineno, col), f"unexpected line in a .po file: {s[:40]!r}"))
    flush()
    header = {}
    for e in entries:
        if e["id"] == "" and e["ctx"] == "":
            for ln in e["str"].splitlines():
                if ":" in ln:
                    k, v = ln.split(":", 1)
                    header[k.strip()] = v.strip()
    return [e for e in entries if not (e["id"] == "" and e["ctx"] == "" and not e["obsolete"])], header, problems
