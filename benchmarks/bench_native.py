"""The compiled hot modules against pure Python, side by side: the same code, the same games.

Run: python benchmarks/bench_native.py [--rounds 3] [--seconds 2] [--rollout-games 6]

Each round runs every case once compiled and once with GRIMOIRE_PURE=1 (pure Python), in
fresh processes, taking turns (compiled, pure, compiled, ...), so a shared machine's load
falls on both alike. Every figure is CPU time (process_time) inside the child:

* random playouts, Camelot 5p and Castle 6p: decisions per CPU second (benchmarks/bench_engine.py's loop);
* clone of a mid-game Camelot 5p state: clones per CPU second (bench_peers.py's loop);
* a Camelot 5p base game with policy bots (beliefs on): CPU ms a game, seeds 0..G-1;
* a Camelot 3p first_game with rollout bots: CPU s a game, seeds 0..R-1 (the bot issue 30 asks
  to be cheap).

It prints each round and the median ratio; it never asserts a speed. Needs the package
installed as the README says (the extensions built); it says so if a module is not compiled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import json, sys, time
sys.path.insert(0, {bench!r})
from bench_engine import playouts, midgame
from bench_peers import clone_rate
from interpreter.game import RULESETS, load
from interpreter.runtime import native
seconds, games, rgames = {seconds!r}, {games!r}, {rgames!r}
camelot, castle = load(RULESETS / "shadows_over_camelot"), load(RULESETS / "castle_of_the_devil")
playouts(camelot, 5, 0.2, 0)  # warm: lazy compilation of the ruleset's code
out = {{"status": sorted(set(native.status().values()))}}
out["Camelot 5p random decisions/s"] = playouts(camelot, 5, seconds, 1000)["decisions_per_s"]
out["Castle 6p random decisions/s"] = playouts(castle, 6, seconds, 1000)["decisions_per_s"]
out["Camelot 5p clone/s"] = clone_rate(midgame(camelot, 5), seconds / 2)

from interpreter.sim import SimSpec, runner
def per_game(variants, n, bot, k):
    spec = SimSpec(RULESETS / "shadows_over_camelot", variants, n, (bot,))
    game = load(spec.ruleset, list(spec.variants))
    t0 = time.process_time()
    for seed in range(k):
        runner.play_game(game, spec, seed)
    return (time.process_time() - t0) / max(k, 1)
out["Camelot 5p policy game, CPU ms"] = per_game((), 5, "policy", games) * 1000
out["Camelot 3p first_game rollout game, CPU s"] = per_game(("first_game",), 3, "rollout", rgames)
print(json.dumps(out))
"""


def run(mode: str, a) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "GRIMOIRE_PURE"}
    if mode == "pure":
        env["GRIMOIRE_PURE"] = "1"
    code = CHILD.format(bench=str(ROOT / "benchmarks"), seconds=a.seconds, games=a.games, rgames=a.rollout_games)
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(r.stderr[-3000:])
    return json.loads(r.stdout.splitlines()[-1])


def _num(v: float) -> str:
    return f"{v:,.1f}" if v >= 100 else f"{v:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per throughput case")
    ap.add_argument("--games", type=int, default=20, help="policy games per round")
    ap.add_argument("--rollout-games", type=int, default=4, help="rollout games per round")
    a = ap.parse_args()
    rows: dict[str, dict[str, list[float]]] = {"compiled": {}, "pure": {}}
    for r in range(a.rounds):
        for mode in ("compiled", "pure"):
            got = run(mode, a)
            status = got.pop("status")
            if mode == "compiled" and status != ["compiled"]:
                print(f"warning: not every hot module is compiled: {status}", file=sys.stderr)
            for k, v in got.items():
                rows[mode].setdefault(k, []).append(v)
            print(f"round {r + 1} {mode:8} " + ", ".join(f"{k} {_num(v)}" for k, v in got.items()), flush=True)
    print(f"\n{'figure':44} {'compiled':>12} {'pure':>12} {'speed-up':>9}   (medians of {a.rounds} rounds)")
    for k in rows["compiled"]:
        c, p = statistics.median(rows["compiled"][k]), statistics.median(rows["pure"][k])
        up = p / c if ("CPU" in k) else c / p  # a cost: pure over compiled; a rate: compiled over pure
        print(f"{k:44} {_num(c):>12} {_num(p):>12} {up:>8.2f}x")


if __name__ == "__main__":
    main()
