"""Variants held to the schema of base files: what a variant merges or patches in is checked
against the same JSON Schema as the ruleset it changes, at the variant's own lines.

Pipeline position: stage 2 (overlay), after every variant is applied and before the merged
rules are compiled. A base file is checked as it is read; a variant's `merge:` and `patch:`
values only become whole entries once they meet the base, so each entry a variant touched is
checked merged (a card patched with a misspelled key, a new counter without its bounds), and a
problem is reported where the variant wrote the part at fault. Problems in parts the variant
did not write were reported with the base already.

Params are the exception that proves it: a variant may change a param but not add one. A
param only the variant names is read by nothing in the base, so it is nearly always a typo of
a real one (which then stays unchanged); it is an error, with the nearest real name.
"""

from __future__ import annotations

import difflib

from ..errors import Loc, Problem, dedupe
from ..frontend.model import SECTIONS_BY_ID, SECTIONS_LIST, Item, Ruleset, proc_key
from ..frontend.source_map import SourceMap
from ..frontend.yaml_source import Doc

SINGLE = ("setup", "turn", "side_of", "turn_order", "evaluate", "search", "stats")


class _MergedSource(SourceMap):
    """Positions of a merged section: each part where the file that last wrote it has it."""

    def __init__(self, sec: str, items: dict):
        super().__init__("<merged>")
        self._sec, self._items = sec, items

    def _where(self, path: tuple, key: bool) -> Loc:
        path = tuple(path)
        if len(path) < 2 or path[0] != self._sec or path[1] not in self._items:
            item = next(iter(self._items.values()))
            return item.doc.source.value(item.path)
        item: Item = self._items[path[1]]
        sub = path[2:]
        doc, p = item.where(sub)
        return doc.source.key(p) if key else doc.source.value(p)

    def value(self, path: tuple) -> Loc:
        """Where the value at `path` was last written."""
        return self._where(path, False)

    def key(self, path: tuple) -> Loc:
        """Where the key at `path` was last written."""
        return self._where(path, True)


def _touched(rs: Ruleset, variant_docs: set) -> dict[str, dict]:
    """Per section, the entries a variant wrote or changed (key -> Item)."""
    out: dict[str, dict] = {}
    for sec in SECTIONS_BY_ID:
        for k, it in getattr(rs, sec).items():
            if it.layers or id(it.doc) in variant_docs:
                out.setdefault(sec, {})[proc_key(it) if sec == "procedures" else k] = it
    for sec in SECTIONS_LIST:
        items = getattr(rs, sec)
        if any(it.layers or id(it.doc) in variant_docs for it in items):
            out[sec] = {i: it for i, it in enumerate(items)}
    for sec in SINGLE:
        it = getattr(rs, sec)
        if it is not None and (it.layers or id(it.doc) in variant_docs):
            out[sec] = {None: it}
    return out


def variant_problems(rs: Ruleset, docs: list[Doc], base_params: set) -> list[Problem]:
    """Check what the variants `docs` (already applied to rs) wrote; return the problems."""
    from ..frontend.validate import _problems, validator
    ids = {id(d) for d in docs}
    files = {d.path for d in docs}
    problems: list[Problem] = []
    for name, it in rs.params.items():
        if name not in base_params and id(it.doc) in ids:
            close = difflib.get_close_matches(name, sorted(base_params), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            problems.append(Problem(it.doc.source.key(it.path), f"unknown param '{name}'{hint}: a "
                                    f"variant changes the base's params, it cannot add one"))
    v = validator("ruleset")
    for sec, items in _touched(rs, ids).items():
        schema = v.schema["properties"].get(sec)
        if schema is None:
            continue
        if sec in SECTIONS_LIST:
            data = {sec: [it.value for it in items.values()]}
        elif sec in SINGLE:
            data = {sec: items[None].value}
            items = {}
        else:
            data = {sec: {k: it.value for k, it in items.items()}}
        doc = Doc("<merged>", data, _MergedSource(sec, items) if items else _SingleSource(sec, rs))
        check = v.evolve(schema={"type": "object", "properties": {sec: schema}})
        for e in check.iter_errors(data):
            for p in _problems(e, doc, "ruleset"):
                if p.loc.file in files:
                    problems.append(p)
    return dedupe(sorted(problems, key=lambda p: (p.loc.file, p.loc.line, p.loc.col)))


class _SingleSource(SourceMap):
    """Positions inside a single section (setup, turn, turn_order, ...)."""

    def __init__(self, sec: str, rs: Ruleset):
        super().__init__("<merged>")
        self._item: Item = getattr(rs, sec)

    def value(self, path: tuple) -> Loc:
        """Where the value at `path` was last written."""
        doc, p = self._item.where(tuple(path)[1:])
        return doc.source.value(p)

    def key(self, path: tuple) -> Loc:
        """Where the key at `path` was last written."""
        doc, p = self._item.where(tuple(path)[1:])
        return doc.source.key(p)
