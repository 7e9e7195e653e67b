"""A check pass after compilation: questions whose asking depends on hidden information.

Pipeline position: after stage 5 (the program compiled), run by `grimoire validate`. The
engine asks a player only when there is something to answer (`act` and `window` skip a
player with no legal action, `choose` an empty list), and a rule may ask inside an `if`. If
what decides it reads a hidden zone, being asked, or not, tells everyone what is hidden.

The analysis is a taint pass over the syntax trees. A value is public, a *hidden card* (a
card of a zone some player may not see: that it exists is public, what it is is not), or
*hidden* (it depends on what such a card is: its props, comparing it, a filter over a
hidden zone, `has`, a counter seen by its owner only, a side read from hidden cards). A
branch on a hidden value makes what it does hidden, until the branch itself tells everyone
(a public `log` or `reveal`): then the rules disclose the condition. Reported, as warnings:

- `window(...)` without `ask_all: true` over a group whose legal actions read hidden zones;
- `act(p, g)` over such a group with no action that is always legal;
- `choose`, `act`, `window` (or a procedure or hook that asks) whose player is hidden, or
  that is reached only on a hidden condition;
- `run(c, hook)` on a hidden card whose hooks of that name ask before naming the card.

Not reported: a `choose` over a list whose emptiness is hidden (the engine skips an empty
list; the analysis cannot tell when the list is never empty).
"""

from __future__ import annotations

from ..errors import Problem
from . import ast as A
from .ast import walk_nodes
from .parse import EffectSyntaxError, parse

PUB, CARD, HID = 0, 1, 2  # public, a hidden card, a value that depends on hidden cards
ASKING = {"choose", "choose_many", "act", "window"}
ZONE_READS = {"cards", "top", "bottom"}  # a hidden zone's cards
SIZE_OF = {"size", "empty", "count", "len"}  # how many: public even of hidden cards
FIX = ("ask everyone who could be asked: `ask_all: true` on a window, or always ask with "
       "only the legal answer offered")


class _Unit:
    """One code string to analyse: its text, where it is written (document, path), its
    parameters."""

    def __init__(self, name: str, text, where: tuple, params=()):
        self.name, self.text, self.params = name, text, list(params)
        self.doc, self.path = where

    def loc(self, line: int, col: int):
        return self.doc.source.text(self.path, line, col)


class HiddenAsking:
    """The analysis of one compiled program."""

    def __init__(self, program):
        self.p = program
        rs = program.rs
        self.rs = rs
        self.hidden_zones = {n for n, z in program.zone_defs.items() if z.vis != 0}
        self.hidden_counters = {n for n, c in program.counter_defs.items() if c.vis != 0}
        self.problems: list[Problem] = []
        self._ret: dict[str, int] = {}
        self._asks: dict[str, bool] = {}
        self._trees: dict[tuple, list | None] = {}
        self.side_hidden = False
        if rs.side_of is not None and isinstance(rs.side_of.value, str):
            tree = self._parse(rs.side_of.value, "expression")
            self.side_hidden = tree is not None and self.expr(tree, {"p": PUB}) == HID
        self.group_legality = {g: self._group(g) for g in program.groups}

    # ---- sources ------------------------------------------------------------------------

    def _parse(self, text, start="block"):
        if not isinstance(text, str):
            return None
        key = (id(text), start)
        if key not in self._trees:
            try:
                self._trees[key] = parse(text, start)
            except EffectSyntaxError:
                self._trees[key] = None
        return self._trees[key]

    def units(self):
        rs, p = self.rs, self.p
        for name, item in rs.procedures.items():
            yield _Unit("procedure " + name, item.value, item.where(), p.proc_sigs.get(name, []))
        for aid, item in rs.actions.items():
            v = item.value if isinstance(item.value, dict) else {}
            yield _Unit("action " + aid, v.get("effect", "pass"), item.where(("effect",)))
        for cid, item in rs.cards.items():
            v = item.value if isinstance(item.value, dict) else {}
            for key, text in (v.get("effects") or {}).items():
                yield _Unit(f"card {cid} {key}", text, item.where(("effects", key)))
        for lid, item in rs.locations.items():
            v = item.value if isinstance(item.value, dict) else {}
            for key, text in (v.get("effects") or {}).items():
                yield _Unit(f"location {lid} {key}", text, item.where(("effects", key)))
        for i, t in enumerate(rs.triggers):
            v = t.value if isinstance(t.value, dict) else {}
            yield _Unit(f"trigger {i}", v.get("effect", "pass"), t.where(("effect",)), v.get("with") or [])
        for sec in (rs.setup, rs.turn):
            if sec is not None:
                yield _Unit(sec.id, sec.value, sec.where())

    # ---- expressions ----------------------------------------------------------------------

    def _zone_hidden(self, node) -> bool:
        if isinstance(node, A.Call):
            return node.func in self.hidden_zones
        return isinstance(node, A.Name) and node.id in self.hidden_zones

    def expr(self, e, env) -> int:
        """The taint of an expression, given the taints of the locals."""
        if isinstance(e, (A.Num, A.Str, A.Const)) or e is None:
            return PUB
        if isinstance(e, A.Name):
            if e.id in env:
                return env[e.id]
            return HID if e.id in self.hidden_counters else PUB
        if isinstance(e, A.Attr):
            t = self.expr(e.obj, env)
            return HID if t >= CARD else PUB
        if isinstance(e, A.Index):
            return max(self.expr(e.obj, env), self.expr(e.index, env))
        if isinstance(e, A.Compare):
            a, b = self.expr(e.left, env), self.expr(e.right, env)
            if any(isinstance(x, A.Const) and x.value is None for x in (e.left, e.right)):
                return HID if HID in (a, b) else PUB  # "is there one" is public
            return HID if max(a, b) >= CARD else PUB
        if isinstance(e, A.Comprehension):
            it = self.expr(e.iterable, env)
            inner = dict(env)
            inner[e.var] = it
            cond = self.expr(e.cond, inner) if e.cond is not None else PUB
            elt = self.expr(e.elt, inner)
            if cond == HID or it == HID:
                return HID
            return elt
        if isinstance(e, A.Call):
            return self._call(e, env)
        parts = [v for v in vars(e).values() if isinstance(v, A.Node)]
        parts += [x for v in vars(e).values() if isinstance(v, list) for x in v if isinstance(x, A.Node)]
        t = max((self.expr(x, env) for x in parts), default=PUB)
        if isinstance(e, A.ListExpr):
            return t
        return HID if t >= CARD else PUB  # arithmetic, logic on a hidden card: hidden

    def _call(self, e, env) -> int:
        f = e.func
        args = [self.expr(a, env) for a in e.args]
        if f in ZONE_READS:
            return CARD if e.args and self._zone_hidden(e.args[0]) else max(args, default=PUB)
        if f in SIZE_OF:
            return HID if HID in args else PUB
        if f == "has":
            return HID if (e.args and self._zone_hidden(e.args[0])) or HID in args else PUB
        if f == "side":
            return HID if self.side_hidden or HID in args else PUB
        if f in self.hidden_counters:
            return HID
        if f in self.rs.procedures:
            return max([self._proc_return(f)] + args)
        if f in ("choose", "choose_many"):  # an answer is public (a card answer is not)
            items = self.expr(e.args[1], env) if len(e.args) > 1 else PUB
            return CARD if items >= CARD else PUB
        return max(args, default=PUB)

    def _proc_return(self, name: str) -> int:
        if name not in self._ret:
            self._ret[name] = PUB  # recursion: assume public while looking
            tree = self._parse(self.rs.procedures[name].value)
            out = [PUB]
            if tree:
                self._block(tree, {}, PUB, None, out)
            self._ret[name] = max(out)
        return self._ret[name]

    # ---- groups, procedures and hooks that ask ----------------------------------------------

    def _group(self, g: str):
        """(always legal: some action of g has no test and no args; hidden: the first action
        whose legality reads hidden cards, or None; all hidden: every action's does)."""
        always, hidden, all_hidden = False, None, True
        for aid in self.p.groups.get(g, ()):
            v = self.rs.actions[aid].value
            v = v if isinstance(v, dict) else {}
            args, when = v.get("args") or {}, v.get("when")
            if not args and when is None:
                always = True
            env = {"me": PUB}
            taint = PUB
            for an, dom in args.items():
                tree = self._parse(dom, "expression")
                t = self.expr(tree, env) if tree is not None else PUB
                env[an] = t
                taint = max(taint, HID if t == HID else PUB)  # a hidden zone's cards: as many as it holds
            if when is not None and not isinstance(when, bool):
                tree = self._parse(when, "expression")
                if tree is not None:
                    taint = max(taint, self.expr(tree, env))
            if taint == HID and hidden is None:
                hidden = aid
            all_hidden = all_hidden and taint == HID
        return always, hidden, all_hidden

    def asks(self, code_text) -> bool:
        tree = self._parse(code_text)
        return bool(tree) and any(isinstance(n, A.Call) and (n.func in ASKING or n.func in self.rs.procedures
                                  and self._proc_asks(n.func)) for n in walk_nodes(tree))

    def _proc_asks(self, name: str) -> bool:
        if name not in self._asks:
            self._asks[name] = False
            self._asks[name] = self.asks(self.rs.procedures[name].value)
        return self._asks[name]

    def _hook_asks_unnamed(self, hook: str) -> str | None:
        """A card whose hook `hook` asks before it shows the card to everyone, or None."""
        for cid, item in self.rs.cards.items():
            v = item.value if isinstance(item.value, dict) else {}
            for key, text in (v.get("effects") or {}).items():
                if key.split("(")[0] != hook:
                    continue
                for st in self._parse(text) or []:
                    if _discloses(st, this=True):
                        break
                    if self.asks_stmt(st):
                        return cid
        return None

    def asks_stmt(self, st) -> bool:
        return any(isinstance(n, A.Call) and (n.func in ASKING or (n.func in self.rs.procedures
                   and self._proc_asks(n.func)) or n.func in ("run", "emit")) for n in walk_nodes(st))

    # ---- statements -----------------------------------------------------------------------

    def check(self) -> list[Problem]:
        for u in self.units():
            tree = self._parse(u.text)
            if tree:
                env = {name: PUB for name in u.params}
                self._block(tree, env, PUB, u, [])
        return self.problems

    def _warn(self, u, node, msg) -> None:
        if u is None:
            return
        loc = u.loc(getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1)
        p = Problem(loc, f"{msg}; {FIX}", severity="warning")
        if p not in self.problems:
            self.problems.append(p)

    def _block(self, body, env, pc, u, ret) -> int:
        """Walk statements; return the control taint after them (hidden after a hidden return)."""
        shown = False  # a card was shown to everyone before (a hook run on it is no news)
        for st in body:
            if _discloses(st) or self._reveals_call(st):
                shown = True
                if pc == HID:
                    pc = PUB
            pc = self._stmt(st, env, pc, u, ret, shown)
        return pc

    def _reveals_call(self, st) -> bool:
        """A call of a procedure that shows a card to everyone (`reveal` without `to:`)."""
        e = st.expr if isinstance(st, A.ExprStmt) else None
        if not isinstance(e, A.Call) or e.func not in self.rs.procedures:
            return False
        tree = self._parse(self.rs.procedures[e.func].value)
        return bool(tree) and any(isinstance(n, A.Call) and n.func == "reveal" and "to" not in n.kwargs
                                  for n in walk_nodes(tree))

    def _stmt(self, st, env, pc, u, ret, shown=False) -> int:
        if isinstance(st, A.Assign):
            if isinstance(st.target, A.Name):
                env[st.target.id] = max(self.expr(st.value, env), pc if pc == HID else PUB)
            self._asking(st.value, env, pc, u)
        elif isinstance(st, A.ExprStmt):
            self._asking(st.expr, env, pc, u, shown)
        elif isinstance(st, A.Return):
            ret.append(max(self.expr(st.value, env), pc))
        elif isinstance(st, A.If):
            conds = [self.expr(c, env) for c, _ in st.branches]
            bodies = [b for _, b in st.branches] + [st.orelse or []]
            hidden = HID in conds or pc == HID
            told = hidden and any(any(_discloses(x) for x in b) for b in bodies)
            inner = HID if hidden and not told else PUB
            after = pc
            for b in bodies:
                end = self._block(b, env, max(pc, inner) if not told else pc, u, ret)
                if inner == HID and _returns(b):
                    after = HID  # what follows runs only when the hidden test failed
                after = max(after, end if pc == HID else PUB)
            if inner == HID:
                for n in _assigned(bodies):
                    env[n] = HID
            return after
        elif isinstance(st, A.For):
            it = self.expr(st.iterable, env)
            env[st.var] = it
            self._block(st.body, env, HID if it == HID else pc, u, ret)
        elif isinstance(st, (A.While, A.Repeat)):
            c = self.expr(st.cond if isinstance(st, A.While) else st.count, env)
            self._block(st.body, env, HID if c == HID else pc, u, ret)
        return pc

    def _asking(self, e, env, pc, u, shown=False) -> None:
        if not isinstance(e, A.Call):
            return
        f = e.func
        where = f"{f}()"
        if f in ASKING:
            who = self.expr(e.args[0], env) if e.args else PUB
            if pc == HID:
                self._warn(u, e, f"whether {where} asks at all depends on hidden cards "
                                 "(it runs only on a hidden condition)")
            elif who == HID:
                self._warn(u, e.args[0], f"who {where} asks depends on hidden cards")
            if f in ("act", "window") and len(e.args) > 1 and isinstance(e.args[1], A.Name):
                always, hidden, all_hidden = self.group_legality.get(e.args[1].id, (True, None, False))
                ask_all = e.kwargs.get("ask_all")
                everyone = isinstance(ask_all, A.Const) and ask_all.value is True
                # a window asks whoever has a legal action; `act` is reported only when no
                # action of the group is legal by public facts alone (moving, drawing...)
                if hidden and not always and (not everyone if f == "window" else all_hidden):
                    what = "who this window asks" if f == "window" else "whether this asks at all"
                    self._warn(u, e, f"{what} depends on hidden cards: a player with no legal "
                                     f"action of group {e.args[1].id!r} is not asked, and action "
                                     f"{hidden!r} is legal by what that player holds")
        elif f in self.rs.procedures and self._proc_asks(f) and pc == HID:
            self._warn(u, e, f"whether the questions of {f}() are asked depends on hidden cards")
        elif f == "run" and len(e.args) > 1 and isinstance(e.args[1], A.Name):
            card = self.expr(e.args[0], env)
            unnamed = self._hook_asks_unnamed(e.args[1].id)
            if unnamed and not shown and (card >= CARD or pc == HID):
                self._warn(u, e, f"which {e.args[1].id!r} hook runs depends on a hidden card, and "
                                 f"{unnamed}'s asks before it shows the card to everyone")


def _discloses(st, this: bool = False) -> bool:
    """A public `log(...)` or `reveal(...)` (of `this`, with `this`): everyone is told."""
    e = st.expr if isinstance(st, A.ExprStmt) else None
    if not isinstance(e, A.Call) or "to" in e.kwargs:
        return False
    if this:
        return e.func == "reveal" and bool(e.args) and isinstance(e.args[0], A.Name) and e.args[0].id == "this"
    return e.func in ("log", "reveal")


def _returns(body) -> bool:
    return any(isinstance(n, A.Return) for st in body for n in walk_nodes(st))


def _assigned(bodies) -> set:
    return {n.target.id for b in bodies for st in b for n in walk_nodes(st)
            if isinstance(n, A.Assign) and isinstance(n.target, A.Name)}


def hidden_asking(program) -> list[Problem]:
    """Warnings where who is asked, or whether anyone is, depends on hidden cards."""
    return HiddenAsking(program).check()

