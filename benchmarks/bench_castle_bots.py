"""How well one seat plays Castle of the Devil (4 players): a seat of one kind among others.

Run: python benchmarks/bench_castle_bots.py PART [--games N] [--seed S]

Parts (each prints its numbers and appends them as one JSON line to --out):
  seat      a policy seat among 3 random seats against a seat that always passes, on the same
            seeds (the seat under test takes seat `game % 4`); paired McNemar test
  beliefs   a belief-reading policy seat among 3 plain policy seats (which read no beliefs)
            against a plain policy seat in its place, on the same seeds
  declare   how often a declared victory is right (4 policy seats, beliefs on)
  pair      no games: the seat under test in --per-game FILES (written by seat or beliefs)
            paired with the same seeds in --against FILES (another policy or engine);
            comma-separated files are blocks, pooled

Seeds start at --seed (default 60,000,000), which no tuning played (the Castle policy was
tuned by hand on seeds below 1,000,000, 20,000,000-21,000,999 and 43,000,000-43,000,999). A seat wins when its
player is among the winners. CPU seconds are this process's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots import Seat, make_bot  # noqa: E402
from interpreter.bots.beliefs import beliefs_for  # noqa: E402
from interpreter.files import write_atomic  # noqa: E402
from interpreter.game import load  # noqa: E402
from interpreter.sim.stats import mcnemar, wilson  # noqa: E402

CASTLE = ROOT / "rulesets" / "castle_of_the_devil"
N = 4


class PassBot:
    """Always passes where it may (its turn's action, fights, windows); else the first option."""

    def __init__(self, seed: int = 0, game=None):
        pass

    def choose(self, seat) -> str:
        for o in seat.options:
            if o.id in ("pass_turn", "pass", "abstain", "decline"):
                return o.id
        return seat.options[0].id


def bot(kind: str, seed: int, g):
    if kind == "pass":
        return PassBot(seed, g)
    if kind == "plain":
        return make_bot("policy", seed, g, beliefs=False)
    return make_bot(kind, seed, g)


def play(g, kinds: list[str], seed: int) -> dict:
    st = g.new_game(seed=seed, players=N, record=False)
    tab = beliefs_for(g, st)
    bots = [bot(k, seed * 1000 + p, g) for p, k in enumerate(kinds)]
    decisions = 0
    while not st.over and decisions < 5000:
        oid = bots[st.current_player()].choose(Seat(st, tab))
        if tab is not None:
            tab.before(st, oid)
        st.apply_in_place(oid)
        if tab is not None:
            tab.after(st)
        decisions += 1
    res = st.result or {}
    return {"winners": res.get("winners", []), "reason": res.get("reason", "unfinished")}


def seat_runs(g, test: str, others: str, games: int, seed: int) -> list[bool]:
    out = []
    for i in range(games):
        at = i % N
        kinds = [others] * N
        kinds[at] = test
        out.append(at in play(g, kinds, seed + i)["winners"])
    return out


def paired(a: list[bool], b: list[bool], la: str, lb: str) -> dict:
    n = len(a)
    ka, kb = sum(a), sum(b)
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    d = {la: {"wins": ka, "rate": ka / n, "ci95": wilson(ka, n)}, lb: {"wins": kb, "rate": kb / n,
         "ci95": wilson(kb, n)}, "games": n, "difference_points": 100 * (ka - kb) / n,
         f"{la}_only": only_a, f"{lb}_only": only_b, "mcnemar_p": mcnemar(only_a, only_b)}
    print(f"{la} {ka}/{n} = {ka / n:.1%}, {lb} {kb}/{n} = {kb / n:.1%}: {d['difference_points']:+.1f} points, "
          f"pairs {only_a}/{only_b}, McNemar p = {d['mcnemar_p']:.2g}", flush=True)
    return d


def part_seat(g, a) -> dict:
    pol = seat_runs(g, "policy", "random", a.games, a.seed)
    pas = seat_runs(g, "pass", "random", a.games, a.seed)
    a.runs = {"policy": pol, "pass": pas}
    return paired(pol, pas, "policy", "pass")


def part_beliefs(g, a) -> dict:
    bel = seat_runs(g, "policy", "plain", a.games, a.seed)
    pla = seat_runs(g, "plain", "plain", a.games, a.seed)
    a.runs = {"belief": bel, "plain": pla}
    return paired(bel, pla, "belief", "plain")


def part_declare(g, a) -> dict:
    reasons: dict = {}
    for i in range(a.games):
        r = play(g, ["policy"] * N, a.seed + i)["reason"]
        reasons[r] = reasons.get(r, 0) + 1
    right, wrong = reasons.get("society_won", 0), reasons.get("society_lost", 0)
    d = {"reasons": reasons, "declared": right + wrong, "right": right,
         "right_rate": right / (right + wrong) if right + wrong else 0.0,
         "ci95": wilson(right, right + wrong) if right + wrong else [0, 0]}
    print(f"declarations right {right}/{right + wrong} = {d['right_rate']:.1%}; ends {reasons}", flush=True)
    return d


def read_runs(files: str) -> dict:
    """The seat results of --per-game files (comma-separated: blocks pooled in that order)."""
    out: dict = {}
    for f in files.split(","):
        for k, v in json.loads(Path(f).read_text(encoding="utf-8")).items():
            if k != "seed":
                out.setdefault(k, []).extend(v)
    return out


def part_pair(g, a) -> dict:
    """No games: the tested seat of --per-game FILES paired with that of --against FILES (the
    same part and seeds played by another policy or engine)."""
    mine, theirs = read_runs(a.per_game), read_runs(a.against)
    k = next(iter(mine))  # the seat under test: policy (seat) or belief (beliefs)
    if k not in theirs or len(mine[k]) != len(theirs[k]):
        raise SystemExit(f"pair: --against does not hold the same part and games as --per-game ({k})")
    a.per_game = ""  # nothing played, nothing to write
    return paired(mine[k], theirs[k], "this", "against")


PARTS = {"seat": part_seat, "beliefs": part_beliefs, "declare": part_declare, "pair": part_pair}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=sorted(PARTS))
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=60_000_000)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "castle-bots.jsonl"))
    ap.add_argument("--per-game", default="", help="also write each game's seat result (seat, beliefs) "
                    "to this JSON file, to pair two policies on the same seeds; pair: the files to read "
                    "(comma-separated blocks are pooled)")
    ap.add_argument("--against", default="", help="pair: the --per-game files of the other policy or engine")
    a = ap.parse_args()
    g = None if a.part == "pair" else load(CASTLE)
    t0 = time.process_time()
    d = PARTS[a.part](g, a)
    line = {"part": a.part, "games": a.games, "seed": a.seed, "cpu_s": round(time.process_time() - t0, 1), **d}
    if a.out:
        with open(a.out, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")
    if a.per_game and getattr(a, "runs", None):
        write_atomic(a.per_game, json.dumps({"seed": a.seed, **a.runs}) + "\n")


if __name__ == "__main__":
    main()
