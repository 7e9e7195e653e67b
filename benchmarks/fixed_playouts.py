"""A fixed amount of engine work, for instruction counts (valgrind) and CPU-time A/B runs:
random games of each ruleset with fixed seeds, the same decisions on every run.

Run: python benchmarks/fixed_playouts.py [--games N]
     valgrind --tool=callgrind --callgrind-out-file=/dev/null python benchmarks/fixed_playouts.py --games 5
(callgrind prints the instructions executed: compare two versions of the engine on the same
command; the count barely moves between runs, unlike time on a shared machine).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402

GAMES = (("shadows_over_camelot", 5), ("castle_of_the_devil", 5), ("high_tide", 3))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20, help="games per ruleset")
    args = ap.parse_args()
    games = [(load(RULESETS / name), n) for name, n in GAMES]
    t0 = time.process_time()
    decisions = 0
    for game, n in games:
        for seed in range(args.games):
            st = game.new_game(seed=seed, players=n, record=False)
            bot = RandomBot(seed)
            while not st.over:
                st.apply_in_place(bot.choose(st))
                decisions += 1
    cpu = time.process_time() - t0
    print(f"{decisions} decisions in {cpu:.3f} s CPU: {decisions / cpu:,.0f} decisions/s")


if __name__ == "__main__":
    main()
