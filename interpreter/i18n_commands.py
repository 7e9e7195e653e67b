"""`grimoire i18n check | stamp | export | import` and `grimoire render`.

Pipeline position: CLI layer over `interpreter.i18n`. Locale files stay the single source
of truth (YAML, schema-checked, reviewed in git); .ftl and .po files are exchange formats
for translation tools and round-trip without loss:

* `.ftl` (Pontoon, Weblate's Fluent format): one file per locale, each message as Fluent
  source; a translated message carries its English source hash in a `# source: HASH`
  comment.
* `.po` (every other tool): `msgctxt` is the message id, `msgid` the English Fluent
  pattern, `msgstr` the translation. An entry whose English changed since it was translated
  (or that was never stamped) is marked `fuzzy`. On import, a non-fuzzy entry is stamped
  with the hash of its `msgid`; a fuzzy one keeps the hash the locale file had.

`grimoire render RULESET --lang L --out DIR` writes `index.html`, a printable sheet of every
card (name, text with its numbers from the card's params, copies), and `cards/ID.svg` per
card, in that language.
"""

from __future__ import annotations

import html
import io
import re
import sys
from pathlib import Path

from .errors import Loc, Problem, RulesetError, format_problem
from .i18n import LANGS, check_locales, locale_sources, parse_pattern, pattern_hash, to_ftl

CATEGORY_NAMES = {
    "missing": "missing ids", "extra": "extra ids", "variables": "variables differ from English",
    "plural": "plural categories", "syntax": "Fluent syntax", "stale": "stale (English changed)",
    "schema": "schema", "english": "English vs the ruleset (warnings)",
}


def _ruleset_dir(name: str) -> Path:
    from .game import resolve_ruleset
    return Path(resolve_ruleset(name))


def _program(root: Path, variants=()):
    from .game import load
    try:
        return load(root, list(variants)).program
    except RulesetError:
        return None


# ---- check -------------------------------------------------------------------------------------

def cmd_check(args) -> int:
    root = _ruleset_dir(args.ruleset)
    langs = args.lang or list(LANGS)
    prog = _program(root, args.variant)
    problems = check_locales(root, langs, prog, engine=not args.no_engine)
    errors = [p for p in problems if p.severity != "warning"]
    warnings = [p for p in problems if p.severity == "warning"]
    if args.format == "json":
        import json
        print(json.dumps({"ok": not errors, "errors": [p.to_dict() | {"category": (p.path or ("",))[0]}
                                                        for p in problems]}, ensure_ascii=False, indent=2))
        return 1 if errors else 0
    for p in problems:
        print(format_problem(p), file=sys.stderr)
    counts: dict[str, dict[str, int]] = {}
    for p in errors:
        lang = Path(p.loc.file).stem if p.loc.file.endswith(".yaml") else "?"
        counts.setdefault(lang, {}).setdefault((p.path or ("other",))[0], 0)
        counts[lang][(p.path or ("other",))[0]] += 1
    from .i18n import locale_messages
    en, _, _ = locale_messages(root, "en")
    for lang in langs:
        msgs, _, doc = locale_messages(root, lang)
        c = counts.get(lang, {})
        detail = ", ".join(f"{n} {CATEGORY_NAMES.get(k, k)}" for k, n in sorted(c.items())) or "ok"
        stamped = len(locale_sources(doc)) if doc is not None else 0
        extra = "" if lang == "en" else f", {stamped} stamped"
        print(f"{root.name} {lang}: {len(msgs)}/{len(en)} messages{extra}: {detail}")
    if warnings:
        print(f"{len(warnings)} warning{'s' if len(warnings) != 1 else ''} about English (not failures)")
    print(f"{len(errors)} error{'s' if len(errors) != 1 else ''}")
    return 1 if errors else 0


# ---- stamp -------------------------------------------------------------------------------------

def _rt_yaml():
    from ruamel.yaml import YAML
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.width = 4096
    y.indent(mapping=2, sequence=4, offset=2)
    return y


def _scalar(text: str):
    from ruamel.yaml.scalarstring import LiteralScalarString
    if "\n" in text:
        return LiteralScalarString(text)
    return text


def _read_locale_rt(path: Path, lang: str):
    y = _rt_yaml()
    if path.is_file():
        data = y.load(path.read_text(encoding="utf-8"))
    else:
        from ruamel.yaml.comments import CommentedMap
        data = CommentedMap()
        data["locale"] = lang
        data["messages"] = CommentedMap()
    if data.get("messages") is None:
        from ruamel.yaml.comments import CommentedMap
        data["messages"] = CommentedMap()
    return y, data


def _write_locale_rt(path: Path, y, data) -> None:
    from .files import write_atomic
    buf = io.StringIO()
    y.dump(data, buf)
    text = buf.getvalue()
    if not text.startswith("# yaml-language-server"):
        text = "# yaml-language-server: $schema=../../../schemas/locale.schema.json\n" + text
    write_atomic(path, text)


def _set_sources(data, sources: dict, order: list[str]) -> None:
    from ruamel.yaml.comments import CommentedMap
    if not sources:
        if "source" in data:
            del data["source"]
        return
    m = CommentedMap()
    for k in order:
        if k in sources:
            m[k] = sources[k]
    for k in sources:
        if k not in m:
            m[k] = sources[k]
    data["source"] = m


def cmd_stamp(args) -> int:
    """Record, for the given ids (or all translated ones), the hash of the current English."""
    from .i18n import locale_messages
    root = _ruleset_dir(args.ruleset)
    en, _, _ = locale_messages(root, "en")
    for lang in args.lang or [lg for lg in LANGS if lg != "en"]:
        path = root / "locales" / f"{lang}.yaml"
        if not path.is_file():
            continue
        y, data = _read_locale_rt(path, lang)
        sources = {str(k): str(v) for k, v in (data.get("source") or {}).items()}
        n = 0
        for key in data["messages"]:
            if key in en and (not args.ids or key in args.ids) and (args.all or key not in sources or args.ids):
                sources[key] = pattern_hash(en[key])
                n += 1
        _set_sources(data, sources, list(data["messages"]))
        _write_locale_rt(path, y, data)
        print(f"{path}: stamped {n} message{'s' if n != 1 else ''}")
    return 0


# ---- FTL -----------------------------------------------------------------------------------------

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


# ---- PO ------------------------------------------------------------------------------------------

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
    from .i18n import plural_categories
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
        from .i18n import scan
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


# ---- export / import -------------------------------------------------------------------------------

def cmd_export(args) -> int:
    from .i18n import locale_messages
    root = _ruleset_dir(args.ruleset)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    en, _, en_doc = locale_messages(root, "en")
    en_lines = {k: en_doc.source.key(("messages", k)).line for k in en} if en_doc is not None else {}
    from .files import write_atomic
    for lang in args.lang or list(LANGS):
        msgs, problems, doc = locale_messages(root, lang)
        if problems:
            raise RulesetError(problems)
        sources = locale_sources(doc)
        if args.format == "ftl":
            text = to_ftl_file(msgs, sources if lang != "en" else None,
                               header=f"Grimoire {root.name}, locale {lang}. Source language: en.")
            path = out / f"{lang}.ftl"
        else:
            if lang == "en":
                text = to_po(en, {}, {}, "en", root.name, en_lines)
                path = out / f"{root.name}.pot"
            else:
                text = to_po(en, msgs, sources, lang, root.name, en_lines)
                path = out / f"{lang}.po"
        write_atomic(path, text)
        print(f"wrote {path} ({len(msgs) if lang != 'en' or args.format == 'ftl' else len(en)} messages)")
    return 0


def import_messages(root: Path, lang: str, msgs: dict, sources_in: dict, fuzzy: set, from_po: bool,
                    po_ids: dict | None = None, prune: bool = False) -> tuple[int, int]:
    """Merge translated messages into locales/LANG.yaml (comments and order kept)."""
    from .i18n import locale_messages
    en, _, _ = locale_messages(root, "en")
    path = root / "locales" / f"{lang}.yaml"
    y, data = _read_locale_rt(path, lang)
    data["locale"] = data.get("locale") or lang
    old = {str(k): str(v) for k, v in data["messages"].items()}
    sources = {str(k): str(v) for k, v in (data.get("source") or {}).items()}
    changed = added = 0
    order = list(en) + [k for k in msgs if k not in en]
    for key in order:
        if key not in msgs:
            continue
        value = msgs[key]
        if key in old:
            if old[key] != value:
                data["messages"][key] = _scalar(value)
                changed += 1
        else:
            # insert in English order
            keys = list(data["messages"].keys())
            pos = len(keys)
            if key in en:
                later = [k for k in list(en)[list(en).index(key) + 1:] if k in data["messages"]]
                if later:
                    pos = keys.index(later[0])
            data["messages"].insert(pos, key, _scalar(value))
            added += 1
        if lang == "en":
            continue
        if key in sources_in:
            sources[key] = sources_in[key]
        elif from_po and key not in fuzzy and po_ids is not None and key in po_ids:
            sources[key] = pattern_hash(po_ids[key])
        elif old.get(key) == value:
            pass                                    # unchanged: keep whatever hash it had
        elif key in en and key not in fuzzy:
            sources[key] = pattern_hash(en[key])     # newly translated against today's English
    if prune:
        for key in [k for k in data["messages"] if k not in msgs]:
            del data["messages"][key]
            sources.pop(key, None)
    if lang != "en":
        _set_sources(data, {k: v for k, v in sources.items() if k in data["messages"]}, list(data["messages"]))
    _write_locale_rt(path, y, data)
    return changed, added


def cmd_import(args) -> int:
    root = _ruleset_dir(args.ruleset)
    problems: list[Problem] = []
    for f in args.files:
        fp = Path(f)
        text = fp.read_text(encoding="utf-8")
        if fp.suffix == ".po":
            entries, header, probs = parse_po(text, str(fp))
            problems.extend(probs)
            lang = args.lang or header.get("Language") or fp.stem
            msgs, fuzzy, ids = {}, set(), {}
            for e in entries:
                if e["obsolete"] or not e["ctx"]:
                    if e["obsolete"] and e["ctx"] and e["str"]:
                        msgs[e["ctx"]] = e["str"]
                        fuzzy.add(e["ctx"])
                    continue
                if e["str"] == "":
                    continue
                msgs[e["ctx"]] = e["str"]
                ids[e["ctx"]] = e["id"]
                if e["fuzzy"]:
                    fuzzy.add(e["ctx"])
            sources_in, from_po = {}, True
        elif fp.suffix == ".ftl":
            msgs, sources_in, probs = parse_ftl_file(text, str(fp))
            problems.extend(probs)
            lang, fuzzy, ids, from_po = args.lang or fp.stem, set(), None, False
        else:
            problems.append(Problem(Loc(str(fp), 0, 0), "import reads .po and .ftl files"))
            continue
        if lang not in LANGS:
            problems.append(Problem(Loc(str(fp), 1, 1), f"unknown language {lang!r} (use --lang)"))
            continue
        for key, value in msgs.items():
            for line, col, note in parse_pattern(key, value)[1]:
                problems.append(Problem(Loc(str(fp), 0, 0), f"Fluent syntax in {key!r}: {note}"))
        if problems:
            continue
        changed, added = import_messages(root, lang, msgs, sources_in, fuzzy, from_po, ids, args.prune)
        print(f"{fp} -> {root / 'locales' / (lang + '.yaml')}: {changed} changed, {added} added")
    if problems:
        raise RulesetError(problems)
    return 0


# ---- render: a printable card sheet and one SVG per card -------------------------------------------

CARD_W, CARD_H = 250, 350          # SVG units (= CSS px at 96 dpi): 63.5 x 88.9 mm is 240 x 336


def _wrap(text: str, width: int) -> list[str]:
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split():
            if cur and len(cur) + 1 + len(word) > width:
                lines.append(cur)
                cur = word
            else:
                cur = f"{cur} {word}" if cur else word
        lines.append(cur)
    return lines


def card_svg(name: str, text: str, set_label: str, copies: str, colour: str) -> str:
    e = html.escape
    title_lines = _wrap(name, 22)
    size = 13 if len(text) < 160 else 11 if len(text) < 260 else 9.5
    width = int(34 * 13 / size)
    body = _wrap(text, width)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{CARD_W}" height="{CARD_H}" '
           f'viewBox="0 0 {CARD_W} {CARD_H}" font-family="DejaVu Serif, Georgia, serif">',
           f'<rect x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="12" fill="#fffdf6" '
           f'stroke="{colour}" stroke-width="4"/>',
           f'<rect x="12" y="12" width="{CARD_W - 24}" height="{28 + 18 * (len(title_lines) - 1)}" rx="6" '
           f'fill="{colour}"/>']
    for i, ln in enumerate(title_lines):
        out.append(f'<text x="{CARD_W // 2}" y="{32 + 18 * i}" text-anchor="middle" font-size="16" '
                   f'font-weight="bold" fill="#fff">{e(ln)}</text>')
    y0 = 70 + 18 * (len(title_lines) - 1)
    out.append(f'<text x="18" y="{y0}" font-size="{size}" fill="#222">')
    for i, ln in enumerate(body):
        out.append(f'<tspan x="18" dy="{0 if i == 0 else round(size * 1.3, 1)}">{e(ln)}</tspan>')
    out.append("</text>")
    out.append(f'<text x="18" y="{CARD_H - 16}" font-size="10" fill="#666">{e(set_label)}</text>')
    out.append(f'<text x="{CARD_W - 18}" y="{CARD_H - 16}" font-size="10" fill="#666" '
               f'text-anchor="end">{e(copies)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


_SET_COLOURS = ["#7a1f1f", "#1f3f7a", "#2f6a2f", "#6a4f1f", "#4f2f6a", "#1f6a66", "#555555", "#8a5a00"]

_PAGE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  @page {{ size: A4; margin: 8mm; }}
  body {{ margin: 0; padding: 8px; background: #fff; color: #222;
         font-family: "DejaVu Serif", Georgia, serif; }}
  h1 {{ font-size: 18px; margin: 4px 4px 10px; }}
  .sheet {{ display: flex; flex-wrap: wrap; gap: 6px; }}
  .card {{ box-sizing: border-box; width: 63mm; height: 88mm; border: 3px solid var(--c);
          border-radius: 10px; padding: 0; display: flex; flex-direction: column;
          break-inside: avoid; page-break-inside: avoid; background: #fffdf6; overflow: hidden; }}
  .card h2 {{ margin: 0; padding: 6px 8px; font-size: 15px; color: #fff; background: var(--c);
             text-align: center; }}
  .card .text {{ flex: 1; padding: 8px 10px; font-size: 12.5px; line-height: 1.3; overflow: hidden; }}
  .card footer {{ display: flex; justify-content: space-between; padding: 4px 10px 6px;
                 font-size: 10px; color: #666; }}
</style>
</head>
<body>
<h1>{title}</h1>
<div class="sheet">
{cards}
</div>
<script>
  // Shrink the text of a card until it fits; mark what still overflows (tests read this).
  var over = 0;
  document.querySelectorAll('.card .text').forEach(function (t) {{
    var size = 12.5;
    while (t.scrollHeight > t.clientHeight + 1 && size > 7) {{ size -= 0.5; t.style.fontSize = size + 'px'; }}
    if (t.scrollHeight > t.clientHeight + 1) {{ t.parentNode.classList.add('overflow'); over++; }}
  }});
  document.body.setAttribute('data-overflow', String(over));
  document.body.setAttribute('data-cards', String(document.querySelectorAll('.card').length));
</script>
</body>
</html>
"""


def render_cards(root: Path, lang: str, out: Path, variants=()) -> dict:
    """Write index.html and cards/*.svg; return {card id: (name, text)}."""
    from .files import write_atomic
    from .game import load
    from .i18n import Text
    game = load(root, list(variants))
    prog = game.program
    text = Text(prog, lang)
    out.mkdir(parents=True, exist_ok=True)
    (out / "cards").mkdir(exist_ok=True)
    sets = sorted(set(prog.kind_sets))
    counts = [len(x) for x in prog.kind_instances]
    rendered, blocks = {}, []
    for k, cid in enumerate(prog.card_ids):
        name, body = text.card_name(k), text.card_text(k)
        set_id = prog.kind_sets[k]
        set_label = text.msg("set-" + set_id, default="") if text.has("set-" + set_id) else ""
        copies = text.msg("render-copies", {"n": counts[k]}, default=f"×{counts[k]}")
        colour = _SET_COLOURS[sets.index(set_id) % len(_SET_COLOURS)]
        write_atomic(out / "cards" / f"{cid}.svg", card_svg(name, body, set_label, copies, colour))
        e = html.escape
        blocks.append(f'<div class="card" id="card-{e(cid)}" style="--c: {colour}">'
                      f'<h2>{e(name)}</h2><div class="text">{e(body)}</div>'
                      f'<footer><span>{e(set_label)}</span><span>{e(copies)}</span></footer></div>')
        rendered[cid] = (name, body)
    title = text.msg("render-title", {"ruleset": game.ruleset.title}, default=game.ruleset.title)
    write_atomic(out / "index.html", _PAGE.format(lang=lang, title=html.escape(title), cards="\n".join(blocks)))
    if text.missing or text.fallbacks:
        missing = sorted(text.missing | text.fallbacks)
        print(f"warning: {len(missing)} message(s) not in {lang}: {', '.join(missing[:8])}"
              + (" ..." if len(missing) > 8 else ""), file=sys.stderr)
    return rendered


def cmd_render(args) -> int:
    root = _ruleset_dir(args.ruleset)
    rendered = render_cards(root, args.lang, Path(args.out), args.variant)
    print(f"wrote {Path(args.out) / 'index.html'} and {len(rendered)} SVG cards in {Path(args.out) / 'cards'}")
    return 0


# ---- registration ----------------------------------------------------------------------------------

def register(sub) -> None:
    i = sub.add_parser("i18n", help="check, stamp, export and import translations")
    isub = i.add_subparsers(dest="i18n_cmd", required=True)
    c = isub.add_parser("check", help="compare every locale with English; exit 1 on any problem")
    c.add_argument("ruleset")
    c.add_argument("--lang", action="append", choices=list(LANGS))
    c.add_argument("--variant", action="append", default=[])
    c.add_argument("--no-engine", action="store_true", help="skip the engine's own messages")
    c.add_argument("--format", choices=["text", "json"], default="text")
    c.set_defaults(fn=cmd_check)
    s = isub.add_parser("stamp", help="record the English each translation was made from")
    s.add_argument("ruleset")
    s.add_argument("--lang", action="append", choices=[lg for lg in LANGS if lg != "en"])
    s.add_argument("--id", dest="ids", action="append", default=[],
                   help="only this id (repeatable; default: every id with no hash yet)")
    s.add_argument("--all", action="store_true", help="re-stamp every translated id")
    s.set_defaults(fn=cmd_stamp)
    e = isub.add_parser("export", help="write .ftl (Pontoon, Weblate) or .po files")
    e.add_argument("ruleset")
    e.add_argument("--format", choices=["ftl", "po"], default="po")
    e.add_argument("--lang", action="append", choices=list(LANGS))
    e.add_argument("--out", required=True)
    e.set_defaults(fn=cmd_export)
    m = isub.add_parser("import", help="merge .ftl or .po files into locales/LANG.yaml")
    m.add_argument("ruleset")
    m.add_argument("files", nargs="+")
    m.add_argument("--lang", choices=list(LANGS), help="default: the PO Language header or the file name")
    m.add_argument("--prune", action="store_true", help="drop messages the file does not have")
    m.set_defaults(fn=cmd_import)
    r = sub.add_parser("render", help="write a printable HTML card sheet and an SVG per card")
    r.add_argument("ruleset")
    r.add_argument("--lang", default="en", choices=list(LANGS))
    r.add_argument("--out", required=True)
    r.add_argument("--variant", action="append", default=[])
    r.set_defaults(fn=cmd_render)
