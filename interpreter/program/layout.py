"""Where everything lives in a game state: params, zones, counters, cards, locations, hooks.

Pipeline position: program (program/), mixed into Program (core.py), run before any code
is compiled: the compiler (effects/) turns names into the indexes fixed here. Zones and
counters are flat lists, indexed global first, then per location, then per player (so
`hand(p)` is `base + p * stride + j`); card copies are numbered instances with their card
id (`kind`) in `card_def`.
"""

from __future__ import annotations

from typing import Any

from ..frontend.model import MAX_CARDS, MAX_COPIES, Item, parse_typed_signature, proc_key
from .defs import VIS, CounterDef, ZoneDef


class LayoutMixin:
    """Laying out a ruleset's state (a part of Program)."""

    def layout(self) -> None:
        rs, errs = self.rs, self.errs
        for name, item in rs.params.items():
            v = item.value
            if isinstance(v, dict):
                table = {int(k): int(x) for k, x in (v.get("by_players") or {}).items()}
                self.params[name] = (table, int(v.get("default", 0)))
            elif isinstance(v, (int, bool)):
                self.params[name] = int(v)
            else:
                errs.add(item.loc(), f"param {name!r} must be a number or a by_players table")
                self.params[name] = 0
        for i, lid in enumerate(rs.locations):
            self.loc_ids.append(lid)
            self.loc_index[lid] = i
        L = len(self.loc_ids)
        counts = {"none": 0, "location": 0, "player": 0}
        for name, item in rs.zones.items():
            v = item.value if isinstance(item.value, dict) else {}
            per = v.get("per", "none")
            zd = ZoneDef(name, per, counts[per], VIS.get(v.get("visibility", "hidden"), 2),
                         v.get("capacity"), item, v.get("on_empty"))
            counts[per] += 1
            self.zone_defs[name] = zd
        self.NGZ, self.NLZ, self.NPZ = counts["none"], counts["location"], counts["player"]
        self.PB = self.NGZ + L * self.NLZ
        counts = {"none": 0, "location": 0, "player": 0}
        for name, item in rs.counters.items():
            v = item.value if isinstance(item.value, dict) else {}
            per = v.get("per", "none")
            lo = self._bound(v.get("min", 0), item, "min")
            hi = self._bound(v.get("max", 1_000_000), item, "max")
            init = v.get("initial", lo if lo > 0 else 0)
            if isinstance(init, str) and init not in self.params:
                errs.add(item.loc("initial"), f"initial value {init!r} is neither a number nor a param")
                init = lo
            cd = CounterDef(name, per, counts[per], lo, hi, init, v.get("reset"),
                            VIS.get(v.get("visibility", "public"), 0), item)
            counts[per] += 1
            self.counter_defs[name] = cd
        self.NGC, self.NLC, self.NPC = counts["none"], counts["location"], counts["player"]
        self.CB = self.NGC + L * self.NLC
        # cards
        props: dict[str, dict[int, Any]] = {}
        for k, (cid, item) in enumerate(rs.cards.items()):
            v = item.value if isinstance(item.value, dict) else {}
            self.card_ids.append(cid)
            self.card_index[cid] = k
            self.kind_sets.append(str(v.get("set", "cards")))
            self.kind_tags.append([str(t) for t in v.get("tags", []) or []])
            self.kind_params.append(dict(v.get("params") or {}))
            inst = []
            copies = min(int(v.get("count", 1) or 0), MAX_COPIES, MAX_CARDS - len(self.card_def))
            for _ in range(max(copies, 0)):  # past the limits lint (or the schema) refuses the ruleset
                inst.append(len(self.card_def))
                self.card_def.append(k)
            self.kind_instances.append(inst)
            for pn, pv in (v.get("props") or {}).items():
                props.setdefault(pn, {})[k] = pv
        K = len(self.card_ids)
        for pn, vals in props.items():
            self.kind_props[pn] = [vals.get(k) for k in range(K)]
            self.prop_types[pn] = _prop_type(vals.values())
        self.kind_props["tags"] = self.kind_tags
        self.prop_types["tags"] = "list:str"
        self.kind_props["set"] = self.kind_sets
        self.prop_types["set"] = "str"
        lprops: dict[str, dict[int, Any]] = {}
        for i, lid in enumerate(self.loc_ids):
            v = rs.locations[lid].value if isinstance(rs.locations[lid].value, dict) else {}
            for pn, pv in (v.get("props") or {}).items():
                lprops.setdefault(pn, {})[i] = pv
            lprops.setdefault("tags", {})[i] = [str(t) for t in v.get("tags", []) or []]
        for pn, vals in lprops.items():
            self.loc_props[pn] = [vals.get(i) for i in range(L)]
            self.loc_prop_types[pn] = _prop_type(vals.values()) if pn != "tags" else "list:str"
        self.proc_types: dict[str, list[str]] = {}
        for name, item in rs.procedures.items():
            sig = parse_typed_signature(proc_key(item))
            self.proc_sigs[name] = sig[1] if sig else []
            self.proc_types[name] = sig[2] if sig else []
        for aid, item in rs.actions.items():
            v = item.value if isinstance(item.value, dict) else {}
            self.groups.setdefault(str(v.get("group", "main")), []).append(aid)
        if self.player_name_zone is not None and self.player_name_zone not in self.zone_defs:
            errs.add(rs.docs[0].source.value(("player_name",)),
                     f"player_name names {self.player_name_zone!r}, which is not a zone")
            self.player_name_zone = None
        # hooks: arity per hook name must agree everywhere
        for k, (cid, item) in enumerate(rs.cards.items()):
            self.kind_hooks.append(self._hook_sigs(item, ("effects",)))
        for lid in self.loc_ids:
            self.loc_hooks.append(self._hook_sigs(rs.locations[lid], ("effects",)))

    def _bound(self, v, item: Item, key: str) -> int:
        """A counter bound: a number, or an expression of params (`limit`, `max_life + 1`),
        so a variant that moves a limit moves the bound with it. A param's value depends on the
        player count (by_players): the bound is fixed for the whole ruleset, the largest value
        over every player count for a max, the smallest for a min."""
        if isinstance(v, bool) or v is None:
            v = 0 if key == "min" else 1_000_000
        if isinstance(v, int):
            return v
        values, why = self._param_expr(v)
        if why is None:
            return max(values) if key == "max" else min(values)
        self.errs.add(item.loc(key), f"{key} must be a number or an expression of params: {why}")
        return 0 if key == "min" else 1_000_000

    def _param_expr(self, text) -> tuple[list[int], str | None]:
        """The values of an expression of params and whole numbers, one per player count."""
        from ..effects import ast as A
        from ..effects.parse import EffectSyntaxError, parse
        try:
            tree = parse(str(text), "expression")
        except EffectSyntaxError as e:
            return [], f"{text!r} is not an expression ({e.message})"
        ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "//": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0}

        def ev(node, n):
            if isinstance(node, A.Num) and isinstance(node.value, int):
                return node.value
            if isinstance(node, A.Name) and node.id in self.params:
                return self.param_value(node.id, n)
            if isinstance(node, A.Neg):
                return -ev(node.operand, n)
            if isinstance(node, A.BinOp) and node.op in ops:
                return ops[node.op](ev(node.left, n), ev(node.right, n))
            if isinstance(node, A.Name):
                from ..frontend.validate import _suggest
                raise LookupError(f"{node.id!r} is not a param{_suggest(node.id, sorted(self.params))}")
            raise LookupError(f"{text!r} uses more than params, whole numbers and + - * // %")
        try:
            return [ev(tree, n) for n in range(self.rs.min_players, self.rs.max_players + 1)], None
        except LookupError as e:
            return [], str(e.args[0])

    def _hook_sigs(self, item: Item, sub) -> dict:
        out = {}
        v = item.value if isinstance(item.value, dict) else {}
        for key in (v.get("effects") or {}):
            sig = parse_typed_signature(key)
            if sig is None:
                self.errs.add(item.doc.source.key(item.path + sub + (key,)),
                              f"hook name {key!r} must look like name or name(arg, ...)")
                continue
            name, params, types = sig
            self.hook_types.setdefault(name, types)
            prev = self.hook_arity.setdefault(name, len(params))
            if prev != len(params):
                self.errs.add(item.doc.source.key(item.path + sub + (key,)),
                              f"hook {name!r} takes {prev} argument(s) elsewhere; here {len(params)}")
            out[name] = (key, params)
        return out

    def param_fn(self, name: str):
        v = self.params[name]
        if isinstance(v, tuple):
            table, default = v
            return lambda st, fr: table.get(st.n, default)
        return lambda st, fr: v

    def param_value(self, name: str, n: int) -> int:
        v = self.params[name]
        if isinstance(v, tuple):
            return v[0].get(n, v[1])
        return v


def _prop_type(values) -> str:
    vals = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in vals) and vals:
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int"
    if all(isinstance(v, str) for v in vals):
        return "str"
    return "any"
