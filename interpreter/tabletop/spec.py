"""The ruleset's `table:` section read into a TableSpec: what a seat sees at the table.

Pipeline position: after compile (it needs the program's zones, counters and locations), before
any display. `table_spec(program)` returns the declared spec, or, for a ruleset without the
section, a default built from visibility: public zones and counters on the board, per-player
public ones in each player's status, owner-only ones as the seat's private part, hidden zones
as sizes, and counters reset every turn (bookkeeping) left out. `table_problems(program)`
checks a declared section against the ruleset, located at the line that names the mistake.
Nothing here knows a game: the ruleset names what is shown.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Problem

PUBLIC, OWNER, HIDDEN = 0, 1, 2
KINDS = ("zones", "sizes", "counters", "tracks", "flags")
DEFAULT_LOG = 8


@dataclass
class Part:
    """One panel: zones shown, zones counted, counters as numbers, tracks and flags."""

    id: str = ""
    locations: list[str] | None = None  # a board group drawn once per location
    extra: dict = field(default_factory=dict)  # location -> Part of what only its box adds
    zones: list[str] = field(default_factory=list)
    sizes: list[str] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)
    tracks: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    location: bool = False  # players: show where each one stands


@dataclass
class TableSpec:
    """The board groups, each player's public status, the seat's private part."""

    board: list[Part]
    players: Part
    private: Part
    log: int = DEFAULT_LOG
    declared: bool = False


def _part(d: dict, pid: str = "", locs=None) -> Part:
    p = Part(id=pid, locations=locs)
    for k in KINDS:
        setattr(p, k, [str(x) for x in d.get(k) or []])
    return p


def table_spec(program) -> TableSpec:
    """The spec of a compiled program: its `table:` section, or the default from visibility."""
    cached = getattr(program, "_table_spec", None)
    if cached is not None:
        return cached
    item = program.rs.table
    if item is None or not isinstance(item.value, dict):
        spec = default_spec(program)
    else:
        v = item.value
        board = []
        for g in v.get("board") or []:
            locs = g.get("locations")
            if locs == "all":
                locs = list(program.loc_ids)
            part = _part(g, str(g.get("id", "")), None)
            if locs:
                part.locations = [x["location"] if isinstance(x, dict) else str(x) for x in locs]
                part.extra = {x["location"]: _part(x) for x in locs if isinstance(x, dict)}
            board.append(part)
        players = _part(v.get("players") or {})
        players.location = bool((v.get("players") or {}).get("location", bool(program.loc_ids)))
        spec = TableSpec(board, players, _part(v.get("private") or {}), int(v.get("log", DEFAULT_LOG)), True)
    program._table_spec = spec
    return spec


def default_spec(program) -> TableSpec:
    """What a ruleset without a `table:` section shows, from zone and counter visibility."""
    zones, counters = program.zone_defs.values(), program.counter_defs.values()
    shown = [c for c in counters if c.reset != "turn" and c.vis == PUBLIC]

    def pick(per):
        return ([z.name for z in zones if z.per == per and z.vis == PUBLIC],
                [z.name for z in zones if z.per == per and z.vis != PUBLIC],
                [c.name for c in shown if c.per == per])

    gz, gs, gc = pick("none")
    lz, ls, lc = pick("location")
    board = [Part(id="board", zones=gz, sizes=gs, counters=gc)]
    if program.loc_ids and (lz or ls or lc):
        board.append(Part(id="locations", locations=list(program.loc_ids), zones=lz, sizes=ls, counters=lc))
    pz, ps, pc = pick("player")
    players = Part(zones=pz, sizes=ps, counters=pc, location=bool(program.loc_ids))
    private = Part(zones=[z.name for z in zones if z.per == "player" and z.vis == OWNER],
                   counters=[c.name for c in counters if c.per == "player" and c.vis == OWNER
                             and c.reset != "turn"])
    return TableSpec(board, players, private)


def table_problems(program) -> list[Problem]:
    """Every mistake of a declared `table:` section, located (an unknown name, a hidden zone shown)."""
    item = program.rs.table
    if item is None or not isinstance(item.value, dict):
        return []
    out: list[Problem] = []
    v = item.value

    def bad(path, msg):
        out.append(Problem(item.loc(*path), msg))

    for gi, g in enumerate(v.get("board") or []):
        locs = g.get("locations")
        pers = ("none", "location") if locs else ("none",)
        for li, x in enumerate(locs if isinstance(locs, list) else []):
            lid, here = (x.get("location"), ("board", gi, "locations", li, "location")) if isinstance(x, dict) \
                else (x, ("board", gi, "locations", li))
            if lid not in program.loc_index:
                bad(here, f"no location {lid!r} in this ruleset (its locations: "
                          f"{', '.join(program.loc_ids) or 'none'})")
            if isinstance(x, dict):
                _check_names(program, x, ("board", gi, "locations", li), pers, "the board", bad)
        _check_names(program, g, ("board", gi), pers, "the board", bad)
    for part in ("players", "private"):  # per-player things: an owner-only one shows to its owner
        _check_names(program, v.get(part) or {}, (part,), ("player",), part, bad)
    return out


def _check_names(program, d: dict, path: tuple, pers: tuple, where: str, bad) -> None:
    where_per = " or ".join({"none": "global", "location": "per location", "player": "per player"}[p]
                            for p in pers)
    for kind in KINDS:
        for i, name in enumerate(d.get(kind) or []):
            here = path + (kind, i)
            defs = program.zone_defs if kind in ("zones", "sizes") else program.counter_defs
            what = "zone" if kind in ("zones", "sizes") else "counter"
            x = defs.get(name)
            if x is None:
                known = ", ".join(sorted(defs)) or "none"
                bad(here, f"no {what} {name!r} in this ruleset (its {what}s: {known})")
                continue
            if x.per not in pers:
                hint = " (add `locations:` to the group)" if x.per == "location" and where == "the board" else ""
                bad(here, f"{what} {name!r} is per {x.per if x.per != 'none' else 'game'}; "
                          f"{where} shows {where_per} {what}s here{hint}")
                continue
            if kind == "sizes":
                continue  # how many cards a zone holds is known to everyone
            # (the view decides what each seat reads; these checks catch a panel that would
            # only ever show face-down cards, or a number nobody at the table may read)
            if what == "zone" and x.vis == HIDDEN:
                bad(here, f"zone {name!r} is hidden: its cards would all be face down; "
                          "list it under sizes: to show how many cards it holds")
            elif what == "counter" and (x.vis == HIDDEN or (x.vis == OWNER and "player" not in pers)):
                vis = "hidden" if x.vis == HIDDEN else "seen by its owner only"
                bad(here, f"counter {name!r} is {vis}: {where} may not show it")
