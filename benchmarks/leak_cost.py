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


def determinize_cost(reps: int = 3) -> None:
    """CPU time of one `determinize` on a 6-player Castle game, this tree's against the one
    of before the fix (a4eb69c), interleaved."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from leak_figures import main_module

    from interpreter.engine import views
    from interpreter.engine.rng import Rng
    old = main_module("interpreter/engine/views.py", "_views_before").determinize
    g = load("rulesets/castle_of_the_devil")
    st = g.new_game(seed=3, players=6)
    rng = random.Random(3)
    states = []
    while not st.over:
        if len(st.history) % 50 == 0:
            states.append(st.clone())
        o = st.options()
        st.apply_in_place(o[rng.randrange(len(o))].id)
    for _ in range(reps):
        for name, f in (("before", old), ("this tree", views.determinize)):
            t0 = time.process_time()
            for s in states:
                for k in range(200):
                    f(s, s.pending["p"], Rng(k))
            us = (time.process_time() - t0) * 1e6 / (200 * len(states))
            print(f"determinize, {name}: {us:.1f} us a call ({len(states)} positions, log up to {len(states[-1].log)})")


determinize_cost()
