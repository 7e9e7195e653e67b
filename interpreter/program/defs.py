"""What a compiled ruleset declares: zones, counters, actions and end conditions.

Pipeline position: program (program/), the plain records the layout (layout.py) and the
compilation (core.py, actions.py) fill in and the engine's tables (engine/table.py) read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..frontend.model import Item

VIS = {"public": 0, "owner": 1, "hidden": 2}


@dataclass
class ZoneDef:
    name: str
    per: str
    j: int
    vis: int
    capacity: int | None
    item: Item
    on_empty: str | None = None


@dataclass
class CounterDef:
    name: str
    per: str
    j: int
    min: int
    max: int
    initial: Any
    reset: str | None
    vis: int
    item: Item


@dataclass
class ActionDef:
    id: str
    group: str
    kind: str
    once: bool
    free: bool
    private: bool
    arg_names: list
    arg_fns: list
    arg_types: list
    when: Any
    code_id: str
    item: Item
    conds: list = field(default_factory=list)  # per number of bound args: the test to pass then
    public: bool = False  # the log shows its cards to everyone (played face up, then discarded)


@dataclass
class EndDef:
    id: str
    when: Any
    winners: list
    item: Item
