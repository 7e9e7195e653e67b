"""What a scenario can say besides effect expressions: a player's log and view, fixed dice.

Pipeline position: beside `scenario` (after the engine). An `expect` entry is an effect
expression, or one of these mappings, checked on the final state:

    {log: alice, has: "drew 1"}               # a line of alice's log (in English) contains the text
    {log: alice, lacks: "secret"}             # no line of alice's log contains it
    {view: alice, at: zones.hand@bob, equals: [null, null]}    # what alice's view holds there
    {view: alice, at: counters, has: score}                    # a list or mapping holds an item/key

A player's log and view are exactly what `State.view` gives that player, so a scenario can
show that a rule keeps a secret. `setup: dice:` fixes the next die rolls (after `given`), so a
d8 roll is written in the scenario instead of hunted for among seeds.
"""

from __future__ import annotations

from ..engine.rng import Rng


class LoadedDice(Rng):
    """The game's generator, except that the next die rolls are the given values."""

    __slots__ = ("queue",)

    def __init__(self, state: int, queue: list[int]):
        super().__init__(state)
        self.queue = list(queue)

    def roll(self, n: int) -> int:
        """The next fixed value (it must fit the die), then the seeded rolls again."""
        if not self.queue:
            return super().roll(n)
        v = self.queue.pop(0)
        if not 1 <= v <= max(1, n):
            raise ValueError(f"a fixed die roll of {v} does not fit a roll({n})")
        return v

    def copy(self) -> LoadedDice:
        return LoadedDice(self.s, self.queue)


def load_dice(st, values) -> None:
    """Make the next die rolls of `st` the given values."""
    if values:
        st.rng = LoadedDice(st.rng.s, [int(v) for v in values])


def _player(st, who: str) -> int | None:
    from ..engine.decisions import player_id
    for p in range(st.n):
        if player_id(st, p) == who:
            return p
    return None


def _lookup(view: dict, at: str):
    cur = view
    for part in [p for p in str(at).split(".") if p]:
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, list) and part.isdigit() and int(part) < len(cur):
            cur = cur[int(part)]
        else:
            keys = ", ".join(map(str, cur)) if isinstance(cur, dict) else "none"
            raise KeyError(f"the view has nothing at {at!r} (at {part!r}; there: {keys})")
    return cur


def check(st, entry: dict, text_for) -> str | None:
    """Check one log or view expectation on `st`; return what failed, or None."""
    who = str(entry.get("log", entry.get("view")))
    p = _player(st, who)
    if p is None:
        return f"no player {who!r} in this game"
    view = st.view(p)
    if "log" in entry:
        text = text_for(st)
        lines = [text.event(st, e) for e in view["log"]]
        if "has" in entry and not any(str(entry["has"]) in line for line in lines):
            return f"{who}'s log has no line containing {entry['has']!r} (it has: {' | '.join(lines[-8:])})"
        if "lacks" in entry:
            bad = [line for line in lines if str(entry["lacks"]) in line]
            if bad:
                return f"{who}'s log has {bad[0]!r}, which contains {entry['lacks']!r}"
        return None
    try:
        got = _lookup(view, entry.get("at", ""))
    except KeyError as e:
        return str(e.args[0])
    where = f"{who}'s view at {entry.get('at')!r}"
    if "equals" in entry and got != entry["equals"]:
        return f"{where} is {got!r}, not {entry['equals']!r}"
    if "has" in entry and (not isinstance(got, list | dict | str) or entry["has"] not in got):
        return f"{where} is {got!r}, which does not hold {entry['has']!r}"
    if "lacks" in entry and isinstance(got, list | dict | str) and entry["lacks"] in got:
        return f"{where} is {got!r}, which holds {entry['lacks']!r}"
    return None


def quote_hints(problems: list, game, text: str) -> list:
    """An expectation naming an end condition bare (`end_reason == board_full`): the name is
    no value, the id is a string. Say to quote it, instead of suggesting a look-alike name."""
    import difflib
    import re

    from ..errors import Problem
    ends = [it.id for it in game.ruleset.end]
    out = []
    for p in problems:
        m = re.match(r"undefined name '([^']+)'", p.message)
        if m and m.group(1) in ends:
            name = m.group(1)
            p = Problem(p.loc, f"undefined name {name!r}: the id of an end condition is a string, so quote it "
                               f"(end_reason == '{name}')", p.path, p.severity)
        elif m and "end_reason" in str(text):
            name = m.group(1)
            close = difflib.get_close_matches(name, ends, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else f" (the ids: {', '.join(ends)})"
            p = Problem(p.loc, f"undefined name {name!r}: end_reason is a string, compared with an end "
                               f"condition's id in quotes{hint}", p.path, p.severity)
        out.append(p)
    return out


def rule_strings(program) -> set:
    """Every string the rules' code writes: the answers a choose() can give (`"decline"`), even
    when the question does not offer them now."""
    cached = getattr(program, "_rule_strings", None)
    if cached is None:
        from ..effects import ast as A
        from ..program.lint import _units, _walk
        cached = {n.value for u in _units(program.rs) for n in _walk(u.tree())
                  if isinstance(n, A.Str) and isinstance(n.value, str)}
        program._rule_strings = cached
    return cached
