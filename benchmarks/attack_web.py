"""Fuzz the web table (issue 25): foreign pages, binary frames, deep and huge JSON, forged
options, odd query strings and random messages, against the ASGI app in this process
(starlette's TestClient: a server exception reaches the client, so a traceback is counted).

Run: python benchmarks/attack_web.py [--interpreter DIR] [--messages N] [--seed S] [--json OUT]

Verdicts of one attack:
  clean      refused in a bounded answer (or served, for the control cases), the socket alive
  traceback  the server raised (an HTTP 500, or a websocket dropped by an exception)
  dropped    the socket was closed on a message it could have refused
  leak       a page of another site got a seat's view, or could choose for it
  echo       a refusal of a long input (over 800 characters) was itself over 800 characters
`tests/test_web_fuzz.py` runs it with a small budget.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOREIGN = {"origin": "http://evil.example"}
ECHO = 200  # characters of input an answer may repeat


def _random_message(rng: random.Random) -> str | bytes:
    """One message a hostile or broken client might send."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if kind == 1:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 80)))
    if kind == 2:
        n = rng.choice([10, 100, 1000, 20000])
        return "[" * n + "]" * n
    if kind == 3:
        return json.dumps({"type": "choose", "option": "x" * rng.choice([300, 5000, 100_000]), "version": 0})
    if kind == 4:
        return json.dumps({"type": "choose", "option": rng.choice([None, 1, 1.5, [], {}, True, "pass"]),
                           "version": rng.choice([None, -1, 10 ** 30, "0", [0], 0])})
    if kind == 5:
        return json.dumps({"type": rng.choice(["choose", "view", "", None, 7]), "option": "draw_card"})
    if kind == 6:
        return json.dumps(rng.choice([[], 1, "s", None, {"type": "choose"}]))
    if kind == 7:
        n = rng.choice([50, 5000])
        return '{"type": "choose", "option": ' + '{"a": ' * n + "1" + "}" * n + "}"
    if kind == 9:  # the table's other messages: chat and take-backs, with odd values
        return json.dumps(rng.choice([{"type": "chat", "text": rng.choice(["", "x" * 501, None, 5, ["a"], "hi"])},
                                      {"type": "takeback", "accept": rng.choice([None, "yes", 2, [], True])},
                                      {"type": "takeback"}]))
    return '{"type": "choose", "option": "' + "\\ud800" * rng.randrange(1, 50) + '"}'


def attack(messages: int = 200, seed: int = 25, interpreter: str | None = None) -> dict:
    """Run every attack; return {"rows": [(attack, verdict)], "counts": {verdict: n}}."""
    if interpreter:
        sys.path.insert(0, interpreter)
    from starlette.testclient import TestClient

    from interpreter.game import RULESETS, load
    from interpreter.tabletop.web.app import create_app
    from interpreter.tabletop.web.room import Room

    game = load(RULESETS / "high_tide")
    room = Room(game, game.new_game(seed=1, players=2), ["human", "human"], 1, "en", None)
    client = TestClient(create_app(room))
    rows: list[tuple[str, str]] = []

    def player_token():
        return room.player_token(room.state.current_player())

    def ws_try(name: str, headers: dict, sends: list, foreign: bool = False) -> None:
        """Open the current player's socket, send each message, expect one bounded answer each and
        the socket still answering after them (a valid view request: a stale choice is refused)."""
        try:
            with client.websocket_connect(f"/ws/{player_token()}", headers=headers) as ws:
                first = json.loads(ws.receive_text())
                if foreign:
                    rows.append((name, "leak" if first.get("type") != "refused" or "decision" in first else "clean"))
                    return
                verdict = "clean"
                for m in sends:
                    (ws.send_bytes if isinstance(m, bytes) else ws.send_text)(m)
                    answer = ws.receive_text()
                    if len(answer) > 4 * ECHO and len(m) > 4 * ECHO:  # a refusal is a line, not the input
                        verdict = "echo"
                    elif json.loads(answer).get("type") != "refused" and '"choose"' in str(m):
                        verdict = "leak"  # a forged message was taken as a choice
                ws.send_text(json.dumps({"type": "choose", "option": "?", "version": -1}))
                if json.loads(ws.receive_text()).get("type") != "refused":
                    verdict = "dropped"
                rows.append((name, verdict))
        except Exception as e:  # noqa: BLE001 - what we count
            rows.append((name, "dropped" if type(e).__name__ == "WebSocketDisconnect" else "traceback"))

    def http_try(name: str, method: str, url: str, expect: tuple, **kw) -> None:
        try:
            r = getattr(client, method)(url, **kw)
        except Exception:  # noqa: BLE001 - what we count
            rows.append((name, "traceback"))
            return
        body = r.text
        sent = kw.get("content") or ""
        if r.status_code >= 500:
            rows.append((name, "traceback"))
        elif len(body) > 4 * ECHO and len(sent) > 4 * ECHO:
            rows.append((name, "echo"))
        elif r.status_code not in expect:
            rows.append((name, "leak" if r.status_code == 200 else f"status {r.status_code}"))
        else:
            rows.append((name, "clean"))

    # where a socket or a POST comes from
    ws_try("ws: a page of another site", FOREIGN, [], foreign=True)
    ws_try("ws: Origin null", {"origin": "null"}, [], foreign=True)
    ws_try("ws: Origin of another port", {"origin": "http://testserver:1"}, [], foreign=True)
    ws_try("control ws: this site's page", {"origin": "http://testserver"}, [])
    ws_try("control ws: a client with no Origin", {}, [])
    choice = json.dumps({"option": "draw_card", "version": room.version})
    http_try("POST choose from another site", "post", f"/api/choose/{player_token()}", (403,),
             content=choice, headers=FOREIGN)
    http_try("POST save from another site", "post", f"/api/save/{room.host_token}", (403,), headers=FOREIGN)
    # what a message may be
    ws_try("ws: a binary frame", {}, [b"\x00\x01binary"])
    ws_try("ws: 20,000-deep JSON", {}, ["[" * 20000 + "]" * 20000])
    ws_try("ws: an 8 MB forged option", {}, [json.dumps({"type": "choose", "option": "x" * 8_000_000,
                                                         "version": 0})])
    ws_try("ws: a 1 MB forged version", {}, [json.dumps({"type": "choose", "option": "pass",
                                                         "version": "9" * 1_000_000})])
    tok = player_token()
    http_try("POST 20,000-deep JSON", "post", f"/api/choose/{tok}", (400, 413), content="[" * 20000 + "]" * 20000)
    http_try("POST an 8 MB forged option", "post", f"/api/choose/{tok}", (400, 413),
             content=json.dumps({"option": "x" * 8_000_000, "version": 0}))
    http_try("POST binary", "post", f"/api/choose/{tok}", (400, 413), content=b"\xff\xfe\x00")
    http_try("replay: a 5,000-digit step", "get", f"/api/replay/{room.host_token}?step={'9' * 5000}", (400,))
    http_try("replay: a 5,000-digit seat", "get", f"/api/replay/{room.host_token}?seat={'9' * 5000}", (400,))
    # random messages, one socket each batch of 20
    rng = random.Random(seed)
    batch: list = []
    for i in range(messages):
        batch.append(_random_message(rng))
        if len(batch) == 20 or i == messages - 1:
            ws_try(f"ws: random messages {i - len(batch) + 2}-{i + 1}", {}, batch)
            batch = []
    for i in range(messages // 4):
        m = _random_message(rng)
        http_try(f"POST random message {i + 1}", "post", f"/api/choose/{player_token()}", (400, 409, 413, 403),
                 content=m)
    counts = collections.Counter(v for _, v in rows)
    return {"rows": rows, "counts": dict(counts)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--interpreter", help="import the interpreter package from this checkout")
    ap.add_argument("--messages", type=int, default=400, help="random websocket messages (and a quarter as POSTs)")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    sys.path.insert(0, args.interpreter or str(ROOT))
    import logging
    logging.disable(logging.CRITICAL)
    out = attack(args.messages, args.seed, args.interpreter)
    for name, verdict in out["rows"]:
        if verdict != "clean":
            print(f"  {verdict:10s} {name}")
    rows = out["rows"]
    bad = [r for r in rows if r[1] != "clean"]
    print(f"interpreter: {args.interpreter or ROOT}")
    print(f"tried {len(rows)}, clean {len(rows) - len(bad)}, bad {len(bad)}: "
          + ", ".join(f"{k} {v}" for k, v in sorted(out["counts"].items())))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
