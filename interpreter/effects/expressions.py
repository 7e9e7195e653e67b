"""Expressions: a checked syntax tree -> a closure `f(state, frame)` carrying its Python text.

Pipeline position: compiler (effects/), mixed into the Compiler (compile.py). Expressions
never ask a player (the checker refuses blocking calls inside them), so they are plain
closures; each also carries its meaning as Python source (codegen.py), so a whole
statement or test can become one generated function. Built-in calls, attributes and
comparisons are compiled by builtins.py.
"""

from __future__ import annotations

import re

from . import ast as A
from . import references as R
from .ast import names_in
from .codegen import combine, tag, tagged
from .scope import CheckError, Scope, Source
from .types import elem, is_list, join, list_of, show


class ExpressionsMixin:
    """Compiling expression nodes (a part of Compiler)."""

    def expr(self, e, src: Source, scope: Scope):
        """Compile an expression node: return (closure, type)."""
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            self.problem(src, e, "unsupported expression")
            raise CheckError
        fn, t = m(e, src, scope)
        if getattr(fn, "_g", None) is None:
            # no source known: call the closure; it reads the locals its tree names
            g = self.namer.embed(fn, frozenset(names_in(e)))
            try:
                fn._g = g
            except AttributeError:
                fn = tagged(lambda st, fr, f=fn: f(st, fr), g)
        return fn, t

    def x_Num(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), "int"

    def x_Str(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), "str"

    def x_Const(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), ("bool" if isinstance(v, bool) else "none")

    def x_Call(self, e: A.Call, src, scope):
        name = e.func
        p = self.p
        if name in p.proc_sigs or (name in self.B.TABLE and self.B.TABLE[name].blocking):
            self.problem(src, e, f"{name}(...) may ask a player to decide, so it must stand alone "
                         f"as a statement or as 'x = {name}(...)'")
            raise CheckError
        if name in p.counter_defs:
            idx = self.counter_index(name, e, src, scope)
            return tagged(lambda st, fr: st.ctr[idx(st, fr)], combine("st.ctr[{0}]", self.g(idx))), "int"
        if name in p.zone_defs:
            return R.zone_ref(self, name, e, src, scope), "zone"
        b = self.B.TABLE.get(name)
        if b is None:
            self.problem(src, e, f"unknown function {name!r}{self.suggest(name, scope)}")
            raise CheckError
        return b.make_expr(self, e, src, scope)

    def x_Attr(self, e: A.Attr, src, scope):
        ofn, t = self.expr(e.obj, src, scope)
        return R.attribute(self, ofn, t, e, src, scope)

    def x_Index(self, e: A.Index, src, scope):
        ofn, t = self.expr(e.obj, src, scope)
        ifn, it = self.expr(e.index, src, scope)
        if not is_list(t):
            self.problem(src, e, f"only lists can be indexed, found {show(t)}")
            raise CheckError
        self.need(src, e.index, "int", it)

        def index(st, fr):
            xs = ofn(st, fr)
            i = ifn(st, fr)
            return xs[i] if -len(xs) <= i < len(xs) else None
        h = self.namer.const(_index)
        return tagged(index, combine(h[0] + "({0}, {1})", self.g(ofn), self.g(ifn), h)), elem(t)

    def x_ListExpr(self, e: A.ListExpr, src, scope):
        parts = [self.expr(x, src, scope) for x in e.items]
        fns = [f for f, _ in parts]
        t = "any"
        for i, (_, pt) in enumerate(parts):
            t = pt if i == 0 else join(t, pt)
        if t == "player" and any(pt == "kind" for _, pt in parts):
            fns = [self.coerce(f, pt, "player") for f, pt in parts]
        g = combine("[" + ", ".join("{%d}" % i for i in range(len(fns))) + "]", *[self.g(f) for f in fns])
        return tagged(lambda st, fr: [f(st, fr) for f in fns], g), list_of(t if parts else "any")

    def x_Comprehension(self, e: A.Comprehension, src, scope):
        ifn, it = self.expr(e.iterable, src, scope)
        if not is_list(it):
            self.problem(src, e.iterable, f"'for' needs a list, found {show(it)}")
            raise CheckError
        var = e.var
        prev = scope.names.get(var)
        scope.names[var] = elem(it)
        saved_py = scope.pyvars
        scope.pyvars = saved_py | {var}
        try:
            efn, et = self.expr(e.elt, src, scope)
            cfn = self.expr(e.cond, src, scope)[0] if e.cond is not None else None
        finally:
            scope.pyvars = saved_py
        if prev is None:
            scope.names.pop(var, None)
        else:
            scope.names[var] = prev

        def comp(st, fr):
            loc = fr[2]
            saved = loc.get(var, _MISSING)
            out = []
            for x in ifn(st, fr):
                loc[var] = x
                if cfn is None or cfn(st, fr):
                    out.append(efn(st, fr))
            if saved is _MISSING:
                loc.pop(var, None)
            else:
                loc[var] = saved
            return out
        # a native Python comprehension, unless an embedded closure reads the variable
        ge, gi = self.g(efn), self.g(ifn)
        gc = self.g(cfn) if cfn is not None else None
        if (var not in ge[2] and "*" not in ge[2] and ":=" not in gi[0]
                and (gc is None or (var not in gc[2] and "*" not in gc[2]))):
            v = "v_" + var
            if gi[0] == "list(range(st.n))":  # `players`: a range needs no copy
                gi = ("range(st.n)", gi[1], gi[2])
            if gi[0].startswith("list(st.zones[") and "(st" not in ge[0] and (gc is None or "(st" not in gc[0]):
                # cards(z) copies the zone in case the body moves cards; a body that calls
                # nothing with the state cannot, so the zone is iterated directly
                gi = ("st.zones[" + gi[0][len("list(st.zones["):-1], gi[1], gi[2])
            if _never_none_elements(gi[0]) and f"for {v} in" not in ge[0] + (gc[0] if gc else ""):
                # the elements of a zone, a range or a list of numbers are never none: a read
                # of the variable's property needs no none test (none stays none elsewhere)
                head = f"(None if {v} is None else "
                ge = (ge[0].replace(head, "("), ge[1], ge[2])
                if gc is not None:
                    gc = (gc[0].replace(head, "("), gc[1], gc[2])
            x = _EQ_PLAYER.fullmatch(gc[0]) if gc is not None and gi[0] == "range(st.n)" else None
            if x is not None and ge[0] == v and x.group(1) == v and x.group(2) != v:
                # `[p for p in players if p == x]`: x itself when it is a seat (x, a read of a
                # local or a variable, is read again); otherwise the comprehension as before
                y = x.group(2)
                g = combine(f"([{y}] if {y}.__class__ is int and 0 <= {y} < st.n else "
                            f"[{v} for {v} in range(st.n) if {v} == {y}])", gc)
            elif gc is None:
                g = combine(f"[{{0}} for {v} in {{1}}]", ge, gi)
            else:
                g = combine(f"[{{0}} for {v} in {{1}} if {{2}}]", ge, gi, gc)
            g = (g[0], g[1], g[2] - {var})
            tag(comp, *g)
        return comp, list_of(et)

    def x_BinOp(self, e: A.BinOp, src, scope):
        lf, lt = self.expr(e.left, src, scope)
        rf, rt = self.expr(e.right, src, scope)
        op = e.op
        gl, gr = self.g(lf), self.g(rf)
        if op == "+" and is_list(lt) and is_list(rt) and (lt != "any" or rt != "any"):
            return tagged(lambda st, fr: lf(st, fr) + rf(st, fr), combine("({0} + {1})", gl, gr)), join(lt, rt)
        self.need(src, e.left, "int", lt)
        self.need(src, e.right, "int", rt)
        f = _ARITH[op]
        if op in ("+", "-", "*"):
            g = combine("({0} %s {1})" % op, gl, gr)
        else:  # division by zero gives 0
            h = self.namer.const(f)
            g = combine(h[0] + "({0}, {1})", gl, gr, h)
        return tagged(lambda st, fr: f(lf(st, fr), rf(st, fr)), g), "int"

    def x_Neg(self, e: A.Neg, src, scope):
        f, t = self.expr(e.operand, src, scope)
        self.need(src, e.operand, "int", t)
        return tagged(lambda st, fr: -f(st, fr), combine("(-{0})", self.g(f))), "int"

    def x_Not(self, e: A.Not, src, scope):
        f, _ = self.expr(e.operand, src, scope)
        return tagged(lambda st, fr: not f(st, fr), combine("(not {0})", self.g(f))), "bool"

    def x_BoolOp(self, e: A.BoolOp, src, scope):
        fns = [self.expr(v, src, scope)[0] for v in e.values]
        g = combine("bool(" + f" {e.op} ".join("{%d}" % i for i in range(len(fns))) + ")",
                    *[self.g(f) for f in fns])
        fn, t = self._boolop(e, fns)
        return tagged(fn, g), t

    def _boolop(self, e, fns):
        if len(fns) == 2:
            a, b = fns
            if e.op == "and":
                return (lambda st, fr: bool(a(st, fr) and b(st, fr))), "bool"
            return (lambda st, fr: bool(a(st, fr) or b(st, fr))), "bool"
        if e.op == "and":
            def f_and(st, fr):
                for f in fns:
                    if not f(st, fr):
                        return False
                return True
            return f_and, "bool"

        def f_or(st, fr):
            for f in fns:
                if f(st, fr):
                    return True
            return False
        return f_or, "bool"

    def x_IfExpr(self, e: A.IfExpr, src, scope):
        cf, _ = self.expr(e.cond, src, scope)
        tf, tt = self.expr(e.then, src, scope)
        of, ot = self.expr(e.other, src, scope)
        t = join(tt, ot)
        tf, of = self.coerce(tf, tt, t), self.coerce(of, ot, t)
        g = combine("({1} if {0} else {2})", self.g(cf), self.g(tf), self.g(of))
        return tagged(lambda st, fr: tf(st, fr) if cf(st, fr) else of(st, fr), g), t

    def x_Compare(self, e: A.Compare, src, scope):
        return R.compare(self, e, src, scope)


_MISSING = object()
_NUMBERS = re.compile(r"\[-?\d+(, -?\d+)*\]")


def _never_none_elements(src: str) -> bool:
    """Is src a domain whose elements are never none: a zone's cards (`st.zones[i]`, or its
    copy `list(st.zones[i])`), the seats, a list of whole numbers?"""
    if src == "range(st.n)" or _NUMBERS.fullmatch(src):
        return True
    inner = src[5:-1] if src.startswith("list(") else src
    if not inner.startswith("st.zones["):
        return False
    depth = 0
    for i, ch in enumerate(inner):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
            if depth == 0:
                return i == len(inner) - 1  # the zone read is the whole domain
    return False

_EQ_PLAYER = re.compile(r"\((v_\w+) == (L\.get\('\w+'\)|[A-Za-z_]\w*)\)")  # v == a local or a variable


def _index(xs, i):
    return xs[i] if -len(xs) <= i < len(xs) else None


_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}
