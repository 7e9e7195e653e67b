"""The built-in functions of the effect language: one table from names to primitives.

Pipeline position: compiler (effects/). The implementations are the runtime's primitives
(runtime/primitives.py); special names, attributes and comparisons are in references.py.
Adding a primitive is one function plus one `fn(...)` line in the table (STYLE habit 3). Each
entry declares its parameters with types, so the compiler checks arity and types before
play; the implementation receives plain values (`st` first when it touches the state).
Blocking built-ins (choose, act, window, run, emit) compile to VM instructions instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..runtime import ops, patterns
from ..runtime import primitives as P
from ..runtime.primitives import NOARG
from . import ast as A
from .blocking import (  # the blocking built-ins, registered in the table below
    _ident,
    stmt_act,
    stmt_choose,
    stmt_choose_many,
    stmt_emit,
    stmt_run,
    stmt_window,
)
from .codegen import EMPTY, combine, simple, tagged
from .scope import CheckError
from .types import accepts, elem, show

REQ = object()  # marks a required parameter


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
fn("full", [("z", "zone", R)], "bool", P.is_full)
fn("top", [("z", "zone", R)], "card", P.top)
fn("bottom", [("z", "zone", R)], "card", P.bottom)
fn("holder", [("c", "card", R)], "player", lambda st, c: None if c is None else ops.holder(st, c))
fn("zone_of", [("c", "card", R)], "zone", lambda st, c: None if c is None else st.where[c])
fn("owner", [("z", "zone", R)], "player", P.zone_owner)
fn("at", [("p", "player", R)], "loc", lambda st, p: None if p is None else st.at[p])
fn("players_at", [("l", "loc", R)], "list:player", P.players_at)
fn("next", [("p", "player", R)], "player", P.next_seat)
fn("prev", [("p", "player", R)], "player", P.prev_seat)
fn("order_from", [("p", "player", R)], "list:player", P.order_from)
fn("others", [("p", "player", R)], "list:player", P.others)
fn("is", [("p", "player", R), ("k", "kind", R)], "bool", P.is_named)
fn("has", [("z", "zone", R), ("k", "kind", R)], "bool", P.has_kind)
fn("knows", [("p", "player", R), ("c", "card", R)], "bool", P.knows)
fn("belief", [("p", "player", R), ("side", "str", R)], "int", P.belief)  # policy only (bots/beliefs.py)
fn("public_belief", [("p", "player", R), ("side", "str", R)], "int", P.public_belief)
fn("copies", [("k", "kind", R)], "list:card", P.copies)
fn("count", [("xs", "list:any", R), ("x", "any", NOARG)], "int", P.count, state=False)
fn("len", [("xs", "list:any", R)], "int", len, state=False)
fn("sum", [("xs", "list:int", R)], "int", sum, state=False)
fn("max", [("xs", "list:int", R)], "int", lambda xs: max(xs) if xs else None, state=False)
fn("min", [("xs", "list:int", R)], "int", lambda xs: min(xs) if xs else None, state=False)
fn("abs", [("x", "int", R)], "int", abs, state=False)
fn("distinct", [("xs", "list:any", R)], _same, P.distinct, state=False)
fn("sorted", [("xs", "list:any", R)], _same, P.sorted_values, state=False)
fn("reversed", [("xs", "list:any", R)], _same, lambda xs: list(reversed(xs)), state=False)
fn("groups", [("xs", "list:any", R)], "list:int", P.group_sizes, state=False)
fn("straight", [("xs", "list:int", R)], "bool", P.is_straight, state=False)
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
fn("roll", [("n", "int", R)], "int", P.roll)
fn("random", [("xs", "list:any", R)], _elem_of_first, P.random_item)
fn("used", [("kind", "ident", R)], "bool", P.used)
fn("side", [("p", "player", R)], "str", P.side)
fn("won", [("side", "ident", R)], "bool", lambda st, s: bool(st.result) and s in st.result["sides"])
# primitives that change the state
fn("move", [("c", "card", R), ("z", "zone", R), ("facedown", "bool", False), ("bottom", "bool", False)],
   "none", P.move)
fn("move_all", [("src", "zone", R), ("dst", "zone", R), ("facedown", "bool", False)], "none", P.move_all)
fn("draw", [("src", "zone", R), ("dst", "zone", R), ("n", "int", 1), ("facedown", "bool", False)],
   "list:card", P.draw)
fn("shuffle", [("z", "zone", R)], "none", P.shuffle)
fn("reveal", [("c", "card", R), ("to", "list:player", None)], "none", P.reveal)
fn("move_to", [("p", "player", R), ("l", "loc", R)], "none", P.move_to)
fn("log", [("event", "ident", R), ("args", "*any", R)], "none")
fn("end", [("reason", "ident", R), ("sides", "list:str", R)], "none", P.end)
fn("check_end", [], "none", P.check_end)
fn("end_turn", [], "none", P.end_turn)
fn("place", [("z", "zone", R), ("ids", "list:kind", R)], "none", P.place)
fn("give", [("z", "zone", R), ("id", "kind", R)], "none", P.give)
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
    pending = comp.__dict__.setdefault("log_args", [])
    for i, (name, t) in enumerate(zip(names, types)):
        node = call.args[1 + i] if i < len(call.args) - 1 else call.kwargs.get(name)
        pending.append((_ident(ev), name, t, src, node if node is not None else call))
    comp.p.events_logged.setdefault(_ident(ev), set()).update(names)
    comp.p.event_types.setdefault(_ident(ev), {}).update(zip(names, types))
    event = _ident(ev)

    # When the game keeps no log (simulations), arguments are not even computed, unless one
    # of them changes the state or draws chance (then skipping it would change the game).
    impure = any(_calls(node, IMPURE) for node in list(call.args[1:]) + list(call.kwargs.values()))

    def log(st, fr):
        if st.record or impure:
            st.log_event(event, [f(st, fr) for f in fns], to_f(st, fr), types, names)
    if impure:
        return log, "none"
    # a game without a log does not even call it; with every part written as text, the
    # call is written inline too (a procedure calling it then needs no frame for it)
    parts = [getattr(f, "_g", None) for f in fns + [to_f]]
    if all(g is not None for g in parts):
        consts = [comp.namer.const(x) for x in (event, types, names)]
        args = "[" + ", ".join("{%d}" % i for i in range(len(fns))) + "]"
        k = len(parts)
        g = combine(f"(st.log_event({{{k}}}, {args}, {{{k - 1}}}, {{{k + 1}}}, {{{k + 2}}}) "
                    "if st.record else None)", *parts, *consts)
        return tagged(log, g), "none"
    text, env, emb = comp.namer.embed(log)
    return tagged(log, (f"({text} if st.record else None)", env, emb)), "none"


# the engine's own events name the acting player $player (interpreter/i18n/gender.py)
PLAYER_ARG_NAMES = frozenset({"player"})


def check_log_players(comp) -> None:
    """An argument of log() whose name means a player (`player`, or a name that some log call
    passes a player under) must be a player: a number there would print as a seat index
    ("3 wins the relic") where every language writes the player's name."""
    pending = comp.__dict__.pop("log_args", [])
    players = set(PLAYER_ARG_NAMES) | {name for _, name, t, _, _ in pending if t == "player"}
    for ev, name, t, src, node in pending:
        if name in players and t != "player":
            where = "every engine event" if name in PLAYER_ARG_NAMES else "other log calls"
            comp.problem(src, node, f"log({ev}, {name}: ...) passes {show(t)} as ${name}, which names a "
                                    f"player (it is one in {where}): "
                                    f"a number would print as a seat index, not the player's name; pass a "
                                    f"player (declare the parameter it comes from as `NAME: player`)")


TABLE["log"].make_expr = _log_bind  # type: ignore[method-assign]
