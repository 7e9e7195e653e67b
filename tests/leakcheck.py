"""The leak check of the conformance suite: nothing the engine does by itself tells a player
more than that player may know.

For a decision point of a random game, an observer p and a world `deal_world(p)` can produce
(hidden cards re-dealt, the same random future), the decision is taken in the real game and
in the world (the world's decider takes the same public choice: any card in it is the card
dealt into the same place), and the engine runs on by itself to the next decision. The
observer's *public trace* of that step is the log entries p may read, then who decides next
and the prompt (and, when p decides, p's options). It must be the same in every world: if
it differs, what p saw depends on something p may not know.

A step may show p a card (a draw into p's hand, a reveal, a log entry naming it): from then
on the trace may rightly differ, so it is compared up to the first card shown to p, except
the cards of p's own next choice, which p is shown because p is asked. The end of the game
is treated the same way (an end condition may read what nobody sees).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from interpreter.engine.decisions import value_id
from interpreter.engine.rng import Rng
from interpreter.engine.views import deal_world

REVEALED = ("revealed",)


class _Watch(list):
    """A state's `seen` list that notes where in the log a card was first shown to p."""

    def __setitem__(self, i, v):
        old = list.__getitem__(self, i)
        if isinstance(i, slice) or (v & self.bit and not old & self.bit):
            self.marks.append((len(self.st.log), None if isinstance(i, slice) else i))
        list.__setitem__(self, i, v)


def _canon(g, e, shown) -> tuple:
    """A log entry as p reads it; copies of one card are one card; a card shown to p in
    this step is only "shown" (an action's entry is readable once its cards are seen)."""
    ids, cdef = g.card_ids, g.card_def

    def card(c):
        return "shown" if c in shown else ids[cdef[c]]
    args = []
    for v, t in zip(e[1], e[2]):
        if t == "card" and v is not None:
            v = card(v)
        elif t == "list:card" and isinstance(v, list):
            v = tuple(card(c) for c in v)
        elif isinstance(v, list):
            v = tuple(v)
        args.append(v)
    return (e[0], tuple(args))


def _hidden_cards(e, before, bit) -> set:
    """The cards an entry names that p had not seen before the step."""
    out = set()
    for v, t in zip(e[1], e[2]):
        for c in (v if t == "list:card" and isinstance(v, list) else [v] if t == "card" else []):
            if c is not None and not before[c] & bit:
                out.add(c)
    return out


def step_trace(st, p: int, option_id: str) -> list | None:
    """Take option_id in st (changing it) and return p's public trace of what follows;
    None if the option is not legal in st."""
    bit = 1 << p
    start = len(st.log)
    before = st.seen[:]
    watch = _Watch(st.seen)
    watch.st, watch.bit, watch.marks = st, bit, []
    st.seen = watch
    try:
        if st.apply_in_place(option_id) is not None:
            return None
    finally:
        st.seen = list(watch)
    marks = watch.marks
    pend = st.pending
    offer_shown = False
    if marks and pend is not None and pend["p"] == p and pend.get("t") == "card":
        # the cards p is shown because p is asked to choose among them: who is asked and
        # the prompt are still public; the options are what p is shown
        offered = set(pend["items"])
        if all(at == len(st.log) and c in offered for at, c in marks):
            marks, offer_shown = [], True
    cut = min((at for at, _ in marks), default=None)
    shown = {c for _, c in marks}
    trace: list = []
    for i in range(start, len(st.log) if cut is None else cut):
        e = st.log[i]
        if e[3] & bit:
            if _hidden_cards(e, before, bit) - shown:
                # the entry itself shows p a card (a card played face up, an item handed
                # over by a rule): what it says is the rules' to tell
                cut = i
                break
            trace.append(_canon(st.g, e, shown))
    if cut is not None:
        trace.append(REVEALED)
    elif st.over:
        trace.append(("over", st.result["reason"], tuple(st.result["sides"])))
    else:
        d = st.decision()
        asked = ("asked", d.player, d.prompt, d.kind)
        if d.player == p:
            asked += (tuple(o.id for o in d.options) if not offer_shown else (),)
        trace.append(asked)
    return trace


def translate(st, w, mapping: dict, opt) -> str:
    """The id, in world w, of the decider's choice opt in st: the same choice, any card in it
    replaced by the card dealt into its place."""
    if opt.value is None:
        return opt.id
    pend = st.pending
    if pend["k"] == "choose":
        t = pend["t"]
        v = mapping.get(opt.value, opt.value) if t == "card" else opt.value
        return value_id(w, v, t)
    aid, args = opt.value
    if not args:
        return opt.id
    types = st.g.actions[aid].arg_types
    return aid + ":" + ",".join(value_id(w, mapping.get(v, v) if t == "card" else v, t)
                                for v, t in zip(args, types))


def same_trace(a: list, b: list) -> bool:
    """Equal traces, up to where either shows p something: a card (a trade effect naming
    its card, say, happens in one world and not in the other), or the end of the game (an
    end condition may read what nobody sees, such as who is left alive on which side)."""
    if a == b:
        return True
    ends = [i for t in (a, b) for i, ev in enumerate(t) if ev == REVEALED or ev[0] in ("game_over", "over")]
    if not ends:
        return False
    k = min(ends)
    return a[:k] == b[:k]


@dataclass
class Leak:
    """One step whose public trace for `observer` differs between the game and a world."""

    seed: int
    at: int  # the decision's index in the game
    decider: int
    option: str
    observer: int
    real: list
    world: list

    def first_difference(self) -> tuple:
        for a, b in zip(self.real, self.world):
            if a != b:
                return a, b
        n = min(len(self.real), len(self.world))
        return (self.real[n:n + 1] or [None])[0], (self.world[n:n + 1] or [None])[0]

    def __str__(self) -> str:
        a, b = self.first_difference()
        return (f"seed {self.seed}, decision {self.at}: p{self.decider + 1} chose {self.option!r}; "
                f"p{self.observer + 1} then sees {a} in the game but {b} in a world it cannot tell apart")


def leaks_in_game(game, n: int, seed: int, worlds: int = 3, points: int | None = None,
                  variants_seen: set | None = None) -> tuple[list[Leak], int]:
    """Play one random game and check its steps (all of them, or `points` spread evenly over
    the game) for every observer in `worlds` worlds. Return the leaks found and the number
    of (step, observer, world) comparisons made."""
    rng = random.Random(seed)
    st = game.new_game(seed=seed, players=n)
    picks = []
    while not st.over:  # the game first, then the steps to check
        opts = st.options()
        picks.append(opts[rng.randrange(len(opts))].id)
        st.apply_in_place(picks[-1])
    at = set(range(len(picks)))
    if points is not None and points < len(picks):
        at = {round(i * (len(picks) - 1) / max(points - 1, 1)) for i in range(points)}
    st = game.new_game(seed=seed, players=n)
    wrng = Rng(seed * 7919 + 1)
    found: list[Leak] = []
    compared = 0
    for k, oid in enumerate(picks):
        if k in at:
            opt = st.find_option(oid)
            for p in range(n):
                real = step_trace(st.clone(), p, oid)
                for _ in range(worlds):
                    w, mapping = deal_world(st, p, wrng, keep_future=True)
                    wt = step_trace(w, p, translate(st, w, mapping, opt))
                    if wt is None:  # the decider could not have chosen it in that world
                        continue
                    compared += 1
                    if not same_trace(real, wt):
                        found.append(Leak(seed, k, st.pending["p"], oid, p, real, wt))
                        break
        st.apply_in_place(oid)
    return found, compared


def prompts_of(leak: Leak) -> set:
    """The prompts of the questions at the first difference (who was asked what)."""
    return {ev[2] for ev in leak.first_difference() if ev and ev[0] == "asked"}
