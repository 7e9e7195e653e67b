"""The command line in the user's language: `grimoire --lang ru --help`, or `LANG=pl_PL.UTF-8`.

Pipeline position: commands (cli.py and the commands use it). The words are the engine's own
messages (`interpreter/messages/LANG.yaml`), so they are checked, exported and imported like
every other text:

* `cli-help-PATH` is the help of a command (`cli-help-play`, `cli-help-i18n-check`), and
  `cli-help-PATH--NAME` the help of one of its options (`cli-help-play--seats`);
* `cli-argparse-*` are argparse's own words (`usage:`, `options`, `error:`, ...);
* other `cli-*` messages are what the commands print.

A help string with no translation stays English; `catalog(parser)` lists every help string the
parser has, which is what `en.yaml` must hold (a test keeps the two in step).
"""

from __future__ import annotations

import argparse
import os

from ..i18n.locales import LANGS

# argparse's own words (Python's gettext domain "argparse") -> our message ids
ARGPARSE = {
    "usage: ": "cli-argparse-usage",
    "positional arguments": "cli-argparse-positional",
    "options": "cli-argparse-options",
    "show this help message and exit": "cli-argparse-help",
    "%(prog)s: error: %(message)s\n": "cli-argparse-error",
    "the following arguments are required: %s": "cli-argparse-required",
    "unrecognized arguments: %s": "cli-argparse-unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "cli-argparse-invalid-choice",
    "argument %(argument_name)s: %(message)s": "cli-argparse-argument",
    "expected one argument": "cli-argparse-expected-one",
    "invalid %(type)s value: %(value)r": "cli-argparse-invalid-value",
    "not allowed with argument %s": "cli-argparse-not-allowed",
    "ambiguous option: %(option)s could match %(matches)s": "cli-argparse-ambiguous",
}


def cli_language(argv: list[str] | None, environ=None) -> str:
    """The CLI's language: grimoire's own `--lang X` (before the command: a command's `--lang`,
    like `play --lang` or `i18n stamp --lang`, is that command's), else LC_ALL, LC_MESSAGES or
    LANG (`ru_RU.UTF-8` is ru), else English."""
    argv = list(argv or [])
    for i, a in enumerate(argv):
        if not a.startswith("-"):
            break                                   # the command: what follows is its own
        if a == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGS:
            return argv[i + 1]
        if a.startswith("--lang=") and a[7:] in LANGS:
            return a[7:]
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        code = (env.get(var) or "").split(".")[0].split("_")[0].split("-")[0].lower()
        if code:
            return code if code in LANGS else "en"
    return "en"


def _bundle(lang: str):
    from ..i18n.problems import engine_bundle
    return engine_bundle(lang)


def cli_text(lang: str, msg_id: str, args: dict | None = None, default: str | None = None) -> str:
    """One CLI message in `lang`, else in English, else `default`."""
    for code in (lang, "en") if lang != "en" else ("en",):
        b = _bundle(code)
        if b.has_message(msg_id):
            m = b.get_message(msg_id)
            if m.value is not None:
                return b.format_pattern(m.value, args or {})[0]
    return default if default is not None else msg_id


def _has(lang: str, msg_id: str) -> bool:
    return _bundle(lang).has_message(msg_id)


def install_argparse_words(lang: str) -> None:
    """Make argparse print its own words (usage:, options, error messages) in `lang`."""
    def gettext(s: str) -> str:
        key = ARGPARSE.get(s)
        if not key or not _has(lang, key):
            return s
        return cli_text(lang, key) + s[len(s.rstrip()):]    # Fluent keeps no trailing space or newline

    def ngettext(s: str, p: str, n: int) -> str:
        return gettext(s if n == 1 else p)
    argparse._ = gettext
    argparse.ngettext = ngettext


def _walk(parser: argparse.ArgumentParser, path: str = ""):
    """(path, parser) of the parser and every subcommand parser under it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, f"{path}-{name}" if path else name)


def _option_key(path: str, action) -> str:
    """`cli-help-PATH--NAME`: NAME is the option's long name (`--no-engine`), or the dest."""
    longs = [s for s in action.option_strings if s.startswith("--")]
    name = longs[0][2:] if longs else action.dest
    return f"cli-help-{path or 'grimoire'}--{name}"


def _fluent_literal(text: str) -> str:
    """Help text as a Fluent pattern: braces become string literals."""
    return "".join('{ "{" }' if ch == "{" else '{ "}" }' if ch == "}" else ch for ch in text)


def catalog(parser: argparse.ArgumentParser) -> dict[str, str]:
    """Every help string of the parser by message id, as Fluent patterns (the English text)."""
    out: dict[str, str] = {}
    for path, p in _walk(parser):
        if p.description and not path:
            out["cli-description"] = _fluent_literal(p.description)
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if choice.help:
                        out[f"cli-help-{path}-{choice.dest}" if path else f"cli-help-{choice.dest}"] = \
                            _fluent_literal(choice.help)
            elif action.help and action.help is not argparse.SUPPRESS and action.dest != "help":
                out[_option_key(path, action)] = _fluent_literal(action.help)
    return out


def translate_parser(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put the help of every command and option in `lang` (English where it has no text)."""
    if lang == "en":
        return
    for path, p in _walk(parser):
        if p.description and not path and _has(lang, "cli-description"):
            p.description = cli_text(lang, "cli-description")
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    key = f"cli-help-{path}-{choice.dest}" if path else f"cli-help-{choice.dest}"
                    if choice.help and _has(lang, key):
                        choice.help = cli_text(lang, key)
                        sub = action.choices.get(choice.dest)
                        if sub is not None and sub.description is None:
                            sub.description = choice.help
            elif action.help and action.help is not argparse.SUPPRESS and action.dest != "help":
                key = _option_key(path, action)
                if _has(lang, key):
                    action.help = cli_text(lang, key)


def localize(parser: argparse.ArgumentParser, lang: str) -> None:
    """Add the global --lang option and put the parser's help in `lang`."""
    from ..i18n.languages import lang_code  # any language a ruleset has (de, pt-BR), not only the engine's
    parser.add_argument("--lang", dest="cli_lang", type=lang_code, default=lang,
                        help="the language of the command line and of the game (default: from LANG)")
    translate_parser(parser, lang)


def untranslated(parser: argparse.ArgumentParser, lang: str) -> list[str]:
    """Help strings of the parser that `lang` has no text for (new options not yet translated)."""
    return [k for k in catalog(parser) if not _has(lang, k)]
