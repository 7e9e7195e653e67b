"""The `grimoire` command: validate | play | test | simulate | i18n | explain | diff | render.

Pipeline position: the outermost layer: the parser and the dispatch. Each command is its
own module with `register(subparsers)`: validate, play and test in commands/, the others
listed in _EXTRA_COMMANDS. Every user mistake (a broken ruleset, a bad option
number, a damaged save file) is printed as a located message and a non-zero exit code,
never a Python traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .commands import play, test, validate
from .commands.cli_text import cli_language, cli_text, install_argparse_words, localize
from .commands.output import print_problems as _print_problems
from .commands.output import set_language
from .engine.faults import EffectRuntimeError
from .errors import GrimoireError, RulesetError


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="grimoire", description="A data-driven rules interpreter for tabletop games.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    for command in (validate, play, test):
        command.register(sub)
    for modname in _EXTRA_COMMANDS:
        try:
            mod = importlib.import_module(modname)
        except ModuleNotFoundError as e:
            if e.name and modname.startswith(e.name):
                continue  # that part is not installed (yet)
            raise
        mod.register(sub)
    return ap


# modules that add subcommands: each has register(subparsers)
_EXTRA_COMMANDS = ["interpreter.commands.variants", "interpreter.commands.simulate", "interpreter.commands.i18n_cli",
                   "interpreter.commands.tune", "interpreter.authoring.lsp", "interpreter.commands.serve"]


def main(argv: list[str] | None = None) -> int:
    lang = cli_language(sys.argv[1:] if argv is None else argv)
    set_language(lang)                     # the words around a problem (error:, the count)
    install_argparse_words(lang)
    ap = build_parser()
    localize(ap, lang)
    args = ap.parse_args(argv)
    args.parser = ap                       # for commands that describe the command line (i18n check)
    if args.cmd in ("play", "render") and args.lang is None:
        args.lang = args.cli_lang          # the game speaks the command line's language
    if args.cmd == "play" and not args.ruleset and not args.load:
        ap.error(cli_text(lang, "cli-play-needs-ruleset"))
    try:
        return int(args.fn(args) or 0)
    except RulesetError as e:
        _print_problems(e.problems)
        return 1
    except EffectRuntimeError as e:  # a rules bug found at run time: located, with its line
        _print_problems([e.problem()])
        return 1
    except GrimoireError as e:
        from .i18n.problems import localize as in_language  # the message in lang where the catalogue has it
        print(cli_text(lang, "cli-error", {"message": in_language(str(e), lang)}), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
