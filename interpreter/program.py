"""Stage 5 of the pipeline: a Ruleset -> a Program (layouts + every effect compiled).

The Program fixes where everything lives in a game state: zones and counters are flat
lists, indexed global first, then per location, then per player; card copies are numbered
instances with their card id (`kind`) in `card_def`. Every code string of the ruleset is
compiled here (effects/compile.py) and every problem is collected, located, at once.
`Program.table(n)` gives the per-player-count tables a game with n players runs on.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from .effects.codegen import combine, define, frame_free, tagged
from .effects.compile import Code, Compiler, Scope, Source, walk_nodes
from .effects.types import elem
from .errors import Collector
from .model import Item, Ruleset, parse_typed_signature

VIS = {"public": 0, "owner": 1, "hidden": 2}


@dataclass
class ZoneDef:
    name: str
    per: str
    j: int
    vis: int
    capacity: int | None
    item: Item
    on_empty: str | None = None


@dataclass
class CounterDef:
    name: str
    per: str
    j: int
    min: int
    max: int
    initial: Any
    reset: str | None
    vis: int
    item: Item


@dataclass
class ActionDef:
    id: str
    group: str
    kind: str
    once: bool
    free: bool
    private: bool
    arg_names: list
    arg_fns: list
    arg_types: list
    when: Any
    code_id: str
    item: Item
    conds: list = field(default_factory=list)  # per number of bound args: the test to pass then
    public: bool = False  # the log shows its cards to everyone (played face up, then discarded)


@dataclass
class EndDef:
    id: str
    when: Any
    winners: list
    item: Item


class Program:
    """A compiled ruleset: layouts, compiled code, and the tables the engine runs on."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.codes: dict[str, Code] = {}
        self.prompts: set[str] = set()
        self.events_logged: dict[str, set] = {}
        self.events_emitted: set[str] = set()
        self.params: dict[str, Any] = {}
        self.counter_defs: dict[str, CounterDef] = {}
        self.zone_defs: dict[str, ZoneDef] = {}
        self.card_ids: list[str] = []
        self.card_index: dict[str, int] = {}
        self.card_def: list[int] = []
        self.kind_instances: list[list[int]] = []
        self.kind_props: dict[str, list] = {}
        self.prop_types: dict[str, str] = {}
        self.kind_sets: list[str] = []
        self.kind_tags: list[list[str]] = []
        self.kind_params: list[dict] = []
        self.loc_ids: list[str] = []
        self.loc_index: dict[str, int] = {}
        self.loc_props: dict[str, list] = {}
        self.loc_prop_types: dict[str, str] = {}
        self.sides: list[str] = list(rs.sides)
        self.proc_sigs: dict[str, list[str]] = {}
        self.proc_ret: dict[str, str] = {}
        self.actions: dict[str, ActionDef] = {}
        self.groups: dict[str, list[str]] = {}
        self.hook_arity: dict[str, int] = {}
        self.hook_types: dict[str, list[str]] = {}
        self.kind_hooks: list[dict] = []
        self.loc_hooks: list[dict] = []
        self.kind_playable: list = []
        self.triggers: dict[str, list] = {}
        self.modifier_fns: dict[str, list] = {}
        self.end_defs: list[EndDef] = []
        self.side_of_fn = None
        self.side_fn = None  # side_fn(st, p): the side of player p, without a frame
        self.side_g = None  # side_of's generated text in terms of v_p, when it reads no frame
        self.end_fn = None  # end_fn(st, fr): the index of the first end condition that holds, or -1
        self.end_reads_frame = True  # False: end_fn may be given no frame (fr=None)
        self.first_fn = None
        self.skip_fn = None
        self.evaluate_fns: dict[str, Any] = {}
        # option (or action) id -> playout weight: a number, or (fn(st, frame), arg names)
        self.playout_weights: dict[str, Any] = {}
        self.evaluate_scale: float | None = None  # `search: scale:`, the evaluate value of a sure win
        self.stats_fns: dict[str, Any] = {}  # `stats:` name -> fn(st, frame), read when a game ends
        self.prompt_types: dict[str, set] = {}  # choose() prompt -> the types of items it offers
        self.prompt_scopes: dict[str, list] = {}  # choose() prompt -> the local names where it asks
        self.policy = None  # the compiled `policy:` (policy_program.py), or None
        self.player_name_zone = rs.player_name
        self.errs = Collector()

    @property
    def rules_hash(self) -> str:
        """The ruleset's hash, computed once: `Ruleset.hash` encodes every document, which cost
        more than the rest of a save and a load together. The rules are final (variants
        applied) when a Program is compiled."""
        h = self.__dict__.get("_rules_hash")
        if h is None:
            h = self.__dict__["_rules_hash"] = self.rs.hash
        return h

    # ---- layout ---------------------------------------------------------------------------

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
            for _ in range(int(v.get("count", 1) or 0)):
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
            sig = parse_typed_signature(item.path[1])
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
        """A counter bound: a number, or a param (its default value; by_players uses the
        largest player count's value, so the bound is fixed for the whole ruleset)."""
        if isinstance(v, bool) or v is None:
            v = 0 if key == "min" else 1_000_000
        if isinstance(v, int):
            return v
        if isinstance(v, str) and v in self.params:
            pv = self.params[v]
            if isinstance(pv, tuple):
                table, default = pv
                vals = list(table.values()) + [default]
                return max(vals) if key == "max" else min(vals)
            return int(pv)
        self.errs.add(item.loc(key), f"{key} must be a number or a param, found {v!r}")
        return 0 if key == "min" else 1_000_000

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

    # ---- compilation ----------------------------------------------------------------------

    def compile(self) -> list:
        """Compile every code string; return the located problems."""
        self.layout()
        rs = self.rs
        comp = Compiler(self, self.errs)
        P = {"me": "player"}
        # modifiers first: param references compile them in
        for m in rs.modifiers:
            v = m.value if isinstance(m.value, dict) else {}
            target = v.get("param")
            if target not in self.params:
                self.errs.add(m.loc("param"), f"modifier names unknown param {target!r}")
                continue
            when, _ = comp.expression(v.get("when", True), Source(*m.where(("when",))), Scope(P), "bool")
            if "set" in v:  # `set` replaces the value: written as adding (new - current)
                setf, _ = comp.expression(v["set"], Source(*m.where(("set",))), Scope(P), "int")
                base = self.param_fn(target)
                add = (lambda sf, bf: (lambda st, fr: sf(st, fr) - bf(st, fr)))(setf, base) if setf else None
            else:
                add, _ = comp.expression(v.get("add", 0), Source(*m.where(("add",))), Scope(P), "int")
            if when and add:
                self.modifier_fns.setdefault(target, []).append((when, add))
        self._compile_side_of(comp)
        comp.find_sync_procs({name: item.value for name, item in rs.procedures.items()})
        self.sync_procs = comp.sync_procs
        for name, item in rs.procedures.items():
            params = self.proc_sigs[name]
            scope = Scope({**P, **dict(zip(params, self.proc_types[name]))}, "procedure")
            comp.code("proc:" + name, item.value, Source(*item.where()), scope, params,
                      direct=name in comp.sync_procs)
        for aid, item in rs.actions.items():
            self._compile_action(comp, aid, item)
        for k, (cid, item) in enumerate(rs.cards.items()):
            hooks = self.kind_hooks[k]
            for hname, (key, params) in list(hooks.items()):
                htypes = parse_typed_signature(key)[2]
                scope = Scope({**P, "this": "card", **dict(zip(params, htypes))}, "card",
                              this_card=cid, card_params=self.kind_params[k])
                code_id = f"card:{cid}:{hname}"
                comp.code(code_id, item.value["effects"][key], Source(*item.where(("effects", key))),
                          scope, params)
                hooks[hname] = (code_id, params)
            v = item.value if isinstance(item.value, dict) else {}
            if "playable" in v:
                scope = Scope({**P, "this": "card"}, "card", this_card=cid, card_params=self.kind_params[k])
                fn, _ = comp.expression(v["playable"], Source(*item.where(("playable",))), scope, "bool")
                self.kind_playable.append(fn)
            else:
                self.kind_playable.append(None)
        for i, lid in enumerate(self.loc_ids):
            item = rs.locations[lid]
            hooks = self.loc_hooks[i]
            for hname, (key, params) in list(hooks.items()):
                htypes = parse_typed_signature(key)[2]
                scope = Scope({**P, "here": "loc", **dict(zip(params, htypes))}, "location", here_loc=lid)
                code_id = f"loc:{lid}:{hname}"
                comp.code(code_id, item.value["effects"][key], Source(*item.where(("effects", key))),
                          scope, params)
                hooks[hname] = (code_id, params)
        for i, t in enumerate(rs.triggers):
            v = t.value if isinstance(t.value, dict) else {}
            names = [str(x) for x in v.get("with", []) or []]
            ev = str(v.get("on", ""))
            scope = Scope({**P, **{a: "any" for a in names}}, "trigger")
            when = v.get("when")
            text = v.get("effect", "pass")
            if when is not None:
                wfn, _ = comp.expression(when, Source(*t.where(("when",))), scope, "bool")
            else:
                wfn = None
            comp.code(f"trigger:{i}", text, Source(*t.where(("effect",))), scope, names,
                      prelude=_guard(wfn) if wfn is not None else None)
            self.triggers.setdefault(ev, []).append((f"trigger:{i}", names))
        for zname, zd in self.zone_defs.items():
            if zd.on_empty:
                comp.code(f"zone:{zname}:on_empty", zd.on_empty, Source(*zd.item.where(("on_empty",))),
                          Scope(P), [])
        from .engine.decisions import ACT_LOG, settle_act_log
        self.codes[ACT_LOG] = Code(ACT_LOG, [settle_act_log], [None])
        if rs.setup is not None:
            comp.code("setup", rs.setup.value, Source(*rs.setup.where()), Scope(P))
        else:
            self.codes["setup"] = Code("setup")
        if rs.turn is not None:
            comp.code("turn", rs.turn.value, Source(*rs.turn.where()), Scope(P))
        else:
            self.errs.add(rs.docs[0].source.value(()), "the ruleset has no 'turn' section")
        for e in rs.end:
            v = e.value if isinstance(e.value, dict) else {}
            fn, _ = comp.expression(v.get("when", False), Source(*e.where(("when",))), Scope(P), "bool")
            winners = [str(w) for w in v.get("winners", []) or []]
            for wi, w in enumerate(winners):
                if w not in self.sides:
                    self.errs.add(e.loc("winners", wi), f"unknown side {w!r} (sides: {', '.join(self.sides)})")
            self.end_defs.append(EndDef(e.id, fn, winners, e))
        self.end_fn = _first_true(comp, [e.when for e in self.end_defs])
        self.end_reads_frame = self.end_fn is None or not frame_free(self.end_fn._g)
        to = rs.turn_order
        if to is not None and isinstance(to.value, dict):
            if "first" in to.value:
                self.first_fn, _ = comp.expression(to.value["first"], Source(*to.where(("first",))),
                                                   Scope(P), "player")
            if "skip" in to.value:
                self.skip_fn, _ = comp.expression(to.value["skip"], Source(*to.where(("skip",))),
                                                  Scope({"p": "player", **P}), "bool")
        ev = rs.evaluate
        if ev is not None and isinstance(ev.value, dict):
            for side, text in ev.value.items():
                fn, _ = comp.expression(text, Source(*ev.where((side,))), Scope(P), "int")
                self.evaluate_fns[side] = fn
        self._search(rs, comp)
        from .policy_program import compile_policy
        self.policy = compile_policy(self, rs, comp)
        st_ = rs.stats
        if st_ is not None and isinstance(st_.value, dict):
            for name, text in st_.value.items():
                fn, _ = comp.expression(text, Source(*st_.where((name,))), Scope(P), "int")
                if fn is not None:
                    self.stats_fns[str(name)] = fn
        comp.link()
        for cd in self.counter_defs.values():
            if cd.reset not in (None, "turn"):
                self.errs.add(cd.item.loc("reset"), f"reset must be 'turn', found {cd.reset!r}")
        return self.errs.problems

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
            from .effects import ast as A
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

    def _split_when(self, comp: Compiler, text, src: Source, scope: Scope, names: list):
        """Compile a legality test as per-level parts: level k runs once k args are bound."""
        from .effects import ast as A
        from .effects.compile import CheckError
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
                    continue
                used = _names_in(part)
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


def _names_in(node) -> set:
    """Every bare name an expression reads (for deciding when a test can run)."""
    from .effects import ast as A
    out = set()
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Name):
            out.add(n.id)
        elif isinstance(n, A.Node):
            for v in vars(n).values():
                if isinstance(v, (A.Node, list, tuple, dict)):
                    stack.append(v)
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())
    return out


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


def _first_true(comp, fns):
    """One generated function for a list of tests run in order: the index of the first that
    holds, or -1 (the end conditions, checked after every action)."""
    if not fns or any(f is None or getattr(f, "_g", None) is None for f in fns):
        return None
    body = "\n".join(f"if {{{i}}}:\n    return {i}" for i in range(len(fns))) + "\nreturn -1"
    g = combine(body, *[comp.g(f) for f in fns])
    return define(g, "{e}")


def _prop_type(values) -> str:
    vals = [v for v in values if v is not None]
    if all(isinstance(v, bool) for v in vals) and vals:
        return "bool"
    if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
        return "int"
    if all(isinstance(v, str) for v in vals):
        return "str"
    return "any"


def _guard(wfn):
    def ins(st, fr):
        if not wfn(st, fr):
            fr[1] = 1 << 30  # past the end: the frame finishes
    return ins


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
