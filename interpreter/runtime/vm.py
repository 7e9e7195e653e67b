"""Code units, the value an instruction returns to wait, and jump targets.

Pipeline position: runtime. The compiler (`effects/`) fills code units with instructions;
the engine's loop (`engine/flow.py`) runs them. A running effect is a frame `[code id, pc,
locals, return variable]` on the state's stack; an instruction is a function `(state,
frame)` that returns `SUSPEND` when a player must answer first. Saved games record program
counters, so the instruction layout of a code unit is part of the save format.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import Loc

SUSPEND = object()  # returned by an instruction that waits for a decision
MAX_LOOP = 10_000  # a `while` that runs more often than this is a ruleset bug


@dataclass
class Code:
    """One compiled code unit: VM instructions, their source locations, local types."""

    id: str
    instrs: list = field(default_factory=list)
    locs: list = field(default_factory=list)  # per instruction: Loc, or (Source, line, col) resolved lazily
    local_types: dict = field(default_factory=dict)
    params: list = field(default_factory=list)
    direct: object = None  # a procedure that never asks: a Python function (st, caller locals, *args)

    def loc(self, pc: int, exc: BaseException | None = None) -> Loc:
        """The file position of instruction pc (mapped into the YAML file on demand)."""
        x = self.locs[pc] if 0 <= pc < len(self.locs) else None
        if exc is not None:  # the line of the generated function that failed, if one did
            x = failed_line(exc) or x
        if isinstance(x, tuple):
            src, line, col = x
            x = src.loc(line, col)
            if exc is None:
                self.locs[pc] = x
        return x if x is not None else Loc()


def failed_line(exc: BaseException):
    """Where in the ruleset the innermost generated statement that raised exc was written."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        locs = tb.tb_frame.f_globals.get("__locs__")
        if locs is not None and 0 <= tb.tb_lineno < len(locs) and locs[tb.tb_lineno] is not None:
            found = locs[tb.tb_lineno]
        tb = tb.tb_next
    return found


class Jump:
    """A jump target filled in once the compiler knows where a block ends."""

    __slots__ = ("target",)
    made: list | None = None  # while a code unit compiles: every jump made for it

    def __init__(self, target: int | None = None):
        self.target = target
        if Jump.made is not None:
            Jump.made.append(self)


def thread_jumps(code: Code, jumps: list) -> None:
    """A jump whose target is an unconditional jump goes straight to where that one goes
    (the end of an `if` branch or of an inner loop, in a loop body, is its back edge)."""
    instrs = code.instrs
    for j in jumps:
        t, seen = j.target, set()
        while t is not None and 0 <= t < len(instrs) and t not in seen:
            nxt = getattr(instrs[t], "_goto", None)
            if nxt is None or nxt.target is None:
                break
            seen.add(t)
            t = nxt.target
        j.target = t
