"""How many prompts a human seat answers in a whole game, with and without the lone-Pass auto-answer.

Seat 1 is the "human": every seat is played by the ruleset's policy bot (the same decisions a
human might take, reproducibly), and every decision of seat 1 is counted, once in all
(before: every prompt is shown) and once without the prompts whose only option is Pass
(after: `interpreter.tabletop.auto.lone_pass` answers those, as both clients do by default).

    python benchmarks/bench_table_prompts.py castle_of_the_devil --players 4 --games 20
    python benchmarks/bench_table_prompts.py shadows_over_camelot --players 5 --games 10
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics

from interpreter.bots import make_bot
from interpreter.game import RULESETS, load
from interpreter.tabletop.auto import lone_pass


def count(ruleset: str, players: int, games: int, first_seed: int = 1) -> dict:
    game = load(RULESETS / ruleset)
    before, after = [], []
    prompts: collections.Counter = collections.Counter()
    for seed in range(first_seed, first_seed + games):
        st = game.new_game(seed=seed, players=players)
        bots = {i: make_bot("policy", seed * 1000 + i, game) for i in range(players)}
        b = a = 0
        while not st.is_over():
            p = st.current_player()
            if p == 0:
                b += 1
                if lone_pass(st, 0) is None:
                    a += 1
                else:
                    prompts[st.decision().prompt] += 1
            st = st.apply(bots[p].choose(st))
        before.append(b)
        after.append(a)
    return {"ruleset": ruleset, "players": players, "games": games, "seeds": [first_seed, first_seed + games - 1],
            "before_mean": statistics.mean(before), "after_mean": statistics.mean(after),
            "before_total": sum(before), "after_total": sum(after),
            "auto_answered_by_prompt": {k: v for k, v in prompts.most_common()}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ruleset")
    ap.add_argument("--players", type=int, required=True)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1, help="the first seed (one game per seed)")
    a = ap.parse_args()
    print(json.dumps(count(a.ruleset, a.players, a.games, a.seed), indent=1))


if __name__ == "__main__":
    main()
