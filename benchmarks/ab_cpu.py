"""CPU time of fixed random playouts in two source trees, interleaved (A, B, A, B, ...).

Run: python benchmarks/ab_cpu.py --before DIR --after DIR [--rounds 3] [--decisions 20000]

On a shared machine wall time measures the neighbours; CPU time of the same work, run in
alternation so that both trees see the same load, is steadier. Each run is a fresh Python
process (PYTHONHASHSEED=0) that loads a ruleset from the given tree and plays a fixed
number of decisions of seeded random-bot games with logs off; `time.process_time` is read
around the playouts only.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

CASES = [("shadows_over_camelot", 5), ("castle_of_the_devil", 6)]


def play(root: str, ruleset: str, n: int, decisions: int) -> float:
    """Decisions per CPU second of seeded random playouts of one tree."""
    sys.path.insert(0, root)
    from interpreter.bots.random_bot import RandomBot
    from interpreter.game import load
    game = load(ruleset)
    done = seed = 0
    t0 = time.process_time()
    while done < decisions:
        st = game.new_game(seed=seed, players=n, record=False)
        bot = RandomBot(seed)
        while not st.over and done < decisions:
            st.apply_in_place(bot.choose(st))
            done += 1
        seed += 1
    return decisions / (time.process_time() - t0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path)
    ap.add_argument("--after", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--decisions", type=int, default=20_000)
    ap.add_argument("--play", nargs=4, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.play:
        print(play(a.play[0], a.play[1], int(a.play[2]), int(a.play[3])))
        return 0
    env = dict(os.environ, PYTHONHASHSEED="0")
    for r in range(1, a.rounds + 1):
        for side, root in (("before", a.before), ("after", a.after)):
            for ruleset, n in CASES:
                out = subprocess.run([sys.executable, __file__, "--play", str(root.resolve()), ruleset, str(n),
                                      str(a.decisions)], capture_output=True, text=True, env=env, check=True)
                print(f"{side} round{r} {ruleset} {n}p: {float(out.stdout):,.0f} decisions per CPU second",
                      flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
