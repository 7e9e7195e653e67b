"""Ray against the local pool: start-up per batch and overhead per game, random and MCTS bots.

For each bot kind the same seeded batch is played four times, interleaved with nothing else:
the local pool (`--jobs 2`), then on a Ray instance started here with two CPUs: joining Ray
(`Session`), a first batch (actors start, the bundle is shipped, each worker compiles the
ruleset), and the same batch again on the warm pool (what `--compare` and sweeps pay). The
overhead per game is the wall time beyond the games' own time divided over the workers:
(wall - sum(game seconds) / workers) / games. The bundle (the files the driver ships) is
measured too: its size, the time to read it and to put it in the object store.

    nice -n 10 python benchmarks/bench_ray.py [--games 100] [--mcts-games 6] [--budget 10]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from interpreter.game import RULESETS  # noqa: E402
from interpreter.sim.backends import Session  # noqa: E402
from interpreter.sim.bundle import pack  # noqa: E402
from interpreter.sim.runner import SimSpec, same_outcome  # noqa: E402


def timed_batch(session: Session, spec: SimSpec, games: int) -> tuple[float, list[dict]]:
    t0 = time.perf_counter()
    got = sorted(session.run(spec, 1, games), key=lambda r: r["index"])
    return time.perf_counter() - t0, got


def overhead(wall: float, results: list[dict], workers: int) -> float:
    """Seconds per game beyond the games' own time, with `workers` playing at once."""
    busy = sum(r["seconds"] for r in results) / workers
    return (wall - busy) / len(results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100, help="games per batch with random bots")
    ap.add_argument("--mcts-games", type=int, default=6, help="games per batch with MCTS bots")
    ap.add_argument("--budget", type=int, default=10)
    a = ap.parse_args()
    castle = str(RULESETS / "castle_of_the_devil")
    cases = [("random", SimSpec(castle, players=4), a.games),
             ("mcts", SimSpec(castle, players=4, bots=("mcts",), budget=a.budget, depth=20), a.mcts_games)]

    t0 = time.perf_counter()
    b = pack(cases[0][1])
    t_pack = time.perf_counter() - t0
    print(f"bundle: {len(b.files)} files, {b.size / 1024:.0f} KiB, read in {t_pack * 1000:.0f} ms")

    rows = []
    for kind, spec, games in cases:
        with Session("local", jobs=2) as s:
            local_wall, local = timed_batch(s, spec, games)
        t0 = time.perf_counter()
        with Session("ray", jobs=2) as s:
            t_join = time.perf_counter() - t0
            t0 = time.perf_counter()
            s._ray.put(b)
            t_put = time.perf_counter() - t0
            cold_wall, cold = timed_batch(s, spec, games)
            warm_wall, warm = timed_batch(s, spec, games)
        assert len(cold) == games, (len(cold), games)
        assert all(same_outcome(x, y) for x, y in zip(local, cold))
        assert len(warm) == games, (len(warm), games)
        assert all(same_outcome(x, y) for x, y in zip(local, warm))
        game_s = sum(r["seconds"] for r in local) / games
        rows.append((kind, games, game_s, local_wall, t_join, t_put, cold_wall, warm_wall,
                     overhead(local_wall, local, 2), overhead(warm_wall, warm, 2)))
    print(f"{'bots':7} {'games':>5} {'s/game':>7} {'local':>7} {'ray join':>8} {'put':>6} "
          f"{'ray 1st':>7} {'ray 2nd':>7} {'start/batch':>11} {'ovh local':>10} {'ovh ray':>8}")
    for kind, games, game_s, lw, tj, tp, cw, ww, ol, orr in rows:
        print(f"{kind:7} {games:5d} {game_s:7.4f} {lw:7.2f} {tj:8.2f} {tp * 1000:5.0f}m {cw:7.2f} {ww:7.2f} "
              f"{cw - ww:11.2f} {ol * 1000:8.2f}ms {orr * 1000:6.2f}ms")
    print("wall seconds; start/batch = first Ray batch - second (actor start, shipping, compiling); "
          "ovh = overhead per game")


if __name__ == "__main__":
    main()
