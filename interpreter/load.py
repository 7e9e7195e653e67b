"""Stage 1 of the pipeline: YAML files -> plain data + a source map of positions.

`load_yaml` reads one file with ruamel.yaml (round-trip mode, which keeps the line and
column of every key, value and item) and returns plain dicts/lists/scalars together with a
`SourceMap` that answers "where was the value at this path written?". `load_ruleset_files`
follows the `include:` list of a ruleset directory's `ruleset.yaml` and returns one `Doc`
per file. Nothing here knows what a ruleset means; that is `validate` and `model`.

Safety: no Python object tags (no tag is accepted at all), duplicate keys, tabs, invalid
UTF-8, alias expansion beyond a limit ("billion laughs") and oversized files are refused
with located problems.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from .errors import Collector, Loc, Problem, RulesetError

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_NODES = 200_000  # values produced after alias expansion

Path_ = tuple  # a path into the data: ("cards", "fight_1", "count")


@dataclass
class SourceMap:
    """Positions of every key and value of one loaded document (paths -> Loc)."""

    file: str
    values: dict[tuple, Loc] = field(default_factory=dict)
    keys: dict[tuple, Loc] = field(default_factory=dict)
    # for string values: (first content line, content column or block indent, is_block)
    texts: dict[tuple, tuple[int, int, bool]] = field(default_factory=dict)

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
        info = self.texts.get(tuple(path))
        if info is None:
            base = self.value(path)
            return Loc(base.file, base.line, base.col + col - 1 if line == 1 else col)
        first_line, first_col, is_block = info
        if is_block or line > 1:
            return Loc(self.file, first_line + line - 1, (first_col if is_block else 1) + col - 1)
        return Loc(self.file, first_line, first_col + col - 1)


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


def _loc_of_mark(file: str, mark) -> Loc:
    if mark is None:
        return Loc(file, 1, 1)
    return Loc(file, mark.line + 1, mark.column + 1)


def _yaml_problem(file: str, e: Exception) -> Problem:
    if isinstance(e, MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        msg = e.problem or e.context or "invalid YAML"
        if "found character '\\t'" in str(e) or "\\t" in (e.problem or ""):
            msg = "tab characters are not allowed for indentation in YAML; use spaces"
        elif "duplicate key" in (e.problem or ""):
            msg = e.problem.split(" with value")[0].replace('"', "'")
        return Problem(_loc_of_mark(file, mark), f"YAML syntax: {msg}")
    return Problem(Loc(file, 1, 1), f"YAML: {e}")


def read_text(path: Path, display: str | None = None) -> str:
    """Read a UTF-8 text file under the size limit, or raise a located RulesetError."""
    name = display or str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise RulesetError(Problem(Loc(name, 0, 0), "file not found")) from None
    except OSError as e:
        raise RulesetError(Problem(Loc(name, 0, 0), f"cannot read file: {e.strerror}")) from None
    if len(raw) > MAX_FILE_BYTES:
        raise RulesetError(Problem(
            Loc(name, 1, 1),
            f"file is {len(raw)} bytes, over the limit of {MAX_FILE_BYTES} bytes"))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise RulesetError(Problem(
            Loc(name, line, col), f"invalid UTF-8 (byte 0x{raw[e.start]:02x}); save the file as UTF-8"
        )) from None


def load_yaml(path: str | Path, display: str | None = None, text: str | None = None) -> Doc:
    """Load one YAML file into plain data and a SourceMap; raise RulesetError on any problem."""
    path = Path(path)
    name = display or str(path)
    if text is None:
        text = read_text(path, name)
    try:
        tree = _yaml().load(io.StringIO(text))
    except (YAMLError, MarkedYAMLError) as e:
        raise RulesetError(_yaml_problem(name, e)) from None
    except Exception as e:  # ruamel raises a few plain exceptions on odd input
        raise RulesetError(Problem(Loc(name, 1, 1), f"YAML: {e}")) from None
    smap = SourceMap(name)
    lines = text.splitlines()
    errs = Collector()
    budget = [MAX_NODES]
    data = _plain(tree, (), smap, lines, errs, budget, set())
    errs.raise_if_any()
    smap.values.setdefault((), Loc(name, 1, 1))
    return Doc(name, data, smap)


def _block_indent(lines: list[str], start_line0: int) -> int:
    """Column (1-based) where the content of a block scalar starts."""
    for ln in lines[start_line0 + 1:]:
        if ln.strip():
            return len(ln) - len(ln.lstrip(" ")) + 1
    return 1


def _plain(node, path, smap, lines, errs, budget, active):
    budget[0] -= 1
    if budget[0] < 0:
        if budget[0] == -1:
            errs.add(smap.value(path[:1]),
                     f"document expands to more than {MAX_NODES} values (alias bomb?); refused")
        return None
    tag = getattr(node, "tag", None)
    tag_value = getattr(tag, "value", None) if tag is not None else None
    if tag_value and not tag_value.startswith("tag:yaml.org,2002:"):
        errs.add(smap.value(path), f"YAML tag {tag_value!r} is not allowed")
        return None
    if isinstance(node, CommentedMap):
        if id(node) in active:
            errs.add(smap.value(path), "recursive alias")
            return None
        active.add(id(node))
        out = {}
        for k in node:
            if not isinstance(k, (str, int, float, bool)) or isinstance(k, (CommentedMap, CommentedSeq)):
                errs.add(smap.value(path), "mapping keys must be plain scalars")
                continue
            sub = path + (k,)
            try:
                kl, kc = node.lc.key(k)
                smap.keys[sub] = Loc(smap.file, kl + 1, kc + 1)
                vl, vc = node.lc.value(k)
                smap.values[sub] = Loc(smap.file, vl + 1, vc + 1)
            except (KeyError, TypeError, AttributeError):
                pass
            v = node[k]
            _note_text(v, sub, smap, lines)
            out[str(k) if not isinstance(k, str) else k] = _plain(v, sub, smap, lines, errs, budget, active)
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
            _note_text(v, sub, smap, lines)
            out_l.append(_plain(v, sub, smap, lines, errs, budget, active))
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
    errs.add(smap.value(path), f"unsupported YAML value of type {type(node).__name__}")
    return None


def _note_text(v, sub, smap: SourceMap, lines: list[str]) -> None:
    if not isinstance(v, str) or sub not in smap.values:
        return
    loc = smap.values[sub]
    if isinstance(v, (LiteralScalarString, FoldedScalarString)):
        indent = _block_indent(lines, loc.line - 1)
        smap.texts[sub] = (loc.line + 1, indent, True)
    else:
        line = lines[loc.line - 1] if 0 < loc.line <= len(lines) else ""
        quoted = loc.col - 1 < len(line) and line[loc.col - 1] in "'\""
        smap.texts[sub] = (loc.line, loc.col + (1 if quoted else 0), False)


def load_ruleset_files(root: str | Path) -> list[Doc]:
    """Load `ruleset.yaml` of a ruleset directory and every file it includes, in order."""
    root = Path(root)
    main = root / "ruleset.yaml"
    if not main.is_file():
        raise RulesetError(Problem(Loc(str(main), 0, 0),
                                   "no ruleset.yaml here: a ruleset is a directory with a ruleset.yaml"))
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
    data = doc.data
    if not isinstance(data, dict):
        return
    incl = data.get("include")
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
        target = (path.parent / rel)
        rkey = target.resolve()
        if rkey in [s for s in stack] or rkey == key:
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
    except ValueError:
        return str(path)
