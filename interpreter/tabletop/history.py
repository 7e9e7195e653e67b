"""What happened while a seat waited, and what it has learned: from the seat's view alone.

Pipeline position: display, beside the table model (`board.py`), shared by the terminal and
the web table. `history(view, text)` is every log entry the seat may read as a sentence, with
`since`: how many of them came before the seat's own last decision (the ones after it are
what happened while it waited). `notes(view, text, program)` is what the seat knows that the
table does not show to everyone: the cards it has seen in the other players' private or
hidden zones, and the log entries about another player that were not read out to everyone
(shown only to this seat, or to a few). Both read only `view(seat)`: a seat learns nothing
here it was not told.
"""

from __future__ import annotations

from ..runtime.options import SPECTATOR
from .board import _event, _ViewNames, label, player_label

OWN = ("act", "chose", "passed")  # the log entries of a seat's own decisions


def since_of(view: dict) -> int:
    """How many of the view's log entries there were up to the seat's last own decision."""
    pids = view["players"]
    you = view.get("you")
    if you not in pids:
        return 0
    me = pids.index(you)
    log = view["log"]
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e[0] in OWN and e[1] and e[1][0] == me and (e[2] or ["player"])[0] == "player":
            return i + 1
    return 0


def history(view: dict, text) -> dict:
    """Every entry the seat may read, as sentences, and where its last decision was."""
    names = _ViewNames(view["players"])
    return {"log": [_event(text, names, e) for e in view["log"]], "since": since_of(view)}


def _private(e) -> bool:
    return not (e[3] & SPECTATOR)


def notes(view: dict, text, program) -> list[dict]:
    """What this seat knows of each other player beyond what everyone sees, player by player."""
    pids = view["players"]
    you = view.get("you")
    if you not in pids:
        return []
    me = pids.index(you)
    names = _ViewNames(pids)
    out = []
    for i, pid in enumerate(pids):
        if i == me:
            continue
        cards = []
        for z, d in program.zone_defs.items():
            if d.per != "player" or d.vis == 0:  # (a public zone: everyone sees it on the table)
                continue
            known = [c for c in view["zones"].get(f"{z}@{pid}", []) if c]
            if known:
                cards.append({"zone": z, "label": label(text, "zone-" + z, z),
                              "cards": [{"id": c, "name": label(text, "card-" + c, c)} for c in known]})
        heard = [_event(text, names, e) for e in view["log"]
                 if _private(e) and any(t == "player" and v == i for v, t in zip(e[1], e[2]))]
        if cards or heard:
            out.append({"id": pid, "label": player_label(text, pid, i), "zones": cards, "log": heard})
    return out


NOTES_LOG = 10  # the last entries about each player a table shows (the history has them all)


def add_history(model: dict, view: dict, text, program) -> dict:
    """Put into a table model where the seat's last decision was and its notes."""
    model["since"] = since_of(view)
    model["notes"] = notes(view, text, program)
    for n in model["notes"]:
        n["log_total"] = len(n["log"])
        n["log"] = n["log"][-NOTES_LOG:]
    return model
