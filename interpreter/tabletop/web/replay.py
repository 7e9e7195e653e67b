"""A replay: the game of a save (or of the room) decision by decision, as one seat saw it.

Pipeline position: beside the room (`web/room.py`). A game is given by ruleset, variants, seed
and decisions, so `Replay` starts the game again from its seed and applies the recorded
decisions one by one (keeping every state, cheap: states share their static part); step k is
the table after k decisions. A replay that does not end where the save does (a save made with
other names or rules) is refused rather than shown wrong.
"""

from __future__ import annotations

from .guard import short
from .room import Refused, seat_payload


class Replay:
    """Every state of one game, from its start to its last recorded decision."""

    def __init__(self, game, seed: int, players: int, decisions: list[str], final=None):
        st = game.new_game(seed=seed, players=players)
        self.game = game
        self.states = [st]
        for i, d in enumerate(decisions):
            nxt = st.apply(d)
            if not nxt:
                raise Refused(f"decision {i + 1} ({d!r}) of the save cannot be replayed: {nxt.message}", 400)
            st = nxt
            self.states.append(st)
        if final is not None and st.to_json() != final.to_json():
            raise Refused("the replay of this save does not end where the save does (was it made with "
                          "--names or other rules?)", 400)

    @property
    def steps(self) -> int:
        """How many decisions the replay holds (steps 0..steps)."""
        return len(self.states) - 1

    def payload(self, step: int, seat: int | None, text) -> dict:
        """The table of `seat` (None: the public view) after `step` decisions."""
        if not isinstance(step, int) or not 0 <= step <= self.steps:
            raise Refused(f"no step {short(step)}: this replay has steps 0 to {self.steps}", 400)
        st = self.states[step]
        if seat is not None and not (isinstance(seat, int) and 0 <= seat < st.n):
            raise Refused(f"no seat {short(seat)}: this game has seats 1 to {st.n}", 400)
        out = seat_payload(self.game.program, st, seat, text, step, role="replay")
        out["decision"] = None  # a replay shows the table; nobody decides in it
        out["step"], out["steps"] = step, self.steps
        out["decided"] = self._decided(step, seat, text)
        return out

    def _decided(self, step: int, seat: int | None, text) -> str | None:
        """Who took the decision that led to `step`, and what it was if the viewer took it
        (another seat's choice may name a card the viewer never saw)."""
        if step == 0:
            return None
        prev = self.states[step - 1]
        p = prev.current_player()
        who = text.player(prev, p)
        if seat != p:
            return who
        opt = next(o for o in prev.options() if o.id == self.states[step].history[-1])
        return f"{who}: {text.option(prev, opt)}"


def room_replay(room) -> Replay:
    """The replay of the room's game so far."""
    st = room.state
    return Replay(room.game, st.seed, st.n, list(st.history), st)
