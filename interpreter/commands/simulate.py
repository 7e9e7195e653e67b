"""`grimoire simulate`: many seeded games with bots, a summary, and reports on disk.

Pipeline position: the outermost layer (registered into the CLI by `register`). Game i uses
seed S+i on every backend. With --compare the base ruleset and the ruleset with the variants
play the same seeds, and each side's win rate is compared pair by pair (McNemar).
Ctrl-C stops the run: finished games are kept (games.jsonl has them as they finished) and
the reports are written for them, marked interrupted.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from contextlib import closing
from pathlib import Path

from ..bots import KINDS, NEED_POLICY
from ..bots.plugin import is_plugin, load_bot_class
from ..sim.backends import BACKENDS, Terminated, default_jobs, on_sigterm, raise_terminated
from ..sim.limits import check_numbers
from ..sim.report import write_atomic_bytes
from ..sim.runner import SimSpec
from ..sim.stats import compare, rarely_taken, summarize
from ..sim.summary_text import Names, print_summary, speed_line, words
from ..sim.summary_text import never_won as never_won_text
from ..sim.sweep import base_value, curve, fresh_out, parse_sweep, point_name, run_name, sweep_png, sweep_variants


def register(sub) -> None:
    """Add the `simulate` subcommand."""
    s = sub.add_parser("simulate", help="play many seeded games with bots and report statistics")
    s.add_argument("ruleset", nargs="?", help="a ruleset directory or a shipped ruleset's name "
                   "(not with --resume)")
    s.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    s.add_argument("--base-variant", action="append", default=[], metavar="VARIANT",
                   help="a variant every run plays, the base of --compare included (repeatable): "
                   "--base-variant B --variant V --compare measures V played on top of B")
    s.add_argument("--games", type=int, help="how many games (per run; with --resume, a new total)")
    s.add_argument("--bots", default="random",
                   help="random, policy, mcts, rollout or package.module:Class for every seat, or one per seat: "
                   "mcts,policy,random")
    s.add_argument("--temperature", type=float, default=0.0,
                   help="policy bots draw options by softmax at this temperature (0: the best)")
    s.add_argument("--rotate", action="store_true", help="game i shifts the seats' bots by i")
    s.add_argument("--players", type=int, help="players per game (default: the ruleset's minimum)")
    s.add_argument("--seed", type=int, default=1, help="game i uses seed SEED+i (default 1)")
    s.add_argument("--jobs", type=int, help=f"worker processes (default: all cores, {default_jobs()})")
    s.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where the games run: local processes or a Ray cluster")
    s.add_argument("--address", help="a Ray cluster to join, HOST:PORT, ray://HOST:PORT or auto (with "
                   "--backend ray; default: RAY_ADDRESS, else Ray is started here)")
    s.add_argument("--connect-timeout", type=float, default=30.0, metavar="SECONDS",
                   help="give up joining the Ray cluster after this long (default 30)")
    s.add_argument("--resume", metavar="DIR", help="continue the run whose reports are in DIR: play the "
                   "games its games.jsonl lacks (same ruleset, bots and seeds)")
    s.add_argument("--compare", action="store_true",
                   help="also play the base ruleset on the same seeds and compare")
    s.add_argument("--out", help="directory for results.json, games.csv, chart.png, games.jsonl "
                   "(default: a new simulate-RULESET, simulate-RULESET-2, ... per run)")
    s.add_argument("--sweep", metavar="PARAM=A..B[:STEP]",
                   help="one run per value of a param (or PARAM=A,B,C), on the same seeds; sweep.png "
                   "charts each side's win rate against the value")
    s.add_argument("--scenario", help="a scenario file: every game starts from its position (its setup, "
                   "`given` and `when`, with game i's seed); its players and seat names are used")
    s.add_argument("--budget", type=int, default=100, help="MCTS iterations per decision")
    s.add_argument("--depth", type=int, help="MCTS rollout depth before the evaluate heuristic")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(fn=cmd_simulate)


def cmd_simulate(args) -> int:
    from ..game import load
    from .output import console
    out_console = console()
    err = console(stderr=True)
    from ..errors import GrimoireError
    from ..sim.resume import apply_request
    if args.resume:
        if args.ruleset:
            err.print("error: --resume DIR takes the ruleset and the games from DIR/run.json; "
                      "give no ruleset", soft_wrap=True, markup=False)
            return 2
        try:
            apply_request(args)
        except GrimoireError as e:
            err.print(f"error: {e}", soft_wrap=True, markup=False)
            return 2
    if args.ruleset is None or args.games is None:
        err.print("error: simulate needs a ruleset and --games (or --resume DIR)")
        return 2
    problem = check_numbers(args)  # (message id, values) of a number out of its range
    if problem:
        err.print(say_error(args, problem[0], **problem[1]), soft_wrap=True, markup=False)
        return 2
    bots = tuple(b.strip() for b in args.bots.split(","))
    bad = [b for b in bots if b not in KINDS and not is_plugin(b)]
    if bad:
        err.print(f"error: unknown bot {bad[0]!r} (random, policy, mcts, rollout or package.module:Class)")
        return 2
    for b in bots:
        if is_plugin(b):
            load_bot_class(b)  # an unusable class is refused before any game is played
    if args.compare and not args.variant:
        err.print("error: --compare needs at least one --variant to compare with the base")
        return 2
    if args.compare and args.sweep:
        err.print("error: --sweep compares its values already; leave out --compare")
        return 2
    base_vs = list(args.base_variant)
    game = load(args.ruleset, base_vs + args.variant)  # located problems are printed by the CLI
    rs = game.ruleset
    needs = [b for b in bots if b in NEED_POLICY]
    if needs and game.program.policy is None:
        err.print(f"error: {rs.id} has no policy: section, so there is no {needs[0]} bot to play")
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
    if args.sweep:  # a mistake in it is reported before anything is written
        param, values = parse_sweep(args.sweep)
        base = base_value(rs, param, players)
    if args.backend == "ray" and not have_ray():
        err.print("error: --backend ray needs Ray, which is not installed: pip install 'grimoire[ray]' "
                  "(or leave out --backend to use local processes)", soft_wrap=True, markup=False)
        return 2
    from ..sim.backends import Session
    try:
        session = Session(args.backend, args.jobs, args.address, args.connect_timeout,
                          plugins=tuple(b for b in bots if is_plugin(b)))
    except GrimoireError as e:  # no Ray, a bad or unreachable address: one line, before any file
        err.print(say_error(args, e.msg_id, **e.values) if getattr(e, "msg_id", None) else f"error: {e}",
                  soft_wrap=True, markup=False)
        return 2
    try:  # the session holds workers (and maybe a Ray it started) until the run ends
        out = Path(args.out) if args.out else fresh_out(f"simulate-{rs.id}")
        problem = _check_out(out)  # before any game is played: a game is never lost to a bad path
        if problem:
            err.print(f"error: {problem}", soft_wrap=True, markup=False)
            session.close()
            return 2
        out.mkdir(parents=True, exist_ok=True)
        # tables and charts name runs by their rules; --base-variant is played by every run
        names = (run_name(rs.id, base_vs) if base_vs else rs.id, run_name(rs.id, base_vs + args.variant))
        new = new_actions(game, args.ruleset, base_vs) if args.variant else ()
        specs = {names[1]: SimSpec(ruleset, tuple(base_vs + args.variant), **common, watch=new)}
        if args.compare:
            specs = {names[0]: SimSpec(ruleset, tuple(base_vs), **common), **specs}
        sweep = None
        if args.sweep:
            files = sweep_variants(out, rs, param, values, players)
            points = [(v, point_name(param, v, base)) for v in values]
            specs = {name: SimSpec(ruleset, tuple(base_vs + args.variant) + ((files[v],) if files[v] else ()),
                                   **common, watch=new)
                     for v, name in points}
            sweep = (param, points)
        from ..sim.report import GameLog
        from ..sim.resume import finished_games, save_request
        args.ruleset_path = ruleset
        runs = {n: [r for r in rs_ if r["index"] < args.games]
                for n, rs_ in finished_games(out, specs).items()} if args.resume else {n: [] for n in specs}
        resumed = sum(map(len, runs.values()))
        save_request(out, args)
        log = GameLog(out / "games.jsonl", [(n, r) for n, rs_ in runs.items() for r in rs_])
    except BaseException:
        session.close()
        raise
    if session.jobs_requested and session.jobs and session.jobs < session.jobs_requested:
        err.print(say(args, "cli-sim-jobs-capped", jobs=str(session.jobs_requested), cpus=str(session.jobs)),
                  soft_wrap=True, markup=False)
    interrupted, failure, terminated = False, None, False
    t0 = time.perf_counter()
    old_term = on_sigterm(raise_terminated)
    try:
        labels = _labels(game.program, getattr(args, "cli_lang", None) or "en", specs, sweep,
                         len(base_vs + args.variant))
        with _progress(err, args.quiet) as progress:
            for name, spec in specs.items():
                task = progress.add_task(labels[name], total=args.games, completed=len(runs[name]))
                batch = session.run(spec, args.seed, args.games, skip={r["index"] for r in runs[name]})
                with closing(batch):
                    for r in batch:
                        runs[name].append(r)
                        log.add(name, r)
                        progress.advance(task)
    except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM (Terminated): the same clean stop
        interrupted, terminated = True, isinstance(e, Terminated)
        err.print(f"interrupted: keeping the {sum(map(len, runs.values()))} finished games")
    except Exception as e:  # the workers failed: the games played so far are still reported
        failure = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        err.print(f"error: the run stopped: {failure}; keeping the {sum(map(len, runs.values()))} "
                  f"finished games (continue with --resume {out})", soft_wrap=True, markup=False)
    finally:
        log.close()
        execution = session.info()
        session.close()
        on_sigterm(old_term)
    seconds = time.perf_counter() - t0
    execution.update(seconds=round(seconds, 3), resumed_games=resumed,
                     games_per_second=round((sum(map(len, runs.values())) - resumed) / seconds, 3)
                     if seconds > 0 else None)
    report = _report(args, rs, players, bots, execution, runs, interrupted, failure, names)
    warnings = rarely_taken(report["summary"], {n: sp.watch for n, sp in specs.items() if sp.watch})
    if warnings:
        report = {k: v for k, v in report.items() if k != "execution"} | {"warnings": warnings,
                                                                          "execution": report["execution"]}
    from ..sim.report import write_reports
    title = f"{rs.id}" + (f" + {', '.join(Path(v).stem for v in args.variant)}" if args.variant else "") \
        + f": {players} players, {'/'.join(bots)} bots" \
        + (f", from {Path(args.scenario).stem}" if args.scenario else "")
    if sweep:
        param, points = sweep
        data = curve(report["summary"], points)
        report["sweep"] = {"param": param, "values": [v for v, _ in points],
                           "runs": [n for _, n in points], "by_side": data}
    paths = write_reports(out, report, runs, title)
    if sweep:
        write_atomic_bytes(out / "sweep.png", sweep_png(sweep[0], report["sweep"]["by_side"],
                                                        title + f" ({args.games} games per value)"))
        paths.append(out / "sweep.png")
    lang = getattr(args, "cli_lang", None) or "en"
    names = Names(game.program, lang)       # sides and end reasons by the ruleset's locale
    print_summary(out_console, report, bots, names, lang)
    _print_summary(out_console, report, names, lang)
    for w in never_won_text(report["summary"], names, lang):
        err.print(w, soft_wrap=True, markup=False)
    for w in warnings:
        err.print(words(lang, w["id"], {k: v for k, v in w.items() if k != "id"}), soft_wrap=True, markup=False)
    for n in execution.get("nodes_given_dependencies", []):
        err.print(say(args, "cli-sim-node-shipped", node=n["node"] + f" ({n['node_id'][:8]})",
                      packages=", ".join(n["packages"])), soft_wrap=True, markup=False)
    for n in execution.get("nodes_unusable", []):  # loud: a node of the cluster played no game
        err.print(say(args, "cli-sim-node-unusable", node=n["node"] + f" ({n['node_id'][:8]})", cause=n["cause"]),
                  soft_wrap=True, markup=False, style="bold red")
    out_console.print(words(lang, "cli-sim-wrote", {"files": ", ".join(str(p) for p in paths),
                                                    "last": str(out / "games.jsonl")}), markup=False)
    if failure:
        return 1
    return (143 if terminated else 130) if interrupted else 0


def new_actions(game, ruleset: str, base_vs: list) -> tuple:
    """The actions the --variant files add: in the played ruleset, not in the base run's (the
    ruleset with the --base-variant files only). Their offers and takes are counted."""
    from ..game import load
    base = load(ruleset, base_vs)
    return tuple(sorted(set(game.program.actions) - set(base.program.actions)))


def say(args, msg_id: str, **values) -> str:
    """A message of this command in the user's language (interpreter/messages/LANG.yaml)."""
    from .cli_text import cli_text
    return cli_text(getattr(args, "cli_lang", None) or "en", msg_id, values)


def say_error(args, msg_id: str, **values) -> str:
    """`error: ` and a message of this command, in the user's language."""
    return say(args, "cli-error", message=say(args, msg_id, **values))


def _labels(program, lang: str, specs: dict, sweep, shared: int) -> dict[str, str]:
    """Each run's name on the progress bar: the game's and the variants' titles in the language
    (a sweep's point by its value; its written variant file, after the `shared` ones, by none)."""
    from ..sim.summary_text import Names
    names = Names(program, lang)
    points = {name: (sweep[0], v, name.endswith(" (the rules)")) for v, name in sweep[1]} if sweep else {}
    return {name: names.run_label(spec.variants[:shared] if name in points else spec.variants, points.get(name))
            for name, spec in specs.items()}


def have_ray() -> bool:
    """Ray is installed (the optional extra `grimoire[ray]`)."""
    return importlib.util.find_spec("ray") is not None


def _check_out(out: Path) -> str | None:
    """Why the results cannot be written to directory `out` (None if they can)."""
    from ..files import OutputError, check_writable
    try:
        out.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        return f"--out {out} is a file, not a directory"
    except OSError as e:
        return f"cannot create --out directory {out}: {e.strerror or e}"
    try:
        check_writable(out / "games.jsonl")
    except OutputError as e:
        return str(e)
    return None


def _check_scenario(args, game):
    """The scenario's compiled position, and why it cannot start these games (or None). Its
    own mistakes (schema, effect syntax) raise RulesetError with their lines; a position that
    fails to start, or one for another ruleset or player count, is a one-line problem."""
    from ..errors import GrimoireError
    from ..scenarios.run import play_position, position
    pos = position(args.scenario, args.variant)
    if Path(pos.game.path).resolve() != Path(game.path).resolve():
        theirs, ours = (pos.game.ruleset.id, game.ruleset.id) if pos.game.ruleset.id != game.ruleset.id else \
            (pos.game.path, game.path)      # two copies of one ruleset: say which is which
        return pos, f"{args.scenario} is a scenario of {theirs}, not of {ours}"
    if args.players is not None and args.players != pos.players:
        return pos, f"{args.scenario} is set up for {pos.players} players, not {args.players}"
    try:
        play_position(pos, args.seed)
    except GrimoireError as e:
        return pos, str(e).splitlines()[0]
    return pos, None


def _report(args, rs, players, bots, execution, runs, interrupted, failure, names) -> dict:
    """results.json without its games. Everything but `execution` (backend, workers, nodes,
    timings) depends only on the request and the seeds: summaries are over games by index."""
    from ..sim.resume import as_typed
    typed = as_typed(args)  # a resumed run reports the paths the first run was given
    runs = {name: sorted(rs_, key=lambda r: r["index"]) for name, rs_ in runs.items()}
    report = {
        "format": "grimoire-simulation", "version": 2,
        "ruleset": rs.id, "variants": typed["variant"], "base_variants": typed.get("base_variant", []),
        "players": players, "bots": list(bots),
        "rotate": args.rotate, "budget": args.budget, "depth": args.depth, "scenario": typed["scenario"],
        "seed": args.seed, "games_requested": args.games, "interrupted": interrupted, "failure": failure,
        "summary": {name: summarize(rs_) for name, rs_ in runs.items()},
    }
    if args.compare:
        report["comparison"] = dict(compare(runs[names[0]], runs[names[1]]), names=list(names))
    report["execution"] = execution
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


def _print_summary(console, report: dict, names, lang: str) -> None:
    """The --compare table and the speed line (the runs' tables: summary_text.print_summary)."""
    from rich.table import Table
    cmp = report.get("comparison")
    if cmp:
        base, var = cmp["names"]
        w = lambda k, **a: words(lang, k, a)  # noqa: E731
        yes = w("cli-sim-yes")
        t = Table(title=w("cli-sim-compare-title", variant=var, base=base, n=cmp["paired_games"]))
        t.caption = w("cli-sim-compare-caption")
        cols = (w("cli-sim-side"), base, var, w("cli-sim-diff"), w("cli-sim-ci"), "p", w("cli-sim-sig"))
        for i, col in enumerate(cols):
            t.add_column(col, justify="left" if i in (0, 6) else "right", no_wrap=True)
        for side, c in cmp["by_side"].items():
            t.add_row(names.side(side), _pct(c["base"]["rate"]), _pct(c["variant"]["rate"]),
                      f"{100 * c['difference']:+.1f}", f"{100 * c['ci95'][0]:+.1f}…{100 * c['ci95'][1]:+.1f}",
                      f"{c['mcnemar_p']:.3g}", yes if c["significant"] else "")
        d = cmp["decisions"]
        t.add_row(w("cli-sim-length-row"), f"{d['base']:.1f}", f"{d['variant']:.1f}", f"{d['difference']:+.1f}",
                  f"{d['ci95'][0]:+.1f}…{d['ci95'][1]:+.1f}", f"{d['p']:.3g}",
                  yes if d["p"] < 0.05 else "")
        for name, d in cmp.get("stats", {}).items():
            t.add_row(name, f"{d['base']:.2f}", f"{d['variant']:.2f}", f"{d['difference']:+.2f}",
                      f"{d['ci95'][0]:+.2f}…{d['ci95'][1]:+.2f}", f"{d['p']:.3g}",
                      yes if d["p"] < 0.05 else "")
        console.print(t)
    line = speed_line(report["execution"], lang)
    if line:
        console.print(line, markup=False)
    sys.stdout.flush()
