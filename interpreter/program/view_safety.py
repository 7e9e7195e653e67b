"""Which expressions read only what one player may see: a check on the syntax tree.

Pipeline position: program, over the effect compiler's syntax trees; used by the policy
compiler (policy.py) on every scoring expression, with `me` the deciding player. An
expression that passes gives the same value on every world consistent with that player's
view, so a policy bot may evaluate it on the real state; one that does not is evaluated on a
world drawn from the player's view (`determinize`), which is honest but slower.

The check follows where card values come from. A card is *known* when its identity is
visible to `me` for certain: an option's own argument, a card of a public zone or of one of
`me`'s own zones (unless some effect moves cards face down into that zone), or a card `c`
after `knows(me, c) and ...` (or `if knows(me, c)`). Any other card is *possibly hidden*:
counting such cards is fine (`count`, `len`, `size` are in every view); reading one's
identity (`c.value`, `c == some_card`, `has`, `holder`) is not. Counters follow their declared
visibility, `side(me)` the check of `side_of` itself, and anything the check does not know
is treated as hidden (a false alarm costs speed, never honesty).
"""

from __future__ import annotations

from ..effects import ast as A

OK, ME, HID = "ok", "me", "hid"  # a visible value; the deciding player; maybe-hidden cards

# built-ins whose result is visible when their arguments are
PURE = frozenset({
    "count", "len", "sum", "max", "min", "abs", "distinct", "sorted", "reversed", "groups",
    "straight", "any", "all", "range", "at", "players_at", "next", "prev", "order_from",
    "others", "won", "belief", "public_belief", "pairs", "longest_run", "missing", "most_common",
})
ZONE_READS = frozenset({"cards", "top", "bottom", "has"})   # identities of a zone's cards
ZONE_SIZES = frozenset({"size", "empty", "full", "capacity", "room", "completes"})  # only how many
SPECIAL_NAMES = frozenset({"players", "player_count", "turn_number", "current", "winners",
                           "winning_sides", "game_over", "end_reason", "locations"})


def facedown_targets(rs, parse, prog, n: int) -> set | None:
    """Zones some effect of rs moves cards into face down in an n-player game (None: some
    target is not a plain zone, so any zone may hold face-down cards). A face-down flag made
    of params and numbers only (`facedown: blind_deal == 1`) is read for n players."""
    out: set = set()
    for text in _code_texts(rs):
        try:
            tree = parse(text, "block")
        except Exception:  # a syntax error is reported by the compiler, not here
            continue
        for node in A.walk_nodes(tree):
            if not isinstance(node, A.Call) or node.func not in ("move", "draw", "move_all"):
                continue
            pos = {"move": 2, "draw": 3, "move_all": 2}[node.func]
            flag = node.kwargs.get("facedown", node.args[pos] if len(node.args) > pos else None)
            if flag is None or _param_value(flag, prog, n) in (False, 0):
                continue
            dst = node.args[1] if len(node.args) > 1 else None
            name = dst.id if isinstance(dst, A.Name) else dst.func if isinstance(dst, A.Call) else None
            if name is None:
                return None
            out.add(name)
    return out


def _param_value(e, prog, n: int):
    """The value of an expression of params and numbers for n players (None: it reads more)."""
    if isinstance(e, (A.Num, A.Const)):
        return e.value
    if isinstance(e, A.Name) and e.id in prog.params and not prog.modifier_fns.get(e.id):
        return prog.param_value(e.id, n)
    if isinstance(e, A.Compare) and e.op in ("==", "!=", "<", "<=", ">", ">="):
        a, b = _param_value(e.left, prog, n), _param_value(e.right, prog, n)
        if a is None or b is None:
            return None
        return {"==": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[e.op]
    if isinstance(e, A.Not):
        v = _param_value(e.operand, prog, n)
        return None if v is None else not v
    return None


class ViewCheck:
    """Checks expressions against what `me` may see, for one compiled program."""

    def __init__(self, prog, facedown: set | None):
        self.p = prog
        self.facedown = facedown
        self.side_me = False  # does side(me) read only what me sees? (set once side_of is checked)

    def check(self, tree, names, known: set, me: tuple = ("me",), hidden: set = frozenset()) -> list[str]:
        """The reasons `tree` may read hidden information ([] when it reads none). `names`
        are the local names (visible values), `me` those that stand for the deciding player,
        `known` the card names whose identity is visible to him, `hidden` those (cards) whose
        identity may not be."""
        self.why: list[str] = []
        env = {n: (ME if n in me else HID if n in hidden else OK) for n in names}
        for k in known:
            env[k] = OK
        self._x(tree, env)
        return self.why

    # ---- the walk -------------------------------------------------------------------------

    def _bad(self, node, msg: str) -> str:
        self.why.append(f"{getattr(node, 'line', 1)}:{getattr(node, 'col', 1)}: {msg}")
        return OK  # reported once; the value is treated as visible from here on

    def _x(self, e, env) -> str:
        m = getattr(self, "_" + type(e).__name__, None)
        if m is None:
            return self._bad(e, f"{type(e).__name__} is not known to read only visible information")
        return m(e, env)

    def _Num(self, e, env):
        return OK

    _Str = _Const = _Num

    def _Name(self, e, env):
        if e.id in env:
            return env[e.id]
        p = self.p
        cd = p.counter_defs.get(e.id)
        if cd is not None and cd.vis != 0:
            return self._bad(e, f"counter {e.id!r} is not public")
        return OK  # params, card ids, locations, sides, zones as values, special names

    def _Call(self, e, env):
        f, p = e.func, self.p
        args = list(e.args) + list(e.kwargs.values())
        if f in p.counter_defs:
            cd = p.counter_defs[f]
            t = self._x(e.args[0], env) if e.args else OK
            if cd.vis == 0 or (cd.vis == 1 and cd.per == "player" and t == ME):
                return OK
            return self._bad(e, f"counter {f}(...) is visible only to its owner" if cd.vis == 1
                             else f"counter {f!r} is hidden")
        if f in p.zone_defs:
            for a in args:
                self._x(a, env)
            return OK  # a zone as a value is only its place
        if f in ZONE_SIZES:
            for a in args:
                self._zone_arg(a, env)
            return OK
        if f in ZONE_READS:
            vis = self._zone_visible(e.args[0], env) if e.args else False
            for a in args[1:]:
                if self._x(a, env) == HID:
                    self._bad(a, "compares a card that may be hidden")
            if f == "has":
                return OK if vis else self._bad(e, f"has() reads the cards of a zone {self._who(e)}")
            return OK if vis else HID
        if f == "knows":
            who = self._x(e.args[0], env) if e.args else OK
            for a in args[1:]:
                self._x(a, env)
            return OK if who == ME else self._bad(e, "knows() of another player reads what he has seen")
        if f == "side":
            who = self._x(e.args[0], env) if e.args else OK
            if who == ME and self.side_me:
                return OK
            return self._bad(e, "side() of a player other than me (or side_of reads hidden cards)")
        if f in ("holder", "zone_of"):
            if self._x(e.args[0], env) == HID:
                return self._bad(e, f"{f}() of a card that may be hidden tells where it is")
            return OK
        if f == "is":
            zone = p.zone_defs.get(p.player_name_zone or "")
            for a in args:
                self._x(a, env)
            return OK if zone is not None and zone.vis == 0 else self._bad(e, "is() reads a naming card")
        if f == "copies":
            for a in args:
                self._x(a, env)
            return HID  # the copies of a card id: where each one is may be hidden
        if f in ("count", "len") and len(e.args) == 1 and not e.kwargs:
            self._x(e.args[0], env)
            return OK  # how many: in every view
        if f in PURE:
            for a in args:
                if self._x(a, env) == HID:
                    self._bad(a, f"{f}() of cards that may be hidden")
            return OK
        return self._bad(e, f"{f}() is not known to read only visible information")

    def _Attr(self, e, env):
        if self._x(e.obj, env) == HID:
            return self._bad(e, f"reads .{e.name} of a card that may be hidden")
        return OK

    def _Index(self, e, env):
        t = self._x(e.obj, env)
        if self._x(e.index, env) == HID:
            self._bad(e.index, "an index made of hidden cards")
        return HID if t == HID else OK

    def _ListExpr(self, e, env):
        ts = [self._x(i, env) for i in e.items]
        return HID if HID in ts else OK

    def _Comprehension(self, e, env):
        t = self._x(e.iterable, env)
        inner = dict(env)
        inner[e.var] = HID if t == HID else OK
        if e.cond is not None:
            self._cond(e.cond, inner)
            inner = self._guarded(e.cond, inner)
        return HID if self._x(e.elt, inner) == HID else OK

    def _BinOp(self, e, env):
        lt, rt = self._x(e.left, env), self._x(e.right, env)
        if e.op == "+" and (lt == HID or rt == HID):
            return HID  # two lists joined; reading their cards is checked where it happens
        return OK

    def _BoolOp(self, e, env):
        cur = env
        for v in e.values:
            self._cond(v, cur)
            if e.op == "and":
                cur = self._guarded(v, cur)
        return OK

    def _Not(self, e, env):
        self._cond(e.operand, env)
        return OK

    def _Neg(self, e, env):
        if self._x(e.operand, env) == HID:
            self._bad(e, "arithmetic on a card that may be hidden")
        return OK

    def _Compare(self, e, env):
        lt, rt = self._x(e.left, env), self._x(e.right, env)
        none = (isinstance(e.left, A.Const) and e.left.value is None) or (
            isinstance(e.right, A.Const) and e.right.value is None)
        if (lt == HID or rt == HID) and not none:
            self._bad(e, "compares a card that may be hidden")
        return OK

    def _IfExpr(self, e, env):
        self._cond(e.cond, env)
        a = self._x(e.then, self._guarded(e.cond, env))
        b = self._x(e.other, env)
        return HID if HID in (a, b) else OK

    # ---- helpers --------------------------------------------------------------------------

    def _cond(self, e, env) -> None:
        if self._x(e, env) == HID:
            self._bad(e, "the truth of a card that may be hidden")

    def _guarded(self, e, env) -> dict:
        """env after `e` held: `knows(me, c)` makes c known (also inside an `and`)."""
        parts = e.values if isinstance(e, A.BoolOp) and e.op == "and" else [e]
        out = env
        for part in parts:
            if (isinstance(part, A.Call) and part.func == "knows" and len(part.args) == 2
                    and isinstance(part.args[1], A.Name) and env.get(_name(part.args[0])) == ME):
                out = dict(out)
                out[part.args[1].id] = OK
        return out

    def _zone_arg(self, z, env) -> None:
        if isinstance(z, A.Call):
            for a in z.args:
                self._x(a, env)

    def _zone_visible(self, z, env) -> bool:
        """Is every card of zone expression z always visible to me?"""
        p = self.p
        name = z.id if isinstance(z, A.Name) else z.func if isinstance(z, A.Call) else None
        zd = p.zone_defs.get(name) if name else None
        if zd is None or self.facedown is None or name in self.facedown:
            if isinstance(z, A.Call):
                self._zone_arg(z, env)
            return False
        if zd.vis == 0:
            self._zone_arg(z, env)
            return True
        if zd.vis == 1 and zd.per == "player" and isinstance(z, A.Call) and len(z.args) == 1:
            return self._x(z.args[0], env) == ME
        self._zone_arg(z, env)
        return False

    def _who(self, e) -> str:
        return "not always visible to me"


def _name(node) -> str | None:
    return node.id if isinstance(node, A.Name) else None


def _code_texts(rs):
    """Every effect text of a ruleset that may move cards."""
    for sec in (rs.procedures, rs.actions):
        for item in sec.values():
            v = item.value
            if isinstance(v, str):
                yield v
            elif isinstance(v, dict) and isinstance(v.get("effect"), str):
                yield v["effect"]
    for sec in (rs.cards, rs.locations):
        for item in sec.values():
            eff = item.get("effects") or {}
            if isinstance(eff, dict):
                yield from (t for t in eff.values() if isinstance(t, str))
    for t in rs.triggers:
        if isinstance(t.get("effect"), str):
            yield t.get("effect")
    for item in (rs.setup, rs.turn):
        if item is not None and isinstance(item.value, str):
            yield item.value
    for item in rs.zones.values():
        if isinstance(item.get("on_empty"), str):
            yield item.get("on_empty")


__all__ = ["ViewCheck", "facedown_targets"]
