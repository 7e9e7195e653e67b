"""Stage 1 of the pipeline: YAML files -> plain data + a source map of positions.

`load_yaml` reads one file with ruamel.yaml (round-trip mode, which keeps the line and
column of every key, value and item) and returns plain dicts/lists/scalars together with a
`SourceMap` that answers "where was the value at this path written?". `load_ruleset_files`
follows the `include:` list of a ruleset directory's `ruleset.yaml` and returns one `Doc`
per file. Nothing here knows what a ruleset means; that is `validate` and `model`.

Safety: every refusal is a located `RulesetError`, never a traceback. Refused are: files
over `MAX_FILE_BYTES`, invalid UTF-8 (at the bad byte), YAML syntax errors, tabs used as
indentation, duplicate keys (each duplicate, naming the first), any explicit YAML tag
(`!!python/object/...`, `!!str`, `!local`: ruamel's round-trip loader would otherwise
quietly turn `!!python/object/apply:os.system [...]` into a list), recursive aliases,
alias expansion past `MAX_NODES` values ("billion laughs"), nesting past `MAX_DEPTH`,
several documents in one file, and values JSON cannot hold (dates, non-scalar keys).

The checks on tags, aliases, depth and documents run on ruamel's event stream *before*
anything is constructed, so a hostile file costs one linear pass and no expansion.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    ScalarEvent,
)
from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Collector, Loc, Problem, RulesetError

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000  # values produced after alias expansion
MAX_DEPTH = 100  # nesting of mappings and lists

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


@dataclass
class Doc:
    """One loaded file: plain data and where each part of it was written."""

    path: str
    data: Any
    source: SourceMap


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.allow_duplicate_keys = False
    return y


# --- reading bytes -------------------------------------------------------------------------

def read_text(path: Path, display: str | None = None) -> str:
    """Read a UTF-8 text file under the size limit, or raise a located RulesetError."""
    name = display or str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RulesetError(Problem(Loc(name, 0, 0), "file not found")) from None
    except IsADirectoryError:
        raise RulesetError(Problem(Loc(name, 0, 0), "is a directory, not a file")) from None
    except OSError as e:
        raise RulesetError(Problem(Loc(name, 0, 0), f"cannot read file: {e.strerror}")) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(Problem(
            Loc(name, 1, 1),
            f"file is {len(raw)} bytes, over the limit of {MAX_FILE_BYTES} bytes"))
    return decode_text(raw, name)


def decode_text(raw: bytes, name: str) -> str:
    """Decode UTF-8 (a leading BOM is dropped), or raise a RulesetError at the bad byte."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        line_start = raw.rfind(b"\n", 0, e.start) + 1
        # the column counts characters, as an editor shows them, not bytes
        col = len(raw[line_start: e.start].decode("utf-8", errors="replace")) + 1
        raise RulesetError(Problem(
            Loc(name, line, col),
            f"invalid UTF-8 (byte 0x{raw[e.start]:02x}); save the file as UTF-8")) from None
    return text.removeprefix("\ufeff")


# --- YAML -> plain data --------------------------------------------------------------------

_DOC_CACHE: dict = {}


def load_yaml(path: str | Path, display: str | None = None, text: str | None = None) -> Doc:
    """Load one YAML file into plain data and a SourceMap; raise RulesetError on any problem.

    A file already loaded with the same text is not parsed again (an in-process cache keyed
    by name and content): the round-trip YAML parser is the slowest stage of a load. Callers
    must treat `Doc.data` as read-only (the overlay stage copies before it changes a value).
    """
    path = Path(path)
    name = display or str(path)
    if text is None:
        text = read_text(path, name)
    elif len(text.encode("utf-8", errors="replace")) > MAX_FILE_BYTES:
        raise RulesetError(Problem(Loc(name, 1, 1),
                                   f"file is over the limit of {MAX_FILE_BYTES} bytes"))
    key = (name, text)
    hit = _DOC_CACHE.get(key)
    if hit is not None:
        return hit
    doc = _load_text(name, text)
    if len(_DOC_CACHE) > 512:
        _DOC_CACHE.clear()
    _DOC_CACHE[key] = doc
    return doc


def _load_text(name: str, text: str) -> Doc:
    lines = text.splitlines()
    try:
        problems = _check_events(text, name)
        if problems:
            raise RulesetError(problems)
        with warnings.catch_warnings():  # a reused anchor is legal YAML; do not print
            warnings.simplefilter("ignore")
            tree = _yaml().load(io.StringIO(text))
    except RulesetError:
        raise
    except DuplicateKeyError as e:
        raise RulesetError(_duplicate_keys(text, name) or [_yaml_problem(name, e, lines)]) from None
    except (YAMLError, MarkedYAMLError) as e:
        raise RulesetError(_yaml_problem(name, e, lines)) from None
    except RecursionError:
        raise RulesetError(Problem(Loc(name, 1, 1), "YAML nested too deeply")) from None
    except Exception as e:  # noqa: BLE001 - ruamel raises a few plain exceptions on odd input
        raise RulesetError(Problem(Loc(name, 1, 1), f"YAML: {e}")) from None
    smap = SourceMap(name, lines=lines)
    errs = Collector()
    budget = [MAX_NODES]
    data = _plain(tree, (), smap, errs, budget, set())
    errs.raise_if_any()
    smap.values.setdefault((), Loc(name, 1, 1))
    return Doc(name, data, smap)


def _loc_of_mark(file: str, mark) -> Loc:
    if mark is None:
        return Loc(file, 1, 1)
    return Loc(file, mark.line + 1, mark.column + 1)


def _yaml_problem(file: str, e: Exception, lines: list[str]) -> Problem:
    if not isinstance(e, MarkedYAMLError):
        return Problem(Loc(file, 1, 1), f"YAML: {e}")
    mark = e.problem_mark or e.context_mark
    loc = _loc_of_mark(file, mark)
    problem = e.problem or e.context or "invalid YAML"
    if "'\\t'" in problem:
        line = lines[loc.line - 1] if 0 < loc.line <= len(lines) else ""
        if not line[: loc.col - 1].strip():
            msg = "tab used for indentation; YAML indentation must be spaces"
        else:
            msg = "tab character where YAML expects a value or a key; use spaces"
        return Problem(loc, msg)
    if "duplicate key" in problem:
        return Problem(loc, problem.split(" with value")[0].replace('"', "'"))
    msg = problem
    for raw, plain in _PARSER_WORDS:
        msg = msg.replace(raw, plain)
    if e.context and e.problem and e.context_mark is not None and e.context_mark is not mark:
        context = e.context.replace("while parsing a ", "in the ").replace("while scanning a ", "in the ")
        msg = f"{msg} ({context} that began at line {e.context_mark.line + 1})"
    return Problem(loc, f"YAML syntax: {msg}")


# ruamel's parser words -> plain words
_PARSER_WORDS = (
    ("expected <block end>, but found '<scalar>'",
     "unexpected text (a missing quote or a wrong indentation above?)"),
    ("expected <block end>, but found '<block sequence start>'",
     "unexpected list item (wrong indentation?)"),
    ("expected <block end>, but found '<block mapping start>'",
     "unexpected key (wrong indentation?)"),
    ("mapping values are not allowed here",
     "':' not allowed here (quote text that contains ': ', or fix the indentation)"),
    ("could not find expected ':'", "expected ':' after a key"),
    ("found unexpected end of stream", "the file ends inside a quoted string or a bracket"),
    ("'<scalar>'", "a value"),
    ("'<block mapping start>'", "a key"),
    ("'<block sequence start>'", "a list item"),
    ("'<block end>'", "the end of a block"),
)


def _check_events(text: str, name: str) -> list[Problem]:
    """Refuse tags, recursive aliases, alias bombs, deep nesting and extra documents."""
    problems: list[Problem] = []
    sizes: dict[str, int] = {}  # anchor -> values its node expands to
    stack: list[list] = []  # open collections: [anchor, size]
    total = 0
    documents = 0
    for ev in _yaml().parse(io.StringIO(text)):
        loc = _loc_of_mark(name, ev.start_mark)
        if isinstance(ev, DocumentStartEvent):
            documents += 1
            if documents == 2:
                problems.append(Problem(loc, "a second YAML document ('---') in one file; "
                                             "a file holds one document"))
                break
            continue
        tag = getattr(ev, "tag", None)
        if tag is not None:
            problems.append(Problem(loc, f"YAML tag '{_tag_text(tag)}' is not allowed; "
                                         "write plain values"))
        if isinstance(ev, AliasEvent):
            if any(open_[0] == ev.anchor for open_ in stack):
                problems.append(Problem(loc, f"alias '*{ev.anchor}' refers to a value that "
                                             "contains it (recursive alias)"))
                size = 1
            else:
                size = sizes.get(ev.anchor, 1)
        elif isinstance(ev, ScalarEvent):
            size = 1
            if ev.anchor:
                sizes[ev.anchor] = 1
        elif isinstance(ev, CollectionStartEvent):
            stack.append([ev.anchor, 1])
            total += 1
            if len(stack) > MAX_DEPTH:
                problems.append(Problem(loc, f"nested more than {MAX_DEPTH} levels deep"))
                break
            continue
        elif isinstance(ev, CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor:
                sizes[anchor] = size
            if stack:
                stack[-1][1] += size
            continue
        else:
            continue
        if stack:
            stack[-1][1] += size
        total += size
        if total > MAX_NODES:
            problems.append(Problem(loc, f"document expands to more than {MAX_NODES} values "
                                         "(an alias bomb?); refused"))
            break
    return problems


def _tag_text(tag) -> str:
    text = str(getattr(tag, "value", tag))
    return "!!" + text[len("tag:yaml.org,2002:"):] if text.startswith("tag:yaml.org,2002:") else text


def _duplicate_keys(text: str, name: str) -> list[Problem]:
    """Find every duplicate key (ruamel stops at the first), each naming the first one."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            root = _yaml().compose(io.StringIO(text))
    except Exception:  # noqa: BLE001 - the caller falls back to ruamel's own message
        return []
    problems: list[Problem] = []
    seen_nodes: set[int] = set()

    def walk(node: Node) -> None:
        if id(node) in seen_nodes:
            return
        seen_nodes.add(id(node))
        if isinstance(node, MappingNode):
            first: dict[str, Node] = {}
            for k, v in node.value:
                if isinstance(k, ScalarNode) and k.value != "<<":
                    if k.value in first:
                        m = first[k.value].start_mark
                        problems.append(Problem(
                            _loc_of_mark(name, k.start_mark),
                            f"duplicate key '{k.value}' (first defined at line {m.line + 1}, "
                            f"column {m.column + 1})"))
                    else:
                        first[k.value] = k
                walk(v)
        elif isinstance(node, SequenceNode):
            for item in node.value:
                walk(item)

    if root is not None:
        walk(root)
    return problems


def _plain(node, path, smap: SourceMap, errs: Collector, budget, active):
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            errs.add(smap.value(path[:1]),
                     f"document expands to more than {MAX_NODES} values (an alias bomb?); refused")
        return None
    if isinstance(node, CommentedMap):
        if id(node) in active:
            errs.add(smap.value(path), "recursive alias")
            return None
        active.add(id(node))
        out = {}
        for k in node:
            sub = path + (_key_text(k),)
            try:
                kl, kc = node.lc.key(k)
                smap.keys[sub] = Loc(smap.file, kl + 1, kc + 1)
                vl, vc = node.lc.value(k)
                smap.values[sub] = Loc(smap.file, vl + 1, vc + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            if sub[-1] is None:
                errs.add(smap.key(sub), "keys must be plain words, numbers or quoted text")
                continue
            v = node[k]
            _note_text(v, sub, smap)
            out[sub[-1]] = _plain(v, sub, smap, errs, budget, active)
        active.discard(id(node))
        return out
    if isinstance(node, CommentedSeq):
        if id(node) in active:
            errs.add(smap.value(path), "recursive alias")
            return None
        active.add(id(node))
        out_l = []
        for i, v in enumerate(node):
            sub = path + (i,)
            try:
                il, ic = node.lc.item(i)
                smap.values[sub] = Loc(smap.file, il + 1, ic + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            _note_text(v, sub, smap)
            out_l.append(_plain(v, sub, smap, errs, budget, active))
        active.discard(id(node))
        return out_l
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    kind = type(node).__name__
    if kind in ("date", "datetime", "TimeStamp"):
        errs.add(smap.value(path), "a date is not a valid value here; quote it to keep it as text")
    else:
        errs.add(smap.value(path), f"unsupported YAML value of type {kind}")
    return None


def _key_text(k) -> str | None:
    """The key as JSON text (`3:` -> "3", `true:` -> "true"), None for a non-scalar key."""
    if isinstance(k, bool):
        return "true" if k else "false"
    if isinstance(k, str):
        return str(k)
    if isinstance(k, (int, float)):
        return str(k)
    return None


# --- positions inside string values --------------------------------------------------------

def _note_text(v, sub, smap: SourceMap) -> None:
    if not isinstance(v, str) or sub not in smap.values:
        return
    loc = smap.values[sub]
    line0, col0 = _skip_anchor(smap.lines, loc.line - 1, loc.col - 1)
    smap.texts[sub] = (str(v), line0, col0)


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


# --- a ruleset directory -------------------------------------------------------------------

def require_mapping(doc: Doc) -> list[Problem]:
    """Problems if the top level of `doc` is not a mapping of keys to values."""
    if isinstance(doc.data, dict):
        return []
    if doc.data is None:
        return [Problem(Loc(doc.path, 1, 1), "the file is empty; expected a mapping of keys "
                                             "to values")]
    found = "a list" if isinstance(doc.data, list) else f"{doc.data!r}"
    return [Problem(doc.source.value(()), f"the top level must be a mapping of keys to values, "
                                          f"found {found}")]


def _resolved(path: Path) -> Path | None:
    """`path` with its symlinks followed, or None if they loop (or cannot be followed)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError):  # Python 3.11 raises RuntimeError on a symlink loop
        return None


def load_ruleset_files(root: str | Path) -> list[Doc]:
    """Load `ruleset.yaml` of a ruleset directory and every file it includes, in order."""
    root = Path(root)
    main = root / "ruleset.yaml"
    if _resolved(main) is None:
        raise RulesetError(Problem(Loc(str(main), 0, 0), "ruleset.yaml is a symlink loop"))
    if not main.is_file():
        raise RulesetError(Problem(Loc(_display(main), 0, 0),
                                   "no ruleset.yaml here: a ruleset is a directory with a "
                                   "ruleset.yaml"))
    errs = Collector()
    docs: list[Doc] = []
    _load_with_includes(main, root, docs, errs, stack=[], seen=set())
    errs.raise_if_any()
    return docs


def _load_with_includes(path: Path, root: Path, docs, errs: Collector, stack, seen) -> None:
    key = path.resolve()
    try:
        doc = load_yaml(path, display=_display(path))
    except RulesetError as e:
        errs.extend(e.problems)
        return
    seen.add(key)
    docs.append(doc)
    not_mapping = require_mapping(doc)
    if not_mapping:
        errs.extend(not_mapping)
        return
    incl = doc.data.get("include")
    if incl is None:
        return
    if not isinstance(incl, list):
        errs.add(doc.source.value(("include",)), "include must be a list of file paths")
        return
    for i, rel in enumerate(incl):
        loc = doc.source.value(("include", i))
        if not isinstance(rel, str):
            errs.add(loc, "include entries must be file paths (strings)")
            continue
        target = path.parent / rel
        rkey = _resolved(target)
        if rkey is None:
            errs.add(loc, f"included file {rel!r} is a symlink loop")
            continue
        if Path(rel).is_absolute() or not rkey.is_relative_to(root.resolve()):
            errs.add(loc, f"included file {rel!r} is outside the ruleset directory")
            continue
        if rkey in stack or rkey == key:
            chain = " -> ".join(_display(Path(s)) for s in stack + [key, rkey])
            errs.add(loc, f"circular include: {chain}")
            continue
        if rkey in seen:
            errs.add(loc, f"{rel!r} is included twice")
            continue
        if not target.is_file():
            errs.add(loc, f"included file {rel!r} not found")
            continue
        _load_with_includes(target, root, docs, errs, stack + [key], seen)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError, OSError):
        return str(path)
