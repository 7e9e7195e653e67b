"""Names and scopes: what a name in effect code means, and where a problem is reported.

Pipeline position: compiler (effects/), below compile.py, which mixes NamesMixin into the
Compiler. A name is a local or parameter of the code unit (its Scope), a card parameter, a
special name (me, this, here...), a param, a counter, a zone, a card, a location or a
side; anything else is a located problem with a "did you mean". The names of special
words and of params and zones are compiled in references.py; the Scope is in scope.py.
"""

from __future__ import annotations

import difflib

from . import ast as A
from . import references as R
from .codegen import combine, tag, tagged
from .scope import CheckError, Scope


class NamesMixin:
    """Resolving names against the scope and the ruleset (a part of Compiler)."""

    def resolves_globally(self, name: str) -> bool:
        p = self.p
        return (name in p.params or name in p.counter_defs or name in p.zone_defs
                or name in p.card_index or name in p.loc_index or name in p.sides)

    def global_kind(self, name: str) -> str:
        p = self.p
        for what, table in (("param", p.params), ("counter", p.counter_defs), ("zone", p.zone_defs),
                            ("card", p.card_index), ("location", p.loc_index), ("side", p.sides)):
            if name in table:
                return what
        return "name"

    def all_names(self, scope: Scope) -> list[str]:
        p = self.p
        return (list(scope.names) + list(scope.card_params) + list(p.params) + list(p.counter_defs)
                + list(p.zone_defs) + list(p.card_index) + list(p.loc_index) + list(p.sides)
                + list(R.NAMES) + list(self.B.TABLE) + list(p.proc_sigs))

    def suggest(self, name: str, scope: Scope) -> str:
        close = difflib.get_close_matches(name, self.all_names(scope), n=1, cutoff=0.75)
        return f" (did you mean {close[0]!r}?)" if close else ""

    def check_local_target(self, s: A.Assign, tgt: A.Name, src, scope) -> None:
        """A name assigned to is a local variable: not a global name, and defined already
        when it is `+=` or `-=`."""
        name = tgt.id
        if self.resolves_globally(name):
            self.problem(src, tgt, f"cannot assign to {name!r}: it names a "
                         f"{self.global_kind(name)}, not a local variable")
            raise CheckError
        if s.op != "=" and name not in scope.names:
            self.problem(src, tgt, f"undefined variable {name!r}")
            raise CheckError

    def x_Name(self, e, src, scope):
        name = e.id
        if name in scope.names:
            t = scope.names[name]
            # inside a generated comprehension its variable is a Python variable
            s = "v_" + name if name in scope.pyvars else f"L.get({name!r})"
            return tag(lambda st, fr: fr[2].get(name), s), t
        if name in scope.card_params:
            v = scope.card_params[name]
            return (tagged(lambda st, fr: v, self.namer.const(v)),
                    ("int" if isinstance(v, int) and not isinstance(v, bool) else "any"))
        special = R.NAMES.get(name)
        if special is not None:
            return special(self, e, src, scope)
        p = self.p
        if name in p.params:
            return R.param_ref(self, name, e, src, scope), "int"
        if name in p.counter_defs:
            cd = p.counter_defs[name]
            if cd.per != "none":
                self.problem(src, e, f"counter {name!r} is per {cd.per}: write {name}(...)")
                raise CheckError
            i = cd.j
            return tag(lambda st, fr: st.ctr[i], f"st.ctr[{i}]"), "int"
        if name in p.zone_defs:
            zd = p.zone_defs[name]
            if zd.per != "none":
                self.problem(src, e, f"zone {name!r} is per {zd.per}: write {name}(...)")
                raise CheckError
            z = zd.j
            return tag(lambda st, fr: z, repr(z)), "zone"
        if name in p.card_index:
            k = p.card_index[name]
            return tag(lambda st, fr: k, repr(k)), "kind"
        if name in p.loc_index:
            li = p.loc_index[name]
            return tag(lambda st, fr: li, repr(li)), "loc"
        if name in p.sides:
            return tag(lambda st, fr: name, repr(name)), "str"
        if name in p.proc_sigs or name in self.B.TABLE:
            self.problem(src, e, f"{name!r} is a function: call it as {name}(...)")
            raise CheckError
        self.problem(src, e, f"undefined name {name!r}{self.suggest(name, scope)}")
        raise CheckError

    def counter_index(self, name, node, src, scope):
        """A closure giving the flat index of a counter (global, per player or per location)."""
        cd = self.p.counter_defs[name]
        args = node.args if isinstance(node, A.Call) else []
        if cd.per == "none":
            if args:
                self.problem(src, node, f"counter {name!r} is global: write {name} without (...)")
                raise CheckError
            i = cd.j
            return tag(lambda st, fr: i, repr(i))
        if len(args) != 1:
            self.problem(src, node, f"counter {name!r} is per {cd.per}: it takes 1 argument, "
                         f"found {len(args)}")
            raise CheckError
        p = self.p
        return self.slot_index(args[0], cd.per, (p.CB, p.NPC), (p.NGC, p.NLC), cd.j, src, scope)

    def slot_index(self, node, per: str, player_layout, loc_layout, j: int, src, scope):
        """The flat index of a per-player or per-location zone or counter: the owner's block
        starts at base + owner * stride (see program/layout.py), and this one is the j-th."""
        want = "player" if per == "player" else "loc"
        fn, t = self.expr(node, src, scope)
        self.need(src, node, want, t)
        fn = self.coerce(fn, t, want)
        base, stride = player_layout if per == "player" else loc_layout
        return tagged(lambda st, fr: base + fn(st, fr) * stride + j,
                      combine(f"({{0}} * {stride} + {base + j})", self.g(fn)))
