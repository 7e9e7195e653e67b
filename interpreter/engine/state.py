"""A game state: plain data, cheap to clone, serializable at any decision point.

Pipeline position: engine. Everything that can change lives here as flat lists and ints:
zones (lists of card instances), `where` (card -> zone) and `seen` (card -> bitmask of players
who may see its identity; both machine-integer arrays, which a clone copies as one block
without touching every element), counters, player locations, the VM stack of suspended effects,
the pending decision, the RNG state, the log and the decisions taken so far. The static
part (the compiled Program laid out for n players) is shared, never copied.

The decision API follows OpenSpiel: `decision()` names who decides and the legal options;
`apply(option_id)` returns the next state, or a `Refusal` and leaves this one unchanged.
"""

from __future__ import annotations

from array import array

from ..errors import Refusal
from ..runtime.ops import entry_mask
from ..runtime.options import SPECTATOR, Decision, Option
from . import flow
from .cloning import clone as _clone
from .decisions import options_of, player_id, take
from .persist import state_to_json
from .rng import Rng, seed_state
from .views import determinize, view


class State:
    """The whole of one game at one moment."""

    __slots__ = ("g", "n", "zones", "where", "seen", "ctr", "at", "stack", "pending", "rng",
                 "current", "turn", "kinds", "over", "result", "phase", "log", "history",
                 "names_pending", "seed", "_cow", "_opts", "record", "_zown")

    # ---- construction ---------------------------------------------------------------------

    @classmethod
    def new(cls, table, seed: int, names: list | None = None, record: bool = True) -> State:
        st = cls.__new__(cls)
        st.g = table
        st.n = table.n
        start = table.start_state
        if start is None:  # where every card starts, and who sees it there: once per table
            zones = [[] for _ in range(table.NZ)]
            where = [0] * len(table.card_def)
            for c, k in enumerate(table.card_def):
                z = table.start_zone.get(table.prog.kind_sets[k], 0)
                zones[z].append(c)
                where[c] = z
            st.zones, st.where = zones, where
            seen = array("q", [entry_mask(st, where[c]) for c in range(len(where))])
            start = table.start_state = (zones, array("I", where), seen)
        st.zones = [z[:] for z in start[0]]
        st._zown = -1  # every zone list is this state's own (see clone)
        st.where = start[1][:]
        st.seen = start[2][:]
        st.ctr = list(table.ctr_init)
        st.at = [None] * table.n
        st.stack = []
        st.pending = None
        st.rng = Rng(seed_state(seed))
        st.seed = seed
        st.current = None
        st.turn = 1
        st.kinds = ()
        st.over = False
        st.result = None
        st.phase = "new"
        st.log = []
        st.history = []
        st.names_pending = list(names) if names else None
        st._cow = False
        st._opts = None
        st.record = record
        flow.run(st)
        return st

    clone = _clone  # interpreted even in a compiled install: engine/cloning.py says why

    # ---- the decision API -------------------------------------------------------------------

    def is_over(self) -> bool:
        return self.over

    def current_player(self):
        """Who must decide now (None when the game is over)."""
        return None if self.pending is None else self.pending["p"]

    def options(self) -> list[Option]:
        """The legal options of the pending decision (cached until the state changes)."""
        if self._opts is None:
            self._opts = options_of(self) if self.pending is not None else []
        return self._opts

    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""
        if self.pending is None:
            return None
        pend = self.pending
        prompt = pend.get("prompt") or ("act-" + pend["g"] if pend["k"] == "act" else "choose")
        return Decision(pend["p"], prompt, pend["k"], self.options())

    def apply(self, option_id) -> State | Refusal:
        """Return the state after choosing option_id; a Refusal leaves this state unchanged."""
        opt = self.find_option(option_id)
        if isinstance(opt, Refusal):
            return opt
        new = self.clone()
        new._take(opt)
        return new

    def apply_in_place(self, option_id) -> Refusal | None:
        """Like apply, but change this state (the hot path of bots and simulations)."""
        opt = self.find_option(option_id)
        if isinstance(opt, Refusal):
            return opt
        self._take(opt)
        return None

    def find_option(self, option_id) -> Option | Refusal:
        """The option an exact id names, or a Refusal (a program says what it means; only the
        terminal, for people, matches a unique prefix)."""
        if self.over or self.pending is None:
            return Refusal("the game is over; there is nothing to decide", option_id)
        opts = self.options()
        if isinstance(option_id, Option):
            option_id = option_id.id
        if not isinstance(option_id, str):
            return Refusal(f"an option id is a string, found {option_id!r}", option_id)
        for o in opts:
            if o.id == option_id:
                return o
        ids = ", ".join(o.id for o in opts[:12]) + (" ..." if len(opts) > 12 else "")
        return Refusal(f"{option_id!r} is not a legal option now (legal: {ids})", option_id)

    def _take(self, opt: Option) -> None:
        if self._cow:
            self._unshare()
        take(self, opt)
        self._opts = None
        flow.run(self)

    # ---- bookkeeping ------------------------------------------------------------------------

    def _unshare(self) -> None:
        self.log = list(self.log)
        self.history = list(self.history)
        self._cow = False

    def log_event(self, event: str, args: list, to, types=None, names=None, spectators=False) -> None:
        """Append an event [id, args, types, viewer mask, arg names]; `to`: who sees it (None: all).
        Spectators (SPECTATOR bit: an all-bot game's printed log) see public events and, with
        `spectators=True`, the version of an event written for players who cannot see its cards."""
        if not self.record:
            return
        if self._cow:
            self._unshare()
        mask = -1
        if to is not None:
            mask = SPECTATOR if spectators else 0
            for p in to:
                if p is not None:
                    mask |= 1 << p
        self.log.append([event, list(args), list(types or []), mask, list(names or [])])

    def finish(self, reason: str, sides: list) -> None:
        """End the game now; the players of `sides` win."""
        if self.over:
            return
        self.over = True
        g = self.g
        side = g.side_fn
        winners = [p for p in range(self.n) if side(self, p) in sides]
        self.result = {"reason": reason, "sides": list(sides), "winners": winners}
        self.log_event("game_over", [reason, list(sides)], None, ["str", "list:str"], ["reason", "sides"])
        self.pending = None

    def check_end(self) -> bool:
        """End the game if a declared end condition holds; True if it is over."""
        if self.over:
            return True
        fn = self.g.end_fn
        if fn is not None:
            fr = [None, 0, {"me": self.current}, None] if self.g.end_reads_frame else None
            i = fn(self, fr)
            if i < 0:
                return False
            e = self.g.prog.end_defs[i]
            self.finish(e.id, e.winners)
            return True
        fr = [None, 0, {"me": self.current}, None]
        for e in self.g.prog.end_defs:
            if e.when is not None and e.when(self, fr):
                self.finish(e.id, e.winners)
                return True
        return False

    def result_summary(self) -> dict | None:
        return self.result

    # ---- persistence, views ---------------------------------------------------------------------

    def to_json(self) -> dict:
        return state_to_json(self)

    def view(self, player: int) -> dict:
        return view(self, player)

    def determinize(self, player: int, rng) -> State:
        return determinize(self, player, rng)

    def player_id(self, p) -> str:
        """The id a player is called by: its naming card's id, or pN."""
        return player_id(self, p)
