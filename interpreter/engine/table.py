"""The per-player-count tables a game runs on, and the legal actions of a decision.

Pipeline position: engine. A Program is compiled once; `Table(program, n)` lays out the
zones and counters of an n-player game (per-player ones exist n times) and offers the few
lookups the VM and the built-ins need at run time, all by index, never by name.
"""

from __future__ import annotations

from ..program import Program
from .decisions import value_id
from .state import Option

_new = tuple.__new__  # Option(...) without the NamedTuple constructor's extra call
STATIC_TYPES = frozenset({"card", "kind", "loc", "bool", "int", "str"})  # ids that never change


def _option(st, aid: str, args: tuple, types) -> Option:
    """The option of action aid with args: id `action:arg,arg`."""
    oid = aid + ":" + ",".join([value_id(st, v, t) for v, t in zip(args, types)])
    return _new(Option, (oid, "action-" + aid, args, (aid, args)))


class Table:
    """Runtime layout of an n-player game of one Program."""

    def __init__(self, prog: Program, n: int):
        self.prog = prog
        self.n = n
        self.codes = prog.codes
        self.actions = prog.actions
        self.groups = prog.groups
        self.card_def = prog.card_def
        self.kind_instances = prog.kind_instances
        self.card_ids = prog.card_ids
        self.loc_ids = prog.loc_ids
        self.kind_hooks = prog.kind_hooks
        self.loc_hooks = prog.loc_hooks
        self.triggers = prog.triggers
        self.player_name_zone = prog.player_name_zone
        self.max_turns = prog.rs.max_turns
        self.side_fn = prog.side_fn
        self.end_fn = prog.end_fn
        self._groups: dict[str, list] = {}
        L = len(prog.loc_ids)
        self.zone_vis, self.zone_owner, self.zone_capacity = [], [], []
        self.zone_base_name, self.zone_label, self.zone_on_empty, self.zone_loc = [], [], [], []
        order = ([(zd, None, None) for zd in prog.zone_defs.values() if zd.per == "none"]
                 + [(zd, li, None) for li in range(L) for zd in prog.zone_defs.values() if zd.per == "location"]
                 + [(zd, None, p) for p in range(n) for zd in prog.zone_defs.values() if zd.per == "player"])
        # the order above matches the index arithmetic of the compiler: global, location, player
        for zd, li, p in order:
            self.zone_vis.append(zd.vis)
            self.zone_owner.append(-1 if p is None else p)
            self.zone_loc.append(li)
            self.zone_capacity.append(zd.capacity)
            self.zone_base_name.append(zd.name)
            self.zone_label.append((zd.name, li, p))
            self.zone_on_empty.append(_sync_runner(f"zone:{zd.name}:on_empty") if zd.on_empty else None)
        self.NZ = len(order)
        self.ctr_init, self.ctr_label, self.ctr_vis, self.ctr_owner = [], [], [], []
        corder = ([(cd, None, None) for cd in prog.counter_defs.values() if cd.per == "none"]
                  + [(cd, li, None) for li in range(L) for cd in prog.counter_defs.values() if cd.per == "location"]
                  + [(cd, None, p) for p in range(n) for cd in prog.counter_defs.values() if cd.per == "player"])
        self.reset_turn: list[tuple[int, int]] = []
        for i, (cd, li, p) in enumerate(corder):
            init = cd.initial
            if isinstance(init, str):
                init = prog.param_value(init, n)
            init = max(cd.min, min(cd.max, int(init)))
            self.ctr_init.append(init)
            self.ctr_label.append((cd.name, li, p))
            self.ctr_vis.append(cd.vis)
            self.ctr_owner.append(-1 if p is None else p)
            if cd.reset == "turn":
                self.reset_turn.append((i, init))
        # where every card starts: the zone whose `holds` names its set
        self.start_zone: dict[str, int] = {}
        for z, (zd, li, p) in enumerate(order):
            holds = zd.item.get("holds") or []
            for s in holds:
                if li is None and p is None:
                    self.start_zone.setdefault(str(s), z)

    def _group(self, g: str) -> list:
        """The actions of group g as tuples of what enumeration reads (no attribute lookups
        per action on the hot path), with the options that never change prebuilt."""
        ents = self._groups.get(g)
        if ents is None:
            ents = self._groups[g] = []
            for aid in self.groups.get(g, ()):
                a = self.actions[aid]
                t0 = a.arg_types[0] if a.arg_types else None
                ents.append((aid, a, a.kind if a.once else None, a.conds[0], len(a.arg_names),
                             a.arg_names[0] if a.arg_names else None, a.conds[1] if len(a.conds) > 1 else None,
                             a.arg_fns[0] if a.arg_fns else None, t0 == "card",
                             _new(Option, (aid, "action-" + aid, (), (aid, ()))),
                             {} if t0 in STATIC_TYPES else None, t0))
        return ents

    def legal_actions(self, st, pend) -> list:
        """Every legal (action id, args) for a pending `act` decision, in declaration order."""
        return [o.value for o in self.legal_options(st, pend)]

    def legal_options(self, st, pend) -> list:
        """The options of every legal action of a pending `act` decision, in declaration
        order (without `pass`). An option whose id depends on nothing but its action and
        argument (a card, a card id, a location, a number...) is built once per table."""
        out: list = []
        kinds = st.kinds
        loc = {"me": pend["p"]}
        fr = [None, 0, loc, None]
        card_def = self.card_def
        group = self._groups.get(pend["g"]) or self._group(pend["g"])
        for aid, a, once_kind, c0, nargs, name, c1, dom, by_kind, opt0, cache, t0 in group:
            if once_kind is not None and once_kind in kinds:
                continue
            if c0 is not None and not c0(st, fr):
                continue
            if nargs == 0:
                out.append(opt0)
            elif nargs == 1:  # the common case, without recursion
                vals = dom(st, fr) or ()
                seen = set() if by_kind else None  # copies of one card are one option
                for v in vals:
                    if seen is not None:
                        k = card_def[v]
                        if k in seen:
                            continue
                        seen.add(k)
                    loc[name] = v
                    if c1 is None or c1(st, fr):
                        if cache is not None:
                            o = cache.get(v)
                            if o is None:
                                o = cache[v] = _option(st, aid, (v,), a.arg_types)
                        else:
                            o = _option(st, aid, (v,), a.arg_types)
                        out.append(o)
                loc.pop(name, None)
            else:
                _enumerate(st, a, 0, loc, fr, out, card_def)
        return out

    def side_of(self, st, p) -> str | None:
        return self.side_fn(st, p)


def _enumerate(st, a, i, loc, fr, out, card_def) -> None:
    cond = a.conds[i] if i else None  # level 0 was checked by legal_actions
    if cond is not None and not cond(st, fr):
        return
    if i == len(a.arg_names):
        out.append(_option(st, a.id, tuple(loc[n] for n in a.arg_names), a.arg_types))
        return
    name = a.arg_names[i]
    vals = a.arg_fns[i](st, fr) or []
    if a.arg_types[i] == "card":
        seen = set()
        uniq = []
        for c in vals:
            k = card_def[c]
            if k not in seen:
                seen.add(k)
                uniq.append(c)
        vals = uniq
    for v in vals:
        loc[name] = v
        _enumerate(st, a, i + 1, loc, fr, out, card_def)
    loc.pop(name, None)


def _sync_runner(code_id: str):
    def run(st):
        from .flow import run_sync
        run_sync(st, code_id, {"me": st.current})
    return run
