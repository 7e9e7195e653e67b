"""Mistakes that are well-formed: rules that pass the schema and the type checker but cannot
be what the author meant (a counter whose min is above its max, an action no `act` ever
offers, a first player who does not exist, `return` in an action, a card text naming a number
the card does not have, an event with no text).

Pipeline position: the last stage of `load`, after compile found nothing wrong. Every check
reads the compiled Program and the effect syntax trees (cached by the parser), and reports at
the place the author must edit. The locale files' mistakes of the same kind are checked by
`locale_lint.py`, with the companions `validate` reads.
"""

from __future__ import annotations

from ..effects import ast as A
from ..effects.parse import EffectSyntaxError, parse
from ..effects.scope import Source
from ..errors import Loc, Problem

# where `return` means something: procedures and card/location hooks have a caller
_RETURN_OK = ("procedure", "hook")


def _walk(node, prune=()):
    """Every node of a syntax tree; below a node of a `prune` type, nothing."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            yield n
            if not isinstance(n, prune):
                stack.extend(v for v in vars(n).values() if isinstance(v, (A.Node, list, tuple, dict)))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())


class _Unit:
    """One code string of the ruleset: its text, what it is, and where it was written."""

    def __init__(self, what: str, text, doc, path: tuple):
        self.what, self.text, self.doc, self.path = what, text, doc, path

    def tree(self):
        if not isinstance(self.text, str):
            return None
        try:
            return parse(self.text, "block")
        except EffectSyntaxError:
            return None

    def loc(self, node) -> Loc:
        return Source(self.doc, self.path).loc(node.line, node.col)


def _units(rs) -> list[_Unit]:
    out = []

    def add(what, item, sub=()):
        doc, path = item.where(sub)
        value = item.value
        for k in sub:
            value = value.get(k) if isinstance(value, dict) else None
        out.append(_Unit(what, value, doc, path))

    for item in rs.procedures.values():
        add("procedure", item)
    for item in rs.actions.values():
        if isinstance(item.value, dict) and "effect" in item.value:
            add("action", item, ("effect",))
    for table in (rs.cards, rs.locations):
        for item in table.values():
            effects = item.value.get("effects") if isinstance(item.value, dict) else None
            for key in effects or {}:
                add("hook", item, ("effects", key))
    for item in rs.triggers:
        if isinstance(item.value, dict) and "effect" in item.value:
            add("trigger", item, ("effect",))
    for item in rs.zones.values():
        if isinstance(item.value, dict) and "on_empty" in item.value:
            add("on_empty", item, ("on_empty",))
    for what in ("setup", "turn"):
        item = getattr(rs, what)
        if item is not None:
            add(what, item)
    return out


def log_calls(prog) -> list[tuple[str, Loc]]:
    """Every `log(event, ...)` of the ruleset: (event, where it is written)."""
    out = []
    for u in _units(prog.rs):
        for n in _walk(u.tree()):
            if isinstance(n, A.Call) and n.func == "log" and n.args and isinstance(n.args[0], A.Name):
                out.append((n.args[0].id, u.loc(n)))
    return out


def lint_problems(prog) -> list[Problem]:
    """Every well-formed mistake of a compiled ruleset."""
    rs = prog.rs
    out: list[Problem] = []
    _players(rs, out)
    _cards(rs, out)
    _counters(prog, out)
    units = _units(rs)
    trees = [(u, u.tree()) for u in units]
    asked = set()
    for u, tree in trees:
        for n in _walk(tree):
            if isinstance(n, A.Return) and u.what not in _RETURN_OK:
                out.append(Problem(u.loc(n), f"`return` in {_what(u.what)}: only a procedure or a hook "
                                             "returns to a caller (to stop early, use an if/else, or "
                                             "end_turn() to end the turn)"))
            if isinstance(n, A.Call) and n.func in ("act", "window") and len(n.args) > 1 \
                    and isinstance(n.args[1], A.Name):
                asked.add(n.args[1].id)
    for aid, item in rs.actions.items():
        group = item.value.get("group") if isinstance(item.value, dict) else None
        if isinstance(group, str) and group not in asked:
            from ..frontend.validate import _suggest
            hint = _suggest(group, sorted(asked))
            # a near miss of a group that is offered is a typo; otherwise the action may be
            # left unused on purpose (a variant that removes its window): a warning
            out.append(Problem(item.loc("group"), f"no act() or window() offers group {group!r}, so "
                                                  f"action {aid!r} is never offered{hint}",
                               severity="error" if hint else "warning"))
    _first_player(prog, out)
    _endless_recursion(rs, out)
    _endless_free_actions(prog, out)
    return out


def _parsed(text, start: str):
    if isinstance(text, bool):
        return [] if text else None
    try:
        return parse(str(text), start)
    except EffectSyntaxError:
        return None


def _endless_free_actions(prog, out: list) -> None:
    """A free action (act() asks again after it) that stays legal after it runs, with nothing
    to stop it (no once_per_turn): a player or a bot could take it for ever. Found when its
    legality reads no counter and no zone at all, or reads only counters its effect never sets
    and the effect calls nothing that could set one (a procedure, a hook, a trigger...)."""
    state = set(prog.counter_defs) | set(prog.zone_defs)
    for aid, a in prog.actions.items():
        v = a.item.value if isinstance(a.item.value, dict) else {}
        if not a.free or a.once:
            continue
        when, effect = _parsed(v.get("when", True), "expression"), _parsed(v.get("effect", "pass"), "block")
        args = [_parsed(x, "expression") for x in (v.get("args") or {}).values()]
        if when is None or effect is None or any(x is None for x in args) or _stops(effect):
            continue
        reads = {n.id if isinstance(n, A.Name) else n.func for n in _walk([when, args])
                 if isinstance(n, (A.Name, A.Call))}
        if reads & set(prog.proc_sigs) or (args and reads & state):
            continue                               # a procedure decides, or the options may run out
        if reads & set(prog.zone_defs):
            continue                               # a zone's cards may change in many ways
        sets = set()
        for n in _walk(effect):
            if isinstance(n, A.Assign):
                t = n.target
                sets.add(t.id if isinstance(t, A.Name) else t.func if isinstance(t, A.Call) else None)
            elif isinstance(n, A.Call) and n.func not in ("log",) and n.func not in prog.counter_defs:
                sets.add(None)                     # a call might set anything: say nothing
        if None in sets or reads & state & sets:
            continue
        why = "it is always legal" if not reads & state else \
            f"its when: reads {', '.join(sorted(reads & state))}, which its effect never changes"
        out.append(Problem(a.item.loc("free"), f"action {aid!r} is free and stays legal after it runs ({why}), "
                           "so act() would offer it again for ever (the game stops after 1,000): add "
                           "once_per_turn: true, or a when: that its effect makes false, or make it not free"))


_BRANCHES = (A.If, A.For, A.While, A.Repeat)
_LAZY = (A.IfExpr, A.BoolOp, A.Comprehension)  # parts of these may never be evaluated


def _eager_calls(node):
    """Calls an expression or simple statement always makes (not under if/and/or/for)."""
    return [n for n in _walk(node, _LAZY) if isinstance(n, A.Call)]


def _stops(node) -> bool:
    """A statement that may end its code unit early (a return, end_turn, end) somewhere."""
    return any(isinstance(n, A.Return) or (isinstance(n, A.Call) and n.func in ("end_turn", "end"))
               for n in _walk(node))


def _endless_recursion(rs, out: list) -> None:
    """Procedures that call themselves, or each other in a ring, on every path: they can
    never end (each call makes the same call again before anything can stop it)."""
    names = {key.split("(", 1)[0].strip(): item for key, item in rs.procedures.items()}
    edges: dict[str, list] = {}
    for name, item in names.items():
        u = _Unit("procedure", item.value, *item.where())
        tree = u.tree() or []
        calls = []
        for stmt in tree:
            if isinstance(stmt, _BRANCHES):
                if _stops(stmt):
                    break
                continue
            calls += [(c.func, u.loc(c)) for c in _eager_calls(stmt) if c.func in names]
            if isinstance(stmt, A.Return) or _stops(stmt):
                break
        edges[name] = calls
    reported: set = set()
    for start in names:
        path, seen = [start], {start}

        def visit(p):
            for callee, loc in edges[p]:
                if callee == start:
                    ring = path + [start]
                    if frozenset(ring) not in reported:
                        reported.add(frozenset(ring))
                        who = "this procedure calls itself" if len(ring) == 2 else \
                            "these procedures call each other"
                        out.append(Problem(edges[start][0][1] if p != start else loc,
                                           f"{' -> '.join(r + '()' for r in ring)}: {who} on every "
                                           "path, so the calls never end (make the call under an if "
                                           "that becomes false, or return first)"))
                    return True
                if callee not in seen:
                    seen.add(callee)
                    path.append(callee)
                    if visit(callee):
                        return True
                    path.pop()
            return False
        visit(start)


def _what(kind: str) -> str:
    return {"action": "an action's effect", "trigger": "a trigger", "on_empty": "an on_empty refill",
            "setup": "the setup", "turn": "the turn"}.get(kind, kind)


def _players(rs, out: list) -> None:
    if rs.min_players > rs.max_players:
        doc = rs.docs[0]
        out.append(Problem(doc.source.value(("players", "min")), f"players: min ({rs.min_players}) is "
                                                                 f"above max ({rs.max_players})"))


def _cards(rs, out: list) -> None:
    from ..frontend.model import MAX_CARDS
    total = 0
    for cid, item in rs.cards.items():
        n = item.value.get("count", 1) if isinstance(item.value, dict) else 1
        total += n if isinstance(n, int) and n > 0 else 0
        if total > MAX_CARDS:
            out.append(Problem(item.loc("count"), f"card {cid!r} brings the deck past {MAX_CARDS} copies "
                                                  f"of cards, the limit for all cards together"))
            return


def _counters(prog, out: list) -> None:
    rs = prog.rs
    for cd in prog.counter_defs.values():
        if cd.min > cd.max:
            out.append(Problem(cd.item.loc("min"), f"counter {cd.name!r}: min ({cd.min}) is above "
                                                   f"max ({cd.max}), so no value fits"))
            continue
        init = cd.initial
        for n in range(rs.min_players, rs.max_players + 1):
            v = prog.param_value(init, n) if isinstance(init, str) else init
            if isinstance(v, int) and not isinstance(v, bool) and not cd.min <= v <= cd.max:
                where = f" in a game of {n}" if isinstance(init, str) else ""
                out.append(Problem(cd.item.loc("initial") if isinstance(cd.item.value, dict)
                                   and "initial" in cd.item.value else cd.item.key_loc(),
                                   f"counter {cd.name!r} starts at {v}{where}, outside its bounds "
                                   f"{cd.min}..{cd.max} (it would be clamped silently)"))
                break


def _first_player(prog, out: list) -> None:
    to = prog.rs.turn_order
    if to is None or not isinstance(to.value, dict) or not isinstance(to.value.get("first"), str):
        return
    try:
        tree = parse(to.value["first"], "expression")
    except EffectSyntaxError:
        return
    rs = prog.rs
    for n in _walk(tree):
        if isinstance(n, A.Index) and isinstance(n.obj, A.Name) and n.obj.id == "players" \
                and isinstance(n.index, A.Num) and not -rs.min_players <= n.index.value < rs.min_players:
            out.append(Problem(Source(*to.where(("first",))).loc(n.line, n.col),
                               f"players[{n.index.value}] is not a player in a game of {rs.min_players}"
                               f"{'' if rs.min_players == rs.max_players else f' to {rs.max_players}'}"
                               f" (seats are players[0] to players[{rs.min_players - 1}])"))
