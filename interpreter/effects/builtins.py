"""The built-in functions of the effect language: one table from names to primitives.

Adding a primitive is one function plus one `fn(...)` line in the table (STYLE habit 3). Each
entry declares its parameters with types, so the compiler checks arity and types before
play; the implementation receives plain values (`st` first when it touches the state).
Blocking built-ins (choose, act, window, run, emit) compile to VM instructions instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import ops
from . import ast as A
from . import patterns
from .blocking import (  # the blocking built-ins, registered in the table below
    _ident,
    stmt_act,
    stmt_choose,
    stmt_choose_many,
    stmt_emit,
    stmt_run,
    stmt_window,
)
from .codegen import EMPTY, combine, simple, tag, tagged
from .compile import CheckError
from .types import accepts, elem, is_list, show

REQ = object()  # marks a required parameter
NOARG = object()  # an optional parameter left out (the implementation sees this sentinel)


@dataclass
class Builtin:
    name: str
    params: list  # [(name, type, default)]; type "ident" = a bare word; "*any" = varargs
    ret: object  # a type string, or a function of the argument types
    impl: Callable | None = None
    state: bool = True  # impl takes the state first
    blocking: bool = False
    stmt: Callable | None = None  # for blocking built-ins: compile to instructions

    def bind(self, comp, call: A.Call, src, scope):
        """Check arity, kwargs and types; return [(fn or const, type)] in parameter order."""
        params = self.params
        vararg = params and params[-1][1].startswith("*")
        fixed = params[:-1] if vararg else params
        out = []
        args = list(call.args)
        if len(args) > len(fixed) and not vararg:
            comp.problem(src, call, f"{self.name}() takes {_arity(fixed)} argument"
                         f"{'s' if len(fixed) != 1 else ''}, found {len(args)}")
            raise CheckError
        for k in call.kwargs:
            if not any(p[0] == k for p in fixed):
                names = ", ".join(p[0] for p in fixed) or "none"
                line, col = call.kwpos.get(k, (call.line, call.col))
                comp.errs.add(src.loc(line, col),
                              f"{self.name}() has no parameter {k!r} (parameters: {names})")
                raise CheckError
        for i, (pname, ptype, default) in enumerate(fixed):
            if i < len(args):
                node = args[i]
            elif pname in call.kwargs:
                node = call.kwargs[pname]
            elif default is REQ:
                comp.problem(src, call, f"{self.name}() needs {_arity(fixed)} argument"
                             f"{'s' if len(fixed) != 1 else ''}: missing {pname!r}")
                raise CheckError
            else:
                out.append((tagged(_const(default), comp.namer.const(default)), _type_of_const(default)))
                continue
            out.append(_arg(comp, node, ptype, src, scope, self.name))
        if vararg:
            vt = params[-1][1][1:]
            for node in args[len(fixed):]:
                out.append(_arg(comp, node, vt, src, scope, self.name))
        return out

    def make_expr(self, comp, call, src, scope):
        fn, ret = self._make_expr(comp, call, src, scope)
        return fn, ret

    def _make_expr(self, comp, call, src, scope):
        bound = self.bind(comp, call, src, scope)
        types = [t for _, t in bound]
        ret = self.ret(types) if callable(self.ret) else self.ret
        fns = [f for f, _ in bound]
        impl = self.impl
        gs = [comp.g(f) for f in fns]
        inline = INLINE.get(self.name)
        if self.name == "has" and len(gs) == 2:  # any card of id k in zone z, in C
            gs.append(comp.namer.const(comp.p.card_def))
            inline = (3, "({1} in map({2}.__getitem__, st.zones[{0}]))")
        if (self.name in ("any", "all") and len(call.args) == 1 and isinstance(call.args[0], A.Comprehension)
                and gs[0][0].startswith("[") and gs[0][0].endswith("]") and not _calls(call.args[0], IMPURE)):
            # over a comprehension that changes nothing: a generator, which stops at the answer
            gs[0] = ("(" + gs[0][0][1:-1] + ")", gs[0][1], gs[0][2])
        if self.name == "count" and len(call.args) == 1 and not call.kwargs:
            inline = (2, "len({0})")  # count(xs) without x is len(xs)
        if self.name == "side" and len(gs) == 1 and comp.p.side_g is not None and simple(gs[0][0]):
            # the side_of expression itself, of this variable
            sg = comp.p.side_g
            default = comp.p.sides[0] if comp.p.sides else None
            text = _V_P.sub(lambda m: gs[0][0], sg[0])
            gs.append((text, sg[1], sg[2]))
            inline = (2, "(%r if {0} is None else {1})" % default)
        elif self.name == "side" and len(gs) == 1 and comp.p.side_fn is not None:
            gs.append(comp.namer.const(comp.p.side_fn))  # the side_of function, called directly
            inline = (2, "{1}(st, {0})")
        if inline is not None and len(gs) == inline[0] and (self.name not in _TWICE or simple(gs[0][0])):
            g = combine(inline[1], *gs)
        else:  # a call of the implementation, its arguments inline
            h = comp.namer.const(impl)
            args = (["st"] if self.state else []) + ["{%d}" % (i + 1) for i in range(len(gs))]
            g = combine(h[0] + "(" + ", ".join(args) + ")", h, *gs)
        fn, _ = self._closure(fns, impl, ret)
        return tagged(fn, g), ret

    def _closure(self, fns, impl, ret):
        if self.state:
            if len(fns) == 0:
                return (lambda st, fr: impl(st)), ret
            if len(fns) == 1:
                f0 = fns[0]
                return (lambda st, fr: impl(st, f0(st, fr))), ret
            if len(fns) == 2:
                f0, f1 = fns
                return (lambda st, fr: impl(st, f0(st, fr), f1(st, fr))), ret
            return (lambda st, fr: impl(st, *[f(st, fr) for f in fns])), ret
        if len(fns) == 1:
            f0 = fns[0]
            return (lambda st, fr: impl(f0(st, fr))), ret
        return (lambda st, fr: impl(*[f(st, fr) for f in fns])), ret

    def make_stmt(self, comp, call, var, src, scope, code):
        return self.stmt(comp, self, call, var, src, scope, code)

    def bind_compiled(self, comp, call, src, scope):
        """bind(), each argument compiled into one function (arguments of statements)."""
        return [(comp.mat(f), t) for f, t in self.bind(comp, call, src, scope)]


_V_P = re.compile(r"\bv_p\b")
_INT = re.compile(r"-?\d+")

# built-ins written inline in generated code (arity, template): no call of the implementation
INLINE = {
    "cards": (1, "list(st.zones[{0}])"),
    "size": (1, "len(st.zones[{0}])"),
    "empty": (1, "(not st.zones[{0}])"),
    "len": (1, "len({0})"),
    "sum": (1, "sum({0})"),
    "any": (1, "any({0})"),
    "all": (1, "all({0})"),
    "abs": (1, "abs({0})"),
    "zone_of": (1, "(None if {0} is None else st.where[{0}])"),
    "at": (1, "(None if {0} is None else st.at[{0}])"),
    "check_end": (0, "(None if st.check_end() else None)"),
}
_TWICE = ("zone_of", "at")  # templates reading their argument twice


def _arity(params) -> str:
    req = sum(1 for p in params if p[2] is REQ)
    return str(req) if req == len(params) else f"{req} to {len(params)}"


def _const(v):
    g = (repr(v), None, EMPTY) if v is None or isinstance(v, (bool, int, str)) else None
    f = lambda st, fr: v  # noqa: E731
    return tagged(f, g) if g else f


def _type_of_const(v) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, str):
        return "str"
    return "none"


def _arg(comp, node, ptype, src, scope, fname):
    if ptype == "ident":
        if isinstance(node, A.Name):
            v = node.id
        elif isinstance(node, A.Str):
            v = node.value
        else:
            comp.problem(src, node, f"{fname}() expects a name here (an id, written bare)")
            raise CheckError
        return _const(v), "ident:" + v
    fn, t = comp.expr(node, src, scope)
    if ptype != "any" and not accepts(ptype, t):
        comp.problem(src, node, f"{fname}() expects {show(ptype)} here, found {show(t)}")
        raise CheckError
    return comp.coerce(fn, t, ptype), t



# ---- player helpers ---------------------------------------------------------------------------

def kind_to_player(st, k):
    """The player named by card id k (the holder of such a card in the player_name zone)."""
    g = st.g
    if k is None:
        return None
    for c in g.kind_instances[k]:
        z = st.where[c]
        if g.zone_base_name[z] == g.player_name_zone:
            return g.zone_owner[z]
    return None


def _next(st, p):
    return None if p is None else (p + 1) % st.n


def _prev(st, p):
    return None if p is None else (p - 1) % st.n


def _order_from(st, p):
    n = st.n
    return [(p + i) % n for i in range(n)] if p is not None else []


def _others(st, p):
    n = st.n
    return [(p + i) % n for i in range(1, n)] if p is not None else list(range(n))


def _players_at(st, loc):
    return [p for p in range(st.n) if st.at[p] == loc]


def _is(st, p, k):
    return p is not None and kind_to_player(st, k) == p


def _has(st, z, k):
    d = st.g.card_def
    return any(d[c] == k for c in st.zones[z])


def _full(st, z):
    cap = st.g.zone_capacity[z]
    return cap is not None and len(st.zones[z]) >= cap


def _count(xs, x=NOARG):
    if x is NOARG:
        return len(xs)
    return sum(1 for y in xs if y == x)


def _groups(xs):
    counts: dict = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    return sorted(counts.values(), reverse=True)


def _straight(xs):
    return all(x == i + 1 for i, x in enumerate(xs))


def _distinct(xs):
    seen, out = set(), []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def _sorted(xs):
    return sorted(xs, key=lambda x: (x is None, x))


def _roll(st, n):
    return st.rng.below(max(1, n)) + 1


def _random(st, xs):
    return xs[st.rng.below(len(xs))] if xs else None


def _used(st, kind):
    return kind in st.kinds


def _side(st, p):
    return st.g.side_fn(st, p)


def _knows(st, p, c):
    return bool(st.seen[c] & (1 << p))


def _copies(st, k):
    return list(st.g.kind_instances[k])


def _top(st, z):
    zz = st.zones[z]
    return zz[-1] if zz else None


def _bottom(st, z):
    zz = st.zones[z]
    return zz[0] if zz else None


def _zone_owner(st, z):
    o = st.g.zone_owner[z]
    return o if o >= 0 else None


# ---- state-changing primitives ----------------------------------------------------------------

def _move(st, c, z, facedown, bottom):
    if c is None or z is None:
        return None
    ops.move(st, c, z, facedown, bottom)
    return None


def _move_all(st, z1, z2, facedown):
    ops.move_all(st, z1, z2, facedown)


def _draw(st, z1, z2, n, facedown):
    return ops.draw(st, z1, z2, n, facedown)


def _shuffle(st, z):
    ops.shuffle(st, z)


def _reveal(st, c, to):
    if c is None:
        return
    if to is None:
        st.seen[c] = ops.ALL
        return
    m = st.seen[c]
    for p in to:
        if p is not None:
            m |= 1 << p
    st.seen[c] = m


def _move_to(st, p, loc):
    if p is not None:
        st.at[p] = loc


def _end(st, reason, sides):
    st.finish(reason, list(sides))


def _check_end(st):
    st.check_end()


def _end_turn(st):
    st.stack.clear()
    st.pending = None


def _place(st, z, kinds):
    """Scenario helper: move a card of each listed id onto z, from anywhere but z."""
    owner = st.g.zone_owner
    for k in kinds:
        # take from a hidden zone nobody owns first (a deck, the box), then from other
        # unowned zones (the table), last from a player's: placing cards for one player
        # does not silently take them out of another's hand or off the table
        vis = st.g.zone_vis
        cands = sorted((c for c in st.g.kind_instances[k] if st.where[c] != z),
                       key=lambda c: (owner[st.where[c]] >= 0, vis[st.where[c]] != 2))
        for c in cands:
            ops.move(st, c, z)
            break
        else:
            raise RuntimeError(f"place(): no card {st.g.card_ids[k]!r} left outside the zone")


def _give(st, z, k):
    _place(st, z, [k])


# ---- typed helpers for `ret` ------------------------------------------------------------------

def _same(types):
    return types[0]


def _elem_of_first(types):
    return elem(types[0])


def _first(types):
    return types[0] if types else "any"


# ---- the table ------------------------------------------------------------------------------

TABLE: dict[str, Builtin] = {}


def fn(name, params, ret, impl=None, state=True, blocking=False, stmt=None):
    TABLE[name] = Builtin(name, params, ret, impl, state, blocking, stmt)


R = REQ
fn("cards", [("z", "zone", R)], "list:card", lambda st, z: list(st.zones[z]))
fn("size", [("z", "zone", R)], "int", lambda st, z: len(st.zones[z]))
fn("empty", [("z", "zone", R)], "bool", lambda st, z: not st.zones[z])
fn("full", [("z", "zone", R)], "bool", _full)
fn("top", [("z", "zone", R)], "card", _top)
fn("bottom", [("z", "zone", R)], "card", _bottom)
fn("holder", [("c", "card", R)], "player", lambda st, c: None if c is None else ops.holder(st, c))
fn("zone_of", [("c", "card", R)], "zone", lambda st, c: None if c is None else st.where[c])
fn("owner", [("z", "zone", R)], "player", _zone_owner)
fn("at", [("p", "player", R)], "loc", lambda st, p: None if p is None else st.at[p])
fn("players_at", [("l", "loc", R)], "list:player", _players_at)
fn("next", [("p", "player", R)], "player", _next)
fn("prev", [("p", "player", R)], "player", _prev)
fn("order_from", [("p", "player", R)], "list:player", _order_from)
fn("others", [("p", "player", R)], "list:player", _others)
fn("is", [("p", "player", R), ("k", "kind", R)], "bool", _is)
fn("has", [("z", "zone", R), ("k", "kind", R)], "bool", _has)
fn("knows", [("p", "player", R), ("c", "card", R)], "bool", _knows)
fn("copies", [("k", "kind", R)], "list:card", _copies)
fn("count", [("xs", "list:any", R), ("x", "any", NOARG)], "int", _count, state=False)
fn("len", [("xs", "list:any", R)], "int", len, state=False)
fn("sum", [("xs", "list:int", R)], "int", sum, state=False)
fn("max", [("xs", "list:int", R)], "int", lambda xs: max(xs) if xs else None, state=False)
fn("min", [("xs", "list:int", R)], "int", lambda xs: min(xs) if xs else None, state=False)
fn("abs", [("x", "int", R)], "int", abs, state=False)
fn("distinct", [("xs", "list:any", R)], _same, _distinct, state=False)
fn("sorted", [("xs", "list:any", R)], _same, _sorted, state=False)
fn("reversed", [("xs", "list:any", R)], _same, lambda xs: list(reversed(xs)), state=False)
fn("groups", [("xs", "list:any", R)], "list:int", _groups, state=False)
fn("straight", [("xs", "list:int", R)], "bool", _straight, state=False)
fn("pairs", [("xs", "list:any", R)], "int", patterns.pairs, state=False)
fn("longest_run", [("xs", "list:int", R)], "int", patterns.longest_run, state=False)
fn("missing", [("need", "list:any", R), ("have", "list:any", R)], _same, patterns.missing, state=False)
fn("most_common", [("xs", "list:any", R)], _elem_of_first, patterns.most_common, state=False)
fn("capacity", [("z", "zone", R)], "int", patterns.capacity)
fn("room", [("z", "zone", R)], "int", patterns.room)
fn("completes", [("z", "zone", R)], "bool", patterns.completes)
fn("any", [("xs", "list:any", R)], "bool", lambda xs: any(xs), state=False)
fn("all", [("xs", "list:any", R)], "bool", lambda xs: all(xs), state=False)
fn("range", [("a", "int", R), ("b", "int", R)], "list:int", lambda a, b: list(range(a, b)), state=False)
fn("roll", [("n", "int", R)], "int", _roll)
fn("random", [("xs", "list:any", R)], _elem_of_first, _random)
fn("used", [("kind", "ident", R)], "bool", _used)
fn("side", [("p", "player", R)], "str", _side)
fn("won", [("side", "ident", R)], "bool", lambda st, s: bool(st.result) and s in st.result["sides"])
# primitives that change the state
fn("move", [("c", "card", R), ("z", "zone", R), ("facedown", "bool", False), ("bottom", "bool", False)],
   "none", _move)
fn("move_all", [("src", "zone", R), ("dst", "zone", R), ("facedown", "bool", False)], "none", _move_all)
fn("draw", [("src", "zone", R), ("dst", "zone", R), ("n", "int", 1), ("facedown", "bool", False)],
   "list:card", _draw)
fn("shuffle", [("z", "zone", R)], "none", _shuffle)
fn("reveal", [("c", "card", R), ("to", "list:player", None)], "none", _reveal)
fn("move_to", [("p", "player", R), ("l", "loc", R)], "none", _move_to)
fn("log", [("event", "ident", R), ("args", "*any", R)], "none")
fn("end", [("reason", "ident", R), ("sides", "list:str", R)], "none", _end)
fn("check_end", [], "none", _check_end)
fn("end_turn", [], "none", _end_turn)
fn("place", [("z", "zone", R), ("ids", "list:kind", R)], "none", _place)
fn("give", [("z", "zone", R), ("id", "kind", R)], "none", _give)
# blocking
fn("choose", [("p", "player", R), ("xs", "list:any", R), ("prompt", "ident", "choose"),
              ("optional", "bool", False)], "any", blocking=True, stmt=stmt_choose)
fn("choose_many", [("p", "player", R), ("xs", "list:any", R), ("k", "int", R),
                   ("prompt", "ident", "choose"), ("min", "int", -1)], "any", blocking=True,
   stmt=stmt_choose_many)
fn("act", [("p", "player", R), ("group", "ident", R), ("optional", "bool", False)], "str",
   blocking=True, stmt=stmt_act)
fn("window", [("players", "list:player", R), ("group", "ident", R), ("until", "bool", False),
              ("ask_all", "bool", False)], "none",
   blocking=True, stmt=stmt_window)
fn("run", [("x", "any", R), ("hook", "ident", R), ("args", "*any", R)], "any", blocking=True,
   stmt=stmt_run)
fn("emit", [("event", "ident", R), ("args", "*any", R)], "none", blocking=True, stmt=stmt_emit)


IMPURE = frozenset({"roll", "random", "move", "move_all", "draw", "shuffle", "reveal", "move_to",
                    "end", "check_end", "end_turn", "place", "give"})


def _calls(node, names) -> bool:
    """Does an expression call one of `names` anywhere inside it?"""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Call) and n.func in names:
            return True
        if isinstance(n, A.Node):
            stack.extend(v for v in vars(n).values() if isinstance(v, (A.Node, list, tuple, dict)))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
    return False


def _log_bind(comp, call, src, scope):
    """log(event, args..., name: value, to: players): positional args are named after the
    variable written (log(drew, me) gives $me) or argN; keyword args by their keyword."""
    if not call.args:
        comp.problem(src, call, "log() needs an event name first")
        raise CheckError
    ev_node = call.args[0]
    ev = _arg(comp, ev_node, "ident", src, scope, "log")
    fns, types, names = [], [], []
    for i, node in enumerate(call.args[1:]):
        f, t = comp.expr(node, src, scope)
        fns.append(comp.mat(f))
        types.append(t)
        names.append(node.id if isinstance(node, A.Name) else f"arg{i + 1}")
    to_f = _const(None)
    for k, node in call.kwargs.items():
        f, t = comp.expr(node, src, scope)
        if k == "to":
            if not accepts("list:player", t):
                comp.problem(src, node, f"log() expects a list of players for to:, found {show(t)}")
                raise CheckError
            to_f = comp.coerce(f, t, "list:player")
            continue
        fns.append(f)
        types.append(t)
        names.append(k)
    comp.p.events_logged.setdefault(_ident(ev), set()).update(names)
    event = _ident(ev)

    # When the game keeps no log (simulations), arguments are not even computed, unless one
    # of them changes the state or draws chance (then skipping it would change the game).
    impure = any(_calls(node, IMPURE) for node in list(call.args[1:]) + list(call.kwargs.values()))

    def log(st, fr):
        if st.record or impure:
            st.log_event(event, [f(st, fr) for f in fns], to_f(st, fr), types, names)
    return log, "none"


TABLE["log"].make_expr = _log_bind  # type: ignore[method-assign]


# ---- special names, attributes, comparisons -----------------------------------------------------

def _name_me(comp, e, src, scope):
    return tag(lambda st, fr: fr[2].get("me"), "L.get('me')"), "player"


def _name_this(comp, e, src, scope):
    if scope.this_card is None:
        comp.problem(src, e, "'this' is only defined in a card's effects")
        raise CheckError
    return tag(lambda st, fr: fr[2].get("this"), "L.get('this')"), "card"


def _name_here(comp, e, src, scope):
    if scope.here_loc is None:
        comp.problem(src, e, "'here' is only defined in a location's effects")
        raise CheckError
    return tag(lambda st, fr: fr[2].get("here"), "L.get('here')"), "loc"


NAMES = {
    "me": _name_me,
    "this": _name_this,
    "here": _name_here,
    "players": lambda c, e, s, sc: (tag(lambda st, fr: list(range(st.n)), "list(range(st.n))"), "list:player"),
    "player_count": lambda c, e, s, sc: (tag(lambda st, fr: st.n, "st.n"), "int"),
    "turn_number": lambda c, e, s, sc: (tag(lambda st, fr: st.turn, "st.turn"), "int"),
    "current": lambda c, e, s, sc: (tag(lambda st, fr: st.current, "st.current"), "player"),
    "winners": lambda c, e, s, sc: ((lambda st, fr: list(st.result["winners"]) if st.result else []),
                                    "list:player"),
    "winning_sides": lambda c, e, s, sc: ((lambda st, fr: list(st.result["sides"]) if st.result else []),
                                          "list:str"),
    "game_over": lambda c, e, s, sc: ((lambda st, fr: st.over), "bool"),
    "end_reason": lambda c, e, s, sc: ((lambda st, fr: st.result["reason"] if st.result else None), "str"),
    "locations": lambda c, e, s, sc: ((lambda st, fr: list(range(len(st.g.loc_ids)))), "list:loc"),
}


def param_ref(comp, name, node, src, scope):
    p = comp.p
    base = p.param_fn(name)
    mods = p.modifier_fns.get(name)
    if not mods:
        v = p.params[name]
        if isinstance(v, tuple):
            h = comp.namer.const(v[0])
            return tagged(base, combine(h[0] + ".get(st.n, %r)" % v[1], h))
        return tag(base, repr(v))

    def modified(st, fr):
        v = base(st, fr)
        for when, add in mods:
            if when(st, fr):
                v += add(st, fr)
        return v
    return modified


def zone_ref(comp, name, node: A.Call, src, scope):
    zd = comp.p.zone_defs[name]
    if zd.per == "none":
        comp.problem(src, node, f"zone {name!r} is global: write {name} without (...)")
        raise CheckError
    if len(node.args) != 1 or node.kwargs:
        comp.problem(src, node, f"zone {name!r} is per {zd.per}: it takes 1 argument, found {len(node.args)}")
        raise CheckError
    p = comp.p
    return comp.slot_index(node.args[0], zd.per, (p.PB, p.NPZ), (p.NGZ, p.NLZ), zd.j, src, scope)


def attribute(comp, ofn, t, e: A.Attr, src, scope):
    p = comp.p
    name = e.name
    if t in ("card", "kind"):
        to_def = t == "card"
        if name == "playable" and to_def:
            cdef = p.card_def
            plays = p.kind_playable  # filled once every card is compiled; read at run time

            def playable(st, fr):
                c = ofn(st, fr)
                if c is None:
                    return False
                f = plays[cdef[c]]
                return f is None or bool(f(st, [None, 0, {"me": fr[2].get("me"), "this": c}, None]))
            return playable, "bool"
        if name == "id":
            ids = p.card_ids
            if to_def:
                return _prop(comp, lambda st, fr: None if (c := ofn(st, fr)) is None else ids[st.g.card_def[c]],
                             ofn, ids, p.card_def), "str"
            return _prop(comp, lambda st, fr: None if (k := ofn(st, fr)) is None else ids[k], ofn, ids), "str"
        table = p.kind_props.get(name)
        if table is None:
            import difflib
            close = difflib.get_close_matches(name, list(p.kind_props), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            comp.problem(src, e, f"no card has a property {name!r}{hint}")
            raise CheckError
        ptype = p.prop_types[name]
        if to_def:
            cdef = p.card_def
            return _prop(comp, lambda st, fr: None if (c := ofn(st, fr)) is None else table[cdef[c]],
                         ofn, table, cdef), ptype
        return _prop(comp, lambda st, fr: None if (k := ofn(st, fr)) is None else table[k], ofn, table), ptype
    if t == "loc":
        if name == "id":
            ids = p.loc_ids
            return _prop(comp, lambda st, fr: None if (x := ofn(st, fr)) is None else ids[x], ofn, ids), "str"
        table = p.loc_props.get(name)
        if table is None:
            comp.problem(src, e, f"no location has a property {name!r}")
            raise CheckError
        return (_prop(comp, lambda st, fr: None if (x := ofn(st, fr)) is None else table[x], ofn, table),
                p.loc_prop_types[name])
    if t == "player" and name == "seat":
        return tagged(lambda st, fr: ofn(st, fr), comp.g(ofn)), "int"
    comp.problem(src, e, f"{show(t)} has no property {name!r}")
    raise CheckError


def _prop(comp, fn, ofn, table, cdef=None):
    """Tag a property read `table[cdef[x]]` (none stays none). A comprehension variable or
    `this` is read once, without a temporary; anything else through a named temporary."""
    o = comp.g(ofn)
    t = comp.namer.const(table)
    d = comp.namer.const(cdef) if cdef is not None else None
    x = o[0] if simple(o[0]) else None
    if x is None:
        x = comp.namer.fresh("_w")
        head = f"(None if ({x} := {{0}}) is None else "
    else:
        head = "(None if {0} is None else "
    idx = f"{{2}}[{x}]" if d is not None else x
    frs = [o, t] + ([d] if d is not None else [])
    return tagged(fn, combine(head + "{1}[" + idx + "])", *frs))


_CMP = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a is not None and b is not None and a < b,
    "<=": lambda a, b: a is not None and b is not None and a <= b,
    ">": lambda a, b: a is not None and b is not None and a > b,
    ">=": lambda a, b: a is not None and b is not None and a >= b,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


def compare(comp, e: A.Compare, src, scope):
    lf, lt = comp.expr(e.left, src, scope)
    rf, rt = comp.expr(e.right, src, scope)
    op = e.op
    if op in ("in", "not in"):
        if not is_list(rt):
            comp.problem(src, e.right, f"'{op}' needs a list on the right, found {show(rt)}")
            raise CheckError
        et = elem(rt)
        if lt == "card" and et == "kind":
            lf = _to_kind(comp, lf)
        elif lt == "kind" and et == "player":
            lf = comp.coerce(lf, lt, "player")
        f = _CMP[op]
        g = combine("({0} %s {1})" % op, comp.g(lf), comp.g(rf))
        return tagged(lambda st, fr: f(lf(st, fr), rf(st, fr)), g), "bool"
    if "kind" in (lt, rt) and "any" in (lt, rt) and op in ("==", "!="):
        comp.problem(src, e, "cannot tell whether this value is a card, a player or a card id, so "
                     "comparing it with a card id would be unreliable: give the parameter a type, "
                     "like name(c: card) or name(p: player)")
        raise CheckError
    if {lt, rt} == {"card", "kind"}:
        if lt == "card":
            lf = _to_kind(comp, lf)
        else:
            rf = _to_kind(comp, rf)
    elif {lt, rt} == {"player", "kind"}:
        lf, rf = comp.coerce(lf, lt, "player"), comp.coerce(rf, rt, "player")
    elif op in ("<", "<=", ">", ">=") and not (accepts("int", lt) and accepts("int", rt)):
        comp.problem(src, e, f"'{op}' compares numbers, found {show(lt)} and {show(rt)}")
        raise CheckError
    pure = not _calls(e.left, IMPURE) and not _calls(e.right, IMPURE)
    return _gen_compare(comp, _specialized_compare(op, lf, rf, e.right), op, lf, rf, e.right, pure), "bool"


def _to_kind(comp, fn):
    """A card's id (its kind) from a card expression."""
    cdef = comp.p.card_def
    return _prop(comp, lambda st, fr: None if (c := fn(st, fr)) is None else cdef[c], fn, cdef)


def _gen_compare(comp, fn, op, lf, rf, right_node, pure=False):
    """Source of a comparison: == and != inline; an ordering is none-safe (none is never
    smaller or larger), through temporaries, or a helper when both sides are computed and one
    may change the state or draw chance (both are evaluated, as in the closure)."""
    gl, gr = comp.g(lf), comp.g(rf)
    if op in ("==", "!="):
        return tagged(fn, combine("({0} %s {1})" % op, gl, gr))
    if ((isinstance(right_node, (A.Num, A.Str, A.Const)) and right_node.value is not None)
            or _INT.fullmatch(gr[0])):  # a literal, or a param written as its number
        w = comp.namer.fresh("_w")
        return tagged(fn, combine(f"(({w} := {{0}}) is not None and {w} {op} {{1}})", gl, gr))
    if pure:  # the right side is skipped when the left is none: it cannot matter
        w, w2 = comp.namer.fresh("_w"), comp.namer.fresh("_w")
        return tagged(fn, combine(f"(({w} := {{0}}) is not None and ({w2} := {{1}}) is not None "
                                  f"and {w} {op} {w2})", gl, gr))
    h = comp.namer.const(_CMP[op])
    return tagged(fn, combine(h[0] + "({0}, {1})", gl, gr, h))


def _specialized_compare(op, lf, rf, right_node):
    """Comparisons are the hottest closures of legality tests: inline the operator, and a
    constant right-hand side (a number, a string, none) is not called at all."""
    if isinstance(right_node, (A.Num, A.Str, A.Const)):
        k = right_node.value
        if op == "==":
            return lambda st, fr: lf(st, fr) == k
        if op == "!=":
            return lambda st, fr: lf(st, fr) != k
        if k is not None and op in ("<", "<=", ">", ">="):
            if op == "<":
                return lambda st, fr: (v := lf(st, fr)) is not None and v < k
            if op == "<=":
                return lambda st, fr: (v := lf(st, fr)) is not None and v <= k
            if op == ">":
                return lambda st, fr: (v := lf(st, fr)) is not None and v > k
            return lambda st, fr: (v := lf(st, fr)) is not None and v >= k
    if op == "==":
        return lambda st, fr: lf(st, fr) == rf(st, fr)
    if op == "!=":
        return lambda st, fr: lf(st, fr) != rf(st, fr)
    f = _CMP[op]
    return lambda st, fr: f(lf(st, fr), rf(st, fr))
