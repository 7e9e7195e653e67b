"""Actions: argument domains, legality tests split by the arguments they read, effects.

Pipeline position: program (program/), mixed into Program (core.py); the engine's tables
(engine/table.py) generate one function per action group from what is compiled here.
A legality test is split at its `and`s, and each part is checked as soon as the args it
names are bound, so a part naming no arg runs once per decision, not once per argument.
"""

from __future__ import annotations

from ..effects import ast as A
from ..effects.ast import names_in
from ..effects.codegen import combine, tagged
from ..effects.compile import CheckError, Compiler, Scope, Source
from ..effects.types import elem
from ..frontend.model import Item
from .defs import ActionDef


class ActionsMixin:
    """Compiling the actions of a ruleset (a part of Program)."""

    def _split_when(self, comp: Compiler, text, src: Source, scope: Scope, names: list):
        """Compile a legality test as per-level parts: level k runs once k args are bound."""
        levels: list = [[] for _ in range(len(names) + 1)]
        if not isinstance(text, str):
            fn, _ = comp.expression(text, src, scope, "bool")
            levels[0].append(fn)
        else:
            tree = comp.parse(text, src, "expression")
            if tree is None:
                return [None] * (len(names) + 1), None
            parts = tree.values if isinstance(tree, A.BoolOp) and tree.op == "and" else [tree]
            for part in parts:
                try:
                    fn, _ = comp.expr(part, src, scope)
                except CheckError:
                    comp.recover(part, src, scope)
                    continue
                used = names_in(part)
                level = max([names.index(n) + 1 for n in names if n in used], default=0)
                levels[level].append(fn)
        # each level is one generated function (effects/codegen.py): no closure per part
        conds = [comp.mat(_all(comp, fs)) if fs else None for fs in levels]
        flat = [f for fs in levels for f in fs]
        return conds, (comp.mat(_all(comp, flat)) if flat else None)

    def _compile_action(self, comp: Compiler, aid: str, item: Item) -> None:
        v = item.value if isinstance(item.value, dict) else {}
        names, fns, types = [], [], []
        scope_names = {"me": "player"}
        for an, dom in (v.get("args") or {}).items():
            fn, t = comp.expression(dom, Source(*item.where(("args", an))), Scope(scope_names), "list:any")
            names.append(an)
            fns.append(fn)
            et = elem(t)
            types.append(et)
            scope_names[an] = et
        # The legality test is split into its `and`-ed parts, and each part is checked as soon
        # as the args it names are bound: a part naming no arg is checked once, before any
        # arg is enumerated (legal-option generation is the hot path of every simulation).
        conds: list = [None] * (len(names) + 1)
        when = None
        if "when" in v:
            conds, when = self._split_when(comp, v["when"], Source(*item.where(("when",))),
                                           Scope(scope_names), names)
        code_id = "action:" + aid
        comp.code(code_id, v.get("effect", "pass"), Source(*item.where(("effect",))), Scope(scope_names), names)
        self.actions[aid] = ActionDef(aid, str(v.get("group", "main")), str(v.get("kind", aid)),
                                      bool(v.get("once_per_turn", False)), bool(v.get("free", False)),
                                      bool(v.get("private", False)), names, fns, types, when, code_id, item,
                                      conds, public=bool(v.get("public", False)))


def _all(comp, fns):
    if len(fns) == 1:
        return fns[0]
    g = combine("(" + " and ".join("{%d}" % i for i in range(len(fns))) + ")", *[comp.g(f) for f in fns])
    if len(fns) == 2:
        a, b = fns
        return tagged(lambda st, fr: a(st, fr) and b(st, fr), g)

    def every(st, fr):
        for f in fns:
            if not f(st, fr):
                return False
        return True
    return tagged(every, g)
