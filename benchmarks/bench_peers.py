"""Grimoire beside compiled and pure-Python peers, in one interleaved run (issue 30's table).

Run: python benchmarks/bench_peers.py [--rounds 7] [--seconds 1.0] [--json OUT]

Needs OpenSpiel (`pip install open_spiel`, or `pip install -e ".[bench]"`): it is no
dependency of Grimoire. Every figure is CPU time (`time.process_time`) in this one process,
and the cases are measured in turn, round after round (A, B, C, A, B, C, ...), so each sees
the same load of a shared machine; the median of the rounds is printed, with the ratio of
Grimoire's figure to OpenSpiel's C++ hearts (driven from Python, as a Python bot would).

- random-playout decisions/s: seeded random choices until the game ends, then a new game
  (Grimoire: logs off, as simulations run; OpenSpiel: chance outcomes drawn by their
  probabilities, which count as decisions of nobody and are not counted);
- games/s beside decisions/s (a ruleset's decisions per game change with its rules);
- clone/s of a state in the middle of a game (Grimoire `State.clone`, OpenSpiel `state.clone()`).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_engine import playouts  # noqa: E402  (the same loop, measured the same way)


def grimoire_playouts(game, n: int, seconds: float, seed0: int) -> tuple[float, float]:
    """Grimoire's random playouts (bench_engine's loop): decisions/s and games/s."""
    r = playouts(game, n, seconds, seed0)
    return r["decisions_per_s"], r["games_per_s"]


def grimoire_midgame(game, n: int):
    st = game.new_game(seed=99, players=n, record=False)
    bot = RandomBot(99)
    states = []
    while not st.over:
        states.append(st.clone())
        st.apply_in_place(bot.choose(st))
    return states[len(states) // 2]


def spiel_playouts(game, seconds: float, rng: random.Random) -> tuple[float, float]:
    decisions = games = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(outcomes, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
        games += 1
    dt = time.process_time() - t0
    return decisions / dt, games / dt


def spiel_midgame(game, rng: random.Random):
    s = game.new_initial_state()
    states = []
    while not s.is_terminal():
        states.append(s.clone())
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            s.apply_action(rng.choices(outcomes, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    return states[len(states) // 2]


def clone_rate(st, seconds: float) -> float:
    k = 0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        for _ in range(200):
            st.clone()
        k += 200
    return k / (time.process_time() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per case and round")
    ap.add_argument("--json")
    a = ap.parse_args()
    try:
        import open_spiel.python.games  # noqa: F401 - registers the pure-Python games
        import pyspiel
    except ImportError:
        raise SystemExit("bench_peers needs OpenSpiel: pip install open_spiel") from None
    camelot, castle = load(RULESETS / "shadows_over_camelot"), load(RULESETS / "castle_of_the_devil")
    peers = {name: pyspiel.load_game(name) for name in ("hearts", "python_liars_poker", "python_block_dominoes")}
    rng = random.Random(1)
    mids = {"Camelot 5p": grimoire_midgame(camelot, 5), "Castle 6p": grimoire_midgame(castle, 6)}
    mids.update({name: spiel_midgame(g, rng) for name, g in peers.items()})
    cases = {"Camelot 5p": lambda r: grimoire_playouts(camelot, 5, a.seconds, 1000 * r),
             "Castle 6p": lambda r: grimoire_playouts(castle, 6, a.seconds, 1000 * r)}
    cases.update({name: (lambda r, g=g: spiel_playouts(g, a.seconds, rng)) for name, g in peers.items()})
    runs: dict = {name: {"decisions_per_s": [], "games_per_s": [], "clone_per_s": []} for name in cases}
    for r in range(a.rounds):
        for name, fn in cases.items():
            d, g = fn(r)
            runs[name]["decisions_per_s"].append(d)
            runs[name]["games_per_s"].append(g)
            runs[name]["clone_per_s"].append(clone_rate(mids[name], a.seconds / 2))
    med = {name: {k: statistics.median(v) for k, v in m.items()} for name, m in runs.items()}
    ref = med["hearts"]
    print(f"{'game':24} {'decisions/s':>12} {'games/s':>9} {'clone/s':>11} {'dec x hearts':>13} {'clone x hearts':>15}")
    for name, m in med.items():
        print(f"{name:24} {m['decisions_per_s']:>12,.0f} {m['games_per_s']:>9,.1f} {m['clone_per_s']:>11,.0f} "
              f"{m['decisions_per_s'] / ref['decisions_per_s']:>13.2f} {m['clone_per_s'] / ref['clone_per_s']:>15.2f}")
    print(f"(median of {a.rounds} interleaved rounds, {a.seconds} CPU s a case each)")
    if a.json:
        Path(a.json).write_text(json.dumps({"median": med, "rounds": runs}, indent=2))


if __name__ == "__main__":
    main()
