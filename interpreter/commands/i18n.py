"""`grimoire i18n check` and `grimoire i18n stamp`, and the helpers every i18n command shares.

Pipeline position: commands, over `interpreter.i18n`."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import Problem, RulesetError
from ..i18n.check import check_locales
from ..i18n.fluent import pattern_hash
from ..i18n.locales import locale_messages, locale_sources
from ..i18n.roundtrip import _read_locale_rt, _set_sources, _write_locale_rt
from .output import problem_text

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
    from .cli_text import cli_text as text
    return text(lang, msg_id, args)


def _ruleset_dir(name: str) -> Path:
    from ..game import resolve_ruleset
    return Path(resolve_ruleset(name))


def _program(root: Path, variants=()):
    """The compiled rules (None if they do not compile), and the problems of the variants: a
    variant that does not load is reported, not silently left out of the check."""
    from ..game import load
    try:
        return load(root, list(variants)).program, []
    except RulesetError as e:
        return None, (e.problems if variants else [])


def _cli_warnings(parser, langs) -> list[Problem]:
    """Help strings of the command line with no text in a language: warnings (an option added
    since the last translation shows in English until translated)."""
    from ..errors import Loc
    from ..i18n.locales import ENGINE_MESSAGES
    from .cli_text import catalog, untranslated
    out = []
    for lang in langs:
        todo = untranslated(parser, lang) if lang != "en" else [k for k in catalog(parser) if not _engine_has(k)]
        if todo:
            out.append(Problem(Loc(str(ENGINE_MESSAGES / f"{lang}.yaml"), 1, 1),
                               f"{len(todo)} help text(s) of the command line not in {lang}: {', '.join(todo[:5])}"
                               + (" ..." if len(todo) > 5 else ""), ("cli",), "warning"))
    return out


def _engine_has(key: str) -> bool:
    from ..i18n.locales import _engine_messages
    return key in _engine_messages("en")[0]


def cmd_check(args) -> int:
    root = _ruleset_dir(args.ruleset)
    from ..i18n.languages import languages_of
    langs = args.lang or languages_of(root)  # the languages that exist
    prog, problems = _program(root, args.variant)
    problems = problems + check_locales(root, langs, prog, engine=not args.no_engine)
    if prog is not None and args.variant:
        from ..variants.text_check import text_problems
        problems += text_problems(prog, langs)
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
        print(problem_text(p), file=sys.stderr)
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


def cmd_stamp(args) -> int:
    """Record, for the given ids (or all translated ones), the hash of the current English."""
    from ..i18n.exchange import engine_folder
    from ..i18n.history import record_history
    from ..i18n.languages import languages_of
    root = _ruleset_dir(args.ruleset)
    folders = [root / "locales"] + ([engine_folder()] if getattr(args, "engine", False) else [])
    for folder in folders:
        en, _ = _read_folder(folder, "en")
        record_history(folder, en)      # so a later export shows this English as `#| msgid`
        have = languages_of(root)[1:] if folder == root / "locales" else \
            sorted(f.stem for f in folder.glob("*.yaml") if f.stem != "en")
        _stamp_folder(args, folder, en, args.lang or have)
    return 0


def _read_folder(folder: Path, lang: str):
    from ..i18n.exchange import _read
    return _read(folder, lang)


def _stamp_folder(args, folder: Path, en: dict, langs) -> None:
    for lang in langs:
        path = folder / f"{lang}.yaml"
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


def _ids(keys: list[str], most: int = 6) -> str:
    """A short list of message ids for a report."""
    return ", ".join(keys[:most]) + (f" and {len(keys) - most} more" if len(keys) > most else "")


