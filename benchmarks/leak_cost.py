"""What asking everyone costs: decisions and CPU time per random game, per ruleset.

    python benchmarks/leak_cost.py                       # this branch's rulesets
    (cd OTHER_CHECKOUT && python /path/to/benchmarks/leak_cost.py)  # another tree's rulesets

The rulesets are read from `rulesets/` under the current directory; the engine is the one
installed, so two runs differ only by the rulesets.
"""

import random
import time

from interpreter.game import load

GAMES = 200

for name in ("castle_of_the_devil", "shadows_over_camelot", "high_tide"):
    g = load(f"rulesets/{name}")
    dec = 0
    t0 = time.process_time()
    for seed in range(GAMES):
        n = g.ruleset.min_players + seed % (g.ruleset.max_players - g.ruleset.min_players + 1)
        st = g.new_game(seed=seed, players=n)
        rng = random.Random(seed)
        while not st.over:
            o = st.options()
            st.apply_in_place(o[rng.randrange(len(o))].id)
            dec += 1
    print(f"{name}: {dec / GAMES:.1f} decisions a game, {(time.process_time() - t0) * 1000 / GAMES:.1f} ms CPU a game")
