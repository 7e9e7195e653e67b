"""The web fuzzer of issue 25 (benchmarks/attack_web.py) with a small budget: foreign pages are
refused, binary, deep and huge messages are refused on a socket that stays open, no answer
echoes its input, and no request makes the server raise."""

from __future__ import annotations

import importlib.util
import logging
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _attack_web():
    spec = importlib.util.spec_from_file_location("attack_web", ROOT / "benchmarks" / "attack_web.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_web_fuzzer_finds_nothing_with_a_small_budget():
    logging.disable(logging.CRITICAL)
    try:
        out = _attack_web().attack(messages=40, seed=7)
    finally:
        logging.disable(logging.NOTSET)
    bad = [row for row in out["rows"] if row[1] != "clean"]
    assert len(out["rows"]) > 20
    assert bad == []


def test_the_lobby_refuses_foreign_pages_and_unbounded_bodies():
    """The lobby's POST /api/tables is guarded like a table's POSTs: a page of another site
    cannot make tables, and a huge or deep body is refused before it is parsed."""
    from starlette.testclient import TestClient

    from interpreter.tabletop.web.lobby import create_lobby
    client = TestClient(create_lobby("en"), base_url="http://127.0.0.1:8000")
    foreign = client.post("/api/tables", json={"ruleset": "high_tide", "players": 2},
                          headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403
    huge = client.post("/api/tables", content=b'{"ruleset": "' + b"x" * 100_000 + b'"}',
                       headers={"Content-Type": "application/json"})
    assert huge.status_code == 413 and "x" * 100 not in huge.text
    deep = client.post("/api/tables", content=b"[" * 100 + b"]" * 100,
                       headers={"Content-Type": "application/json"})
    assert deep.status_code == 400
    assert client.get("/api/tables").json() == []  # none of them made a table
