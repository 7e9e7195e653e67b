"""The language server's reading of its input: LSP frames (`Content-Length: N`, a blank line,
N bytes of JSON) cut out of the byte stream, resynchronised after a malformed one.

Pipeline position: authoring (used by lsp.py only). pygls's own reader reads a header line,
then the body; after one frame with a missing or wrong `Content-Length` its body (which ends
with no newline) is glued to the next header line, which then never matches again: the
server stays alive and answers nothing. `Frames` looks for the next `Content-Length` header
wherever it is, skips what lies before it, refuses a body over `MAX_BODY`, and when a body is
not JSON (its length was wrong) skips only its header, so a frame inside it is read next. Each
skipped piece is reported (`("malformed", reason)`), each good body given (`("message", body)`).
"""

from __future__ import annotations

import json
import re

MAX_BODY = 64 << 20          # the largest message body read (a ruleset file is far smaller)
MAX_HEADERS = 8192           # header bytes before the blank line
HEADER = re.compile(rb"content-length[ \t]*:[ \t]*(\d{1,12})[ \t]*\r?\n", re.IGNORECASE)
END = re.compile(rb"\r?\n\r?\n")


def _json(body: bytes) -> bool:
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


class Frames:
    """Feed bytes in, take whole message bodies (and reports of skipped bytes) out."""

    def __init__(self):
        self.buf = bytearray()

    def feed(self, data: bytes) -> list[tuple[str, bytes | str]]:
        self.buf += data
        out: list[tuple[str, bytes | str]] = []
        while True:
            item = self._next()
            if item is None:
                return out
            out.append(item)

    def _drop(self, n: int, reason: str):
        skipped = bytes(self.buf[:n])
        del self.buf[:n]
        return ("malformed", reason) if skipped.strip() else None

    def _next(self):
        while True:
            m = HEADER.search(self.buf)
            if m is None:
                keep = 64                          # a header may be arriving in pieces
                if len(self.buf) > keep:
                    return self._drop(len(self.buf) - keep, "bytes outside a frame (no Content-Length header)")
                return None
            if m.start() > 0:
                r = self._drop(m.start(), "bytes outside a frame (no Content-Length header)")
                if r:
                    return r
                continue
            end = END.search(self.buf, m.end() - 2)
            if end is None:
                if len(self.buf) > MAX_HEADERS:
                    return self._drop(m.end(), "a header with no blank line after it")
                return None
            again = HEADER.search(self.buf, m.end(), end.end())
            if again is not None:                  # a second Content-Length before the blank line
                r = self._drop(again.start(), "a frame with two Content-Length headers")
                if r:
                    return r
                continue
            n, start = int(m.group(1)), end.end()
            if n > MAX_BODY:
                return self._drop(start, f"Content-Length {n} is over the limit of {MAX_BODY} bytes")
            if len(self.buf) >= start + n:
                body = bytes(self.buf[start:start + n])
                if _json(body):
                    del self.buf[:start + n]
                    return ("message", body)
                # only the header goes: a frame inside the body (the length was too long) is read next,
                # and the body's bytes before the next header are skipped as outside a frame
                return self._drop(start, f"a body that is not JSON (Content-Length {n})") or \
                    ("malformed", f"a body that is not JSON (Content-Length {n})")
            inner = HEADER.search(self.buf, start)  # not all here yet: or is the length wrong?
            if inner is not None and self._complete_at(inner):
                return self._drop(inner.start(), f"a body shorter than its Content-Length {n}")
            return None

    def _complete_at(self, m) -> bool:
        """Is there a whole, well-formed frame at header match `m`?"""
        end = END.search(self.buf, m.end() - 2)
        if end is None:
            return False
        n = int(m.group(1))
        body = bytes(self.buf[end.end():end.end() + n])
        return len(body) == n and _json(body)


def serve_io(server, stdin=None, stdout=None) -> None:
    """Run the pygls `server` on stdin/stdout as `server.start_io()` does, reading frames with
    `Frames`: a malformed frame is skipped and told to the editor (window/logMessage), and the
    server reads on."""
    import asyncio
    import logging
    import sys
    import threading

    from lsprotocol import types
    from pygls.io_ import StdoutWriter

    class _OneLine(logging.Filter):
        """pygls logs a message it cannot structure with its whole traceback; the editor's log
        gets one line (the request itself is answered 'invalid params', see answer_invalid)."""

        def filter(self, record: logging.LogRecord) -> bool:
            if str(record.msg).startswith("Unable to deserialize message"):
                record.msg, record.args = "Unable to deserialize message", ()
            return True

    logging.getLogger("pygls.protocol.json_rpc").addFilter(_OneLine())
    reader = stdin or sys.stdin.buffer
    read = getattr(reader, "read1", None) or (lambda n: reader.read(n))
    protocol = server.protocol
    server._stop_event = threading.Event()
    protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

    def tell(reason: str) -> None:
        server.window_log_message(types.LogMessageParams(
            type=types.MessageType.Error, message=f"grimoire lsp: skipped a malformed frame: {reason}"))

    def answer_invalid(body: bytes, e: Exception) -> None:
        """A request whose params do not fit its method (a negative position) still gets its
        answer: the JSON-RPC error 'invalid params', not silence."""
        from pygls.exceptions import JsonRpcInvalidParams
        try:
            raw = json.loads(body)
        except ValueError:
            return
        if isinstance(raw, dict) and "method" in raw and isinstance(raw.get("id"), int | str):
            text = f"{type(e).__name__}: {e}".splitlines()[0]
            protocol._send_response(raw["id"], error=JsonRpcInvalidParams(text).to_response_error())

    async def loop() -> None:
        frames = Frames()
        running = asyncio.get_running_loop()
        while not server._stop_event.is_set():
            data = await running.run_in_executor(server.thread_pool, read, 65536)
            if not data:
                break
            for kind, item in frames.feed(data):
                if kind == "malformed":
                    tell(item)
                    continue
                try:
                    protocol.handle_message(json.loads(item, object_hook=protocol.structure_message))
                except Exception as e:  # noqa: BLE001 - a message pygls cannot read: say so, read on
                    cause = e.__cause__ or e
                    tell(f"{type(cause).__name__}: {cause}".splitlines()[0])
                    answer_invalid(item, cause)

    try:
        asyncio.run(loop())
    except (BrokenPipeError, KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()
