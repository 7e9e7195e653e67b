"""The text a variant carries, checked against the merged rules and the ruleset's locales.

Pipeline position: a check over the text layer (`i18n`) and the overlay's record of a
variant's text (`variant_texts`), run by `validate --variant`, `validate RULESET_DIR` (for each
variant in `variants/`) and `i18n check --variant`. Found, each at its line in the variant:

- a language the ruleset has no text in (the text would never be shown);
- an id that is no message of the merged rules: neither in the English locale nor one the
  merged rules render (a variant that adds a card, an action or a logged event adds its text);
- a Fluent error;
- a `{ $name }` the rules do not pass that message (a typo would print the bare name);
- a warning for each of the ruleset's languages that has no text for what the variant changed
  or added (that language keeps the base text, or shows English).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ..errors import Problem
from ..i18n import locale_messages, parse_pattern, program_ids, scan
from ..i18n.languages import CODE, languages_of
from .texts import overlays


def text_problems(program, langs=None) -> list[Problem]:
    """Located problems of the variants' text."""
    texts = overlays(program.rs)
    if not texts:
        return []
    root = Path(program.rs.root)
    out: list[Problem] = []
    english, _, _ = locale_messages(root, "en")
    have = languages_of(root)
    passes = _passes(program)
    known = set(english) | set(passes)
    for lang, msgs in texts.items():
        if lang not in have:
            first = next(iter(msgs.values()), None)
            if first is not None:
                _, doc, path = first
                out.append(Problem(doc.source.key(path[:2]), _language_note(lang, have, program.rs.id), path[:2]))
            continue
        if langs and lang not in langs and lang != "en":
            continue
        for key, (value, doc, path) in msgs.items():
            if key not in known:
                close = difflib.get_close_matches(key, sorted(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                out.append(Problem(doc.source.key(path), f"text {key!r} is not a message of this ruleset{hint}: "
                                   "a variant's text names a message the ruleset has or the merged rules show",
                                   path))
                continue
            msg, errs = parse_pattern(key, value)
            for line, col, note in errs:
                out.append(Problem(doc.source.text(path, line, col), f"{key}: {note}", path))
            if msg is not None and key in passes:
                out.extend(_unknown_vars(program, key, msg, str(value), passes[key], doc, path))
    out.extend(_coverage(texts, english, have, langs, known))
    return out


def _language_note(lang: str, have: list, rid: str) -> str:
    if not CODE.match(lang):
        return f"{lang!r} is not a language code like en, ru or pt-BR"
    close = difflib.get_close_matches(lang, have, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return (f"{rid} has no {lang} text (it has: {', '.join(have)}){hint}: the variant's {lang} text "
            f"would never be shown (add locales/{lang}.yaml to the ruleset first)")


def _passes(program) -> dict[str, tuple[set, str]]:
    """Message id -> the variables the merged rules give it, and who gives them."""
    out: dict[str, tuple[set, str]] = {}
    for mid, names in program_ids(program).items():
        if names is not None:
            out[mid] = (set(names), f"{mid!r} is given")
    for k, cid in enumerate(program.card_ids):
        out["card-" + cid + "-text"] = (set(program.kind_params[k]), f"card {cid!r} has params")
    for aid, a in program.actions.items():
        out["action-" + aid] = (set(a.arg_names), f"action {aid!r} has args")
    for ev, names in program.events_logged.items():
        out["event-" + ev] = (set(names), f"log({ev}, ...) passes")
    return out


def _unknown_vars(program, key, msg, value, given, doc, path) -> list[Problem]:
    """A `{ $name }` the message is never given (each message gets the params, and each name's
    forms and gender: `$t_acc`, `$t_gender`)."""
    names, who = given
    extra = sorted(v for v in scan(msg).vars - names
                   if v not in program.params and v.rsplit("_", 1)[0] not in names)
    if not extra:
        return []
    offered = sorted(names) + sorted(program.params)
    hints = []
    for v in extra:
        close = difflib.get_close_matches(v, offered, n=1)
        if close:
            hints.append(f"${v}: did you mean ${close[0]}?")
    has = ", ".join("$" + v for v in sorted(names)) or "nothing"
    return [Problem(_at(doc, path, value, "$" + extra[0]),
                    f"{key!r} uses {', '.join('$' + v for v in extra)}, but {who} {has} "
                    f"(with the ruleset's params); unknown, it would print the bare name"
                    + (f" ({'; '.join(hints)})" if hints else ""), path)]


def _at(doc, path, value: str, word: str):
    """Where `word` is written inside the text at `path` (the text's start if it is not found)."""
    i = value.find(word)
    if i < 0:
        return doc.source.value(path)
    line = value.count("\n", 0, i) + 1
    col = i - (value.rfind("\n", 0, i) + 1) + 1
    try:
        return doc.source.text(path, line, col)
    except Exception:  # a position the source map cannot place: the text itself
        return doc.source.value(path)


def _coverage(texts: dict, english: dict, have: list, langs, known: set) -> list[Problem]:
    """Warnings: a language of the ruleset without the variant's text for a message it set."""
    out: list[Problem] = []
    keys: dict[str, list] = {}
    for lang, msgs in texts.items():
        if lang in have:
            for key, entry in msgs.items():
                if key in known:
                    keys.setdefault(key, []).append((lang, entry))
    for key, entries in keys.items():
        given = {lang for lang, _ in entries}
        _, doc, path = next((e for lang, e in entries if lang == "en"), entries[0][1])
        for lang in have:
            if lang in given or (langs and lang not in langs and lang != "en"):
                continue
            if lang == "en":
                if key not in english:
                    out.append(Problem(doc.source.key(path), f"the variant gives {key!r} in "
                                       f"{', '.join(sorted(given))} but not in English, the source language "
                                       "(English players would see its id)", path, "warning"))
            elif key in english and "en" in given:
                out.append(Problem(doc.source.key(path), f"the variant changes the English {key!r} but not the "
                                   f"{lang} text, which still says the base rule", path, "warning"))
            elif key not in english:
                out.append(Problem(doc.source.key(path), f"the variant adds {key!r} in {', '.join(sorted(given))} "
                                   f"but not in {lang} ({lang} players would see English)", path, "warning"))
    return out
