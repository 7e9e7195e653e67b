"""Bot speed: CPU per whole game with policy bots, and MCTS decisions per second.

Run: python benchmarks/bench_bots.py [--games N] [--budget B] [--depth D] [--seconds S] [--out FILE]

1. Whole games with a policy bot in every seat (the ruleset's `policy:`; rulesets without one
   are reported as such), from the first decision to the end, without a log (as `simulate`
   plays them): CPU time per game (time.process_time, steadier than wall time on a shared
   machine), median and spread, and decisions per game. Targets: a 5-player Camelot game and a
   4-player Castle game.
2. MCTS at a fixed budget (seat 0, the others policy bots where there is a policy, random
   otherwise): CPU time inside the bot's `choose` per decision with more than one option.

It reports; it never asserts a speed. Results are printed and, with --out, written as text.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots import Seat, make_bot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402

GAMES = [("shadows_over_camelot", 5), ("shadows_over_camelot", 3), ("castle_of_the_devil", 4),
         ("high_tide", 3)]


def policy_games(game, n: int, games: int) -> dict:
    """CPU seconds per whole game with policy bots in every seat."""
    cpu, decisions = [], []
    for seed in range(games):
        bots = [make_bot("policy", seed * 1000 + p, game) for p in range(n)]
        t = time.process_time()
        st = game.new_game(seed=seed, players=n, record=False)
        k = 0
        while not st.over:
            st.apply_in_place(bots[st.current_player()].choose(Seat(st)))
            k += 1
        cpu.append(time.process_time() - t)
        decisions.append(k)
    q = statistics.quantiles(cpu, n=10) if len(cpu) >= 2 else [cpu[0]] * 9
    return {"median_ms": 1000 * statistics.median(cpu), "p10_ms": 1000 * q[0], "p90_ms": 1000 * q[-1],
            "decisions": statistics.mean(decisions), "us_per_decision": 1e6 * sum(cpu) / sum(decisions)}


def mcts_rate(game, n: int, budget: int, depth: int | None, seconds: float) -> dict:
    """MCTS decisions per CPU second at `budget` iterations (seat 0)."""
    other = "policy" if game.program.policy is not None else "random"
    searched, spent, seed = 0, 0.0, 0
    while spent < seconds:
        st = game.new_game(seed=seed, players=n, record=False)
        bot = make_bot("mcts", seed, game, iterations=budget, depth=depth)
        others = [make_bot(other, seed * 1000 + p, game) for p in range(n)]
        while not st.over and spent < seconds:
            seat = Seat(st)
            if seat.player == 0 and len(seat.options) > 1:
                t = time.process_time()
                oid = bot.choose(seat)
                spent += time.process_time() - t
                searched += 1
            else:
                oid = others[seat.player].choose(seat)
            st.apply_in_place(oid)
        seed += 1
    return {"decisions": searched, "decisions_per_s": searched / spent, "others": other}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="whole policy games per ruleset")
    ap.add_argument("--budget", type=int, default=100, help="MCTS iterations per decision")
    ap.add_argument("--depth", type=int, default=0,
                    help="MCTS rollout length before evaluate (0: the bot's default, as `simulate --bots mcts`)")
    ap.add_argument("--seconds", type=float, default=20.0, help="CPU seconds of MCTS per ruleset")
    ap.add_argument("--out", help="also write the report to this file")
    args = ap.parse_args()
    lines = [f"bench_bots: {args.games} policy games each; MCTS budget {args.budget}, "
             f"rollouts of {args.depth or 'the default'} moves, {args.seconds:g} CPU s each (time.process_time)"]

    def say(s: str) -> None:
        print(s, flush=True)
        lines.append(s)

    loaded: dict = {}
    for name, n in GAMES:
        game = loaded.get(name) or loaded.setdefault(name, load(RULESETS / name))
        if game.program.policy is None:
            say(f"{name} {n}p: no policy: section")
            continue
        r = policy_games(game, n, args.games)
        say(f"{name} {n}p policy game: median {r['median_ms']:.1f} ms CPU (p10 {r['p10_ms']:.1f}, "
            f"p90 {r['p90_ms']:.1f}), {r['decisions']:.0f} decisions, {r['us_per_decision']:.0f} us/decision")
    for name, n in GAMES:
        game = loaded[name]
        r = mcts_rate(game, n, args.budget, args.depth or None, args.seconds)
        say(f"{name} {n}p MCTS budget {args.budget}: {r['decisions_per_s']:.2f} decisions/s "
            f"({r['decisions']} decisions; others {r['others']})")
    if args.out:
        Path(args.out).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
