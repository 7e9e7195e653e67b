"""`grimoire tune`: fit a side's policy weights by simulation, and write them as a variant.

Pipeline position: above the simulation runner and its backends (a batch of games per trial,
on the local pool or on Ray), beside `simulate`. Every trial plays the same training games
(seeds from `--seed` + 1,000,000 on, so trials are compared on common seeds) with the side's
policy seats reading the trial's weights and every other seat its usual bot; the optimizer is
optuna's TPE sampler (seeded, so a tuning run is reproducible with one job), started from the
ruleset's own weights. The best weights and the ruleset's are then played on the evaluation
seeds (`--seed` on, as `grimoire simulate` uses them), never seen while tuning, and the side's
win rate is reported before and after with 95% intervals and a paired test. The weights are
written as a variant file (`merge: policy: sides: SIDE: weights:`), so `--variant FILE` plays
them everywhere a variant goes.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from .backends import BACKENDS, default_jobs, run_batch
from .runner import SimSpec
from .stats import compare, rate

TRAIN_OFFSET = 1_000_000  # training seeds start here after --seed: disjoint from evaluation


@dataclass
class TuneResult:
    """What a tuning run found, with the evaluation of before and after."""

    side: str
    names: list
    before: dict           # the ruleset's weights
    after: dict            # the best trial's weights
    train: list = field(default_factory=list)   # (trial weights, training win rate) per trial
    eval_before: dict = field(default_factory=dict)
    eval_after: dict = field(default_factory=dict)
    paired: dict = field(default_factory=dict)


def register(sub) -> None:
    """Add the `tune` subcommand."""
    t = sub.add_parser("tune", help="fit a side's policy weights by simulation (writes a variant)")
    t.add_argument("ruleset")
    t.add_argument("--side", required=True, help="the side whose policy weights are fitted")
    t.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    t.add_argument("--games", type=int, required=True, help="training games per trial")
    t.add_argument("--trials", type=int, required=True, help="weight settings tried")
    t.add_argument("--eval-games", type=int, help="games on the evaluation seeds (default: 2 x --games)")
    t.add_argument("--players", type=int, help="players per game (default: the ruleset's minimum)")
    t.add_argument("--weights", help="comma-separated: only these weights (default: all of the side's)")
    t.add_argument("--seed", type=int, default=1, help="evaluation game i uses seed SEED+i (default 1)")
    t.add_argument("--jobs", type=int, help=f"worker processes (default: all cores, {default_jobs()})")
    t.add_argument("--backend", choices=BACKENDS, default="local")
    t.add_argument("--address", help="a Ray cluster to join (with --backend ray)")
    t.add_argument("--out", help="the variant file to write (default: tuned_SIDE.yaml)")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(fn=cmd_tune)


def search_space(weights: dict) -> dict:
    """The interval each weight is searched in: its value plus or minus its size (at least 1)."""
    out = {}
    for k, w in weights.items():
        span = max(abs(w), 1.0)
        out[k] = (w - span, w + span)
    return out


def side_wins(results: list[dict], side: str) -> int:
    return sum(1 for r in results if side in r.get("sides", []))


def tune(ruleset: str, side: str, games: int, trials: int, *, variants=(), players=None, names=None,
         seed: int = 1, eval_games: int | None = None,
         jobs: int | None = None, backend: str = "local", address: str | None = None,
         progress=None) -> TuneResult:
    """Fit the policy weights of `side` (see the module's docstring); return what was found."""
    import optuna

    from ..game import load
    game = load(ruleset, list(variants))
    pol = game.program.policy
    if pol is None:
        raise ValueError(f"{game.ruleset.id} has no policy: section, so there are no weights to tune")
    if side not in game.program.sides:
        raise ValueError(f"{side!r} is no side of {game.ruleset.id} (sides: {', '.join(game.program.sides)})")
    base = pol.weights_of(side)
    names = list(names or base)
    unknown = [n for n in names if n not in base]
    if unknown or not names:
        raise ValueError(f"no weight {unknown[0]!r} in the policy of {side}" if unknown
                         else f"the policy of {side} has no weights")
    n = players if players is not None else game.ruleset.min_players
    if not game.ruleset.min_players <= n <= game.ruleset.max_players:
        raise ValueError(f"{game.ruleset.id} is for {game.ruleset.min_players} to "
                         f"{game.ruleset.max_players} players, not {n}")
    path = str(game.path)

    def spec(ws: dict) -> SimSpec:
        # every seat plays the policy; the weights reach the seats whose side is the tuned one
        return SimSpec(path, tuple(variants), n, ("policy",), options={"weights": {side: ws}})

    def play(ws: dict, first_seed: int, count: int, label: str) -> list[dict]:
        task = progress.add_task(label, total=count) if progress else None
        out = []
        with closing(run_batch(spec(ws), first_seed, count, jobs, backend, address)) as batch:
            for r in batch:
                out.append(r)
                if progress:
                    progress.advance(task)
        return sorted(out, key=lambda r: r["index"])

    result = TuneResult(side, names, dict(base), dict(base))
    space = search_space({k: base[k] for k in names})
    sampler = optuna.samplers.TPESampler(seed=seed)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({k: base[k] for k in names})  # the ruleset's own weights first
    train_seed = seed + TRAIN_OFFSET
    for i in range(trials):
        trial = study.ask()
        ws = {**base, **{k: trial.suggest_float(k, *space[k]) for k in names}}
        runs = play(ws, train_seed, games, f"trial {i + 1}/{trials}")
        wins = side_wins(runs, side) / max(1, len(runs))
        study.tell(trial, wins)
        result.train.append(({k: ws[k] for k in names}, wins))
    result.after = {**base, **{k: round(v, 3) for k, v in study.best_params.items()}}
    m = eval_games or 2 * games
    before = play(result.before, seed, m, "evaluate before")
    after = play(result.after, seed, m, "evaluate after")
    result.eval_before = rate(side_wins(before, side), len(before))
    result.eval_after = rate(side_wins(after, side), len(after))
    result.paired = compare(before, after)["by_side"].get(side, {})
    return result


def variant_text(result: TuneResult, ruleset_id: str, games: int, trials: int) -> str:
    """The tuned weights as a variant file."""
    lines = [
        f"# Written by `grimoire tune`: {trials} trials of {games} games; on the evaluation seeds the",
        f"# {result.side} side won {_pct(result.eval_before)} before and {_pct(result.eval_after)} after.",
        f"variant: tuned_{result.side}",
        f"title: Policy weights of {result.side}, tuned by simulation",
        f"base: {ruleset_id}",
        "merge:",
        "  policy:",
        "    sides:",
        f"      {result.side}:",
        "        weights:",
    ]
    for k in sorted(result.after):
        lines.append(f"          {k}: {result.after[k]:g}")
    return "\n".join(lines) + "\n"


def _pct(r: dict) -> str:
    lo, hi = r.get("ci95", (0, 0))
    return f"{100 * r.get('rate', 0):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


def cmd_tune(args) -> int:
    from rich.console import Console

    from ..cli import write_atomic
    from .commands import _progress
    err = Console(stderr=True)
    out = Console()
    for name, v in (("--games", args.games), ("--trials", args.trials)):
        if v < 1:
            err.print(f"error: {name} must be at least 1")
            return 2
    try:
        import optuna  # noqa: F401
    except ImportError:
        err.print("error: tuning needs optuna: pip install 'grimoire[tune]'")
        return 2
    names = [w.strip() for w in args.weights.split(",")] if args.weights else None
    ray_started = _start_ray(args)
    t0 = time.perf_counter()
    try:
        with _progress(err, args.quiet) as progress:
            res = tune(args.ruleset, args.side, args.games, args.trials, variants=args.variant,
                       players=args.players, names=names, seed=args.seed,
                       eval_games=args.eval_games, jobs=args.jobs, backend=args.backend,
                       address=args.address, progress=progress)
    except ValueError as e:
        err.print(f"error: {e}", markup=False)
        return 2
    except KeyboardInterrupt:
        err.print("interrupted: no weights written")
        return 130
    finally:
        if ray_started:
            import ray
            ray.shutdown()
    from ..game import load
    rs_id = load(args.ruleset, args.variant).ruleset.id
    path = Path(args.out or f"tuned_{args.side}.yaml")
    write_atomic(path, variant_text(res, rs_id, args.games, args.trials))
    best = max(w for _, w in res.train)
    out.print(f"{rs_id}: {args.trials} trials of {args.games} games (seeds {args.seed + TRAIN_OFFSET} on); "
              f"best training win rate of {args.side}: {100 * best:.1f}%", markup=False)
    out.print(f"evaluation ({res.eval_before['games']} games, seeds {args.seed} on): {args.side} won "
              f"{_pct(res.eval_before)} before, {_pct(res.eval_after)} after", markup=False)
    p = res.paired
    if p:
        lo, hi = p["ci95"]
        out.print(f"paired difference {100 * p['difference']:+.1f} points (95% CI {100 * lo:+.1f} to "
                  f"{100 * hi:+.1f}), McNemar p = {p['mcnemar_p']:.3g}"
                  + (" (significant)" if p["significant"] else ""), markup=False)
    changed = {k: v for k, v in res.after.items() if v != res.before.get(k)}
    out.print("weights: " + ", ".join(f"{k} {res.before[k]:g} -> {v:g}" for k, v in sorted(changed.items()))
              if changed else "weights: the ruleset's own were best", markup=False)
    out.print(f"wrote {path} ({time.perf_counter() - t0:.0f} s); play it with --variant {path}", markup=False)
    return 0


def _start_ray(args) -> bool:
    """Start Ray once for all trials (each batch would start and stop it otherwise)."""
    if args.backend != "ray":
        return False
    import ray
    if ray.is_initialized():
        return False
    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.jobs, log_to_driver=False)
    return True


__all__ = ["TuneResult", "cmd_tune", "register", "search_space", "tune", "variant_text"]
