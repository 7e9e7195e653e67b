"""Special names, params, zones, attributes and comparisons in effect code.

Pipeline position: compiler (effects/), used by the Compiler's names and expressions
(names.py, expressions.py). `me`, `this` and `here`; a param with its modifiers; a zone
written `hand(p)`; `c.value` (a card's, a card id's or a location's property) and
comparisons, specialized by the types compared (a card compared with a card id compares
its id).
"""

from __future__ import annotations

import difflib
import re

from . import ast as A
from .builtins import IMPURE, _calls
from .codegen import combine, simple, tag, tagged
from .scope import CheckError
from .types import accepts, can_equal, elem, is_list, show

_INT = re.compile(r"-?\d+")


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
        if not can_equal(lt, et) and not (lt == "card" and et == "kind"):
            never_equal(comp, e, op, lt, et, src)
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
    if op in ("==", "!=") and not can_equal(lt, rt):
        never_equal(comp, e, op, lt, rt, src)
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


def never_equal(comp, e, op, lt, rt, src):
    """A comparison of types that are never equal is a mistake: it always gives one answer."""
    hint = " (a card id is written bare: c == pearl)" if {lt, rt} == {"card", "str"} else ""
    answer = "false" if op in ("==", "in") else "true"
    comp.problem(src, e, f"'{op}' compares {show(lt)} with {show(rt)}, which are never equal, so "
                 f"it is always {answer}{hint}")
    raise CheckError


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
    lit = ((isinstance(right_node, (A.Num, A.Str, A.Const)) and right_node.value is not None)
           or _INT.fullmatch(gr[0]))  # a literal, or a param written as its number
    if never_none(gl[0]) and (lit or never_none(gr[0])):  # two numbers: a plain comparison
        return tagged(fn, combine("({0} %s {1})" % op, gl, gr))
    if lit:
        w = comp.namer.fresh("_w")
        return tagged(fn, combine(f"(({w} := {{0}}) is not None and {w} {op} {{1}})", gl, gr))
    if pure and never_none(gr[0]):  # left, then right, as before
        w = comp.namer.fresh("_w")
        return tagged(fn, combine(f"(({w} := {{0}}) is not None and {w} {op} {{1}})", gl, gr))
    if pure:  # the right side is skipped when the left is none: it cannot matter
        w, w2 = comp.namer.fresh("_w"), comp.namer.fresh("_w")
        return tagged(fn, combine(f"(({w} := {{0}}) is not None and ({w2} := {{1}}) is not None "
                                  f"and {w} {op} {w2})", gl, gr))
    h = comp.namer.const(_CMP[op])
    return tagged(fn, combine(h[0] + "({0}, {1})", gl, gr, h))


def never_none(text: str) -> bool:
    """Is generated text a value that is never none: an int literal, a counter (counters
    always hold a number: they start from one and every write clamps a number), a length?"""
    if _INT.fullmatch(text):
        return True
    for head, close in (("st.ctr[", "]"), ("len(", ")")):
        if text.startswith(head) and text.endswith(close):
            return _closes_at_end(text, len(head) - 1)
    return False


def _closes_at_end(text: str, i: int) -> bool:
    """Does the bracket at text[i] close at the last character (strings skipped)?"""
    depth, q, k = 0, None, i
    while k < len(text):
        ch = text[k]
        if q is not None:
            if ch == "\\":
                k += 1
            elif ch == q:
                q = None
        elif ch in "'\"":
            q = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return k == len(text) - 1
        k += 1
    return False


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
