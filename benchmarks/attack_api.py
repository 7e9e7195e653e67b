"""Attack the decision API with ids that are not exact: the empty id, every proper prefix of
every legal option's id, and case or space variants, at mid-game states of every ruleset;
count how many `apply` accepts (issue 14: a program must name an option exactly).

Run: python benchmarks/attack_api.py [--interpreter DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--interpreter", help="import the interpreter package from this checkout")
    args = ap.parse_args()
    sys.path.insert(0, args.interpreter or str(ROOT))
    from interpreter.bots.random_bot import RandomBot
    from interpreter.game import RULESETS, load

    tried = accepted = unchanged = 0
    for name, n in (("high_tide", 3), ("shadows_over_camelot", 5), ("castle_of_the_devil", 6)):
        game = load(RULESETS / name)
        for seed in range(10):
            st = game.new_game(seed=seed, players=n)
            bot = RandomBot(seed)
            for step in range(60):
                if st.is_over():
                    break
                ids = {o.id for o in st.options()}
                bad = {""} | {i[:k] for i in ids for k in range(1, len(i))} | {i.upper() for i in ids} \
                    | {" " + i for i in ids}
                for b in sorted(bad - ids):
                    before = st.to_json()
                    tried += 1
                    if st.apply(b):
                        accepted += 1
                    unchanged += st.to_json() == before
                st.apply_in_place(bot.choose(st))
    print(f"interpreter: {args.interpreter or ROOT}")
    print(f"{tried} inexact ids tried at mid-game states: {accepted} accepted, "
          f"{tried - accepted} refused; the state unchanged after {unchanged}")


if __name__ == "__main__":
    main()
