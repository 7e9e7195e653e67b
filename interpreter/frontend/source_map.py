"""Stage 1 of the pipeline, positions: where each key, value and item of a YAML file was written.

`SourceMap` answers "where was the value at this path written?" for a loaded document, down to
the character inside a string (so an effect error points into the YAML line, through quotes,
escapes and block scalars). `yaml_source` fills it while it turns ruamel's tree into plain data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Loc

Path_ = tuple  # a path into the data: ("cards", "fight_1", "count")

_BLOCK = "|>"
_QUOTES = "'\""
_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v",
            "f": "\f", "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\",
            "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}


@dataclass
class SourceMap:
    """Positions of every key and value of one loaded document (paths -> Loc)."""

    file: str
    values: dict[tuple, Loc] = field(default_factory=dict)
    keys: dict[tuple, Loc] = field(default_factory=dict)
    # string values: path -> (the string, 0-based line and column where it is written)
    texts: dict[tuple, tuple[str, int, int]] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list, repr=False)
    _char_maps: dict[tuple, list] = field(default_factory=dict, repr=False)

    def value(self, path: tuple) -> Loc:
        """Where the value at `path` was written (falls back to the nearest ancestor)."""
        p = tuple(path)
        while p:
            if p in self.values:
                return self.values[p]
            p = p[:-1]
        return self.values.get((), Loc(self.file, 1, 1))

    def key(self, path: tuple) -> Loc:
        """Where the key of the entry at `path` was written (falls back to the value)."""
        p = tuple(path)
        if p in self.keys:
            return self.keys[p]
        return self.value(p)

    def text(self, path: tuple, line: int, col: int) -> Loc:
        """Map (line, col) inside a string value (1-based) to a file position."""
        path = tuple(path)
        info = self.texts.get(path)
        if info is None:
            base = self.value(path)
            return Loc(base.file, base.line, base.col + col - 1 if line == 1 else col)
        value = info[0]
        chars = self._char_maps.get(path)
        if chars is None:
            chars = self._char_maps[path] = _char_map(value, info[1], info[2], self.lines)
        starts = [0] + [i + 1 for i, ch in enumerate(value) if ch == "\n"]
        line = min(max(line, 1), len(starts))
        start = starts[line - 1]
        end = starts[line] - 1 if line < len(starts) else len(value)
        offset = min(start + max(col, 1) - 1, end)
        found = _nearest(chars, offset, start, end)
        if found is None:
            base = self.value(path)
            return Loc(self.file, base.line, base.col)
        fline, fcol = found
        return Loc(self.file, fline, max(fcol, 1))


def _skip_anchor(lines: list[str], line0: int, col0: int) -> tuple[int, int]:
    """ruamel places an anchored value at its `&name`; move to the value itself."""
    if not (0 <= line0 < len(lines)) or lines[line0][col0: col0 + 1] != "&":
        return line0, col0
    rest = lines[line0][col0:]
    end = col0 + (len(rest.split(None, 1)[0]) if rest.strip() else len(rest))
    while end < len(lines[line0]) and lines[line0][end] == " ":
        end += 1
    if end < len(lines[line0]) and lines[line0][end] != "#":
        return line0, end
    for j in range(line0 + 1, len(lines)):
        if lines[j].strip():
            return j, len(lines[j]) - len(lines[j].lstrip(" "))
    return line0, col0


def _char_map(value: str, line0: int, col0: int, lines: list[str]) -> list:
    """For each character of `value`, its 1-based (line, col) in the file, or None."""
    out: list = [None] * len(value)
    if not (0 <= line0 < len(lines)):
        return out
    style = lines[line0][col0: col0 + 1]
    if style in _BLOCK:
        header = lines[line0][col0:].split("#", 1)[0].strip()
        digits = [int(c) for c in header if c.isdigit()]
        first, indent = _block_content(lines, line0, digits[0] if digits else None)
        if style == "|":  # literal: string line k is file line first + k, at the same indent
            k, start = 0, 0
            for i, ch in enumerate(value):
                out[i] = (first + k + 1, indent + 1 + i - start)
                if ch == "\n":
                    k, start = k + 1, i + 1
            return out
        segments = [_raw_segment(lines, j, indent) for j in range(first, len(lines))]
    elif style in _QUOTES:
        segments = _quoted_segments(lines, line0, col0 + 1, style)
    else:
        segments = [_raw_segment(lines, line0, col0)]
        segments += [_raw_segment(lines, j, 0) for j in range(line0 + 1, len(lines))]
    _match(value, segments, out)
    return out


def _block_content(lines: list[str], line0: int, explicit: int | None) -> tuple[int, int]:
    """First content line (0-based) and indentation (0-based) of a block scalar."""
    if explicit is not None:
        header = lines[line0]
        parent = len(header) - len(header.lstrip(" "))
        return line0 + 1, parent + explicit
    for j in range(line0 + 1, len(lines)):
        if lines[j].strip():
            return line0 + 1, len(lines[j]) - len(lines[j].lstrip(" "))
    return line0 + 1, 0


def _raw_segment(lines: list[str], j: int, start: int) -> tuple[int, list]:
    return j + 1, [(ch, start + i + 1) for i, ch in enumerate(lines[j][start:])]


def _quoted_segments(lines: list[str], line0: int, col0: int, quote: str) -> list:
    """Decode a quoted scalar line by line: (file line, [(char, file col), ...])."""
    segments = []
    j, c = line0, col0
    while j < len(lines):
        line, seg = lines[j], []
        while c < len(line):
            ch = line[c]
            if ch == quote:
                if quote == "'" and line[c + 1: c + 2] == "'":
                    seg.append(("'", c + 1))
                    c += 2
                    continue
                segments.append((j + 1, seg))
                return segments
            if quote == '"' and ch == "\\" and c + 1 < len(line):
                esc = line[c + 1]
                if esc in _HEX_ESCAPES:
                    n = _HEX_ESCAPES[esc]
                    try:
                        seg.append((chr(int(line[c + 2: c + 2 + n], 16)), c + 1))
                    except ValueError:
                        pass
                    c += 2 + n
                else:
                    seg.append((_ESCAPES.get(esc, esc), c + 1))
                    c += 2
                continue
            seg.append((ch, c + 1))
            c += 1
        segments.append((j + 1, seg))
        j, c = j + 1, 0
    return segments


def _match(value: str, segments: list, out: list) -> None:
    """Find each source segment in `value` in order (folding turned breaks into spaces)."""
    p = 0
    for fline, seg in segments:
        if p >= len(value):
            return
        i = 0
        while i < len(seg) and seg[i][0] in " \t":
            i += 1
        if i == len(seg):
            continue
        while p < len(value) and value[p] in " \t\n" and value[p] != seg[i][0]:
            p += 1
        while i < len(seg) and p < len(value) and value[p] == seg[i][0]:
            out[p] = (fline, seg[i][1])
            p += 1
            i += 1


def _nearest(chars: list, offset: int, start: int, end: int) -> tuple[int, int] | None:
    """File position of string offset, extrapolating from a mapped neighbour on its line."""
    if offset < len(chars) and chars[offset] is not None:
        return chars[offset]
    for k in range(min(offset, len(chars)) - 1, start - 1, -1):
        if chars[k] is not None:
            return chars[k][0], chars[k][1] + (offset - k)
    for k in range(offset + 1, min(end, len(chars))):
        if chars[k] is not None:
            return chars[k][0], chars[k][1] - (k - offset)
    for k in range(min(start, len(chars)) - 1, -1, -1):  # an empty line: the line after
        if chars[k] is not None:
            return chars[k][0] + 1, 1
    return None
