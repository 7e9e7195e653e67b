"""Any language: a ruleset speaks every language it has a locale file for.

Pipeline position: beside the text layer (`i18n`). A language is a BCP-47 code (`de`,
`pt-BR`, `zh-Hant`); a ruleset offers English (the source language) and every code with a
`locales/CODE.yaml`, so a translator adds a language by adding a file, and the checks apply
to the languages that exist (`grimoire i18n init` starts a file: see commands/i18n_init.py). This
module sits below the text layer and imports none of it.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from ..errors import GrimoireError

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
        name = Path(ruleset_dir).resolve().name      # `play .` names the folder, not "."
        raise GrimoireError(f"{name} has no {lang} text (it has: {', '.join(have)}); "
                            f"start one with: grimoire i18n init {ruleset_dir} --lang {lang}")
