"""Rules that fail while a game runs, said in the rule author's words.

Pipeline position: engine, beside the loop (`flow.py`). The checker cannot see every bug: a
procedure that calls itself with no way out, a ring of procedures that call each other, a
seat that does not exist in a game of this size. The loop bounds how deep calls nest
(`MAX_DEPTH` frames) and how much it runs between two decisions (`STEP_BUDGET` frame
changes); either limit, or a Python exception inside an instruction, stops the game with an
EffectRuntimeError at the ruleset line that failed, naming the chain of procedures that led
there, in the language's terms (`none`, a number, text, a player), never Python's
(`TypeError: ... 'NoneType' and 'int'`).

The limits cost nothing per instruction: the loop counts only when the top frame changes, and
looks at the budget and the depth only after QUICK_STEPS changes since the last decision
(nesting deeper than MAX_DEPTH takes more changes than that).
"""

from __future__ import annotations

import re

from ..errors import GrimoireError, Loc, Problem, source_line

MAX_DEPTH = 200  # frames on the stack (shipped games: at most 9 deep at a decision)
STEP_BUDGET = 200_000  # frame changes between two decisions (shipped games: at most 134 measured)
QUICK_STEPS = 64  # below this many steps the loop checks nothing more (the stack is shallower)


class EffectRuntimeError(GrimoireError):
    """An effect failed while running (a bug in the ruleset that the checker cannot see)."""

    def __init__(self, loc: Loc, message: str):
        super().__init__(f"{loc}: {message}")
        self.loc = loc
        self.message = message

    def problem(self) -> Problem:
        """The failure as a located problem (printed with its source line and a caret)."""
        return Problem(self.loc, self.message)


def frame_name(code_id: str) -> str:
    """What a rule author calls a code unit: `heal()`, `action play`, `pearl.scored`, ..."""
    kind, _, rest = code_id.partition(":")
    if kind == "proc":
        return rest + "()"
    if kind == "action":
        return "action " + rest
    if kind in ("card", "loc"):
        return rest.replace(":", ".")
    if kind == "trigger":
        return "trigger " + rest
    if kind == "zone":
        return rest.replace(":", ".")
    return code_id


def chain(stack) -> str:
    """The frames of a stack, outermost first; a repeating ring is shown once with a count."""
    names = [frame_name(f[0]) for f in stack]
    for period in range(1, 5):  # a ring of up to 4 procedures that call each other
        if len(names) < 3 * period:
            break
        ring = names[-period:]
        reps = 0
        while len(names) >= (reps + 1) * period and names[len(names) - (reps + 1) * period:
                                                          len(names) - reps * period] == ring:
            reps += 1
        if reps >= 3:
            head = names[:len(names) - reps * period]
            while head and head[-1] == ring[-1]:  # start the ring where the recursion began
                ring = ring[-1:] + ring[:-1]
                head.pop()
            return " -> ".join(head + [f"({' -> '.join(ring)}) x{reps}"])
    if len(names) > 12:
        names = names[:4] + [f"... {len(names) - 8} more ..."] + names[-4:]
    return " -> ".join(names)


def _top_loc(st, codes) -> Loc:
    fr = st.stack[-1]
    return codes[fr[0]].loc(max(fr[1] - 1, 0))


def too_deep(st, codes) -> EffectRuntimeError:
    """The error for a stack deeper than MAX_DEPTH."""
    return EffectRuntimeError(_top_loc(st, codes), f"calls nest more than {MAX_DEPTH} deep: "
                              f"{chain(st.stack)}; a procedure that calls itself (or a ring of "
                              "procedures) needs a condition that ends it")


def over_budget(st, codes) -> EffectRuntimeError:
    """The error for more than STEP_BUDGET steps without a decision."""
    return EffectRuntimeError(_top_loc(st, codes), f"more than {STEP_BUDGET:,} steps without a "
                              f"player's decision, in {chain(st.stack)}: the rules never stop here")


_PY_TYPES = {"NoneType": "none", "int": "a number", "str": "text", "list": "a list", "bool": "true/false",
             "tuple": "a list", "dict": "a mapping", "float": "a number"}
_OPERAND = re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'")
_COMPARE = re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'")
_CONCAT = re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+')
_SEAT = re.compile(r"\bplayers\s*\[\s*(-?\d+)\s*\]")


def _t(name: str) -> str:
    return _PY_TYPES.get(name, name)


def in_authors_words(exc: BaseException, st, loc: Loc) -> str:
    """What went wrong, in the effect language's terms (the statement at loc raised exc)."""
    line = source_line(loc.file, loc.line) or ""
    for m in _SEAT.finditer(line):  # a seat past the last one is none: say so first
        k = int(m.group(1))
        if not -st.n <= k < st.n:
            return (f"players[{k}] is not a player: a game of {st.n} has players[0] to "
                    f"players[{st.n - 1}]")
    msg = str(exc)
    if isinstance(exc, RecursionError):
        return "calls nest too deep (a procedure that calls itself with no way out?)"
    if isinstance(exc, RuntimeError):
        return msg  # the engine's own words ('while' ran more than 10000 times)
    if isinstance(exc, TypeError):
        m = _OPERAND.search(msg)
        if m:
            op, a, b = m.groups()
            if "NoneType" in (a, b):
                return (f"{_t(a)} {op} {_t(b)}: a value here is none (no card there, a property "
                        "the card lacks, or a seat that does not exist?)")
            return f"cannot compute {_t(a)} {op} {_t(b)}"
        m = _COMPARE.search(msg)
        if m:
            op, a, b = m.groups()
            return f"cannot compare {_t(a)} {op} {_t(b)}"
        m = _CONCAT.search(msg)
        if m:
            return f"cannot add {_t(m.group(2))} to {_t(m.group(1))}"
        if "'NoneType'" in msg:
            what = "a list" if "iterable" in msg or "subscriptable" in msg else "a value"
            return f"a value here is none where {what} is needed"
        return re.sub(r"'(\w+)'", lambda m: _t(m.group(1)), msg)
    if isinstance(exc, IndexError):
        return "an index is past the end of the list"
    if isinstance(exc, KeyError):
        return f"there is no {exc.args[0]!r} here"
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    return f"{type(exc).__name__}: {msg}"
