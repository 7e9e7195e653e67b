"""`grimoire i18n export` and `grimoire i18n import`: locale files to and from .ftl and .po.

Pipeline position: CLI layer; export reads the locale YAML, import merges into it (comments and
order kept, written atomically)."""

from __future__ import annotations

from pathlib import Path

from ..errors import Loc, Problem, RulesetError
from .commands import _read_locale_rt, _ruleset_dir, _scalar, _set_sources, _write_locale_rt
from .fluent import parse_pattern, pattern_hash
from .ftl import parse_ftl_file, to_ftl_file
from .locales import LANGS, locale_messages, locale_sources
from .po import parse_po, to_po


def cmd_export(args) -> int:
    root = _ruleset_dir(args.ruleset)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    en, _, en_doc = locale_messages(root, "en")
    en_lines = {k: en_doc.source.key(("messages", k)).line for k in en} if en_doc is not None else {}
    from ..cli import write_atomic
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


