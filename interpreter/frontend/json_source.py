"""Where a part of a JSON document is written: JSON paths -> file:line:col, found lazily.

Pipeline position: beside `load` (which maps YAML files while parsing them). A save file can
be hundreds of megabytes, so it is parsed by the standard `json` module and nothing is mapped
up front; only when a problem must be located is the text walked, along the one path asked
for, to the key or value there. The result plugs into the schema checker as a SourceMap.
"""

from __future__ import annotations

import json
import re

from ..errors import Loc
from .source_map import SourceMap
from .yaml_source import Doc

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()


def _end_of_value(text: str, i: int) -> int:
    return _DECODER.raw_decode(text, i)[1]


def offsets(text: str, path: tuple) -> tuple[int, int]:
    """(key offset, value offset) of `path`; at a part that is missing or malformed, the
    offsets of the deepest ancestor found."""
    i = _skip(text, 0)
    key_at = i
    for part in path:
        if i >= len(text):
            break
        try:
            if text[i] == "{" and isinstance(part, str):
                j = _skip(text, i + 1)
                found = None
                while j < len(text) and text[j] == '"':
                    k_at = j
                    key, j = json.decoder.scanstring(text, j + 1)
                    j = _skip(text, j)
                    j = _skip(text, j + 1)  # the colon
                    if key == part:
                        found = (k_at, j)
                    end = _skip(text, _end_of_value(text, j))
                    if found:
                        break
                    j = _skip(text, end + 1) if end < len(text) and text[end] == "," else len(text)
                if found is None:
                    return key_at, i
                key_at, i = found
            elif text[i] == "[" and isinstance(part, int):
                j = _skip(text, i + 1)
                for _ in range(part):
                    j = _skip(text, _end_of_value(text, j))
                    if j >= len(text) or text[j] != ",":
                        return key_at, i
                    j = _skip(text, j + 1)
                key_at = i = j
            else:
                break
        except (ValueError, IndexError):
            break
    return key_at, i


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


class JsonSourceMap(SourceMap):
    """A SourceMap whose positions are computed when asked for (one walk per path)."""

    def __init__(self, file: str, text: str):
        super().__init__(file)
        self._text = text

    def _loc(self, path: tuple, want_key: bool) -> Loc:
        k, v = offsets(self._text, tuple(path))
        line, col = line_col(self._text, k if want_key else v)
        return Loc(self.file, line, col)

    def value(self, path: tuple) -> Loc:
        """Where the value at `path` is written (or the nearest ancestor that is)."""
        return self._loc(path, False)

    def key(self, path: tuple) -> Loc:
        """Where the key of the entry at `path` is written (or its value, in a list)."""
        return self._loc(path, True)


def json_doc(file: str, text: str, data) -> Doc:
    """A Doc for already-parsed JSON, located lazily in `text`."""
    return Doc(file, data, JsonSourceMap(file, text))
