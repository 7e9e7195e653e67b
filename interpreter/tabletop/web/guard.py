"""What the web table accepts from a browser: where a socket or a POST comes from, and how big
and how deep a message may be, checked before anything is parsed.

Pipeline position: beside app.py, under the routes. A browser sends `Origin` with every
websocket and every cross-site POST; a page of another site that holds a seat link must not
see that seat's view or choose for it, so a request whose Origin is not this table's host is
refused (a client that sends no Origin is not a browser page, and a page cannot leave it out).
A message is text of at most MAX_MESSAGE bytes whose JSON nests at most MAX_DEPTH levels; what
a refusal quotes of the input is cut to QUOTE characters.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

MAX_MESSAGE = 4096  # bytes of one websocket message or POST body: {"type", "option", "version"}
MAX_DEPTH = 8  # JSON nesting of a message (a choice nests one level)
QUOTE = 60  # characters of the input a refusal may repeat


class Rejected(Exception):
    """A message refused before it reached the room, with the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(message)
        self.status = status


def short(value) -> str:
    """`value` as a refusal quotes it: its repr, cut to QUOTE characters."""
    text = repr(value)
    return text if len(text) <= QUOTE else text[:QUOTE] + f"... ({len(text)} characters)"


def origin_ok(headers) -> bool:
    """Does the request come from a page of this table (or from a client that is no page)?"""
    origin = headers.get("origin")
    if origin is None:
        return True
    host = (headers.get("host") or "").lower()
    try:
        netloc = urlsplit(origin).netloc.lower()
    except ValueError:
        return False
    return bool(host) and netloc == host


def _depth(text: str) -> int:
    """How deep the brackets of a JSON text nest (strings skipped); linear, no recursion."""
    depth = best = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth -= 1
    return best


def parse_message(raw: str | bytes | None) -> dict:
    """The JSON object of one message; Rejected (quoting none of it) if it is not one."""
    if raw is None:
        raise Rejected("send a text message (JSON), not binary data")
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE:
            raise Rejected(f"the message is over {MAX_MESSAGE} bytes", 413)
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Rejected("the message is not UTF-8 text") from None
    if len(raw.encode("utf-8", errors="replace")) > MAX_MESSAGE:
        raise Rejected(f"the message is over {MAX_MESSAGE} bytes", 413)
    if _depth(raw) > MAX_DEPTH:
        raise Rejected(f"the message nests deeper than {MAX_DEPTH} levels")
    try:
        msg = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise Rejected("the message is not JSON") from None
    if not isinstance(msg, dict):
        raise Rejected('send a JSON object {"option": ID, "version": N}')
    return msg


async def read_body(request) -> dict:
    """The JSON object of a POST, read at most MAX_MESSAGE bytes far."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_MESSAGE):
        raise Rejected(f"the request body is over {MAX_MESSAGE} bytes", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_MESSAGE:
            raise Rejected(f"the request body is over {MAX_MESSAGE} bytes", 413)
    return parse_message(body)
