"""Play that adapts to new rules (issue 24): how often policy bots take a variant's new action.

For each variant given, the policy bot plays the same seeds twice, with its probe of new
actions off (the policy alone: an action it has no term for keeps its `default` score) and on
(bots/policy.py), and the script prints, per run, the offers and takes of every action the
variant adds (the same counts `simulate` reports), the win rate of each side with its 95%
interval, the paired difference (McNemar) between probe off and on, and the CPU per game.

    python benchmarks/bench_adapt.py --variants first_game+round_table_prayer --players 5 --games 200
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from interpreter.game import load
from interpreter.sim.runner import SimSpec, load_game, play_game
from interpreter.sim.stats import compare, summarize

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="shadows_over_camelot")
    ap.add_argument("--variants", default="first_game+round_table_prayer",
                    help="comma-separated runs, each a +-joined list of variants; the last one's actions are new")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=41_000_000)
    ap.add_argument("--option", action="append", default=[], help="a policy bot option NAME=NUMBER (repeatable)")
    ap.add_argument("--probe", default="off,on", help="off, on, or off,on (then compared game by game)")
    args = ap.parse_args()
    opts = {k: float(v) for k, v in (o.split("=", 1) for o in args.option)}
    for run in args.variants.split(","):
        vs = run.split("+")
        base = load(args.ruleset, vs[:-1]).program.actions
        new = tuple(sorted(set(load(args.ruleset, vs).program.actions) - set(base)))
        results = {}
        for probe in [p == "on" for p in args.probe.split(",")]:
            spec = SimSpec(args.ruleset, tuple(vs), args.players, ("policy",),
                           options={"probe": probe, **opts}, watch=new)
            game = load_game(spec)
            t = time.process_time()
            results[probe] = [play_game(game, spec, args.seed + i, i) for i in range(args.games)]
            cpu = (time.process_time() - t) / args.games
            s = summarize(results[probe])
            sides = ", ".join(f"{k} {100 * v['rate']:.1f}% [{100 * v['ci95'][0]:.1f}, {100 * v['ci95'][1]:.1f}]"
                              for k, v in s["by_side"].items())
            acts = ", ".join(f"{a}: taken {c['taken']} of {c['offered']} offers "
                             f"({100 * c['taken_share']:.1f}%), "
                             f"in {c['games_taken']} of {s['played']} games" for a, c in s.get("actions", {}).items())
            how = "on " + str(opts) if probe else "off"
            print(f"{run} {args.players}p probe={how} seeds {args.seed}+{args.games}: "
                  f"{acts}; {sides}; {1000 * cpu:.0f} ms CPU/game", flush=True)
        if len(results) < 2:
            continue
        c = compare(results[False], results[True])
        for side, d in c["by_side"].items():
            print(f"  {side}: probe on - off {100 * d['difference']:+.1f} points "
                  f"[{100 * d['ci95'][0]:+.1f}, {100 * d['ci95'][1]:+.1f}], "
                  f"pairs {d['base_only']}/{d['variant_only']}, "
                  f"McNemar p = {d['mcnemar_p']:.3g}", flush=True)


if __name__ == "__main__":
    main()
