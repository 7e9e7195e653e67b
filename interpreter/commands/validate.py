"""`grimoire validate`: check a ruleset and the locales, variants and scenarios beside it.

Pipeline position: commands (registered by cli.py). Loading is the check: every problem of
the ruleset and its variants is printed at once, located, with a non-zero exit code. A
mistake the docs allow (an action nothing offers, an event with no English text) is a
warning: printed, exit code 0, and an error with --strict.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from ..errors import Problem, RulesetError
from .cli_text import cli_text
from .output import language, problem_text
from .output import print_problems as _print_problems


def register(sub) -> None:
    """Add the command to the `grimoire` subparsers."""
    v = sub.add_parser("validate", help="check a ruleset (and its locales, variants, scenarios)")
    v.add_argument("path", help="the ruleset folder (or its ruleset.yaml)")
    v.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    v.add_argument("--format", choices=["text", "json"], default="text",
                   help="text for people, json for editors and tools")
    v.add_argument("--strict", action="store_true", help="warnings are errors")
    v.set_defaults(fn=cmd_validate)


def cmd_validate(args) -> int:
    from ..game import load
    t0 = time.perf_counter()
    try:
        game = load(args.path, args.variant)
    except RulesetError as e:
        _print_problems(e.problems, args.format)
        return 1
    problems: list[Problem] = []
    extra = _validate_companions(game, problems)
    from ..effects.hidden import hidden_asking
    warns = hidden_asking(game.program) + list(game.warnings) + [p for p in problems if p.severity == "warning"]
    problems = [p for p in problems if p.severity != "warning"]
    if args.strict:  # --strict: a warning is an error
        problems += [Problem(w.loc, w.message, w.path) for w in warns]
        warns = []
    if problems:
        _print_problems(problems, args.format)
        return 1
    ui = language()
    if warns and args.format == "text":
        print("\n".join(problem_text(w) for w in warns), file=sys.stderr)
        print(cli_text(ui, "cli-validate-warnings", {"n": len(warns)}), file=sys.stderr)
    ms = (time.perf_counter() - t0) * 1000
    p = game.program
    summary = cli_text(ui, "cli-validate-ok", {
        "ruleset": game.ruleset.id, "version": str(game.ruleset.version), "cards": len(p.card_def),
        "kinds": len(p.card_ids), "locations": len(p.loc_ids), "zones": len(p.zone_defs),
        "counters": len(p.counter_defs), "actions": len(p.actions), "codes": len(p.codes),
        **extra, "ms": str(round(ms))})
    if args.format == "json":
        print(json.dumps({"ok": True, "summary": summary, "errors": [],
                          "warnings": [w.to_dict() for w in warns]}))
    else:
        print(summary)
    return 0


def _validate_companions(game, problems: list[Problem]) -> str:
    """Check the locale, variant and scenario files that live beside a ruleset."""
    from ..frontend.yaml_source import load_yaml
    root = Path(game.path)
    counts = {}
    from ..frontend.validate import validate_doc
    for sub, schema in (("locales", "locale"), ("variants", "variant"), ("scenarios", "scenario"),
                        ("scenarios/fixtures", "fixture")):
        files = sorted((root / sub).glob("*.yaml")) if (root / sub).is_dir() else []
        counts[sub.rsplit("/", 1)[-1]] = len(files)
        for f in files:
            try:
                doc = load_yaml(f)
            except RulesetError as e:
                problems.extend(e.problems)
                continue
            problems.extend(validate_doc(doc, schema))
    if (root / "locales").is_dir():
        from ..i18n import fluent_problems
        problems.extend(fluent_problems(root))
        if not problems:
            from ..i18n.lint import locale_problems
            problems.extend(locale_problems(game.program, root))
        if not problems:            # what `i18n check` reports (missing, extra, stale ids...):
            problems.extend(_i18n_check_warnings(game, root))   # warnings, errors with --strict
    if game.ruleset.variants:  # the text the applied variants carry
        from ..variants.text_check import text_problems
        problems.extend(text_problems(game.program))
    from ..variants.variant_set import variant_problems
    found, checked = variant_problems(root)
    problems.extend(found)
    return {k: n for k, n in counts.items()} | {"sets": checked}


def _i18n_check_warnings(game, root: Path) -> list[Problem]:
    """The errors `grimoire i18n check` finds in the ruleset's locales (a missing or an extra id,
    a stale translation...), as warnings: a game still plays (English fills in), and
    `validate --strict` fails on them as `i18n check` does. (Its warnings about English
    itself, such as a prompt shown with the generic question, stay `i18n check`'s.)"""
    from ..i18n import check_locales
    from ..i18n.languages import languages_of
    found = check_locales(root, languages_of(root), game.program, engine=False)
    return [Problem(p.loc, p.message, p.path, "warning", p.quote) for p in found if p.severity != "warning"]
