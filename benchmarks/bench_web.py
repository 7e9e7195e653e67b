"""Load on the web table: concurrent games of scripted browsers against one `grimoire serve` app.

Run: python benchmarks/bench_web.py [--games 20] [--seats 5] [--ruleset shadows_over_camelot]
                                    [--decisions 60] [--seconds 120] [--json OUT]

A server process (this file with --server) holds GAMES rooms, one app each, mounted under
/g0 ... /gN on one uvicorn on 127.0.0.1 (one event loop: the hardest case for latency). This
process opens one websocket per seat of every game (all seats human, scripted) and plays every
game at once: the deciding seat's client picks a random option and sends it, and the time
from that send to its next view is one click-to-next-view sample. Each game stops at its end
or after --decisions decisions, the whole run after --seconds. It counts errors (a refusal,
a disconnect, a time-out) and reports the median and the 95th percentile; it never asserts.
Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve(args) -> None:
    """The server side: GAMES rooms mounted on one uvicorn; prints their tokens as one JSON line."""
    import socket

    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import Mount

    from interpreter.game import load
    from interpreter.tabletop.web.app import create_app
    from interpreter.tabletop.web.room import Room
    game = load(args.ruleset)
    # (every seat clicks every decision, lone Passes too: one push per click, as the driver expects)
    rooms = [Room(game, game.new_game(seed=i, players=args.seats), ["human"] * args.seats, i, "en",
                  os.devnull, autopass=False) for i in range(args.games)]
    app = Starlette(routes=[Mount(f"/g{i}", create_app(r)) for i, r in enumerate(rooms)])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    print(json.dumps({"port": port, "tokens": [[r.player_token(p) for p in range(args.seats)] for r in rooms]}),
          flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_ping_interval=None, ws_max_size=2 ** 24))
    server.run(sockets=[sock])


async def drive(base: str, tokens: list[str], seed: int, decisions: int, deadline: float, out: dict) -> None:
    """Play one game with one scripted client per seat; record click-to-next-view times."""
    import websockets
    rnd = random.Random(seed)
    socks = [await websockets.connect(f"{base}/ws/{t}", max_size=None) for t in tokens]
    try:
        views = [json.loads(await s.recv()) for s in socks]
        for _ in range(decisions):
            if views[0]["model"]["over"] or time.monotonic() > deadline:
                break
            p = next((i for i, v in enumerate(views) if v["decision"]), None)
            if p is None:
                out["errors"].append("no seat decides in a game that is not over")
                break
            opt = rnd.choice(views[p]["decision"]["options"])["id"]
            t0 = time.perf_counter()
            await socks[p].send(json.dumps({"type": "choose", "option": opt, "version": views[p]["version"]}))
            got = [json.loads(await asyncio.wait_for(s.recv(), 30)) for s in socks[p:p + 1]]
            out["latency"].append(time.perf_counter() - t0)
            rest = [json.loads(await asyncio.wait_for(s.recv(), 30)) for i, s in enumerate(socks) if i != p]
            views = rest[:p] + got + rest[p:]
            bad = [v for v in views if v["type"] != "view" or v["version"] != views[0]["version"]]
            if bad:
                out["errors"].append(f"unexpected message {bad[0].get('type')}: {bad[0].get('message', '')}")
                break
            out["decisions"] += 1
    except (TimeoutError, OSError, websockets.WebSocketException) as e:
        out["errors"].append(f"{type(e).__name__}: {e}")
    finally:
        for s in socks:
            await s.close()


async def clients(args, info: dict) -> dict:
    out = {"latency": [], "errors": [], "decisions": 0}
    deadline = time.monotonic() + args.seconds
    await asyncio.gather(*(drive(f"ws://127.0.0.1:{info['port']}/g{i}", toks, i, args.decisions, deadline, out)
                           for i, toks in enumerate(info["tokens"])))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--ruleset", default="shadows_over_camelot")
    ap.add_argument("--decisions", type=int, default=60, help="decisions per game at most")
    ap.add_argument("--seconds", type=float, default=120, help="bound on the whole run")
    ap.add_argument("--json")
    ap.add_argument("--server", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.server:
        serve(args)
        return 0
    cmd = [sys.executable, __file__, "--server", "--games", str(args.games), "--seats", str(args.seats),
           "--ruleset", args.ruleset]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(proc.stdout.readline())
        t0, c0 = time.perf_counter(), time.process_time()
        out = asyncio.run(clients(args, info))
        wall, client_cpu = time.perf_counter() - t0, time.process_time() - c0
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    server_cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    lat = sorted(out["latency"])
    res = {"ruleset": args.ruleset, "games": args.games, "seats": args.seats, "decisions": out["decisions"],
           "errors": len(out["errors"]), "error_kinds": sorted(set(out["errors"]))[:5],
           "median_ms": round(statistics.median(lat) * 1000, 1) if lat else None,
           "p95_ms": round(lat[int(0.95 * (len(lat) - 1))] * 1000, 1) if lat else None,
           "max_ms": round(lat[-1] * 1000, 1) if lat else None, "wall_s": round(wall, 1),
           "server_cpu_s": round(server_cpu.ru_utime + server_cpu.ru_stime, 1), "client_cpu_s": round(client_cpu, 1),
           "load_avg": os.getloadavg()[0]}
    print(f"{args.games} games x {args.seats} seats of {args.ruleset} on 127.0.0.1: {res['decisions']} decisions, "
          f"{res['errors']} errors; click to next view: median {res['median_ms']} ms, 95th percentile "
          f"{res['p95_ms']} ms, max {res['max_ms']} ms; {res['wall_s']} s wall, server CPU {res['server_cpu_s']} s, "
          f"clients CPU {res['client_cpu_s']} s; load average {res['load_avg']:.1f}")
    if res["error_kinds"]:
        print("errors:", *res["error_kinds"], sep="\n  ")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
