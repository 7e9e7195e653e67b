"""`grimoire test`: run scenario files and report each as passed or failed.

Pipeline position: commands (registered by cli.py); scenarios/run.py runs each file.
"""

from __future__ import annotations

from ..errors import GrimoireError, Problem, RulesetError
from .cli_text import cli_text
from .output import language
from .output import print_problems as _print_problems


def _w(msg_id: str, **args) -> str:
    """A message in the command line's language; a status word padded to one column."""
    text = cli_text(language(), msg_id, args)
    return text.ljust(5) if msg_id in ("cli-test-ok", "cli-test-fail", "cli-test-error") else text


def failure_text(msg: str, lang: str) -> str:
    """A scenario's failure, `file:line:col: message`, with its message in `lang` (the place kept)."""
    import re

    from ..i18n.problems import localize
    m = re.fullmatch(r"(.*?:\d+:\d+): (.*)", msg, re.S)
    return f"{m.group(1)}: {localize(m.group(2), lang)}" if m else localize(msg, lang)


def register(sub) -> None:
    """Add the command to the `grimoire` subparsers."""
    t = sub.add_parser("test", help="run scenario files")
    t.add_argument("paths", nargs="+", help="scenario files, or folders of them")
    t.add_argument("-v", "--verbose", action="store_true", help="print every scenario, not only the failures")
    t.set_defaults(fn=cmd_test)


def cmd_test(args) -> int:
    from ..scenarios.run import run_scenario, scenario_files
    files = scenario_files(args.paths)
    passed = failed = 0
    all_problems: list[Problem] = []
    for f in files:
        try:
            out = run_scenario(f)
        except RulesetError as e:
            all_problems.extend(e.problems)
            failed += 1
            print(f"{_w('cli-test-error')} {f}")
            continue
        except GrimoireError as e:
            failed += 1
            print(f"{_w('cli-test-fail')} {f}: {failure_text(str(e), language())}")
            continue
        if out.passed:
            passed += 1
            if args.verbose:
                print(f"{_w('cli-test-ok')} {f}: {out.name}")
        else:
            failed += 1
            print(f"{_w('cli-test-fail')} {f}: {out.name}")
            for msg in out.failures:
                print(f"      {failure_text(msg, language())}")
    if all_problems:
        _print_problems(all_problems)
    print(_w("cli-test-summary", passed=passed, failed=failed))
    return 0 if failed == 0 else 1
