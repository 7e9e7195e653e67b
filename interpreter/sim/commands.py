"""`grimoire simulate`: many seeded games with bots, a summary, and reports on disk.

Pipeline position: the outermost layer (registered into the CLI by `register`). Game i uses
seed S+i on every backend. With --compare the base ruleset and the ruleset with the variants
play the same seeds, and each side's win rate is compared pair by pair (McNemar).
Ctrl-C stops the run: finished games are kept (games.jsonl has them as they finished) and
the reports are written for them, marked interrupted.
"""

from __future__ import annotations

import sys
import time
from contextlib import closing
from pathlib import Path

from .backends import BACKENDS, default_jobs, run_batch
from .runner import SimSpec
from .stats import compare, summarize

BOT_KINDS = ("random", "policy", "mcts")


def register(sub) -> None:
    """Add the `simulate` subcommand."""
    s = sub.add_parser("simulate", help="play many seeded games with bots and report statistics")
    s.add_argument("ruleset")
    s.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    s.add_argument("--games", type=int, required=True, help="how many games (per run)")
    s.add_argument("--bots", default="random",
                   help="random, policy or mcts for every seat, or one per seat: mcts,policy,random")
    s.add_argument("--temperature", type=float, default=0.0,
                   help="policy bots draw options by softmax at this temperature (0: the best)")
    s.add_argument("--rotate", action="store_true", help="game i shifts the seats' bots by i")
    s.add_argument("--players", type=int, help="players per game (default: the ruleset's minimum)")
    s.add_argument("--seed", type=int, default=1, help="game i uses seed SEED+i (default 1)")
    s.add_argument("--jobs", type=int, help=f"worker processes (default: all cores, {default_jobs()})")
    s.add_argument("--backend", choices=BACKENDS, default="local")
    s.add_argument("--address", help="a Ray cluster to join (with --backend ray)")
    s.add_argument("--compare", action="store_true",
                   help="also play the base ruleset on the same seeds and compare")
    s.add_argument("--out", help="directory for results.json, games.csv, chart.png, games.jsonl "
                   "(default: simulate-RULESET)")
    s.add_argument("--scenario", help="a scenario file: every game starts from its position (its setup, "
                   "`given` and `when`, with game i's seed); its players and seat names are used")
    s.add_argument("--budget", type=int, default=100, help="MCTS iterations per decision")
    s.add_argument("--depth", type=int, help="MCTS rollout depth before the evaluate heuristic")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(fn=cmd_simulate)


def cmd_simulate(args) -> int:
    from rich.console import Console

    from ..game import load
    out_console = Console()
    err = Console(stderr=True)
    if args.games < 1:
        err.print("error: --games must be at least 1")
        return 2
    bots = tuple(b.strip() for b in args.bots.split(","))
    bad = [b for b in bots if b not in BOT_KINDS]
    if bad:
        err.print(f"error: unknown bot {bad[0]!r} (random, policy or mcts)")
        return 2
    if args.compare and not args.variant:
        err.print("error: --compare needs at least one --variant to compare with the base")
        return 2
    game = load(args.ruleset, args.variant)  # located problems are printed by the CLI
    rs = game.ruleset
    if "policy" in bots and game.program.policy is None:
        err.print(f"error: {rs.id} has no policy: section, so there is no policy bot to play")
        return 2
    scenario = None
    if args.scenario:
        pos, problem = _check_scenario(args, game)
        if problem:
            err.print(f"error: {problem}", soft_wrap=True, markup=False)
            return 2
        scenario = str(Path(args.scenario).resolve())
    players = args.players if args.players is not None else rs.min_players
    if scenario:
        players = pos.players  # the schema requires it; --players was checked against it
    if not rs.min_players <= players <= rs.max_players:
        err.print(f"error: {rs.id} is for {rs.min_players} to {rs.max_players} players, not {players}")
        return 2
    if len(bots) not in (1, players):
        err.print(f"error: --bots names {len(bots)} seats but the game has {players} players")
        return 2
    common = {"players": players, "bots": bots, "budget": args.budget, "depth": args.depth,
              "rotate": args.rotate, "scenario": scenario,
              "options": {"temperature": args.temperature} if args.temperature else {}}
    ruleset = str(game.path)
    specs = {"variant" if args.compare else "run": SimSpec(ruleset, tuple(args.variant), **common)}
    if args.compare:
        specs = {"base": SimSpec(ruleset, (), **common), **specs}
    out = Path(args.out or f"simulate-{rs.id}")
    out.mkdir(parents=True, exist_ok=True)
    jobs = args.jobs or (None if args.backend == "ray" else default_jobs())
    runs: dict[str, list[dict]] = {name: [] for name in specs}
    interrupted = False
    t0 = time.perf_counter()
    from .report import GameLog
    log = GameLog(out / "games.jsonl")
    try:
        with _progress(err, args.quiet) as progress:
            for name, spec in specs.items():
                task = progress.add_task(f"{rs.id} {name}", total=args.games)
                batch = run_batch(spec, args.seed, args.games, jobs, args.backend, args.address)
                with closing(batch):
                    for r in batch:
                        runs[name].append(r)
                        log.add(name, r)
                        progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
        err.print(f"interrupted: keeping the {sum(map(len, runs.values()))} finished games")
    finally:
        log.close()
    seconds = time.perf_counter() - t0
    report = _report(args, rs, players, bots, jobs, runs, seconds, interrupted)
    from .report import write_reports
    title = f"{rs.id}" + (f" + {', '.join(Path(v).stem for v in args.variant)}" if args.variant else "") \
        + f": {players} players, {'/'.join(bots)} bots" \
        + (f", from {Path(args.scenario).stem}" if args.scenario else "")
    paths = write_reports(out, report, runs, title)
    _print_summary(out_console, report, bots)
    out_console.print(f"wrote {', '.join(str(p) for p in paths)} and {out / 'games.jsonl'}")
    return 130 if interrupted else 0


def _check_scenario(args, game):
    """The scenario's compiled position, and why it cannot start these games (or None). Its
    own mistakes (schema, effect syntax) raise RulesetError with their lines; a position that
    fails to start, or one for another ruleset or player count, is a one-line problem."""
    from ..errors import GrimoireError
    from ..scenario import play_position, position
    pos = position(args.scenario, args.variant)
    if Path(pos.game.path).resolve() != Path(game.path).resolve():
        return pos, f"{args.scenario} is a scenario of {pos.game.ruleset.id}, not of {game.ruleset.id}"
    if args.players is not None and args.players != pos.players:
        return pos, f"{args.scenario} is set up for {pos.players} players, not {args.players}"
    try:
        play_position(pos, args.seed)
    except GrimoireError as e:
        return pos, str(e).splitlines()[0]
    return pos, None


def _report(args, rs, players, bots, jobs, runs, seconds, interrupted) -> dict:
    total = sum(map(len, runs.values()))
    report = {
        "format": "grimoire-simulation", "version": 1,
        "ruleset": rs.id, "variants": list(args.variant), "players": players, "bots": list(bots),
        "rotate": args.rotate, "budget": args.budget, "depth": args.depth, "scenario": args.scenario,
        "seed": args.seed, "games_requested": args.games, "backend": args.backend, "jobs": jobs,
        "interrupted": interrupted, "seconds": round(seconds, 3),
        "games_per_second": round(total / seconds, 3) if seconds > 0 else None,
        "summary": {name: summarize(rs_) for name, rs_ in runs.items()},
    }
    if args.compare:
        report["comparison"] = compare(runs["base"], runs["variant"])
    return report


class _NoProgress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def add_task(self, *a, **k):
        return 0

    def advance(self, *a, **k):
        pass


def _manual_progress_class():
    from rich.progress import Progress

    class ManualProgress(Progress):
        """A progress bar redrawn on each advance, at most 10 times a second."""

        _last = 0.0

        def advance(self, task_id, advance: float = 1) -> None:
            super().advance(task_id, advance)
            now = time.monotonic()
            if now - self._last > 0.1 or any(t.finished for t in self.tasks if t.id == task_id):
                self._last = now
                self.refresh()

    return ManualProgress


def _ManualProgress(*columns, **kw):  # builds the class on first use (rich is imported lazily)
    return _manual_progress_class()(*columns, **kw)


def _progress(console, quiet: bool):
    if quiet:
        return _NoProgress()
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    # no refresh thread: worker processes are forked while the bar is shown
    return _ManualProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                           auto_refresh=False)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}–{100 * ci[1]:.1f}%"


def _print_summary(console, report: dict, bots) -> None:
    from rich.table import Table
    for name, s in report["summary"].items():
        t = Table(title=f"{report['ruleset']} — {name}: {s['played']} games"
                  + (f", {s['errors']} stopped by errors" if s["errors"] else "")
                  + (" (interrupted)" if report["interrupted"] else ""))
        t.add_column("side")
        t.add_column("wins", justify="right")
        t.add_column("win rate", justify="right")
        t.add_column("95% CI", justify="right")
        for side, r in s["by_side"].items():
            t.add_row(side, str(r["wins"]), _pct(r["rate"]), _ci(r["ci95"]))
        if len(set(bots)) > 1:
            for kind, r in s["by_bot"].items():
                t.add_row(f"[dim]bot {kind} (per seat)[/dim]", str(r["wins"]), _pct(r["rate"]), _ci(r["ci95"]))
        console.print(t)
        if s["first_error"]:
            console.print(f"  [red]stopped by an error in the rules[/red]: {s['first_error']}")
        console.print("  by seat: " + ", ".join(f"{seat}: {_pct(r['rate'])} ({_ci(r['ci95'])})"
                                               for seat, r in s["by_seat"].items()))
        console.print(f"  length: {s['decisions']['mean']:.1f} ± {s['decisions']['sd']:.1f} decisions, "
                      f"{s['turns']['mean']:.1f} ± {s['turns']['sd']:.1f} turns; "
                      f"no winner: {s['no_winner']}; ends: "
                      + ", ".join(f"{k} {v}" for k, v in s["reasons"].items()))
        if s.get("stats"):
            console.print("  at the end: " + ", ".join(f"{k} {v['mean']:.2f} ± {v['sd']:.2f}"
                                                       for k, v in s["stats"].items()))
    cmp = report.get("comparison")
    if cmp:
        t = Table(title=f"variant against base, on {cmp['paired_games']} paired seeds")
        t.caption = "diff: points; p: McNemar on paired games (length and stats: paired z)"
        for col in ("side", "base", "variant", "diff", "95% CI", "p", "sig."):
            t.add_column(col, justify="left" if col in ("side", "sig.") else "right", no_wrap=True)
        for side, c in cmp["by_side"].items():
            t.add_row(side, _pct(c["base"]["rate"]), _pct(c["variant"]["rate"]),
                      f"{100 * c['difference']:+.1f}", f"{100 * c['ci95'][0]:+.1f}…{100 * c['ci95'][1]:+.1f}",
                      f"{c['mcnemar_p']:.3g}", "yes" if c["significant"] else "")
        d = cmp["decisions"]
        t.add_row("length", f"{d['base']:.1f}", f"{d['variant']:.1f}", f"{d['difference']:+.1f}",
                  f"{d['ci95'][0]:+.1f}…{d['ci95'][1]:+.1f}", f"{d['p']:.3g}",
                  "yes" if d["p"] < 0.05 else "")
        for name, d in cmp.get("stats", {}).items():
            t.add_row(name, f"{d['base']:.2f}", f"{d['variant']:.2f}", f"{d['difference']:+.2f}",
                      f"{d['ci95'][0]:+.2f}…{d['ci95'][1]:+.2f}", f"{d['p']:.3g}",
                      "yes" if d["p"] < 0.05 else "")
        console.print(t)
    if report.get("games_per_second"):
        console.print(f"  {report['seconds']:.1f} s, {report['games_per_second']:.1f} games/s "
                      f"({report['backend']}, {report['jobs'] or 'all'} jobs)")
    sys.stdout.flush()
