"""The per-player-count tables a game runs on, and the legal actions of a decision.

Pipeline position: engine. A Program is compiled once; `Table(program, n)` lays out the
zones and counters of an n-player game (per-player ones exist n times) and offers the few
lookups the VM and the built-ins need at run time, all by index, never by name.
"""

from __future__ import annotations

import re

from ..effects.codegen import _compile, hoist
from ..program import Program
from ..runtime.options import Option
from .decisions import STATIC_TYPES, value_id
from .flow import run_sync
from .state import State

_new = tuple.__new__  # Option(...) without the NamedTuple constructor's extra call
_ID = {  # the id of a value of each type, as generated code (value_id inline)
    "card": "('none' if {v} is None else _cid[{v}])",
    "kind": "('none' if {v} is None else _kid[{v}])",
    "loc": "('none' if {v} is None else _lid[{v}])",
    "player": "_pid(st, {v})",
}
_LOCAL = re.compile(r"L\.get\('(\w+)'\)")  # a local read in generated code


_FRAME = re.compile(r"(?<![\w.'])(?:L|fr)\b")  # generated code naming the frame or its locals


def _drop_unread_binds(lines: list, first: int, names: list) -> None:
    """Lines first.. are one action's options: when none of them but its own binding lines
    (`L['c'] = _v0`, `L.pop('c', None)`) names the frame or its locals (a test not written
    inline, a procedure given the caller's locals), the arguments live only in Python
    variables and those lines go: nothing else reads them."""
    own = {f"L[{n!r}] = _v{i}" for i, n in enumerate(names)} | {f"L.pop({n!r}, None)" for n in names}
    rest = [ln for ln in lines[first:] if ln.strip() not in own]
    if len(rest) == len(lines) - first or any(_FRAME.search(ln) for ln in rest):
        return
    lines[first:] = rest


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
        self.inst_ids = [prog.card_ids[k] for k in prog.card_def]  # card instance -> its card id
        self.name_zone = None  # player -> the zone whose card names the player
        if prog.player_name_zone is not None:
            j = prog.zone_defs[prog.player_name_zone].j
            self.name_zone = [prog.PB + p * prog.NPZ + j for p in range(n)]
        self.choose_opts: dict = {}  # value type -> value -> its option (ids that never change)
        self.side_fn = prog.side_fn
        self.end_fn = prog.end_fn
        self.end_reads_frame = prog.end_reads_frame
        self.start_state = None  # (zones, where, seen) before the setup: built by the first State.new
        self._groups: dict = {}  # group -> its generated enumeration function
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

    def legal_actions(self, st, pend) -> list:
        """Every legal (action id, args) for a pending `act` decision, in declaration order."""
        return [o.value for o in self.legal_options(st, pend)]

    def legal_options(self, st, pend) -> list:
        """The options of every legal action of a pending `act` decision, in declaration
        order (without `pass`)."""
        fn = self._groups.get(pend["g"]) or self._group_fn(pend["g"])
        return fn(st, [None, 0, {"me": pend["p"]}, None], [])

    def _group_fn(self, g: str):
        """One generated function enumerating the legal options of group g: every action's
        `when` parts and argument domains inline (effects/codegen.py texts), each part as
        soon as the args it names are bound. An option whose id depends on nothing but its
        action and arguments (cards, card ids, locations, numbers...) is built once per table."""
        env: dict = {"_mk": _option, "_cdef": self.card_def, "_new": _new, "_Option": Option,
                     "_cid": self.inst_ids, "_kid": self.card_ids, "_lid": self.loc_ids,
                     "_pid": self.player_id, "_vid": value_id}
        lines = ["def _legal(st, fr, out):", "    L = fr[2]", "    kinds = st.kinds", "    _me = L['me']"]
        bound = {"me": "_me"}  # locals that tests read through Python variables (tests never assign)

        def text(fn) -> str:
            gg = getattr(fn, "_g", None)
            if gg is None:
                name = f"_e{len(env)}"
                env[name] = fn
                return f"{name}(st, fr)"
            if gg[1]:
                env.update(gg[1])
            return _LOCAL.sub(lambda m: bound.get(m.group(1), m.group(0)), gg[0])

        def const(v) -> str:
            name = f"_e{len(env)}"
            env[name] = v
            return name

        for aid in self.groups.get(g, ()):
            a = self.actions[aid]
            first = len(lines)
            tests = []
            if a.once:
                tests.append(f"{a.kind!r} not in kinds")
            if a.conds[0] is not None:
                tests.append(text(a.conds[0]))
            ind = "    "
            if tests:
                lines.append(ind + "if " + " and ".join(f"({t})" for t in tests) + ":")
                ind += "    "
            nargs = len(a.arg_names)
            if nargs == 0:
                lines.append(ind + f"out.append({const(_new(Option, (aid, 'action-' + aid, (), (aid, ()))))})")
                continue
            static = all(t in STATIC_TYPES for t in a.arg_types)
            cache = const({}) if static else None
            types = const(tuple(a.arg_types))
            pops = []
            for i, (name, dom, t) in enumerate(zip(a.arg_names, a.arg_fns, a.arg_types)):
                v = f"_v{i}"
                if t == "card":  # copies of one card are one option
                    lines.append(ind + f"_s{i} = set()")
                lines.append(ind + f"for {v} in ({text(dom)} or ()):")
                ind += "    "
                if t == "card":
                    lines += [ind + f"if _cdef[{v}] in _s{i}:", ind + "    continue", ind + f"_s{i}.add(_cdef[{v}])"]
                lines.append(ind + f"L[{name!r}] = {v}")
                bound[name] = v
                pops.append((ind[:-4], name))
                cond = a.conds[i + 1] if i + 1 < len(a.conds) else None
                if cond is not None:
                    lines.append(ind + f"if {text(cond)}:")
                    ind += "    "
                if cache is None:  # the id so far, once per value of this argument
                    prev = repr(aid + ":") if i == 0 else f"_p{i - 1} + ','"
                    lines.append(ind + f"_p{i} = {prev} + " + _ID.get(t, "_vid(st, {v}, %r)" % t).format(v=v))
            args = "(" + ", ".join(f"_v{i}" for i in range(nargs)) + ",)"
            if cache is not None:  # keyed by the value itself when there is one argument
                key = "_v0" if nargs == 1 else args
                lines += [ind + f"o = {cache}.get({key})",
                          ind + "if o is None:",
                          ind + f"    o = {cache}[{key}] = _mk(st, {aid!r}, {args}, {types})",
                          ind + "out.append(o)"]
            else:  # the id written inline, by type
                lines.append(ind + f"_a = {args}")
                lines.append(ind + f"out.append(_new(_Option, (_p{nargs - 1}, {'action-' + aid!r}, "
                             f"_a, ({aid!r}, _a))))")
            for pind, name in reversed(pops):
                lines.append(pind + f"L.pop({name!r}, None)")
                bound.pop(name, None)
            _drop_unread_binds(lines, first, [name for _, name in pops])
        lines.append("    return out")
        held, body = hoist(lines[4:])
        ns = env
        exec(_compile("\n".join(lines[:4] + held + body) + "\n"), ns)  # noqa: S102 - text built from compiled tests
        fn = self._groups[g] = ns["_legal"]
        return fn

    def blank_state(self) -> State:
        """A State of this table with nothing set yet (a saved game is read into it)."""
        return State.__new__(State)

    def player_id(self, st, p) -> str:
        """The id a player is called by: its naming card's id, or pN."""
        if p is None:
            return "none"
        if self.name_zone is not None:
            zz = st.zones[self.name_zone[p]]
            if zz:
                return self.inst_ids[zz[0]]
        return f"p{p + 1}"

    def side_of(self, st, p) -> str | None:
        return self.side_fn(st, p)


def _sync_runner(code_id: str):
    def run(st):
        run_sync(st, code_id, {"me": st.current})
    return run
