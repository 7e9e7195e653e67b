"""Memory: bytes per game state, and peak and growth over a long random simulation.

Run: python benchmarks/bench_memory.py [--rulesets a,b] [--games 10000]

Per state: tracemalloc counts what 1,000 states of one mid-game position hold, for clones
(which share the static tables and, copy-on-write, the log and history) and for states read
back from JSON (which share nothing). Simulation: `--games` random games at the ruleset's
minimum player count, logs off (as `grimoire simulate` runs them), one after another in this
process; the resident size is sampled every 10% and the peak (ru_maxrss) printed. "Growth"
is the resident size after the last game minus after the first 10%: no growth is the target.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_engine import midgame  # noqa: E402

from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def per_state(make) -> float:
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    keep = [make() for _ in range(1000)]
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del keep
    return (after - before) / 1000


def simulate(game, n: int, games: int) -> list[float]:
    samples = []
    step = max(1, games // 10)
    for seed in range(games):
        st = game.new_game(seed=seed, players=n, record=False)
        bot = RandomBot(seed)
        while not st.over:
            st.apply_in_place(bot.choose(st))
        if (seed + 1) % step == 0:
            gc.collect()
            samples.append(rss_mb())
    return samples


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="")
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    names = args.rulesets.split(",") if args.rulesets else sorted(
        d.name for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file())
    for name in names:
        game = load(RULESETS / name)
        n = game.ruleset.min_players
        st = midgame(game, n)
        data = st.to_json()
        clone_b = per_state(st.clone)
        json_b = per_state(lambda: game.state_from_json(data))
        samples = simulate(game, n, args.games)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{name} ({n} players): state {clone_b / 1024:.1f} KiB as a clone, {json_b / 1024:.1f} KiB "
              f"read from JSON; {args.games:,} games: RSS {samples[0]:.1f} MB after 10%, "
              f"{samples[-1]:.1f} MB at the end (growth {samples[-1] - samples[0]:+.1f} MB), "
              f"process peak {peak:.1f} MB")


if __name__ == "__main__":
    main()
