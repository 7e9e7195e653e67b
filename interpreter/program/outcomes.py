"""Sides, the end of the game as one function, and hints for search bots.

Pipeline position: program (program/), mixed into Program (core.py). `side_of` becomes a
function of (state, player) without a frame when it reads none (end conditions ask every
player's side after every action); the end conditions become one generated function
giving the first that holds; `search:` playout weights are checked against the options a
game can offer.
"""

from __future__ import annotations

import difflib
import re

from ..effects import ast as A
from ..effects.ast import walk_nodes
from ..effects.codegen import combine, define, frame_free
from ..effects.compile import Compiler, Scope, Source


class OutcomesMixin:
    """Compiling sides, end conditions and search hints (a part of Program)."""

    def _compile_side_of(self, comp: Compiler) -> None:
        """side_of, and side_fn: the same expression as a function of (st, p) when it reads no
        frame (`side(p)` is called for every player by end conditions, after every action)."""
        rs = self.rs
        default = self.sides[0] if self.sides else None
        if rs.side_of is None:
            self.side_fn = lambda st, p: default
            return
        src = Source(*rs.side_of.where())
        P = {"p": "player", "me": "player"}
        self.side_of_fn, _ = comp.expression(rs.side_of.value, src, Scope(P), "str")
        if self.side_of_fn is None:
            return
        scope = Scope(P)
        scope.pyvars = frozenset({"p"})
        tree = comp.parse(rs.side_of.value, src, "expression")
        fn, _ = comp.expr(tree, src, scope)
        g = comp.g(fn)
        if frame_free(g):
            if not any(isinstance(n, A.Comprehension) and n.var == "p" for n in walk_nodes(tree)):
                self.side_g = g  # side(x) of a plain variable x is written inline: v_p -> x
            g = combine("{0}", g, comp.namer.const(default))
            self.side_fn = define(g, "if v_p is None:\n    return %s\nreturn {e}" % repr(default),
                                  params="st, v_p")
        else:
            slow = self.side_of_fn
            self.side_fn = lambda st, p: default if p is None else slow(st, [None, 0, {"p": p, "me": p}, None])

    def _search(self, rs, comp: Compiler) -> None:
        """Read `search:` (hints for search bots). A playout weight is a number or an
        expression (of `me`, the deciding player, and the action's arguments when it names an
        action); it must name an option the game can offer: an action, a card, a location,
        `pass`, or a word some effect quotes."""
        po = rs.search
        if po is None or not isinstance(po.value, dict):
            return
        if po.value.get("scale") is not None:
            self.evaluate_scale = float(po.value["scale"])
        weights = po.value.get("playout") or {}
        if not isinstance(weights, dict):
            return
        known = set(self.actions) | set(self.card_ids) | set(self.loc_ids) | {"pass"}
        known |= _quoted_words(rs.data)
        for key, w in weights.items():
            name = str(key)
            if name.split(":", 1)[0] not in known:
                close = difflib.get_close_matches(name, sorted(known), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                doc, path = po.where(("playout", key))
                if rs.variants:
                    hint += (f"; a variant that removes an option removes its weight too, with "
                             f"`search: {{playout: {{{name}: null}}}}`")
                self.errs.add(doc.source.key(path), f"playout weight for {name!r}, which is no action, card, "
                              f"location or quoted word of this ruleset{hint}")
                continue
            if isinstance(w, str):
                a = self.actions.get(name)
                names = list(a.arg_names) if a is not None else []
                types = list(a.arg_types) if a is not None else []
                scope = Scope({"me": "player", **dict(zip(names, types))})
                fn, _ = comp.expression(w, Source(*po.where(("playout", key))), scope, "int")
                if fn is not None:
                    self.playout_weights[name] = (fn, tuple(names))
            else:
                self.playout_weights[name] = float(w)


def _first_true(comp, fns):
    """One generated function for a list of tests run in order: the index of the first that
    holds, or -1 (the end conditions, checked after every action)."""
    if not fns or any(f is None or getattr(f, "_g", None) is None for f in fns):
        return None
    body = "\n".join(f"if {{{i}}}:\n    return {i}" for i in range(len(fns))) + "\nreturn -1"
    g = combine(body, *[comp.g(f) for f in fns])
    return define(g, "{e}")


_QUOTED = re.compile(r"""["']([A-Za-z_][A-Za-z0-9_]*)["']""")


def _quoted_words(data) -> set[str]:
    """Every identifier written in quotes inside the ruleset's text (the words a `choose`
    may offer as options)."""
    out: set[str] = set()
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if '"' in v or "'" in v:
                out.update(_QUOTED.findall(v))
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out
