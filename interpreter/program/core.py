"""Stage 5 of the pipeline: a Ruleset -> a Program (layouts + every effect compiled).

Pipeline position: program (program/), above the compiler (effects/) and the runtime,
below the engine (engine/), whose `Table(program, n)` lays a Program out for n players.
The Program fixes where everything lives in a game state (layout.py), compiles every code
string of the ruleset through one Compiler (effects/compile.py) and collects every
problem, located, at once. Actions are in actions.py; sides, end conditions and search
hints in outcomes.py.
"""

from __future__ import annotations

from typing import Any

from ..effects.builtins import check_log_players
from ..effects.codegen import frame_free
from ..effects.compile import Code, Compiler, Scope, Source
from ..errors import Collector
from ..frontend.model import Ruleset, parse_typed_signature
from ..runtime.options import ACT_LOG, settle_act_log
from .actions import ActionsMixin
from .defs import ActionDef, CounterDef, EndDef, ZoneDef
from .layout import LayoutMixin
from .outcomes import OutcomesMixin, _first_true
from .policy import compile_policy


class Program(LayoutMixin, ActionsMixin, OutcomesMixin):
    """A compiled ruleset: layouts, compiled code, and the tables the engine runs on."""

    def __init__(self, rs: Ruleset):
        self.rs = rs
        self.codes: dict[str, Code] = {}
        self.prompts: set[str] = set()
        self.events_logged: dict[str, set] = {}
        self.event_types: dict[str, dict] = {}   # event -> {argument name: type} (i18n checks)
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
        self.policy = None  # the compiled `policy:` (program/policy.py), or None
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
        self.sync_procs, self.may_end = comp.sync_procs, comp.may_end
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
        self.policy = compile_policy(self, rs, comp)
        st_ = rs.stats
        if st_ is not None and isinstance(st_.value, dict):
            for name, text in st_.value.items():
                fn, _ = comp.expression(text, Source(*st_.where((name,))), Scope(P), "int")
                if fn is not None:
                    self.stats_fns[str(name)] = fn
        check_log_players(comp)
        comp.link()
        for cd in self.counter_defs.values():
            if cd.reset not in (None, "turn"):
                self.errs.add(cd.item.loc("reset"), f"reset must be 'turn', found {cd.reset!r}")
        return self.errs.problems


def _guard(wfn):
    def ins(st, fr):
        if not wfn(st, fr):
            fr[1] = 1 << 30  # past the end: the frame finishes
    return ins
