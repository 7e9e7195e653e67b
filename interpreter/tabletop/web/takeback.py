"""Take-backs at the web table: a player asks to take back its last move, the other humans
accept or refuse, and the game goes back to that decision, replayed from the decisions.

Pipeline position: beside the room (`web/room.py`), used by the hub. A game is given by its
ruleset, seed and decisions, so going back is replaying the first k decisions (`Replay`),
k being the requester's last real decision (not a lone Pass it answered by itself). Nobody
learns anything by it: every seat saw each of those states already. The request, who asked
and who answered are public; the version moves on, so a click on the old table is stale.
"""

from __future__ import annotations

from ..auto import lone_pass, only_option
from .replay import Replay
from .room import Refused


def _target(room, seat: int) -> tuple[int, object]:
    """How many decisions stay, and the state there: just before seat's last real decision (one
    with a choice in it: a lone Pass or an only option is no move of the seat's to take back)."""
    st = room.state
    rep = Replay(room.game, st.seed, st.n, list(st.history))
    for k in range(rep.steps - 1, -1, -1):
        s = rep.states[k]
        if s.current_player() == seat and lone_pass(s, seat) is None and only_option(s, seat) is None:
            return k, s
    raise Refused("you have no decision of yours to take back yet")


def ask(room, token: str) -> None:
    """Seat of `token` asks to take back its last move (taken at once if no other human sits)."""
    s = room.seat(token)
    if s.index is None:
        raise Refused(f"a {s.role} does not decide at this table")
    if room.takeback is not None:
        raise Refused("a take-back is already asked: it must be answered first")
    k, _ = _target(room, s.index)
    room.takeback = {"seat": s.index, "from": room.text().player(room.state, s.index), "to": k,
                     "version": room.version, "accepted": []}
    if not _others(room, s.index):
        _go_back(room)


def answer(room, token: str, accept) -> None:
    """Another human accepts or refuses the take-back asked; all accept: the game goes back."""
    s = room.seat(token)
    req = room.takeback
    if req is None:
        raise Refused("no take-back is asked")
    if s.index is None or s.index == req["seat"] or s.index not in room.autopass:
        raise Refused("only the other human players answer a take-back")
    if not isinstance(accept, bool):
        raise Refused('send {"type": "takeback", "accept": true or false}', 400)
    if not accept:
        room.takeback = None
        return
    if s.index not in req["accepted"]:
        req["accepted"].append(s.index)
    if set(req["accepted"]) >= set(_others(room, req["seat"])):
        _go_back(room)


def _others(room, seat: int) -> list[int]:
    return [i for i in room.autopass if i != seat]  # (autopass: a key per human seat)


def _go_back(room) -> None:
    req = room.takeback
    room.takeback = None
    _, st = _target(room, req["seat"])  # (from the game as it is now: it may have moved on meanwhile)
    room._advance(st)
    room.ahead.clear()  # (answers written ahead were for questions of the game taken back)
    room.play_bots()  # (the seat decides there; nothing to play, unless a bot's turn came first)
