"""MCTS decisions per second at a fixed budget, per shipped ruleset and player count.

Run: python benchmarks/bench_mcts.py [--rulesets a,b] [--iterations N] [--depth D] [--seconds S]

Seat 0 is an information-set MCTS bot (interpreter/bots/mcts.py) with a fixed number of
iterations per decision; the other seats play at random. Only the time spent inside the
bot's `choose` is counted, and only decisions with more than one option (a forced move
costs no search). Each iteration determinizes the state and plays a rollout, so this
measures determinize + clone-free playouts together. It reports; it never asserts a speed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots.mcts import MctsBot  # noqa: E402
from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402


def mcts_rate(game, n: int, iterations: int, depth: int | None, seconds: float) -> dict:
    searched, spent, seed = 0, 0.0, 0
    while spent < seconds:
        st = game.new_game(seed=seed, players=n, record=False)
        bot, others = MctsBot(seed, game, iterations=iterations, depth=depth), RandomBot(seed)
        while not st.over and spent < seconds:
            if st.current_player() == 0 and len(st.options()) > 1:
                t = time.perf_counter()
                oid = bot.choose(st)
                spent += time.perf_counter() - t
                searched += 1
            else:
                oid = others.choose(st)
            st.apply_in_place(oid)
        seed += 1
    return {"decisions": searched, "decisions_per_s": searched / spent}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--depth", type=int, default=30, help="rollout length before the heuristic (0: to the end)")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    names = args.rulesets.split(",") if args.rulesets else sorted(
        d.name for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file())
    depth = args.depth or None
    print(f"MCTS, {args.iterations} iterations per decision, rollouts of {depth or 'full'} moves")
    for name in names:
        game = load(RULESETS / name)
        rs = game.ruleset
        for n in sorted({rs.min_players, rs.max_players}):
            r = mcts_rate(game, n, args.iterations, depth, args.seconds)
            print(f"  {name:24} {n:>2} players: {r['decisions_per_s']:8.2f} decisions/s "
                  f"({r['decisions_per_s'] * args.iterations:,.0f} iterations/s, {r['decisions']} decisions)")


if __name__ == "__main__":
    main()
