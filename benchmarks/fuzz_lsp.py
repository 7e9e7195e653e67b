"""Attack `grimoire lsp` over its real stdio with malformed frames and hostile requests; after
each attack a probe (a hover on an open file) must be answered. Counts, per class: tried, bad
(the server stopped answering, died, or left a request unanswered) and handler errors (an answer "internal error": a
handler raised). A deaf or dead server is restarted, so every case is counted.

Classes: missing, short, long, huge, non-numeric and negative Content-Length; bytes outside any
frame; a body that is not JSON; JSON that is not a request; positions past the text or
negative; a document never opened.

Run: python benchmarks/fuzz_lsp.py [--cases 60] [--seed 1] [--interpreter DIR] [--json]
(issue 25: before the fix one malformed frame left the server alive but deaf)
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ["no_length", "short_length", "long_length", "huge_length", "text_length", "negative_length",
           "junk_bytes", "not_json", "json_not_request", "far_position", "negative_position", "unknown_file"]
REQUESTS = {"far_position", "negative_position", "unknown_file"}   # attacks that are requests


def frame(body: bytes, length: int | None = None, header: bytes | None = None) -> bytes:
    if header is not None:
        return header + b"\r\n\r\n" + body
    return b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length) + body


def msg(obj) -> bytes:
    return json.dumps(obj).encode()


class Server:
    """The server process, a reader thread putting each answer (a parsed frame) in a queue."""

    def __init__(self, checkout: Path, file: Path):
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        self.p = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "lsp"], cwd=checkout, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.answers: queue.Queue = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.p.stderr), daemon=True).start()
        self.next_id = 100
        self.file = file
        self.request("initialize", {"processId": None, "rootUri": checkout.as_uri(), "capabilities": {}}, 120)
        self.send(frame(msg({"jsonrpc": "2.0", "method": "initialized", "params": {}})))
        self.send(frame(msg({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": file.as_uri(), "languageId": "yaml", "version": 1, "text": file.read_text(encoding="utf-8")}}})))

    def _read(self):
        out = self.p.stdout
        while True:
            n = None
            while True:
                line = out.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    n = int(line.split(b":")[1])
                elif line in (b"\r\n", b"\n") and n is not None:
                    break
            self.answers.put(json.loads(out.read(n)))

    def send(self, data: bytes) -> bool:
        try:
            self.p.stdin.write(data)
            self.p.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def request(self, method: str, params, timeout: float, raw: bytes | None = None):
        """Send a request (or `raw` bytes carrying it) and wait for the answer with its id."""
        self.next_id += 1
        rid = self.next_id
        body = msg({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        if not self.send(raw if raw is not None else frame(body)):
            return None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                a = self.answers.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if a.get("id") == rid:
                return a
        return None

    def probe(self, timeout: float) -> bool:
        a = self.request("textDocument/hover", {"textDocument": {"uri": self.file.as_uri()},
                                                "position": {"line": 0, "character": 0}}, timeout)
        return a is not None and "error" not in a

    def stop(self):
        try:
            self.p.kill()
        finally:
            self.p.wait()


def attack(kind: str, rng: random.Random, srv: Server):
    """Send one attack; return an answer to inspect (for the request classes) or None."""
    good = msg({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": srv.file.as_uri()}, "position": {"line": 0, "character": 0}}})
    if kind == "no_length":
        srv.send(frame(good, header=b"Content-Type: application/vscode-jsonrpc; charset=utf-8"))
    elif kind == "short_length":
        srv.send(frame(good, length=rng.randrange(1, len(good))))
    elif kind == "long_length":
        srv.send(frame(good, length=len(good) + rng.randrange(1, 400)))
    elif kind == "huge_length":
        srv.send(frame(good, length=rng.choice([10**9, 10**12, 2**63])))
    elif kind == "text_length":
        srv.send(frame(good, header=b"Content-Length: " + rng.choice([b"abc", b"1e3", b"", b"0x10"])))
    elif kind == "negative_length":
        srv.send(frame(good, header=b"Content-Length: -%d" % rng.randrange(1, 99)))
    elif kind == "junk_bytes":
        srv.send(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
    elif kind == "not_json":
        srv.send(frame(bytes(rng.randrange(32, 127) for _ in range(rng.randrange(1, 80)))))
    elif kind == "json_not_request":
        srv.send(frame(msg(rng.choice([[1, 2], "x", None, 7, {"jsonrpc": "2.0"}, {"id": 3}]))))
    elif kind in ("far_position", "negative_position", "unknown_file"):
        big = rng.choice([10**6, 2**31 - 1, 10**9])
        pos = {"line": rng.choice([0, 3, big]), "character": big} if kind == "far_position" else \
            {"line": -rng.randrange(1, 9), "character": -1} if kind == "negative_position" else \
            {"line": 0, "character": 0}
        uri = (srv.file.parent / f"missing_{rng.randrange(10**6)}.yaml").as_uri() if kind == "unknown_file" \
            else srv.file.as_uri()
        method = rng.choice(["textDocument/hover", "textDocument/completion", "textDocument/definition"])
        return srv.request(method, {"textDocument": {"uri": uri}, "position": pos}, TIMEOUT)
    return None


TIMEOUT = 10.0   # seconds a request may take to be answered


def run(checkout: Path, cases: int, seed: int, timeout: float) -> dict:
    rng = random.Random(seed)
    file = checkout / "rulesets" / "high_tide" / "ruleset.yaml"
    counts = {k: {"tried": 0, "bad": 0, "handler_errors": 0, "unanswered": 0} for k in CLASSES}
    srv = Server(checkout, file)
    restarts = 0
    try:
        for i in range(cases):
            kind = CLASSES[i % len(CLASSES)]
            c = counts[kind]
            c["tried"] += 1
            answer = attack(kind, rng, srv)
            if answer is not None and answer.get("error", {}).get("code") == -32603:
                c["handler_errors"] += 1
            unanswered = kind in REQUESTS and answer is None   # a request must get its answer
            c["unanswered"] += unanswered
            if unanswered or not srv.probe(timeout) or srv.p.poll() is not None:
                c["bad"] += 1
                srv.stop()
                srv = Server(checkout, file)
                restarts += 1
        tracebacks = b"".join(srv.stderr).count(b"Traceback")
    finally:
        srv.stop()
    return {"interpreter": str(checkout), "cases": cases, "seed": seed, "by_class": counts,
            "tried": sum(c["tried"] for c in counts.values()), "bad": sum(c["bad"] for c in counts.values()),
            "handler_errors": sum(c["handler_errors"] for c in counts.values()),
            "unanswered": sum(c["unanswered"] for c in counts.values()), "restarts": restarts,
            "tracebacks_in_last_server": tracebacks}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds a probe may take to be answered")
    ap.add_argument("--interpreter", help="run the server of this checkout")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    r = run(Path(args.interpreter or ROOT).resolve(), args.cases, args.seed, args.timeout)
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print(f"interpreter: {r['interpreter']}")
        for k, c in r["by_class"].items():
            print(f"  {k:18} tried {c['tried']:3}  bad {c['bad']:3}  handler errors {c['handler_errors']:3}"
                  f"  unanswered {c['unanswered']:3}")
        print(f"{r['tried']} attacks: {r['bad']} left the server deaf or dead, {r['handler_errors']} handler "
              f"errors ({r['restarts']} restarts)")
    return 1 if r["bad"] or r["handler_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
