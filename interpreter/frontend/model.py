"""Stage 4 of the pipeline: validated documents -> one Ruleset (the merged, typed model).

Every declared thing (param, counter, zone, card, location, procedure, action, trigger,
modifier, end condition) becomes an `Item` that remembers the document and path it was
written at, so every later stage can report problems at the right line of the right file.
Duplicate ids across files are reported here. Nothing here runs or compiles effects.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import Collector, Loc
from .yaml_source import Doc

SECTIONS_BY_ID = ("params", "counters", "zones", "cards", "locations", "procedures", "actions")
SECTIONS_LIST = ("triggers", "modifiers", "end")
SECTIONS_CODE = ("setup", "turn", "side_of")
SECTIONS_OTHER = ("sides", "player_name", "turn_order", "evaluate", "search", "stats", "policy")
SIGNATURE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\(\s*([^)]*)\))?\s*$")

MAX_PLAYERS = 62  # players.max in the schema: a card's visibility has one bit per seat
MAX_COPIES = 10_000  # a card's count in the schema
MAX_CARDS = 100_000  # the copies of all cards together (lint says where the deck passes it)


@dataclass
class Item:
    """One declared thing and where it was written."""

    id: str
    value: Any
    doc: Doc
    path: tuple
    # variants that changed this item, in order: (doc, path in that doc, sub-path of the item)
    layers: list = field(default_factory=list)

    def where(self, sub: tuple = ()) -> tuple[Doc, tuple]:
        """The document and path that last set the value at `sub` (variants win)."""
        sub = tuple(sub)
        for doc, path, prefix in reversed(self.layers):
            if sub[:len(prefix)] == prefix:
                full = path + sub[len(prefix):]
                if full in doc.source.values:
                    return doc, full
        return self.doc, self.path + sub

    def loc(self, *sub) -> Loc:
        """Where the value (or a part of it) was written."""
        doc, path = self.where(tuple(sub))
        return doc.source.value(path)

    def chain(self, sub: tuple = ()) -> list[tuple[Loc, Any]]:
        """Every place that set the value at `sub`: the base first, then each variant."""
        out = []
        if self.path + tuple(sub) in self.doc.source.values or not sub:
            out.append(self.doc.source.value(self.path + tuple(sub)))
        for doc, path, prefix in self.layers:
            if tuple(sub)[:len(prefix)] == prefix:
                full = path + tuple(sub)[len(prefix):]
                if full in doc.source.values:
                    out.append(doc.source.value(full))
        return out

    def key_loc(self) -> Loc:
        """Where the key naming this item was written."""
        return self.doc.source.key(self.path)

    def get(self, key: str, default=None):
        return self.value.get(key, default) if isinstance(self.value, dict) else default


@dataclass
class Ruleset:
    """The merged model of a ruleset: every section by id, each entry located."""

    id: str = ""
    version: str = ""
    title: str = ""
    min_players: int = 1
    max_players: int = 8
    max_turns: int = 1000
    root: str = ""
    params: dict[str, Item] = field(default_factory=dict)
    counters: dict[str, Item] = field(default_factory=dict)
    zones: dict[str, Item] = field(default_factory=dict)
    cards: dict[str, Item] = field(default_factory=dict)
    locations: dict[str, Item] = field(default_factory=dict)
    procedures: dict[str, Item] = field(default_factory=dict)
    actions: dict[str, Item] = field(default_factory=dict)
    triggers: list[Item] = field(default_factory=list)
    modifiers: list[Item] = field(default_factory=list)
    end: list[Item] = field(default_factory=list)
    setup: Item | None = None
    turn: Item | None = None
    side_of: Item | None = None
    sides: list[str] = field(default_factory=list)
    player_name: str | None = None
    turn_order: Item | None = None
    evaluate: Item | None = None
    search: Item | None = None
    stats: Item | None = None
    policy: Item | None = None  # how policy bots score options (program/policy.py)
    table: Item | None = None  # what a seat sees (interpreter/tabletop/spec.py reads it)
    docs: list[Doc] = field(default_factory=list)
    data: dict = field(default_factory=dict)  # the merged plain data (for hashing, diff, explain)
    variants: list = field(default_factory=list)  # ids of the variants applied, in order

    @property
    def hash(self) -> str:
        """A stable hash of the merged rules: saves made on other rules are refused."""
        blob = json.dumps(self.data, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


TYPE_NAMES = {"int": "int", "bool": "bool", "str": "str", "card": "card", "kind": "kind",
              "player": "player", "location": "loc", "loc": "loc", "zone": "zone", "any": "any"}


def parse_typed_signature(key: str) -> tuple[str, list[str], list[str]] | None:
    """Split `heal(p: player, n)` into ("heal", ["p", "n"], ["player", "any"]); None if malformed."""
    m = SIGNATURE.match(key)
    if not m:
        return None
    names, types = [], []
    for a in (m.group(2) or "").split(","):
        if not a.strip():
            continue
        name, _, t = a.partition(":")
        name, t = name.strip(), t.strip() or "any"
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
            return None
        base = t[5:] if t.startswith("list:") else t
        if base not in TYPE_NAMES:
            return None
        names.append(name)
        types.append(("list:" + TYPE_NAMES[base]) if t.startswith("list:") else TYPE_NAMES[base])
    return m.group(1), names, types


def proc_key(item: Item) -> str:
    """A procedure's key as last written, `name(arg, ...)`: its signature. A variant that merges
    `f(p, q)` over a base `f()` changes it (the item's own path keeps the base's key); a variant
    that names it bare, `f:`, replaces its body and keeps the signature it had."""
    for doc, path, prefix in reversed(item.layers):
        if not prefix and len(path) == 3 and path[:2] == ("merge", "procedures") and "(" in str(path[-1]):
            return path[-1]
    return item.path[-1] if item.path and isinstance(item.path[-1], str) else item.id


def parse_signature(key: str) -> tuple[str, list[str]] | None:
    """Split `heal(p, n)` into ("heal", ["p", "n"]); None if malformed."""
    sig = parse_typed_signature(key)
    return None if sig is None else (sig[0], sig[1])


def build_ruleset(docs: list[Doc], root: str = "") -> tuple[Ruleset, list]:
    """Merge the loaded documents into a Ruleset; return it with the problems found."""
    errs = Collector()
    rs = Ruleset(docs=docs, root=root)
    merged: dict = {}
    first: dict[tuple, Item] = {}
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        if doc is docs[0]:
            rs.id = str(data.get("ruleset", ""))
            rs.version = str(data.get("version", ""))
            rs.title = str(data.get("title", rs.id))
            pl = data.get("players") or {}
            if isinstance(pl, dict):
                # the schema refuses more (one visibility bit per seat); checks loop over the counts
                rs.min_players = min(int(pl.get("min", 1) or 1), MAX_PLAYERS)
                rs.max_players = min(int(pl.get("max", rs.min_players) or rs.min_players), MAX_PLAYERS)
            rs.max_turns = int(data.get("max_turns", 1000) or 1000)
        for sec in SECTIONS_BY_ID:
            entries = data.get(sec)
            if not isinstance(entries, dict):
                continue
            target = getattr(rs, sec)
            for key, val in entries.items():
                ident = key
                if sec == "procedures":
                    sig = parse_signature(key)
                    if sig is None:
                        errs.add(doc.source.key((sec, key)),
                                 f"procedure name {key!r} must look like name(arg, arg)")
                        continue
                    ident = sig[0]
                item = Item(ident, val, doc, (sec, key))
                prev = first.get((sec, ident))
                if prev is not None:
                    errs.add(item.key_loc(),
                             f"{sec[:-1]} {ident!r} is defined twice (first at {prev.key_loc()})")
                    continue
                first[(sec, ident)] = item
                target[ident] = item
                merged.setdefault(sec, {})[key] = val
        for sec in SECTIONS_LIST:
            entries = data.get(sec)
            if isinstance(entries, list):
                for i, val in enumerate(entries):
                    ident = val.get("id", f"{sec}{len(getattr(rs, sec))}") if isinstance(val, dict) else str(i)
                    getattr(rs, sec).append(Item(str(ident), val, doc, (sec, i)))
                    merged.setdefault(sec, []).append(val)
        for sec in SECTIONS_CODE + ("turn_order", "evaluate", "search", "stats", "policy", "table"):
            if sec in data:
                if getattr(rs, sec) is not None:
                    prev = getattr(rs, sec)
                    errs.add(doc.source.key((sec,)), f"{sec!r} is defined twice (first at {prev.key_loc()})")
                    continue
                setattr(rs, sec, Item(sec, data[sec], doc, (sec,)))
                merged[sec] = data[sec]
        if "sides" in data and isinstance(data["sides"], list):
            rs.sides.extend(str(s) for s in data["sides"])
            merged.setdefault("sides", []).extend(data["sides"])
        if "player_name" in data:
            rs.player_name = data["player_name"]
            merged["player_name"] = data["player_name"]
    # one value namespace for bare names in effects
    owners: dict[str, str] = {}
    for sec in ("params", "counters", "zones", "cards", "locations", "procedures"):
        for ident, item in getattr(rs, sec).items():
            if ident in owners and owners[ident] != sec:
                errs.add(item.key_loc(), f"{ident!r} names both a {owners[ident][:-1]} and a {sec[:-1]}")
            owners.setdefault(ident, sec)
    rs.data = {"ruleset": rs.id, "version": rs.version, **merged}
    return rs, errs.problems
