"""Simulation throughput: games per second with 1 and 2 worker processes, random bots.

Run: python benchmarks/bench_sim.py [--rulesets a,b] [--games N] [--jobs 1,2] [--json OUT]

For every shipped ruleset (at its minimum player count unless --players), the same seeded
batch is played through `interpreter.sim.run_batch` with each job count: jobs=1 plays in
this process (what `grimoire simulate --jobs 1` does), jobs=J>1 starts a pool of J worker
processes, each loading the ruleset once. The wall time includes that start-up, as a user
sees it; the steady rate (games after the first result / time after it) is shown beside it.
The script also checks that every job count gave the same results seed by seed. It reports
and never asserts a speed: timings depend on the machine and on what else runs on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.game import RULESETS, load  # noqa: E402
from interpreter.sim import SimSpec, run_batch  # noqa: E402
from interpreter.sim.runner import same_outcome  # noqa: E402

DEFAULT_GAMES = {"high_tide": 2000}


def measure(spec: SimSpec, games: int, jobs: int) -> dict:
    """Play one batch; return wall time, games/s and the steady rate after the first result."""
    t0 = time.perf_counter()
    first = None
    results = []
    for r in run_batch(spec, seed=1, games=games, jobs=jobs):
        if first is None:
            first = time.perf_counter()
        results.append(r)
    t1 = time.perf_counter()
    steady = (len(results) - 1) / (t1 - first) if first is not None and t1 > first else None
    errors = sum(1 for r in results if r["reason"] == "error")
    return {"jobs": jobs, "games": len(results), "seconds": t1 - t0, "games_per_s": len(results) / (t1 - t0),
            "steady_games_per_s": steady, "errors": errors,
            "decisions_per_game": sum(r["decisions"] for r in results) / max(1, len(results)),
            "results": sorted(results, key=lambda r: r["index"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", help="comma-separated names (default: every shipped ruleset)")
    ap.add_argument("--games", type=int, help="games per batch (default: 2000 for high_tide, 300 otherwise)")
    ap.add_argument("--players", type=int)
    ap.add_argument("--jobs", default="1,2", help="job counts to compare (default 1,2)")
    ap.add_argument("--json", help="also write the numbers here")
    args = ap.parse_args()
    names = args.rulesets.split(",") if args.rulesets else sorted(
        d.name for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file())
    jobs_list = [int(j) for j in args.jobs.split(",")]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'ruleset':24} {'players':>7} {'games':>6} {'dec/game':>8} "
          + " ".join(f"{f'{j} proc games/s':>16} {'(steady)':>9}" for j in jobs_list) + "  same results")
    report = []
    for name in names:
        try:
            game = load(RULESETS / name)
        except Exception as e:  # a ruleset being edited may not load: say so and go on
            print(f"{name:24} does not load: {str(e).splitlines()[0][:80]}")
            continue
        n = args.players or game.ruleset.min_players
        games = args.games or DEFAULT_GAMES.get(name, 300)
        spec = SimSpec(str(RULESETS / name), players=n)
        runs = [measure(spec, games, j) for j in jobs_list]
        same = all(len(r["results"]) == len(runs[0]["results"])
                   and all(same_outcome(a, b) for a, b in zip(runs[0]["results"], r["results"]))
                   for r in runs[1:])
        cells = " ".join(f"{r['games_per_s']:>16.1f} {r['steady_games_per_s'] or 0:>9.1f}" for r in runs)
        errs = sum(r["errors"] for r in runs)
        print(f"{name:24} {n:>7} {games:>6} {runs[0]['decisions_per_game']:>8.1f} {cells}  "
              f"{'yes' if same else 'NO'}" + (f"  ({errs} games stopped by ruleset errors)" if errs else ""))
        report.append({"ruleset": name, "players": n, "games": games, "same_results": same,
                       "runs": [{k: v for k, v in r.items() if k != "results"} for r in runs]})
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
