"""The engine's loop: run compiled code until a player must decide or the game ends.

Pipeline position: engine. A state's `stack` holds frames `[code id, pc, locals, return var]`.
`run` executes instructions of the top frame; a blocking instruction sets `state.pending`
and returns SUSPEND, which stops the loop until `apply` answers. When the stack is empty the
loop moves the game on: setup, then turn after turn in seat order (skipping players the
ruleset says to skip), checking end conditions after every turn. Automatic game ends set
`state.over`; nothing recurses.
"""

from __future__ import annotations

from ..errors import GrimoireError
from ..runtime.ops import zone_w
from ..runtime.vm import SUSPEND
from .faults import MAX_DEPTH, QUICK_STEPS, STEP_BUDGET, EffectRuntimeError, in_authors_words, over_budget, too_deep

__all__ = ["EffectRuntimeError", "run", "run_sync"]


def _run_top(st, codes) -> bool:
    """Run instructions of the top frame until it finishes, pushes or pops a frame, blocks or
    ends the game; False when it blocked. One Python call per frame, not per instruction:
    the loop does not re-check the game between instructions of one frame."""
    stack = st.stack
    fr = stack[-1]
    code = codes[fr[0]]
    instrs = code.instrs
    n = len(instrs)
    while True:
        pc = fr[1]
        if pc >= n:
            stack.pop()
            if fr[3] is not None and stack:
                stack[-1][2][fr[3]] = None
            return True
        fr[1] = pc + 1
        try:
            r = instrs[pc](st, fr)
        except GrimoireError:
            raise
        except Exception as e:  # a ruleset bug: report where it happened, in its words
            loc = code.loc(pc, e)
            raise EffectRuntimeError(loc, in_authors_words(e, st, loc)) from e
        if r is SUSPEND:
            return False
        if not stack or stack[-1] is not fr or st.over:
            return True


def run(st) -> None:
    """Advance the game until a decision is pending or the game is over."""
    codes = st.g.codes
    stack = st.stack  # the same list for the whole game (end_turn clears it in place)
    steps = 0  # frame changes since the last decision: the bounds are checked only here
    while True:
        if st.over:
            stack.clear()
            st.pending = None
            return
        if st.pending is not None:
            return
        if not stack:
            advance(st)
            continue
        steps += 1
        # one comparison per frame change: nesting MAX_DEPTH deep takes more steps than this
        if steps > QUICK_STEPS and (steps > STEP_BUDGET or len(stack) > MAX_DEPTH):
            raise over_budget(st, codes) if steps > STEP_BUDGET else too_deep(st, codes)
        if st.names_pending and st.phase == "setup":
            _apply_names(st)
        if not _run_top(st, codes):
            return


def run_sync(st, code_id: str, local: dict) -> dict:
    """Run a code unit to its end right now, on a stack of its own (it must not ask anyone);
    return its locals."""
    saved_stack, saved_pending = st.stack, st.pending
    frame = [code_id, 0, dict(local), None]
    stack = st.stack = [frame]
    st.pending = None
    codes = st.g.codes
    steps = 0
    try:
        code = codes[code_id]
        if len(code.instrs) == 1 and not st.over and len(saved_stack) < MAX_DEPTH:
            # the first step of a unit of one instruction (most effects run this way, fused):
            # what _run_top would do, without its loop; a frame it pushes runs below
            steps = frame[1] = 1
            try:
                r = code.instrs[0](st, frame)
            except GrimoireError:
                raise
            except Exception as e:  # a ruleset bug: report where it happened, in its words
                loc = code.loc(0, e)
                raise EffectRuntimeError(loc, in_authors_words(e, st, loc)) from e
            if r is SUSPEND:
                raise _asked(stack, codes)
            if stack and stack[-1] is frame and frame[1] >= 1 and not st.over:
                return frame[2]  # its end: _run_top would pop it, and the stack is empty
        while stack and not st.over:
            steps += 1
            if steps > STEP_BUDGET or len(stack) + len(saved_stack) > MAX_DEPTH:
                raise over_budget(st, codes) if steps > STEP_BUDGET else too_deep(st, codes)
            if not _run_top(st, codes):
                raise _asked(stack, codes)
    finally:
        st.stack, st.pending = saved_stack, saved_pending
    return frame[2]


def _asked(stack, codes) -> EffectRuntimeError:
    top = stack[-1]
    return EffectRuntimeError(codes[top[0]].loc(top[1] - 1), "this code may not ask a player to decide here")


def advance(st) -> None:
    """The stack is empty: start the setup, the first turn, or the next turn."""
    g = st.g
    if st.phase == "new":
        st.phase = "setup"
        st.stack.append(["setup", 0, {"me": None}, None])
        return
    if st.phase == "setup":
        if st.names_pending:
            _apply_names(st)
        st.phase = "turns"
        first = g.prog.first_fn
        st.current = first(st, [None, 0, {"me": None}, None]) if first else 0
        if st.current is None:
            st.current = 0
        if _skipped(st, st.current):
            nxt = _next_player(st, st.current)
            if nxt is None:
                st.finish("no_players", [])
                return
            st.current = nxt
        begin_turn(st)
        return
    # a turn just ended
    st.check_end()
    if st.over:
        return
    nxt = _next_player(st, st.current)
    if nxt is None:
        st.finish("no_players", [])
        return
    st.current = nxt
    st.turn += 1
    if st.turn > g.max_turns:
        st.finish("turn_limit", [])
        return
    begin_turn(st)


def begin_turn(st) -> None:
    """Reset per-turn counters and push the turn code for the current player."""
    ctr = st.ctr
    for i, v in st.g.reset_turn:
        ctr[i] = v
    st.kinds = ()
    st.log_event("turn", [st.current], None, ["player"], ["player"])
    st.stack.append(["turn", 0, {"me": st.current}, None])


def _skipped(st, p) -> bool:
    skip = st.g.prog.skip_fn
    return bool(skip and skip(st, [None, 0, {"p": p, "me": p}, None]))


def _next_player(st, p):
    n = st.n
    for i in range(1, n + 1):
        q = (p + i) % n
        if not _skipped(st, q):
            return q
    return None


def _apply_names(st) -> None:
    """Give each seat its requested naming card once every seat has one (scenarios)."""
    g = st.g
    zname = g.player_name_zone
    if zname is None:
        st.names_pending = None
        return
    zones = [z for z in range(g.NZ) if g.zone_base_name[z] == zname]
    if any(not st.zones[z] for z in zones):
        return
    for p, kind in enumerate(st.names_pending):
        if kind is None or p >= len(zones):
            continue
        want = zones[p]
        mine = st.zones[want][0]
        if g.card_def[mine] == kind:
            continue
        other = next((c for c in g.kind_instances[kind] if c != mine), None)
        if other is None:
            continue
        oz = st.where[other]
        i, j = st.zones[oz].index(other), 0
        zone_w(st, oz)[i], zone_w(st, want)[j] = mine, other
        st.where[mine], st.where[other] = oz, want
        st.seen[mine], st.seen[other] = st.seen[other], st.seen[mine]
    st.names_pending = None
