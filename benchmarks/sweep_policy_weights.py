"""A coordinate sweep of a policy's weights: each weight halved and raised by half (small ones
moved by 1), paired against the shipped weights on the same seeds (McNemar pairs).

Run: python benchmarks/sweep_policy_weights.py [--ruleset R] [--variant V] [--side S]
     [--players 5,3] [--games 1000] [--seed 2000000] [--weights a,b,c] [--jobs 2]

Prints one line per candidate: the Loyal (or --side) wins at each player count, and the pairs
won only by the shipped weights / only by the candidate. This is how the Camelot policy's
weights were set this round (seeds 2,000,000+ and 4,000,000+, checked on other blocks up to
8,000,999); the evaluation seeds of bench_camelot_bots.py (30,000,000+) were never used.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.game import load  # noqa: E402
from interpreter.sim import SimSpec, run_batch  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=str(ROOT / "rulesets" / "shadows_over_camelot"))
    ap.add_argument("--variant", action="append", default=None)
    ap.add_argument("--side", default="loyal")
    ap.add_argument("--players", default="5,3")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2_000_000)
    ap.add_argument("--weights", default="", help="comma-separated: only these (default: all of the side's)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    variants = tuple(a.variant if a.variant is not None else ["first_game"])
    players = [int(x) for x in a.players.split(",")]
    game = load(a.ruleset, list(variants))
    shipped = game.program.policy.weights_of(a.side)

    def wins(n: int, w: dict) -> list[bool]:
        opts = {"weights": {a.side: w}} if w else {}
        res = sorted(run_batch(SimSpec(a.ruleset, variants, n, ("policy",), options=opts), a.seed, a.games,
                               a.jobs), key=lambda r: r["seed"])
        return [a.side in r["sides"] for r in res]

    base = {n: wins(n, {}) for n in players}
    print("shipped:", "  ".join(f"{n}p {sum(b)}/{a.games}" for n, b in base.items()), flush=True)
    names = [x for x in a.weights.split(",") if x] or sorted(shipped)
    for name in names:
        v = shipped[name]
        for c in ([v * 0.5, v * 1.5] if abs(v) >= 4 else [v - 1, v + 1]):
            c = round(c, 2)
            row = []
            for n in players:
                r = wins(n, {name: c})
                lost = sum(1 for x, y in zip(base[n], r) if x and not y)
                gained = sum(1 for x, y in zip(base[n], r) if y and not x)
                row.append(f"{n}p {sum(r)} (-{lost}/+{gained})")
            print(f"{name} {v} -> {c}: " + "  ".join(row), flush=True)


if __name__ == "__main__":
    main()
