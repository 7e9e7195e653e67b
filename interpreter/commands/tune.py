"""`grimoire tune`: fit a side's policy weights by simulation, and write them as a variant.

Pipeline position: commands (registered by cli.py); the tuning itself is sim/tune.py. A bad
argument is a message and exit code 2 before any game is played.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..files import write_atomic
from ..game import load
from ..sim.backends import BACKENDS, default_jobs
from ..sim.tune import TRAIN_OFFSET, pct, tune, variant_text
from .simulate import _progress


def register(sub) -> None:
    """Add the `tune` subcommand."""
    t = sub.add_parser("tune", help="fit a side's policy weights by simulation (writes a variant)")
    t.add_argument("ruleset", help="the ruleset folder")
    t.add_argument("--side", required=True, help="the side whose policy weights are fitted")
    t.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    t.add_argument("--games", type=int, required=True, help="training games per trial")
    t.add_argument("--trials", type=int, required=True, help="weight settings tried")
    t.add_argument("--eval-games", type=int, help="games on the evaluation seeds (default: 2 x --games)")
    t.add_argument("--players", type=int, help="players per game (default: the ruleset's minimum)")
    t.add_argument("--weights", help="comma-separated: only these weights (default: all of the side's)")
    t.add_argument("--new-actions", action="store_true",
                   help="fit a weight for each action the variants add that no policy scores "
                        "(the term goes into the variant written)")
    t.add_argument("--seed", type=int, default=1, help="evaluation game i uses seed SEED+i (default 1)")
    t.add_argument("--jobs", type=int, help=f"worker processes (default: all cores, {default_jobs()})")
    t.add_argument("--backend", choices=BACKENDS, default="local",
                   help="where the games run: local processes or a Ray cluster")
    t.add_argument("--address", help="a Ray cluster to join (with --backend ray)")
    t.add_argument("--out", help="the variant file to write (default: tuned_SIDE.yaml)")
    t.add_argument("--quiet", action="store_true", help="no progress bar")
    t.set_defaults(fn=cmd_tune)


def cmd_tune(args) -> int:
    from .output import console
    err = console(stderr=True)
    out = console()
    for name, v in (("--games", args.games), ("--trials", args.trials), ("--eval-games", args.eval_games)):
        if v is not None and v < 1:
            err.print(f"error: {name} must be at least 1")
            return 2
    path = Path(args.out or f"tuned_{args.side}.yaml")
    if not path.parent.is_dir():
        err.print(f"error: --out {path}: no directory {path.parent}", markup=False)
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
                       address=args.address, progress=progress, new_actions=args.new_actions)
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
    rs_id = load(args.ruleset, args.variant).ruleset.id
    write_atomic(path, variant_text(res, rs_id, args.games, args.trials))
    best = max(w for _, w in res.train)
    out.print(f"{rs_id}: {args.trials} trials of {args.games} games (seeds {args.seed + TRAIN_OFFSET} on); "
              f"training win rate of {args.side}: {100 * res.train[0][1]:.1f}% with the ruleset's weights, "
              f"{100 * best:.1f}% with the best", markup=False)
    out.print(f"evaluation ({res.eval_before['games']} games, seeds {args.seed} on): {args.side} won "
              f"{pct(res.eval_before)} before, {pct(res.eval_after)} after", markup=False)
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




__all__ = ["cmd_tune", "register"]
