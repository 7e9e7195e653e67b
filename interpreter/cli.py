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
from .commands.output import print_problems as _print_problems
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
_EXTRA_COMMANDS = ["interpreter.overlay_commands", "interpreter.sim.commands", "interpreter.i18n_commands",
                   "interpreter.commands.tune"]


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.cmd == "play" and not args.ruleset and not args.load:
        ap.error("play needs a RULESET (or --load FILE)")
    try:
        return int(args.fn(args) or 0)
    except RulesetError as e:
        _print_problems(e.problems)
        return 1
    except GrimoireError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
