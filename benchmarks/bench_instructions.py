"""Machine instructions per decision of random playouts, counted by valgrind (callgrind).

Run: python benchmarks/bench_instructions.py [--rulesets a,b] [--decisions N] [--json OUT]

Wall time on a shared machine is noisy; an instruction count is not. For each ruleset this
runs one Python program under `valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=functools_reduce` (PYTHONHASHSEED=0): it loads the ruleset (not counted),
then plays N decisions of seeded random-bot games (logs off, as simulations run, seeds 0,
1, ... until N) inside one `functools.reduce` call, the only place counting is on (nothing
else in a game calls reduce). The count divided by N is the cost of one decision: the
bot's choice, applying it, running the game on to the next decision, and starting the
next game when one ends.

`--play RULESET N` is the program valgrind runs (it prints the decisions it played).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
_PLAYERS = {"shadows_over_camelot": 5, "castle_of_the_devil": 6, "high_tide": 3}


def play(ruleset: str, decisions: int) -> int:
    """Load ruleset, then play `decisions` decisions of seeded random games inside one
    functools.reduce call (what valgrind counts); return how many."""
    from interpreter.bots.random_bot import RandomBot
    from interpreter.game import load
    game = load(ruleset)
    n = _PLAYERS.get(ruleset, game.ruleset.min_players)

    def step(run, _):
        st, bot, seed = run
        if st is None or st.over:
            seed += 1
            st, bot = game.new_game(seed=seed, players=n, record=False), RandomBot(seed)
        st.apply_in_place(bot.choose(st))
        return st, bot, seed

    functools.reduce(step, range(decisions), (None, None, -1))
    return decisions


def count(ruleset: str, decisions: int) -> int:
    """Instructions executed by `--play ruleset decisions` under callgrind."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                          "--collect-atstart=no", "--toggle-collect=functools_reduce",
                          sys.executable, __file__, "--play", ruleset, str(decisions)],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    m = _COLLECTED.search(out.stderr)
    if m is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(m.group(1))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rulesets", default="shadows_over_camelot,castle_of_the_devil,high_tide")
    ap.add_argument("--decisions", type=int, default=2000)
    ap.add_argument("--json", type=Path)
    ap.add_argument("--play", nargs=2, metavar=("RULESET", "N"), help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.play:
        print(play(a.play[0], int(a.play[1])))
        return 0
    rows = {}
    for name in a.rulesets.split(","):
        total = count(name, a.decisions)
        per = total / max(a.decisions, 1)
        rows[name] = {"players": _PLAYERS.get(name), "decisions": a.decisions, "instructions": total,
                      "instructions_per_decision": round(per)}
        print(f"{name:24s} {_PLAYERS.get(name)} players: {per:12,.0f} instructions/decision "
              f"({total:,} for {a.decisions} decisions)", flush=True)
    if a.json:
        a.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
