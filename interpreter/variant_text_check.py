"""`i18n check --variant`: the text a variant carries, checked against the ruleset's locales.

Pipeline position: a check over the text layer (`i18n`) and the overlay's record of a
variant's text (`variant_texts`): an id the ruleset has no message for (with did-you-mean), a
Fluent error at its line in the variant, and a warning for each language whose locale file
still says the base text of an English message the variant changed.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from .errors import Problem
from .i18n import locale_messages, parse_pattern
from .variant_texts import overlays


def text_problems(program, langs=None) -> list[Problem]:
    """Located problems of the variants' text: unknown ids, bad Fluent, languages left behind."""
    root = Path(program.rs.root)
    out: list[Problem] = []
    english, _, _ = locale_messages(root, "en")
    have = sorted(p.stem for p in (root / "locales").glob("*.yaml")) if (root / "locales").is_dir() else []
    texts = overlays(program.rs)
    for lang, msgs in texts.items():
        if langs and lang not in langs and lang != "en":
            continue
        for key, (value, doc, path) in msgs.items():
            if key not in english:
                close = difflib.get_close_matches(key, list(english), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                out.append(Problem(doc.source.key(path), f"text {key!r} is not a message of this ruleset{hint}: "
                                   "a variant changes the text of what exists", path))
                continue
            for line, col, msg in parse_pattern(key, value)[1]:
                out.append(Problem(doc.source.text(path, line, col), f"{key}: {msg}", path))
    for key, (_, doc, path) in texts.get("en", {}).items():
        for lang in have:
            if lang == "en" or (langs and lang not in langs) or key in texts.get(lang, {}):
                continue
            out.append(Problem(doc.source.key(path), f"the variant changes the English {key!r} but not the "
                               f"{lang} text, which still says the base rule", path, "warning"))
    return out
