"""`grimoire i18n check` and `grimoire i18n stamp`, and the helpers every i18n command shares.

Pipeline position: CLI layer over `interpreter.i18n`."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from ..errors import Problem, RulesetError, format_problem
from .check import check_locales
from .fluent import pattern_hash
from .locales import LANGS, locale_messages, locale_sources

CATEGORY_NAMES = {
    "missing": "missing ids", "extra": "extra ids", "variables": "variables differ from English",
    "plural": "plural categories", "syntax": "Fluent syntax", "stale": "stale (English changed)",
    "schema": "schema", "gender": "gendered forms without a select",
    "forms": "names lacking a grammatical form", "english": "English vs the ruleset (warnings)",
}


def _ui(args) -> str:
    """The language the command line speaks (`--lang` of grimoire, or LANG)."""
    return getattr(args, "cli_lang", None) or "en"


def cli_text(lang: str, msg_id: str, args: dict | None = None) -> str:
    """A message of the command line in its language."""
    from ..cli_i18n import cli_text as text
    return text(lang, msg_id, args)


def _ruleset_dir(name: str) -> Path:
    from ..game import resolve_ruleset
    return Path(resolve_ruleset(name))


def _program(root: Path, variants=()):
    from ..game import load
    try:
        return load(root, list(variants)).program
    except RulesetError:
        return None


def _cli_warnings(parser, langs) -> list[Problem]:
    """Help strings of the command line with no text in a language: warnings (an option added
    since the last translation shows in English until translated)."""
    from ..cli_i18n import catalog, untranslated
    from ..errors import Loc
    from .locales import ENGINE_MESSAGES
    out = []
    for lang in langs:
        todo = untranslated(parser, lang) if lang != "en" else [k for k in catalog(parser) if not _engine_has(k)]
        if todo:
            out.append(Problem(Loc(str(ENGINE_MESSAGES / f"{lang}.yaml"), 1, 1),
                               f"{len(todo)} help text(s) of the command line not in {lang}: {', '.join(todo[:5])}"
                               + (" ..." if len(todo) > 5 else ""), ("cli",), "warning"))
    return out


def _engine_has(key: str) -> bool:
    from .locales import _engine_messages
    return key in _engine_messages("en")[0]


def cmd_check(args) -> int:
    root = _ruleset_dir(args.ruleset)
    langs = args.lang or list(LANGS)
    prog = _program(root, args.variant)
    problems = check_locales(root, langs, prog, engine=not args.no_engine)
    if not args.no_engine and getattr(args, "parser", None) is not None:
        problems += _cli_warnings(args.parser, langs)
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
    en, _, _ = locale_messages(root, "en")
    for lang in langs:
        msgs, _, doc = locale_messages(root, lang)
        c = counts.get(lang, {})
        ui = _ui(args)
        detail = ", ".join(f"{n} {CATEGORY_NAMES.get(k, k)}" for k, n in sorted(c.items()))
        detail = detail or cli_text(ui, "cli-check-ok")
        stamped = len(locale_sources(doc)) if doc is not None else 0
        extra = "" if lang == "en" else cli_text(ui, "cli-check-stamped", {"n": stamped})
        print(cli_text(ui, "cli-check-summary", {"ruleset": root.name, "lang": lang, "have": len(msgs),
                                                 "total": len(en), "stamped": extra, "detail": detail}))
    if warnings:
        print(cli_text(_ui(args), "cli-warnings", {"n": len(warnings)}))
    print(cli_text(_ui(args), "cli-problems", {"n": len(errors)}))
    return 1 if errors else 0


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
    from ..cli import write_atomic
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
    root = _ruleset_dir(args.ruleset)
    en, _, _ = locale_messages(root, "en")
    for lang in args.lang or [lg for lg in LANGS if lg != "en"]:
        path = root / "locales" / f"{lang}.yaml"
        if not path.is_file():
            continue
        y, data = _read_locale_rt(path, lang)
        sources = {str(k): str(v) for k, v in (data.get("source") or {}).items()}
        changed, added = [], []
        for key in data["messages"]:
            if key in en and (not args.ids or key in args.ids) and (args.all or key not in sources or args.ids):
                new = pattern_hash(en[key])
                if key not in sources:
                    added.append(key)
                elif sources[key] != new:
                    changed.append(key)
                sources[key] = new
        if not changed and not added:
            print(cli_text(_ui(args), "cli-nothing-to-stamp", {"file": str(path)}))
            continue
        _set_sources(data, sources, list(data["messages"]))
        _write_locale_rt(path, y, data)
        parts = []
        if changed:
            parts.append(cli_text(_ui(args), "cli-restamped", {"n": len(changed), "ids": _ids(changed)}))
        if added:
            parts.append(cli_text(_ui(args), "cli-stamped-new", {"n": len(added), "ids": _ids(added)}))
        print(f"{path}: " + "; ".join(parts))
    return 0


def _ids(keys: list[str], most: int = 6) -> str:
    """A short list of message ids for a report."""
    return ", ".join(keys[:most]) + (f" and {len(keys) - most} more" if len(keys) > most else "")


