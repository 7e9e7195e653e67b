"""Error recovery for the checker: after a mistake, look for the others in the same code.

Pipeline position: inside the compiler (effects/compile.py), on its error path only. The
checker stops an expression at its first mistake (it raises CheckError once the problem is
recorded), which would leave an author fixing one mistake per run. When an expression or
statement fails, `recover` checks each of its parts on its own, and the parts of those that
fail, so every independent mistake (a misspelled zone, an unknown function, a type error on
the other side of a `+`) is reported at once; repeats of one mistake are dropped by the
Collector. Nothing compiled here is kept.
"""

from __future__ import annotations

import copy

from . import ast as A

_EXPR = (A.Num, A.Str, A.Const, A.Name, A.Call, A.Attr, A.Index, A.ListExpr, A.Comprehension,
         A.BinOp, A.BoolOp, A.Not, A.Neg, A.Compare, A.IfExpr)


def _parts(node, builtins: dict) -> list:
    """The expressions directly inside `node` (an expression or a statement), with the scope
    change each needs: a comprehension's element sees its variable."""
    if isinstance(node, A.Comprehension):
        inner = [node.elt] + ([node.cond] if node.cond is not None else [])
        return [(node.iterable, None)] + [(x, node.var) for x in inner]
    if isinstance(node, A.ExprStmt | A.Assign) and isinstance(getattr(node, "expr", None) or node.value, A.Call) \
            and not (isinstance(node, A.Assign) and isinstance(node.target, A.Call)):
        node = getattr(node, "expr", None) or node.value  # a call standing alone (it may ask): its arguments
    if isinstance(node, A.Call):
        return [(x, None) for x in _call_args(node, builtins) if isinstance(x, _EXPR)]
    if isinstance(node, A.If):
        return [(cond, None) for cond, _ in node.branches]
    out = []
    if isinstance(node, A.Assign):  # the target is written, not read: only a counter's index is
        node = A.ExprStmt(node.value, line=node.line, col=node.col) if isinstance(node.target, A.Name) \
            else A.ListExpr(list(node.target.args) + [node.value], line=node.line, col=node.col)
    for v in vars(node).values():
        items = v if isinstance(v, list) else list(v.values()) if isinstance(v, dict) else [v]
        out += [(x, None) for x in items if isinstance(x, _EXPR)]
    return out


def _call_args(call: A.Call, builtins: dict) -> list:
    """A call's arguments that are expressions (a built-in's bare-word arguments are not)."""
    b = builtins.get(call.func)
    if b is None:
        return list(call.args) + list(call.kwargs.values())
    types = [t for _, t, _ in b.params]
    out = []
    for i, a in enumerate(call.args):
        t = types[i] if i < len(types) else (types[-1] if types and types[-1].startswith("*") else "any")
        if t.lstrip("*") != "ident":
            out.append(a)
    named = {n: t for n, t, _ in b.params}
    out += [v for k, v in call.kwargs.items() if named.get(k, "any") != "ident"]
    return out


def recover(comp, node, src, scope, check_error) -> None:
    """Check every part of a failed `node` on its own, recording each part's mistakes."""
    for part, var in _parts(node, comp.B.TABLE):  # the compiler's table of built-ins
        sc = scope
        if var is not None:
            sc = copy.copy(scope)
            sc.names = {**scope.names, var: "any"}
        if isinstance(part, A.Call) and comp.is_blocking(part):
            recover(comp, part, src, sc, check_error)  # asking is a statement: check its arguments
            continue
        before = len(comp.errs.problems)
        try:
            comp.expr(part, src, sc)
        except check_error:
            seen = {(p.loc, p.message) for p in comp.errs.problems[:before]}
            comp.errs.problems[before:] = [p for p in comp.errs.problems[before:]
                                          if (p.loc, p.message) not in seen]
            recover(comp, part, src, sc, check_error)
