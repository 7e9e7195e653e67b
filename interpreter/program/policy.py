"""The ruleset's `policy:` section, compiled: a score for every legal option of a decision.

Pipeline position: program (called by `Program.compile`, with the effect compiler), and
at play time the scoring a policy bot (bots/policy.py) and a search bot's playouts run.

    policy:
      weights: {pair: 6, risk: 2}          # named numbers, tunable (`grimoire tune`)
      default: 0                           # the score of an option nothing below scores
      act:                                 # act decisions: by action id (`pass`: passing)
        play: "pair * count(cards(hand(me)), c) - risk"
      choose:                              # choose decisions: by prompt; `choice` is the item
        discard: "0 - c_value" ...
      sides:                               # optional: per side, merged over the above
        evil: {weights: {risk: 0}, act: {...}}

Every expression is compiled once, to generated Python, with `me` (the deciding player), the
weights, and the action's arguments (or `choice`) as locals, and checked by view_safety.py:
one that reads only what `me` may see is run on the real state; any other on a world drawn
from `me`'s view (see bots/base.py, `Seat.evaluate`). Higher scores are better.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from ..effects import ast as A
from ..effects.parse import parse
from ..effects.scope import CheckError, Scope, Source
from ..effects.types import join
from ..errors import GrimoireError
from .view_safety import ViewCheck, facedown_targets

KEYS = ("weights", "default", "temperature", "act", "choose", "sides", "beliefs")
IMPURE = frozenset({"roll", "random", "move", "move_all", "draw", "shuffle", "reveal", "move_to",
                    "end", "check_end", "end_turn", "place", "give", "log"})


@dataclass
class Scorer:
    """One compiled scoring expression."""

    fn: object            # fn(st, frame) -> number
    names: tuple          # locals bound from the option: the action's argument names, or ("choice",)
    safe: frozenset       # the player counts at which it reads only what the decider may see
    why: list             # where it may not, and why (`PolicyProgram.hidden_reads`)
    where: str            # file:line:col of the expression
    frame: tuple = ()     # card and player locals of the effect that asks (choose), read from its frame
    reads: frozenset = frozenset()  # every name and function the expression mentions
    plan: tuple | None = None  # fn split at the conditions no option changes (see `_plan`)


@dataclass
class Section:
    """The policy one side plays: the base policy with that side's overrides merged in."""

    weights: dict
    default: float
    act: dict = field(default_factory=dict)      # action id (or "pass") -> Scorer
    choose: dict = field(default_factory=dict)   # (prompt, item type) -> Scorer
    safe: frozenset = frozenset()                # player counts at which every scorer is view-safe

    def scorers(self) -> list:
        return list(self.act.values()) + list(self.choose.values())


class PolicyProgram:
    """The compiled policy of a ruleset: sections by side, and how to score options."""

    def __init__(self, base: Section, sides: dict, side_safe: frozenset, temperature: float,
                 beliefs: dict | None = None):
        self.beliefs = beliefs  # {role: zone, temperature, epsilon, samples} (bots/beliefs.py)
        self.base = base
        self.sides = sides
        self.side_safe = side_safe
        self.temperature = temperature

    def section_of(self, st, p: int, overrides: dict | None = None) -> tuple[Section, dict | None]:
        """The section player p plays (by p's side in st), and the weight overrides for it
        (`overrides`: side -> {weight: value}, as `grimoire tune` tries them)."""
        if not self.sides and not overrides:
            return self.base, None
        side = st.g.side_fn(st, p)
        return self.sides.get(side, self.base), (overrides.get(side) if overrides else None)

    def weights_of(self, side: str | None) -> dict:
        """The weights the policy of `side` reads (the base weights for None)."""
        return dict((self.sides.get(side) or self.base).weights) if side else dict(self.base.weights)

    def view_safe(self, st, overrides: dict | None = None) -> bool:
        """May this decision's scores be computed on the real state? (see view_safety.py)"""
        n = st.n
        if (self.sides or overrides) and n not in self.side_safe:
            return False
        sec = self.section_of(st, st.pending["p"], overrides)[0]
        if n in sec.safe:
            return True
        pend = st.pending
        if pend["k"] == "choose":
            sc = sec.choose.get((pend["prompt"], pend["t"]))
            return sc is None or n in sc.safe
        for o in st.options():
            sc = sec.act.get("pass" if o.value is None else o.value[0])
            if sc is not None and n not in sc.safe:
                return False
        return True

    def scores(self, st, p: int, opts: list, overrides: dict | None = None) -> list[float]:
        """The score of each option of st's pending decision, for player p."""
        try:
            return self._scores(st, p, opts, overrides)
        except GrimoireError:
            raise
        except Exception as e:  # a rules bug in a score: said where, not as a traceback
            raise GrimoireError(f"{self._culprit(st, p, opts, overrides)}: a policy score failed: "
                                f"{type(e).__name__}: {e}") from e

    def _culprit(self, st, p, opts, overrides) -> str:
        """Where the first failing expression of this decision is written."""
        sec, _ = self.section_of(st, p, overrides)
        pend = st.pending
        if pend["k"] == "choose":
            sc = sec.choose.get((pend["prompt"], pend["t"]))
            return sc.where if sc else "policy"
        for o in opts:
            sc = sec.act.get("pass" if o.value is None else o.value[0])
            if sc is not None:
                try:
                    self._scores(st, p, [o], overrides)
                except Exception:
                    return sc.where
        return "policy"

    def _scores(self, st, p: int, opts: list, overrides: dict | None) -> list[float]:
        sec, weights = self.section_of(st, p, overrides)
        loc = dict(sec.weights)
        if weights:
            loc.update(weights)
        loc["me"] = p
        fr = [None, 0, loc, None]
        default = sec.default
        out = []
        pend = st.pending
        if pend["k"] == "choose":
            sc = sec.choose.get((pend["prompt"], pend["t"]))
            if sc is None:
                return [default] * len(opts)
            fn = sc.fn
            if sc.frame:
                asking = st.stack[-1][2]
                for n in sc.frame:
                    loc[n] = asking.get(n)
            loc["picked"] = pend.get("picked") or []
            if sc.plan is not None and opts:
                fn = _resolve(sc.plan, st, fr)
            for o in opts:
                loc["choice"] = o.value
                v = fn(st, fr)
                out.append(default if v is None else float(v))
            return out
        act = sec.act
        fns: dict = {}  # scorer -> its function for this decision (a plan resolved once)
        for o in opts:
            v = o.value
            sc = act.get("pass") if v is None else act.get(v[0])
            if sc is None:
                out.append(default)
                continue
            if sc.names:
                loc.update(zip(sc.names, v[1]))
            fn = sc.fn
            if sc.plan is not None:
                fn = fns.get(id(sc))
                if fn is None:
                    fn = fns[id(sc)] = _resolve(sc.plan, st, fr)
            r = fn(st, fr)
            out.append(default if r is None else float(r))
        return out

    def reads_any(self, st, names) -> bool:
        """Might a score of st's pending decision read one of `names` (by what its expressions
        mention)? Always where sides have policies of their own."""
        if self.sides:
            return True
        sec = self.base
        pend = st.pending
        if pend["k"] == "choose":
            sc = sec.choose.get((pend["prompt"], pend["t"]))
            return sc is not None and not sc.reads.isdisjoint(names)
        for o in st.options():
            sc = sec.act.get("pass" if o.value is None else o.value[0])
            if sc is not None and not sc.reads.isdisjoint(names):
                return True
        return False

    def unscored(self, st, p: int, opts: list) -> list[int]:
        """The indices of act options whose action no expression of p's policy scores (an
        action a variant added, say): a search bot tries them, the policy cannot rank them."""
        pend = st.pending
        if pend is None or pend["k"] != "act":
            return []
        scored = self.__dict__.get("_scored_acts")
        if scored is None:  # by any side's policy (what p's side is may be hidden); fixed at load
            scored = self._scored_acts = frozenset(self.base.act).union(
                *(sec.act for sec in self.sides.values()))
        return [i for i, o in enumerate(opts) if o.value is not None and o.value[0] not in scored]

    def hidden_reads(self) -> list[str]:
        """Every expression evaluated on a sampled world (at some player count), with why."""
        out, seen = [], set()
        for sec in [self.base, *self.sides.values()]:
            for sc in sec.scorers():
                if sc.why and id(sc) not in seen:
                    seen.add(id(sc))
                    out.extend(f"{sc.where}: {w}" for w in sc.why)
        return out


def _resolve(plan: tuple, st, fr):
    """The function that scores every option of this decision: the plan's conditions (which
    read nothing an option binds) evaluated once, as the whole expression evaluates them."""
    while plan[0] == "if":
        plan = plan[2] if plan[1](st, fr) else plan[3]
    return plan[1]


# ---- compiling --------------------------------------------------------------------------------

def compile_policy(prog, rs, comp) -> PolicyProgram | None:
    """Compile rs.policy (None if the ruleset has none); problems go to prog.errs."""
    item = getattr(rs, "policy", None)
    if item is None or not isinstance(item.value, dict):
        return None
    # the check differs only where face-down moves depend on the player count
    counts = range(rs.min_players, rs.max_players + 1)
    by_facedown: dict = {}
    for n in counts:
        fd = facedown_targets(rs, parse, prog, n)
        key = None if fd is None else frozenset(fd)
        by_facedown.setdefault(key, []).append(n)
    checks = []
    for fd, ns in by_facedown.items():
        check = ViewCheck(prog, None if fd is None else set(fd))
        check.side_me = _side_known(rs, check)
        checks.append((check, frozenset(ns)))
    c = _Compiling(prog, comp, item, checks)
    v = item.value
    temp = v.get("temperature", 1.0)
    base = c.section(v, (), {})
    sides = {}
    side_safe = frozenset(n for check, ns in checks if check.side_me for n in ns)
    for side, sv in (v.get("sides") or {}).items():
        if side not in prog.sides:
            close = difflib.get_close_matches(str(side), prog.sides, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            prog.errs.add(c.loc(("sides", side)), f"policy for side {side!r}, which is no side of this ruleset{hint}")
            continue
        if isinstance(sv, dict):
            sides[str(side)] = c.section(sv, ("sides", side), {"base": base})
    return PolicyProgram(base, sides, side_safe, float(temp), _beliefs(prog, c, v.get("beliefs")))


def _beliefs(prog, c, spec) -> dict | None:
    """The `beliefs:` entry, checked: its role is a zone every player has."""
    if not isinstance(spec, dict):
        return None
    role = str(spec.get("role", ""))
    zd = prog.zone_defs.get(role)
    if zd is None or zd.per != "player":
        zones = sorted(z for z, d in prog.zone_defs.items() if d.per == "player")
        close = difflib.get_close_matches(role, zones, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        prog.errs.add(c.loc(("beliefs", "role")), f"beliefs: role {role!r} is no zone every player has{hint}")
        return None
    return {k: spec[k] for k in ("role", "temperature", "epsilon", "samples", "worlds") if k in spec}


def _side_known(rs, check: ViewCheck) -> bool:
    """Does side(me) read only what me sees? (side_of is written in p; here p is me)"""
    if rs.side_of is None or not isinstance(rs.side_of.value, str):
        return True  # one side for everyone
    try:
        tree = parse(rs.side_of.value, "expression")
    except Exception:  # a syntax error: reported by the compiler
        return False
    return not check.check(tree, ("p", "me"), set(), me=("p", "me"))


class _Compiling:
    def __init__(self, prog, comp, item, checks: list):
        self.p = prog
        self.comp = comp
        self.item = item
        self.checks = checks  # (ViewCheck, the player counts it holds for)
        self.cache: dict = {}

    def loc(self, path: tuple):
        doc, full = self.item.where(path)
        return doc.source.key(full)

    def section(self, v: dict, at: tuple, inherit: dict) -> Section:
        base = inherit.get("base")
        weights = dict(base.weights) if base else {}
        for name, w in (v.get("weights") or {}).items():
            if not self._weight_name_ok(str(name), at + ("weights", name)):
                continue
            weights[str(name)] = float(w)
        default = float(v.get("default", base.default if base else 0))
        sec = Section(weights, default)
        if base:
            sec.act = dict(base.act)
            sec.choose = dict(base.choose)
        wtypes = {w: "int" for w in weights}
        for aid, text in (v.get("act") or {}).items():
            aid = str(aid)
            path = at + ("act", aid)
            if aid == "pass":
                names, types = [], []
            elif aid in self.p.actions:
                a = self.p.actions[aid]
                names, types = list(a.arg_names), list(a.arg_types)
            else:
                close = difflib.get_close_matches(aid, sorted(self.p.actions), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.p.errs.add(self.loc(path), f"policy scores action {aid!r}, which is no action of "
                                f"this ruleset{hint}")
                continue
            sc = self.scorer(text, path, {**wtypes, **dict(zip(names, types))}, names, set(names))
            if sc is not None:
                sec.act[aid] = sc
        for prompt, text in (v.get("choose") or {}).items():
            prompt = str(prompt)
            path = at + ("choose", prompt)
            types = self.p.prompt_types.get(prompt)
            if not types:
                known = sorted(self.p.prompt_types)
                close = difflib.get_close_matches(prompt, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.p.errs.add(self.loc(path), f"policy scores prompt {prompt!r}, which no choose() of "
                                f"this ruleset asks{hint}")
                continue
            frame = self.asking_cards(prompt, set(wtypes))
            for t in sorted(types):
                # `picked`: the items already taken in a choose_many (the decider's own picks)
                sc = self.scorer(text, path, {**frame, **wtypes, "choice": t, "picked": "list:" + t},
                                 ["choice"], {"choice", "picked"}, tuple(frame))
                if sc is not None:
                    sec.choose[(prompt, t)] = sc
        counts = frozenset(n for _, ns in self.checks for n in ns)
        sec.safe = frozenset(n for n in counts if all(n in s.safe for s in sec.scorers()))
        return sec

    def asking_cards(self, prompt: str, taken: set) -> dict:
        """The card and player locals of every effect that asks `prompt` (the offered card of
        a trade, the player a card goes to): a choose score may read them, as values that may
        be hidden from the decider (a local may have been computed from hidden cards), so a
        score that reads one runs on a world drawn from the decider's view."""
        scopes = self.p.prompt_scopes.get(prompt) or []
        out: dict = {}
        for n, t in (scopes[0] if scopes else {}).items():
            if t in ("card", "list:card", "player") and n not in taken and n not in ("me", "choice", "this") \
                    and not n.startswith("_") and all(s.get(n) == t for s in scopes):
                out[n] = t
        return out

    def _weight_name_ok(self, name: str, path: tuple) -> bool:
        p = self.p
        clash = ("param" if name in p.params else "counter" if name in p.counter_defs
                 else "zone" if name in p.zone_defs else "card" if name in p.card_index
                 else "location" if name in p.loc_index else "side" if name in p.sides
                 else "name" if name in ("me", "choice", "picked") else None)
        if clash:
            p.errs.add(self.loc(path), f"policy weight {name!r} has the name of a {clash}: "
                       f"an expression could not read both")
            return False
        return True

    def scorer(self, text, path: tuple, names: dict, arg_names: list, known: set,
               frame: tuple = ()) -> Scorer | None:
        doc, full = self.item.where(path)
        where = str(doc.source.value(full))
        if isinstance(text, bool) or not isinstance(text, (int, float, str)):
            self.p.errs.add(doc.source.value(full), f"a policy score is a number or an expression, "
                            f"found {type(text).__name__}")
            return None
        if not isinstance(text, str):
            v = float(text)
            every = frozenset(n for _, ns in self.checks for n in ns)
            return Scorer(lambda st, fr: v, tuple(arg_names), every, [], where)
        key = (text, tuple(sorted(names.items())), frame)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        src = Source(doc, full)
        tree = self.comp.parse(text, src, "expression")
        if tree is None:
            return None
        for node in A.walk_nodes(tree):
            if isinstance(node, A.Call) and node.func in IMPURE:
                self.comp.problem(src, node, f"{node.func}() changes the game; a policy only scores options")
                return None
        fn, t = self.comp.expression(text, src, Scope({"me": "player", **names}))
        if fn is None:
            return None
        if t not in ("int", "bool", "any"):
            self.comp.problem(src, tree, f"a policy score is a number, found {t}")
            return None
        safe, why = set(), []
        for check, ns in self.checks:
            problems = check.check(tree, {"me": "player", **names}, known, hidden=set(frame))
            if problems:
                why.extend(w for w in problems if w not in why)
            else:
                safe |= ns
        reads = frozenset(n.id if isinstance(n, A.Name) else n.func for n in A.walk_nodes(tree)
                          if isinstance(n, (A.Name, A.Call)))
        plan = self.plan(tree, src, {"me": "player", **names}, set(arg_names), ())
        sc = self.cache[key] = Scorer(fn, tuple(arg_names), frozenset(safe), why, where, frame, reads,
                                      plan if plan is not None and plan[0] == "if" else None)
        return sc

    def plan(self, e, src, names: dict, bound: set, wants: tuple) -> tuple | None:
        """The expression `e` as a decision tree over its conditions that read no name an
        option binds (`bound`: the action's arguments, or `choice`): `("if", cond, then,
        else)` down to `("leaf", fn)`. A score `X if C else Y` whose C is the same for every
        option (a player's hand, the board) evaluates C once a decision instead of once an
        option; each option then evaluates X or Y as the whole expression would (the same
        functions, coerced to the same types: `wants`, the types of the enclosing branches,
        outermost first), so the scores are the same. None where a part does not compile (the
        whole expression's errors are reported already)."""
        try:
            if isinstance(e, A.IfExpr) and A.names_in(e.cond).isdisjoint(bound):
                cf, _ = self.comp.expr(e.cond, src, Scope(dict(names)))
                _, tt = self.comp.expr(e.then, src, Scope(dict(names)))
                _, ot = self.comp.expr(e.other, src, Scope(dict(names)))
                t = join(tt, ot)
                then = self.plan(e.then, src, names, bound, (*wants, t))
                other = self.plan(e.other, src, names, bound, (*wants, t))
                if then is None or other is None:
                    return None
                return ("if", self.comp.mat(cf), then, other)
            fn, t = self.comp.expr(e, src, Scope(dict(names)))
        except CheckError:
            return None
        for want in reversed(wants):  # as x_IfExpr coerces a branch, level by level
            fn, t = self.comp.coerce(fn, t, want), want
        return ("leaf", self.comp.mat(fn))


__all__ = ["PolicyProgram", "Scorer", "Section", "compile_policy"]
