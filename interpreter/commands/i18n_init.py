"""`grimoire i18n init RULESET --lang de`: start a new language with a skeleton locale file.

Pipeline position: a command over the text layer (`i18n`). The skeleton holds every English
message of the ruleset as a comment, to be translated in place, and names the language's CLDR
plural categories; it is never written over an existing file.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import GrimoireError
from ..i18n import locale_messages, plural_categories
from ..i18n.languages import lang_code


def _cldr(lang: str) -> None:
    from babel import Locale, UnknownLocaleError
    try:
        Locale.parse(lang.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise GrimoireError(f"{lang!r} is not a language CLDR knows (its plural rules are needed)") from None


def skeleton(ruleset_dir, lang: str) -> str:
    """The text of a new locale file: every English message, commented out, in order."""
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
    from ..game import resolve_ruleset
    root = resolve_ruleset(args.ruleset)
    _cldr(args.lang)
    path = Path(root) / "locales" / f"{args.lang}.yaml"
    if path.exists():
        raise GrimoireError(f"{path} exists already: translate it, or check it with grimoire i18n check")
    path.parent.mkdir(parents=True, exist_ok=True)
    from ..files import write_atomic
    write_atomic(path, skeleton(root, args.lang))
    print(f"wrote {path}: {len(locale_messages(Path(root), 'en')[0])} messages to translate")
    return 0


def add_init(isub) -> None:
    """Add `grimoire i18n init` to the i18n subcommands."""
    p = isub.add_parser("init", help="start a new language: write locales/LANG.yaml with every English message")
    p.add_argument("ruleset", help="the ruleset folder")
    p.add_argument("--lang", required=True, type=lang_code, help="the language to start, a code like de or pt-BR")
    p.set_defaults(fn=cmd_init)
