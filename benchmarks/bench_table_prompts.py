"""How many prompts a human seat answers in a whole game, with and without the table's help.

Seat 1 is the "human": every seat is played by the ruleset's policy bot (the same decisions a
human might take, reproducibly), and every decision of seat 1 is counted:

    before        every prompt is shown
    after_pass    without the prompts whose only option is Pass (`tabletop.auto.lone_pass`)
    after         also without the prompts with one option only (`tabletop.auto.only_option`),
                  and a run of one question asked again and again that has a plan (a hand-out,
                  `tabletop.board.plan_of`) counted once: the web table answers it in one dialog

(both clients answer the lone Pass and the only option by default; the plan is the web table's).

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
from interpreter.i18n import Text
from interpreter.tabletop.auto import lone_pass, only_option, same_question
from interpreter.tabletop.board import plan_of


def count(ruleset: str, players: int, games: int, first_seed: int = 1) -> dict:
    game = load(RULESETS / ruleset)
    text = Text(game.program, "en")
    before, after_pass, after = [], [], []
    prompts: collections.Counter = collections.Counter()
    only: collections.Counter = collections.Counter()
    planned: collections.Counter = collections.Counter()
    for seed in range(first_seed, first_seed + games):
        st = game.new_game(seed=seed, players=players)
        bots = {i: make_bot("policy", seed * 1000 + i, game) for i in range(players)}
        b = ap = a = 0
        last_plan = None  # the pending question of seat 1's last prompt that had a plan
        while not st.is_over():
            p = st.current_player()
            if p == 0:
                b += 1
                prompt = st.decision().prompt
                if lone_pass(st, 0) is not None:
                    prompts[prompt] += 1
                else:
                    ap += 1
                    if only_option(st, 0) is not None:
                        only[prompt] += 1
                    elif plan_of(st, st.options(), text):
                        if same_question(st.pending, last_plan):
                            planned[prompt] += 1  # (a later step of the same dialog)
                        else:
                            a += 1
                        last_plan = st.pending
                        st = st.apply(bots[p].choose(st))
                        continue
                    else:
                        a += 1
                last_plan = None
            else:
                last_plan = None
            st = st.apply(bots[p].choose(st))
        before.append(b)
        after_pass.append(ap)
        after.append(a)
    return {"ruleset": ruleset, "players": players, "games": games, "seeds": [first_seed, first_seed + games - 1],
            "before_mean": statistics.mean(before), "after_pass_mean": statistics.mean(after_pass),
            "after_mean": statistics.mean(after),
            "before_total": sum(before), "after_pass_total": sum(after_pass), "after_total": sum(after),
            "lone_pass_by_prompt": dict(prompts.most_common()), "only_option_by_prompt": dict(only.most_common()),
            "in_one_dialog_by_prompt": dict(planned.most_common())}


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
