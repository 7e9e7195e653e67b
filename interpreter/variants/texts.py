"""Variants that change text: per-language locale overlays carried by a variant file.

Pipeline position: stage 2 (overlay) records them on the merged ruleset; the text layer
(`i18n.Text`) lays them over the locale files when it renders, so `render` and `play` with the
variant print the new card text; `i18n check --variant` checks them; `diff` lists them. In a
variant file:

    locales:
      en: {card-wave-text: "Wash away one card of the other player's, not two."}
      ru: {card-wave-text: "..."}

A text overlay names a message the ruleset already has, or one the merged rules show because
the variant added it (a new action, card or logged event); a language that has a locale file
but no overlay keeps the base text (or shows English), which `validate` and `i18n check` report
(variant_text_check.py).
"""

from __future__ import annotations

from pathlib import Path

from ..errors import Collector


def apply_texts(rs, doc, errs: Collector) -> None:
    """Record the variant's text overlays on the merged ruleset, later variants winning."""
    data = doc.data if isinstance(doc.data, dict) else {}
    texts = rs.__dict__.setdefault("text_overlays", {})
    for lang, msgs in (data.get("locales") or {}).items():
        for key, value in (msgs or {}).items():
            texts.setdefault(str(lang), {})[str(key)] = (value, doc, ("locales", lang, key))


def overlays(rs) -> dict:
    """{lang: {message id: (text, doc, path)}} the applied variants set."""
    return getattr(rs, "text_overlays", None) or {}


def variant_messages(program, lang: str) -> dict:
    """The messages the applied variants set in one language (to lay over its locale file)."""
    return {k: v[0] for k, v in overlays(program.rs).get(lang, {}).items()}


def text_changes(rs) -> list[str]:
    """Diff lines for the variants' texts: `text ID (en, ru): NEW` with the variant's place."""
    by_key: dict[str, list] = {}
    for lang, msgs in overlays(rs).items():
        for key, (value, doc, path) in msgs.items():
            by_key.setdefault(key, []).append((lang, value, doc.source.value(path)))
    out = []
    for key, entries in by_key.items():
        langs = ", ".join(lang for lang, _, _ in entries)
        first = next((e for e in entries if e[0] == "en"), entries[0])
        shown = str(first[1]).strip().replace("\n", " ")
        where = first[2]
        try:
            where = f"{Path(where.file).relative_to(Path.cwd())}:{where.line}:{where.col}"
        except ValueError:
            pass
        out.append(f"text {key} ({langs}): {shown if len(shown) <= 70 else shown[:67] + '...'}  ({where})")
    return out
