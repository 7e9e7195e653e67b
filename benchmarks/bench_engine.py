"""Engine benchmarks: load/compile time, random playouts, clone, serialization, views.

Run: python benchmarks/bench_engine.py [--rulesets a,b] [--seconds S] [--json OUT]

Every number is CPU time (time.process_time) on one core in this process (no timed unit tests anywhere: this
script reports, it does not assert). Targets (issue 8): 40,000 decisions/s; Camelot 150
games/s and Castle of the Devil 500 games/s; clone 20,000/s; to_json+from_json 5,000/s;
load+validate+compile under 150 ms warm.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.engine.rng import Rng  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402


def cold_load(path: Path) -> float:
    """Load in a fresh interpreter (imports and Lark grammar cache included), in ms."""
    code = ("import time; t=time.process_time(); import interpreter; "
            f"interpreter.load({str(path)!r}); print((time.process_time()-t)*1000)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    return float(out.stdout.strip())


def warm_load(path: Path, reps: int = 5) -> float:
    load(path)
    ts = []
    for _ in range(reps):
        t = time.process_time()
        load(path)
        ts.append((time.process_time() - t) * 1000)
    return statistics.median(ts)


def playouts(game, n: int, seconds: float, seed0: int = 0) -> dict:
    """Random games on one core from seed0 on: decisions/s and games/s (logs off, as simulations run)."""
    decisions = games = 0
    seed = seed0
    t0 = time.process_time()
    while time.process_time() - t0 < seconds:
        st = game.new_game(seed=seed, players=n, record=False)
        bot = RandomBot(seed)
        while not st.over:
            st.apply_in_place(bot.choose(st))
            decisions += 1
        games += 1
        seed += 1
    dt = time.process_time() - t0
    return {"decisions_per_s": decisions / dt, "games_per_s": games / dt,
            "decisions_per_game": decisions / max(games, 1)}


def midgame(game, n: int):
    st = game.new_game(seed=99, players=n)
    bot = RandomBot(99)
    states = []
    while not st.over:
        states.append(st.clone())
        st.apply_in_place(bot.choose(st))
    return states[len(states) // 2] if states else st


def rate(fn, seconds: float) -> float:
    k = 0
    t0 = time.process_time()
    while True:
        for _ in range(50):
            fn()
        k += 50
        dt = time.process_time() - t0
        if dt >= seconds:
            return k / dt


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rulesets", default="")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--json")
    ap.add_argument("--no-cold", action="store_true")
    args = ap.parse_args()
    paths = sorted(d for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file())
    if args.rulesets:
        want = args.rulesets.split(",")
        paths = [p for p in paths if p.name in want]
    report = {}
    for path in paths:
        game = load(path)
        rs = game.ruleset
        r = {"load_warm_ms": warm_load(path)}
        if not args.no_cold:
            r["load_cold_ms"] = cold_load(path)
        counts = sorted({rs.min_players, (rs.min_players + rs.max_players) // 2, rs.max_players})
        r["playouts"] = {n: playouts(game, n, args.seconds) for n in counts}
        n = counts[len(counts) // 2]
        st = midgame(game, n)
        gc.collect()
        r["clone_per_s"] = rate(st.clone, 1.0)
        r["json_roundtrip_per_s"] = rate(lambda: game.state_from_json(st.to_json()), 1.0)
        r["view_per_s"] = rate(lambda: st.view(0), 1.0)
        rng = Rng(1)
        r["determinize_per_s"] = rate(lambda: st.determinize(0, rng), 1.0)
        r["state_json_bytes"] = len(json.dumps(st.to_json()))
        report[path.name] = r
        print(f"\n{path.name} ({rs.min_players}-{rs.max_players} players)")
        print(f"  load+validate+compile: warm {r['load_warm_ms']:.0f} ms"
              + (f", cold {r['load_cold_ms']:.0f} ms" if "load_cold_ms" in r else ""))
        for k, p in r["playouts"].items():
            print(f"  random playouts, {k} players: {p['decisions_per_s']:,.0f} decisions/s, "
                  f"{p['games_per_s']:,.1f} games/s ({p['decisions_per_game']:.0f} decisions/game)")
        print(f"  mid-game ({n} players): clone {r['clone_per_s']:,.0f}/s, to_json+from_json "
              f"{r['json_roundtrip_per_s']:,.0f}/s, view {r['view_per_s']:,.0f}/s, determinize "
              f"{r['determinize_per_s']:,.0f}/s, state {r['state_json_bytes']:,} bytes as JSON")
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
