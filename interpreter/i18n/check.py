"""`grimoire i18n check`: every locale compared with English, every problem located at file:line.

Pipeline position: over the locale files and a compiled Program (what ids it renders)."""

from __future__ import annotations

from pathlib import Path

from ..errors import Loc, Problem
from ..frontend.yaml_source import load_yaml
from .fluent import PLURAL_KEYS, numeric_vars, parse_pattern, pattern_hash, plural_categories, scan
from .gender import allowed_extra_vars, forms_problems, gender_problem, named_vars, player_genders
from .locales import (
    ENGINE_MESSAGES,
    LANGS,
    _engine_messages,
    locale_forms,
    locale_genders,
    locale_messages,
    locale_sources,
)


def fluent_problems(ruleset_dir: Path) -> list[Problem]:
    """Fluent syntax errors in a ruleset's locale files, each at its file:line."""
    out: list[Problem] = []
    from .languages import languages_of
    for lang in languages_of(ruleset_dir):
        msgs, problems, doc = locale_messages(ruleset_dir, lang)
        out.extend(problems)
        if doc is None:
            continue
        for key, pattern in msgs.items():
            _, errs = parse_pattern(key, pattern)
            for line, col, note in errs:
                out.append(Problem(_pattern_loc(doc, key, line, col), f"Fluent syntax in {key!r}: {note}"))
    return out


def _pattern_loc(doc, key: str, line: int, col: int) -> Loc:
    try:
        return doc.source.text(("messages", key), line, col)
    except Exception:  # a position the source map cannot place: the value itself
        return doc.source.value(("messages", key))


def check_locale_set(en: dict, en_doc, loc: dict, loc_doc, lang: str, path: str,
                     numeric_hint: set | None = None, named: dict | None = None) -> list[Problem]:
    """Problems of one locale's messages against English (all located at file:line). `named`:
    message id -> the variables that name a player (None: no gender check, every player of the
    ruleset having one gender)."""
    out: list[Problem] = []
    cats = plural_categories(lang)

    def at_key(key):
        return loc_doc.source.key(("messages", key)) if loc_doc is not None else Loc(path, 1, 1)

    def en_line(key):
        return en_doc.source.key(("messages", key)).line if en_doc is not None else 0

    head = loc_doc.source.key(("messages",)) if loc_doc is not None else Loc(path, 1, 1)
    for key in en:
        if key not in loc:
            out.append(Problem(head, f"missing {key!r} (English at line {en_line(key)})", ("missing",)))
    en_parsed = {k: parse_pattern(k, v)[0] for k, v in en.items()}
    sources = locale_sources(loc_doc)
    forms = {**locale_forms(_engine_messages(lang)[2]), **locale_forms(loc_doc)}
    form_names = {f for fs in forms.values() for f in fs}
    for key, pattern in loc.items():
        if key not in en:
            out.append(Problem(at_key(key), f"extra {key!r}: English has no such message", ("extra",)))
            continue
        msg, errs = parse_pattern(key, pattern)
        for line, col, note in errs:
            out.append(Problem(_pattern_loc(loc_doc, key, line, col) if loc_doc else Loc(path, 1, 1),
                               f"Fluent syntax in {key!r}: {note}", ("syntax",)))
        if msg is None:
            continue
        sc, esc = scan(msg), scan(en_parsed.get(key))
        extra_ok = allowed_extra_vars(esc.vars, sc.vars, form_names)
        via_forms = {v.rpartition("_")[0] for v in extra_ok if not v.endswith("_gender")}
        if en_parsed.get(key) is not None and (sc.vars | via_forms) - extra_ok != esc.vars:
            lost, added = sorted(esc.vars - sc.vars - via_forms), sorted(sc.vars - esc.vars - extra_ok)
            parts = []
            if lost:
                parts.append("lacks " + ", ".join("$" + v for v in lost))
            if added:
                parts.append("has unknown " + ", ".join("$" + v for v in added))
            out.append(Problem(at_key(key), f"{key!r} variables differ from English: {'; '.join(parts)}",
                               ("variables",)))
        gp = gender_problem(lang, key, msg, (named or {}).get(key, set()), sc.vars, at_key(key)) \
            if named is not None else None
        if gp is not None:
            out.append(gp)
        numeric = numeric_vars(esc) | set(numeric_hint or ())
        for var, is_num, keys in sc.selects:
            if not var or not (is_num or var in numeric or any(k in PLURAL_KEYS[:5] for k in keys)):
                continue
            lacking = [c for c in cats if c not in keys]
            if lacking:
                out.append(Problem(at_key(key), f"{key!r}: the select on ${var} lacks the {lang} plural "
                                   f"categor{'y' if len(lacking) == 1 else 'ies'} "
                                   f"{', '.join('[' + c + ']' for c in lacking)} (needs {', '.join(cats)})",
                                   ("plural",)))
            foreign = [k for k in keys if k in PLURAL_KEYS and k not in cats]
            if foreign:
                out.append(Problem(at_key(key), f"{key!r}: {', '.join('[' + k + ']' for k in foreign)} is not "
                                   f"a plural category of {lang} (it has {', '.join(cats)})", ("plural",)))
        if key in sources and key in en and sources[key] != pattern_hash(en[key]):
            out.append(Problem(at_key(key), f"{key!r} is stale: English changed since it was translated "
                               f"(source {sources[key]}, English now {pattern_hash(en[key])})", ("stale",)))
    for key in sources:
        if key not in loc:
            out.append(Problem(loc_doc.source.key(("source", key)), f"source hash for {key!r}, which the file "
                               "does not translate", ("extra",)))
    return out


def program_ids(program) -> dict[str, set | None]:
    """The message ids a compiled ruleset renders (-> the variables it passes, or None)."""
    ids: dict[str, set | None] = {}
    for cid in program.card_ids:
        ids["card-" + cid] = set()
    for lid in program.loc_ids:
        ids["location-" + lid] = set()
    for aid, a in program.actions.items():
        ids["action-" + aid] = set(a.arg_names)
    for pid in program.prompts:
        ids["prompt-" + pid] = {"player"}
    for g in program.groups:
        ids["prompt-act-" + g] = {"player"}
    for ev, names in program.events_logged.items():
        ids["event-" + ev] = set(names)
    for s in program.sides:
        ids["side-" + s] = set()
    for e in program.end_defs:
        eid = getattr(e, "id", None)
        if eid:
            ids["end-" + eid] = set()
    return ids


def _added_by_variant(program, mid: str):
    """Where a variant added the card, action or logged event a message id names, and what it
    is (None: the base has it)."""
    kind, _, ident = mid.partition("-")
    base = {str(d.path) for d in program.rs.docs}
    if kind == "event":
        from ..program.lint import log_calls
        found = [loc for ev, loc in log_calls(program) if ev == ident]
        if found and all(str(loc.file) not in base for loc in found):
            return found[0], f"log({ident}, ...)"
        return None
    table = {"card": program.rs.cards, "action": program.rs.actions}.get(kind)
    item = table.get(ident) if table is not None else None
    if item is None or str(item.doc.path) in base:
        return None
    return item.key_loc(), f"{kind} {ident!r}"


def check_english(program, en: dict, en_doc, path: str) -> list[Problem]:
    """Warnings about English itself: ids the ruleset renders with no English text, and event
    messages using variables the ruleset's log() call does not pass."""
    out: list[Problem] = []
    engine_en = _engine_messages("en")[0]
    head = en_doc.source.key(("messages",)) if en_doc is not None else Loc(path, 1, 1)
    given = (getattr(program.rs, "text_overlays", None) or {}).get("en", {})  # a variant's own text
    for mid, names in sorted(program_ids(program).items()):
        if mid not in en and mid not in engine_en and mid not in given:
            added = _added_by_variant(program, mid)
            if added is not None:  # what a variant added: its text belongs in the variant
                out.append(Problem(added[0], f"the variant adds {added[1]} with no English text: add "
                                   f"{mid!r} under its locales: en:", ("english",), "warning"))
                continue
            out.append(Problem(head, f"the ruleset renders {mid!r} but English has no text for it",
                               ("english",), "warning"))
            continue
        if mid in en and names is not None and mid.startswith(("event-", "action-", "prompt-", "end-")):
            msg, _ = parse_pattern(mid, en[mid])
            extra = scan(msg).vars - names
            extra -= set(program.params)               # every message gets the ruleset's numbers
            if extra and msg is not None:
                out.append(Problem(en_doc.source.key(("messages", mid)),
                                   f"{mid!r} uses {', '.join('$' + v for v in sorted(extra))}, which the ruleset "
                                   f"does not pass (it passes {', '.join('$' + v for v in sorted(names)) or 'none'})",
                                   ("english",), "warning"))
    return out


def check_locales(ruleset_dir: Path | None, langs=LANGS, program=None, engine: bool = True) -> list[Problem]:
    """Every problem of a ruleset's locale files (and of the engine's messages), located."""
    from ..errors import RulesetError
    from ..frontend.validate import validate_doc
    out: list[Problem] = []
    sets = []
    if ruleset_dir is not None:
        sets.append(("ruleset", Path(ruleset_dir) / "locales"))
    if engine:
        sets.append(("engine", ENGINE_MESSAGES))
    for kind, folder in sets:
        docs = {}
        for lang in dict.fromkeys(["en", *langs]):  # the languages asked for, English always
            path = folder / f"{lang}.yaml"
            if not path.is_file():
                docs[lang] = (None, {})
                continue
            try:
                doc = load_yaml(path)
            except RulesetError as e:
                out.extend(e.problems)
                docs[lang] = (None, {})
                continue
            probs = validate_doc(doc, "locale")
            out.extend(probs)
            data = doc.data if isinstance(doc.data, dict) else {}
            msgs = data.get("messages") if isinstance(data.get("messages"), dict) else {}
            if data.get("locale") not in (None, lang) and not str(data.get("locale")).startswith(lang):
                out.append(Problem(doc.source.value(("locale",)),
                                   f"locale {data.get('locale')!r} in a file named {lang}.yaml", ("schema",)))
            docs[lang] = (doc, {str(k): v for k, v in (msgs or {}).items()})
        en_doc, en = docs["en"]
        if en_doc is None:
            out.append(Problem(Loc(str(folder / "en.yaml"), 0, 0), "no English locale file (the source language)"))
            continue
        for key, pattern in en.items():
            for line, col, note in parse_pattern(key, pattern)[1]:
                out.append(Problem(_pattern_loc(en_doc, key, line, col), f"Fluent syntax in {key!r}: {note}",
                                   ("syntax",)))
        hint = set()
        if program is not None and kind == "ruleset":
            for k in range(len(program.card_ids)):
                for name, v in program.kind_params[k].items():
                    if isinstance(v, (int, float)) and not isinstance(v, bool):
                        hint.add(name)
            out.extend(check_english(program, en, en_doc, str(folder / "en.yaml")))
        for lang in langs:
            if lang == "en":
                continue
            doc, msgs = docs[lang]
            path = str(folder / f"{lang}.yaml")
            if doc is None and not (folder / f"{lang}.yaml").is_file():
                # the engine's own messages fall back to English in a language they lack
                out.append(Problem(Loc(path, 0, 0), f"no {lang} locale file", ("missing",),
                                   "warning" if kind == "engine" else "error"))
                continue
            if doc is None:
                continue
            named = named_vars(program if kind == "ruleset" else None)
            if kind == "ruleset" and len(player_genders(program, {**locale_genders(_engine_messages(lang)[2]),
                                                                  **locale_genders(doc)})) < 2:
                named = None                # every player has the same gender: nothing to select
            out.extend(check_locale_set(en, en_doc, msgs, doc, lang, path, hint, named))
            if kind == "ruleset":
                eng_doc = _engine_messages(lang)[2]
                where = doc.source.key(("forms",)) if ("forms",) in doc.source.keys else doc.source.key(("messages",))
                out.extend(forms_problems(program, lang, {**locale_forms(eng_doc), **locale_forms(doc)},
                                          {**locale_genders(eng_doc), **locale_genders(doc)}, where))
    return out
