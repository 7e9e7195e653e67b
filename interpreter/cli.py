"""The `grimoire` command: validate | play | test | simulate | i18n | explain | diff | render.

Pipeline position: the outermost layer. Every user mistake (a broken ruleset, a bad option
number, a damaged save file) is printed as a located message and a non-zero exit code,
never a Python traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

from .engine.faults import EffectRuntimeError
from .engine.state import SPECTATOR
from .errors import GrimoireError, Problem, RulesetError, format_problems, problems_json


def _print_problems(problems: list[Problem], fmt: str = "text") -> None:
    if fmt == "json":
        print(problems_json(problems))
    else:
        print(format_problems(problems), file=sys.stderr)


from .files import write_atomic  # noqa: E402  (commands import it from here)

# ---- validate -----------------------------------------------------------------------------------

def cmd_validate(args) -> int:
    from .game import load
    t0 = time.perf_counter()
    try:
        game = load(args.path, args.variant)
    except RulesetError as e:
        _print_problems(e.problems, args.format)
        return 1
    problems: list[Problem] = []
    extra = _validate_companions(game, problems)
    warns = list(game.warnings) + [p for p in problems if p.severity == "warning"]
    problems = [p for p in problems if p.severity != "warning"]
    if args.strict:  # --strict: a warning is an error
        problems += [Problem(w.loc, w.message, w.path) for w in warns]
        warns = []
    if problems:
        _print_problems(problems, args.format)
        return 1
    if warns and args.format == "text":
        from .errors import format_problem
        print("\n".join(format_problem(w) for w in warns), file=sys.stderr)
        print(f"{len(warns)} warning{'s' if len(warns) != 1 else ''} (an error with --strict)", file=sys.stderr)
    ms = (time.perf_counter() - t0) * 1000
    p = game.program
    summary = (f"ok: {game.ruleset.id} {game.ruleset.version}: {len(p.card_def)} cards of "
               f"{len(p.card_ids)} kinds, {len(p.loc_ids)} locations, {len(p.zone_defs)} zones, "
               f"{len(p.counter_defs)} counters, {len(p.actions)} actions, {len(p.codes)} code units; "
               f"{extra}; in {ms:.0f} ms")
    if args.format == "json":
        print(json.dumps({"ok": True, "summary": summary, "errors": []}))
    else:
        print(summary)
    return 0


def _validate_companions(game, problems: list[Problem]) -> str:
    """Check the locale, variant and scenario files that live beside a ruleset."""
    from .load import load_yaml
    root = Path(game.path)
    counts = {}
    from .validate import validate_doc
    for sub, schema in (("locales", "locale"), ("variants", "variant"), ("scenarios", "scenario")):
        files = sorted((root / sub).glob("*.yaml")) if (root / sub).is_dir() else []
        counts[sub] = len(files)
        for f in files:
            try:
                doc = load_yaml(f)
            except RulesetError as e:
                problems.extend(e.problems)
                continue
            problems.extend(validate_doc(doc, schema))
    if (root / "locales").is_dir():
        from .i18n import fluent_problems
        problems.extend(fluent_problems(root))
        if not problems:
            from .locale_lint import locale_problems
            problems.extend(locale_problems(game.program, root))
    return ", ".join(f"{n} {k}" for k, n in counts.items())


# ---- play -----------------------------------------------------------------------------------------

class _Quit(Exception):
    pass


def _make_bot(kind: str, seed: int, game):
    from .bots import make_bot
    return make_bot(kind, seed, game)


def cmd_play(args) -> int:
    from .engine.faults import EffectRuntimeError
    from .files import OutputError, check_writable
    from .game import load
    from .i18n import Text
    try:
        for out in (args.save, args.log):  # refused before a move is played, not after the game
            if out:
                check_writable(out)
        if args.load:
            from .saves import read_save
            loaded = read_save(args.load)
            game, st, seats, names = loaded.game, loaded.state, loaded.seats, loaded.names
            seed = st.seed
        else:
            game = load(args.ruleset, args.variant)
            n = args.players or game.ruleset.min_players
            seed = args.seed if args.seed is not None else 1
            names = args.names.split(",") if args.names else None
            st = game.new_game(seed=seed, players=n, names=names)
            seats = None
    except OutputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except EffectRuntimeError as e:  # the setup itself fails
        _print_problems([e.problem()])
        return 1
    except RulesetError as e:
        _print_problems(e.problems)
        return 1
    n = st.n
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
        if len(seats) == 1:
            seats = seats * n
    if not seats:
        seats = [args.bots] * n
    if len(seats) != n:
        print(f"error: --seats names {len(seats)} seats but the game has {n} players", file=sys.stderr)
        return 2
    for s in seats:
        if s not in ("human", "random", "mcts"):
            print(f"error: unknown seat kind {s!r} (human, random or mcts)", file=sys.stderr)
            return 2
    text = Text(game.program, args.lang)
    humans = [i for i, s in enumerate(seats) if s == "human"]
    viewer = humans[0] if len(humans) == 1 else None
    bots = {i: _make_bot(s, seed * 1000 + i, game) for i, s in enumerate(seats) if s != "human"}
    printed = len(st.log) if args.load else 0
    log_lines: list[str] = []
    save_path = args.save or f"{game.ruleset.id}.save.json"

    def flush_log():
        nonlocal printed
        for e in st.log[printed:]:
            visible = bool(e[3] & (SPECTATOR if viewer is None else 1 << viewer))
            if visible:
                line = text.event(st, e)
                log_lines.append(line)
                if not args.quiet:
                    print(line)
        printed = len(st.log)

    try:
        while not st.is_over():
            flush_log()
            p = st.current_player()
            if seats[p] == "human":
                opt = _ask_human(st, p, text)
            else:
                opt = bots[p].choose(st)
            nxt = st.apply(opt)
            if not nxt:
                print(text.msg("cli-refused", {"message": nxt.message}), file=sys.stderr)
                continue
            st = nxt
        flush_log()
    except (_Quit, KeyboardInterrupt, EOFError):
        print()
        return 0 if _save(save_path, game, st, seats, names, args.lang, text) else 1
    except EffectRuntimeError as e:  # a bug in the rules: where, in the author's words
        _print_problems([e.problem()])
        if args.save:  # the game as it was before the failing move is kept
            _save(args.save, game, st, seats, names, args.lang, text)
        return 1
    except GrimoireError as e:
        print(f"error: {e}", file=sys.stderr)
        if args.save:
            _save(args.save, game, st, seats, names, args.lang, text)
        return 1
    res = st.result or {}
    sides = ", ".join(text.msg("side-" + s, default=s) for s in res.get("sides", [])) or text.msg(
        "nobody", default="nobody")
    players = ", ".join(text.player(st, w) for w in res.get("winners", []))
    winners = text.msg("winners", {"sides": sides}, default="winners: " + sides) + (
        f" ({players})" if players else "")
    summary = text.msg("cli-summary", {"reason": text.msg("end-" + res.get("reason", ""),
                                                          default=res.get("reason", "")).rstrip("."),
                                       "winners": winners, "decisions": len(st.history), "turns": st.turn})
    print(summary)
    ok = True
    if args.log:
        try:
            write_atomic(args.log, "\n".join(log_lines + [summary]) + "\n")
        except OutputError as e:
            print(f"error: {e}", file=sys.stderr)
            ok = False
    if args.save:
        ok = _save(args.save, game, st, seats, names, args.lang, text) and ok
    return 0 if ok else 1


def _ask_human(st, p, text):
    from .engine.views import view
    v = view(st, p)
    print()
    print(f"[{text.player(st, p)}] " + _describe_view(st, p, v, text))
    opts = st.options()
    pend = st.pending
    print(text.prompt(st, pend))
    for i, o in enumerate(opts, 1):
        print(f"  {i:2d}. {text.option(st, o)}  [{o.id}]")
    while True:
        try:
            raw = input("> ").strip()
        except EOFError:
            raise _Quit() from None
        if raw in ("q", "quit", "save"):
            raise _Quit()
        if raw.isdigit() and 1 <= int(raw) <= len(opts):
            return opts[int(raw) - 1].id
        if any(o.id == raw for o in opts):
            return raw
        starts = [o.id for o in opts if raw and o.id.startswith(raw)]
        if len(starts) == 1:  # for people, a unique prefix will do (the API takes exact ids)
            return starts[0]
        print(text.msg("cli-ask-number", {"n": len(opts)}))


def _describe_view(st, p, v, text) -> str:
    g = st.g
    parts = []
    me_id = v["you"]
    for key, cards in v["zones"].items():
        if key.endswith("@" + me_id) and cards:
            zname = key.split("@")[0]
            names = [text.card_name(g.prog.card_index[c]) if c else "?" for c in cards]
            parts.append(f"{text.msg('zone-' + zname, default=zname)}: {', '.join(names)}")
    ctrs = [f"{text.msg('counter-' + k.split('@')[0], default=k.split('@')[0])} {val}"
            for k, val in v["counters"].items() if k.endswith("@" + me_id) or "@" not in k]
    if ctrs:
        parts.append("; ".join(ctrs))
    if st.at[p] is not None:
        parts.append(f"@ {text.value(st, st.at[p], 'loc')}")
    return " | ".join(parts)


def _save(path, game, st, seats, names, lang, text) -> bool:
    """Save the game at path and say so; if path cannot be written, save it in the current
    directory instead, so the game is never lost. False if neither could be written."""
    from .files import OutputError
    from .saves import write_save
    fallback = f"{game.ruleset.id}.save.json"
    for where in dict.fromkeys([str(path), fallback]):
        try:
            write_save(where, game, st, seats, lang, names)
        except OutputError as e:
            print(f"error: {e}", file=sys.stderr)
            continue
        print(text.msg("cli-saved", {"file": where}))
        return where == str(path)
    return False


# ---- test -----------------------------------------------------------------------------------------

def cmd_test(args) -> int:
    from .scenario import run_scenario, scenario_files
    files = scenario_files(args.paths)
    passed = failed = 0
    all_problems: list[Problem] = []
    for f in files:
        try:
            out = run_scenario(f)
        except RulesetError as e:
            all_problems.extend(e.problems)
            failed += 1
            print(f"ERROR {f}")
            continue
        except GrimoireError as e:
            failed += 1
            print(f"FAIL  {f}: {e}")
            continue
        if out.passed:
            passed += 1
            if args.verbose:
                print(f"ok    {f}: {out.name}")
        else:
            failed += 1
            print(f"FAIL  {f}: {out.name}")
            for msg in out.failures:
                print(f"      {msg}")
    if all_problems:
        _print_problems(all_problems)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# ---- main -----------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="grimoire", description="A data-driven rules interpreter for tabletop games.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    v = sub.add_parser("validate", help="check a ruleset (and its locales, variants, scenarios)")
    v.add_argument("path")
    v.add_argument("--variant", action="append", default=[])
    v.add_argument("--format", choices=["text", "json"], default="text")
    v.add_argument("--strict", action="store_true", help="warnings are errors")
    v.set_defaults(fn=cmd_validate)
    p = sub.add_parser("play", help="play a game (all bots unless --seats says human)")
    p.add_argument("ruleset", nargs="?", default=None)
    p.add_argument("--players", type=int)
    p.add_argument("--seats", help="comma-separated: human, random or mcts per seat")
    p.add_argument("--bots", default="random", choices=["random", "mcts"], help="bot for unnamed seats")
    p.add_argument("--seed", type=int)
    p.add_argument("--lang", default="en", choices=["en", "ru", "pl", "pt"])
    p.add_argument("--save")
    p.add_argument("--load")
    p.add_argument("--log")
    p.add_argument("--names", help="comma-separated card ids naming the seats (e.g. characters)")
    p.add_argument("--variant", action="append", default=[])
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(fn=cmd_play)
    t = sub.add_parser("test", help="run scenario files")
    t.add_argument("paths", nargs="+")
    t.add_argument("-v", "--verbose", action="store_true")
    t.set_defaults(fn=cmd_test)
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
_EXTRA_COMMANDS = ["interpreter.overlay_commands", "interpreter.sim.commands", "interpreter.i18n_commands"]


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
    except EffectRuntimeError as e:  # a rules bug found at run time: located, with its line
        _print_problems([e.problem()])
        return 1
    except GrimoireError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
