"""The rollout bot's cost and strength on Shadows over Camelot `first_game` (issue 30).

Run:
  python benchmarks/bench_rollout.py play --bot rollout --players 3 --seed 40000000 --games 300 --out A.jsonl
  python benchmarks/bench_rollout.py play --bot policy ... --out P.jsonl
  python benchmarks/bench_rollout.py compare A.jsonl B.jsonl      # paired (McNemar), Wilson intervals
  python benchmarks/bench_rollout.py cost A.jsonl                 # CPU s a game: mean, median, p10, p90
  python benchmarks/bench_rollout.py play --variants "" --players 5 ...  # the base game, the Traitor dealt
  python benchmarks/bench_rollout.py traitor P.jsonl A.jsonl      # its Traitor figures, paired

`play` plays the games one after another in this process (no workers) with every seat the
same bot, game i on seed --seed + i, each seat's bot seeded as `grimoire simulate` seeds it
(`interpreter.sim.runner.play_game`), and writes one line per game: seed, winning sides,
decisions, turns, and the process CPU seconds the game took (`time.process_time`, which a
loaded machine does not inflate as it does wall time) and, for a rollout bot, its counters.
`--options JSON` passes bot options (`{"quiet": "off", "futility": 0}`). `--resume` skips the
seeds already in --out. To compare two versions of the bot, run `play` from each tree (the
script imports the `interpreter` beside it) and `compare` the files.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CAMELOT = str(ROOT / "rulesets" / "shadows_over_camelot")
COUNTERS = ("searched", "full", "overridden", "unscreened", "playouts")


def play(a) -> None:
    from interpreter.game import load
    from interpreter.sim import SimSpec, runner
    opts = json.loads(a.options) if a.options else {}
    spec = SimSpec(CAMELOT, tuple(a.variants.split(",")) if a.variants else (), a.players, (a.bot,),
                   options=opts)
    game = load(spec.ruleset, list(spec.variants))
    out = Path(a.out)
    done = set()
    if a.resume and out.exists():
        done = {json.loads(line)["seed"] for line in out.read_text().splitlines() if line.strip()}
    made = []
    import interpreter.bots as bots_pkg
    make = bots_pkg.make_bot

    def spy(*args, **kw):  # keep the bots a game made, to read their counters
        b = make(*args, **kw)
        made.append(b)
        return b
    bots_pkg.make_bot = spy
    try:
        with out.open("a") as f:
            for seed in range(a.seed, a.seed + a.games):
                if seed in done:
                    continue
                made.clear()
                t0 = time.process_time()
                r = runner.play_game(game, spec, seed)
                secs = time.process_time() - t0
                rec = {"seed": seed, "sides": r["sides"], "winners": r["winners"], "reason": r["reason"],
                       "decisions": r["decisions"], "turns": r["turns"], "cpu": round(secs, 3)}
                if r.get("stats"):
                    rec["stats"] = r["stats"]
                if a.bot == "rollout":
                    rec["counts"] = {k: sum(getattr(b, k, 0) for b in made) for k in COUNTERS}
                f.write(json.dumps(rec) + "\n")
                f.flush()
                if a.verbose:
                    print(json.dumps(rec), flush=True)
    finally:
        bots_pkg.make_bot = make


def read(path: str) -> dict:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise SystemExit(f"{path}: cannot read: {e.strerror}") from None
    rows = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise SystemExit(f"{path}:{i}:{e.colno}: not a game record: {e.msg}") from None
    if not rows:
        raise SystemExit(f"{path}: no games")
    return {r["seed"]: r for r in rows}


def cost(a) -> None:
    for path in a.files:
        rows = list(read(path).values())
        xs = sorted(r["cpu"] for r in rows)
        n = len(xs)
        print(f"{path}: {n} games, CPU s a game: mean {statistics.fmean(xs):.3f}, median "
              f"{statistics.median(xs):.3f}, p10 {xs[n // 10]:.3f}, p90 {xs[(9 * n) // 10]:.3f}, "
              f"decisions a game {statistics.fmean(r['decisions'] for r in rows):.0f}")


def compare(a) -> None:
    from interpreter.sim.stats import wilson
    base, var = read(a.base), read(a.variant)
    seeds = sorted(set(base) & set(var))
    n = len(seeds)
    wb = [("loyal" in base[s]["sides"]) for s in seeds]
    wv = [("loyal" in var[s]["sides"]) for s in seeds]
    b_only, v_only, p = mcnemar(wb, wv)
    for label, w, path in (("base", wb, a.base), ("variant", wv, a.variant)):
        lo, hi = wilson(sum(w), n)
        print(f"{label} {path}: Loyal wins {sum(w)}/{n} = {sum(w) / n:.1%} [{lo:.1%}, {hi:.1%}]")
    print(f"paired on {n} seeds ({seeds[0]}..{seeds[-1]}): base only {b_only}, variant only {v_only}, "
          f"difference {(sum(wv) - sum(wb)) / n:+.1%}, exact McNemar p = {p:.3g}")


def mcnemar(wb: list, wv: list) -> tuple[int, int, float]:
    """Pairs won only by the base, only by the variant, and the exact two-sided McNemar p."""
    from math import comb
    b_only = sum(1 for x, y in zip(wb, wv) if x and not y)
    v_only = sum(1 for x, y in zip(wb, wv) if y and not x)
    k = b_only + v_only
    p = 1.0 if k == 0 else min(1.0, 2 * sum(comb(k, i) for i in range(min(b_only, v_only) + 1)) / 2 ** k)
    return b_only, v_only, p


def traitor(a) -> None:
    """The base game's Traitor figures (issue 24) of two runs on the same seeds: Loyal wins where
    the Traitor is dealt and where he is not, how often he is unmasked, games with a false
    accusation, the paired test on the Traitor's seeds and CPU s a game."""
    from interpreter.sim.stats import wilson
    base, var = read(a.base), read(a.variant)
    seeds = sorted(set(base) & set(var))
    if any("stats" not in base[s] or "stats" not in var[s] for s in seeds):
        raise SystemExit("traitor: a game record has no stats (play them with this script's play)")
    dealt = [s for s in seeds if base[s]["stats"].get("traitor_present")]
    if any(bool(var[s]["stats"].get("traitor_present")) != (s in dealt) for s in seeds):
        raise SystemExit("traitor: the two runs deal the Traitor on different seeds")
    dealt_set = set(dealt)
    for label, runs, path in (("base", base, a.base), ("variant", var, a.variant)):
        won = sum("loyal" in runs[s]["sides"] for s in dealt)
        won_not = sum("loyal" in runs[s]["sides"] for s in seeds if s not in dealt_set)
        unmasked = sum(1 for s in dealt if runs[s]["stats"].get("traitor_unmasked"))
        false = sum(1 for s in seeds if runs[s]["stats"].get("false_accusations"))
        cpu = statistics.fmean(runs[s]["cpu"] for s in seeds)
        lo, hi = wilson(won, len(dealt))
        ulo, uhi = wilson(unmasked, len(dealt))
        flo, fhi = wilson(false, len(seeds))
        print(f"{label} {path}: {len(seeds)} games, the Traitor dealt in {len(dealt)}: Loyal wins there "
              f"{won}/{len(dealt)} = {won / len(dealt):.1%} [{lo:.1%}, {hi:.1%}], without him "
              f"{won_not}/{len(seeds) - len(dealt)}; unmasked {unmasked}/{len(dealt)} = "
              f"{unmasked / len(dealt):.1%} [{ulo:.1%}, {uhi:.1%}]; games with a false accusation "
              f"{false}/{len(seeds)} = {false / len(seeds):.1%} [{flo:.1%}, {fhi:.1%}]; CPU s a game {cpu:.3f}")
    for label, ss in (("the Traitor's seeds", dealt), ("all seeds", seeds)):
        b_only, v_only, p = mcnemar([("loyal" in base[s]["sides"]) for s in ss],
                                    [("loyal" in var[s]["sides"]) for s in ss])
        print(f"paired on {label} ({len(ss)}): base only {b_only}, variant only {v_only}, "
              f"exact McNemar p = {p:.3g}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play")
    p.add_argument("--bot", default="rollout")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=40_000_000)
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--variants", default="first_game")
    p.add_argument("--options", help="bot options, JSON")
    p.add_argument("--out", required=True)
    p.add_argument("--resume", action="store_true")
    p.add_argument("--verbose", action="store_true")
    c = sub.add_parser("compare")
    c.add_argument("base")
    c.add_argument("variant")
    t = sub.add_parser("traitor", help="the base game's Traitor figures of two runs (issue 24)")
    t.add_argument("base")
    t.add_argument("variant")
    k = sub.add_parser("cost")
    k.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    {"play": play, "compare": compare, "cost": cost, "traitor": traitor}[a.cmd](a)


if __name__ == "__main__":
    main()
