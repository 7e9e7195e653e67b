"""`grimoire i18n export` and `grimoire i18n import`.

Pipeline position: commands, over `interpreter.i18n.exchange`."""

from __future__ import annotations

from pathlib import Path

from ..errors import GrimoireError, Loc, Problem, RulesetError
from ..files import write_atomic
from ..frontend.yaml_source import MAX_FILE_BYTES
from ..i18n.exchange import (
    ENGINE,
    _entry_problems,
    _read,
    _read_exchange_file,
    _targets,
    engine_folder,
    import_messages,
    previous_english,
)
from ..i18n.fluent import pattern_hash
from ..i18n.ftl import to_ftl_file
from ..i18n.languages import CODE, languages_of
from ..i18n.locales import locale_forms, locale_sources
from ..i18n.po import to_po
from .i18n import _ruleset_dir, _ui, cli_text

FILE_SUFFIXES = (".po", ".pot", ".ftl")


def _one_file(args) -> Path | None:
    """`--out pl.po`: the one file of one language of the ruleset (no engine messages), or None
    when `--out` is a folder. A file for several languages, or of the wrong kind, is refused."""
    out = Path(args.out)
    if out.suffix not in FILE_SUFFIXES:
        return None
    if len(args.lang or []) != 1:
        raise GrimoireError(cli_text(_ui(args), "cli-export-one-file", {"file": str(out)}))
    lang = args.lang[0]
    want = ".ftl" if args.format == "ftl" else ".pot" if lang == "en" else ".po"
    if out.suffix != want:
        raise GrimoireError(cli_text(_ui(args), "cli-export-suffix", {"file": str(out), "format": args.format,
                                                                      "lang": lang, "suffix": want}))
    return out


def cmd_export(args) -> int:
    root = _ruleset_dir(args.ruleset)
    base = Path(args.out)
    one_file = _one_file(args)
    for name, folder in _targets(root, one_file is None and not getattr(args, "no_engine", False)):
        out = base / ENGINE if name == ENGINE else base
        (out.parent if one_file else out).mkdir(parents=True, exist_ok=True)
        en, en_doc = _read(folder, "en")
        en_lines = {k: en_doc.source.key(("messages", k)).line for k in en} if en_doc is not None else {}
        where = "interpreter/messages/en.yaml" if name == ENGINE else "locales/en.yaml"
        have = languages_of(folder.parent) if name != ENGINE else \
            ["en"] + sorted(f.stem for f in folder.glob("*.yaml") if f.stem != "en")
        for lang in args.lang or have:
            msgs, doc = _read(folder, lang)
            sources, forms = locale_sources(doc), locale_forms(doc)
            if args.format == "ftl":
                header = (f"Grimoire {name}: messages in {lang} (the source language is en)\n"
                          f"Locale: {lang}\nRuleset: {name}")
                text = to_ftl_file(msgs, sources if lang != "en" else None, header=header, forms=forms)
                path = out / f"{lang}.ftl"
            elif lang == "en":
                text = to_po(en, {}, {}, "en", name, en_lines, template=True, source_file=where)
                path = out / f"{name}.pot"
            else:
                stale = {k: h for k, h in sources.items() if k in en and h != pattern_hash(en[k])}
                prev = previous_english(folder / "en.yaml", stale)
                text = to_po(en, msgs, sources, lang, name, en_lines, previous=prev, forms=forms, source_file=where)
                path = out / f"{lang}.po"
            write_atomic(one_file or path, text)
            count = len(msgs) if lang != "en" or args.format == "ftl" else len(en)
            print(cli_text(_ui(args), "cli-wrote", {"file": str(one_file or path), "n": count}))
    return 0


MAX_EXCHANGE_BYTES = 4 * MAX_FILE_BYTES  # a .po holds each text twice, with comments; the YAML 2 MB


def cmd_import(args) -> int:
    root = _ruleset_dir(args.ruleset)
    problems: list[Problem] = []
    done = []
    for f in args.files:
        fp = Path(f)
        if fp.suffix not in (".po", ".ftl"):
            problems.append(Problem(Loc(str(fp), 1, 1), "import reads .po and .ftl files"))
            continue
        try:
            size = fp.stat().st_size  # refused unread: a translation is a few hundred kB
            if size > MAX_EXCHANGE_BYTES:
                problems.append(Problem(Loc(str(fp), 1, 1), f"the file is {size} bytes, over the limit of "
                                                            f"{MAX_EXCHANGE_BYTES} bytes for a translation",
                                        quote=False))  # quoting would read it
                continue
            text = fp.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            problems.append(Problem(Loc(str(fp), 1, 1), f"cannot read: {e}"))
            continue
        name, lang, msgs, sources_in, fuzzy, ids, forms, lines, probs, from_po = _read_exchange_file(fp, text, args)
        problems.extend(probs)
        if not CODE.match(str(lang)):
            problems.append(Problem(Loc(str(fp), 1, 1), f"unknown language {lang!r} (use --lang)"))
            continue
        if name not in (None, ENGINE, root.name):
            problems.append(Problem(Loc(str(fp), 1, 1), f"this file translates {name!r}, not {root.name!r}"))
            continue
        folder = engine_folder() if name == ENGINE else root / "locales"
        en, _ = _read(folder, "en")
        own = locale_forms(_read(folder, lang)[1])
        form_names = {fm for fs in list(own.values()) + list(forms.values()) for fm in fs}
        problems.extend(_entry_problems(str(fp), en, msgs, lines, forms, form_names))
        done.append((fp, lang, msgs, sources_in, fuzzy, from_po, ids, forms, folder))
    if problems:                       # nothing is written unless every file is clean
        raise RulesetError(problems)
    for fp, lang, msgs, sources_in, fuzzy, from_po, ids, forms, folder in done:
        changed, added = import_messages(root, lang, msgs, sources_in, fuzzy, from_po, ids, args.prune, forms,
                                         folder)
        print(cli_text(_ui(args), "cli-imported", {"file": str(fp), "target": str(folder / (lang + ".yaml")),
                                                   "changed": changed, "added": added}))
    from ..i18n.history import record_history
    for folder in dict.fromkeys(d[-1] for d in done):   # today's English, for a later `#| msgid`
        record_history(folder, _read(folder, "en")[0])
    return 0
