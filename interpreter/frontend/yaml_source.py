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
import os
import warnings
from dataclasses import dataclass
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

from ..errors import Collector, Loc, Problem, RulesetError
from .source_map import SourceMap, _skip_anchor

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000  # values produced after alias expansion
MAX_DEPTH = 100  # nesting of mappings and lists


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
        with open(path, "rb") as f:  # at most one byte past the limit is read
            size = os.fstat(f.fileno()).st_size
            raw = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise RulesetError(Problem(Loc(name, 0, 0), "file not found")) from None
    except IsADirectoryError:
        raise RulesetError(Problem(Loc(name, 0, 0), "is a directory, not a file")) from None
    except OSError as e:
        raise RulesetError(Problem(Loc(name, 0, 0), f"cannot read file: {e.strerror}")) from None
    if len(raw) > MAX_FILE_BYTES:  # not quoted: the quote would read the whole file again
        raise RulesetError(Problem(
            Loc(name, 1, 1),
            f"file is {max(size, len(raw))} bytes, over the limit of {MAX_FILE_BYTES} bytes", quote=False))
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
