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
