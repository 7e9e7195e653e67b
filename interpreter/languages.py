"""Any language: a ruleset speaks every language it has a locale file for.

Pipeline position: beside the text layer (`i18n`). A language is a BCP-47 code (`de`,
`pt-BR`, `zh-Hant`); a ruleset offers English (the source language) and every code with a
`locales/CODE.yaml`, so a translator adds a language by adding a file, and the checks apply
to the languages that exist. `grimoire i18n init RULESET --lang de` writes the skeleton of a
new locale file: every English message as a comment, to be translated in place.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from .errors import GrimoireError

CODE = re.compile(r"^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$")


def lang_code(text: str) -> str:
    """An argparse type: a BCP-47 language code (en, de, pt-BR)."""
    if not CODE.match(text or ""):
        raise argparse.ArgumentTypeError(f"{text!r} is not a language code like en, de or pt-BR")
    return text


def languages_of(ruleset_dir) -> list[str]:
    """English, then every language the ruleset has a locale file for."""
    folder = Path(ruleset_dir) / "locales"
    found = sorted(p.stem for p in folder.glob("*.yaml") if CODE.match(p.stem)) if folder.is_dir() else []
    return ["en"] + [lang for lang in found if lang != "en"]


def require_language(ruleset_dir, lang: str) -> None:
    """GrimoireError unless the ruleset has text in `lang`."""
    have = languages_of(ruleset_dir)
    if lang not in have:
        raise GrimoireError(f"{Path(ruleset_dir).name} has no {lang} text (it has: {', '.join(have)}); "
                            f"start one with: grimoire i18n init {Path(ruleset_dir).name} --lang {lang}")


def _cldr(lang: str) -> None:
    from babel import Locale, UnknownLocaleError
    try:
        Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise GrimoireError(f"{lang!r} is not a language CLDR knows (its plural rules are needed)") from None


def skeleton(ruleset_dir, lang: str) -> str:
    """The text of a new locale file: every English message, commented out, in order."""
    from .i18n import locale_messages, plural_categories
    en, _, _ = locale_messages(Path(ruleset_dir), "en")
    cats = ", ".join(plural_categories(lang))
    lines = ["# yaml-language-server: $schema=../../../schemas/locale.schema.json",
             f"# {lang} text of {Path(ruleset_dir).name}, started by grimoire i18n init. Every English message",
             "# is below, commented out: write `messages:` instead of `messages: {}`, then uncomment and",
             "# translate them one by one (`grimoire i18n check` lists what is left; `i18n export` and",
             f"# `i18n import` work with PO and FTL tools). Plural categories in {lang}: {cats}.",
             f"locale: {lang}", "messages: {}"]
    for key, text in en.items():
        body = str(text).rstrip("\n").split("\n")
        if len(body) == 1:
            lines.append(f"  # {key}: {body[0]}")
        else:
            lines.append(f"  # {key}: |")
            lines += [f"  #   {line}" for line in body]
    return "\n".join(lines) + "\n"


def cmd_init(args) -> int:
    """Write locales/LANG.yaml for a new language (never over an existing file)."""
    from .game import resolve_ruleset
    root = resolve_ruleset(args.ruleset)
    _cldr(args.lang)
    path = Path(root) / "locales" / f"{args.lang}.yaml"
    if path.exists():
        raise GrimoireError(f"{path} exists already: translate it, or check it with grimoire i18n check")
    path.parent.mkdir(parents=True, exist_ok=True)
    from .files import write_atomic
    from .i18n import locale_messages
    write_atomic(path, skeleton(root, args.lang))
    print(f"wrote {path}: {len(locale_messages(Path(root), 'en')[0])} messages to translate")
    return 0


def add_init(isub) -> None:
    """Add `grimoire i18n init` to the i18n subcommands."""
    p = isub.add_parser("init", help="start a new language: write locales/LANG.yaml with every English message")
    p.add_argument("ruleset")
    p.add_argument("--lang", required=True, type=lang_code)
    p.set_defaults(fn=cmd_init)
