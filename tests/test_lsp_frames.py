"""grimoire lsp reads on after a malformed frame (issue 25: one bad or missing Content-Length
left it alive but deaf), and answers every request, also one with positions past the text.
The frame reader is tested on its own, then the real server is attacked by the LSP fuzzer of
benchmarks/ in a bounded form (every class of attack twice)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from interpreter.authoring.lsp_frames import MAX_BODY, Frames

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import fuzz_lsp  # noqa: E402


def _frame(obj, length=None, header=None) -> bytes:
    body = json.dumps(obj).encode()
    return fuzz_lsp.frame(body, length, header)


A, B = _frame({"a": 1}), _frame({"b": 2})


@pytest.mark.parametrize("bad", [
    _frame({"x": 1}, header=b"Content-Type: application/vscode-jsonrpc"),   # no Content-Length
    _frame({"x": 1}, length=3),                                              # too short
    _frame({"x": 1}, length=MAX_BODY + 1),                                   # over the limit
    _frame({"x": 1}, header=b"Content-Length: abc"),
    _frame({"x": 1}, header=b"Content-Length: -4"),
    b"\x00\xff garbage \r\n\r\n",
    fuzz_lsp.frame(b"not json at all"),
    b"Content-Length: 5\r\nContent-Length: 7\r\n\r\n",
], ids=["no-length", "short", "huge", "text", "negative", "junk", "not-json", "two-lengths"])
def test_the_frames_after_a_malformed_one_are_read(bad):
    f = Frames()
    got = f.feed(bad + A) + f.feed(B)
    assert [x for kind, x in got if kind == "message"] == [b'{"a": 1}', b'{"b": 2}'], got
    assert any(kind == "malformed" for kind, _ in got), got


def test_a_length_too_long_is_found_out_when_the_next_frame_arrives():
    f = Frames()
    assert f.feed(_frame({"x": 1}, length=500)) == []          # it may still be arriving
    got = f.feed(A)
    assert got[0][0] == "malformed" and got[1:] == [("message", b'{"a": 1}')]


def test_a_frame_in_pieces_is_one_message():
    f = Frames()
    assert [f.feed(A[i:i + 3]) for i in range(0, len(A) - 3, 3)] == [[]] * len(range(0, len(A) - 3, 3))
    assert f.feed(A[len(range(0, len(A) - 3, 3)) * 3:]) == [("message", b'{"a": 1}')]


def test_the_real_server_survives_every_class_of_attack():
    r = fuzz_lsp.run(ROOT, cases=2 * len(fuzz_lsp.CLASSES), seed=7, timeout=30)
    assert r["tried"] == 2 * len(fuzz_lsp.CLASSES)
    assert (r["bad"], r["handler_errors"], r["unanswered"]) == (0, 0, 0), json.dumps(r["by_class"], indent=1)
    assert r["tracebacks_in_last_server"] == 0
