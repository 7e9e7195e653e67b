"""Options and decisions, and the log entry of an action, as compiled code and the engine
share them.

Pipeline position: runtime. An `Option` is one legal choice (a stable id, a label key with
its arguments, and its value); a `Decision` says who decides what. The `act` and `window`
instructions (effects/blocking.py) hand the options they enumerated to the engine with
`act_options`; `settle_act_log` is the instruction that, once an action has run, settles
who may read its log entry (engine/decisions.py pushes its frame, ACT_LOG).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Option(NamedTuple):
    """One legal choice: a stable id, a label key with its arguments, and what it means."""

    id: str
    label: str
    args: tuple = ()
    value: object = None


SPECTATOR = 1 << 62  # the viewer bit of someone who sees only what every player may see
PASS = Option("pass", "option-pass", (), None)
ACT_LOG = "engine:act_log"  # the code unit that settles who may read an action's log entry


@dataclass
class Decision:
    """Who decides now, what about, and the legal options."""

    player: int
    prompt: str
    kind: str
    options: list = field(default_factory=list)


def act_options(st, pend, legal) -> list[Option]:
    """The options of an `act` decision from its legal actions' options (Table.legal_options).
    The `act` and `window` instructions already enumerate them to know whether to ask at
    all, and hand them over here (state._opts), so a decision enumerates its actions once."""
    if pend.get("opt"):
        legal.append(PASS)
    return legal


def settle_act_log(st, fr) -> None:
    """The action has run: everyone who can now see all its cards reads it in full; the
    others (and spectators) read it with those cards hidden. The log only grows once it may
    have been read: an entry is never inserted before, or shown to new readers behind, one
    already read, so a log printed as it grows prints every line once, in order."""
    i = fr[2]["i"]
    if st._cow:
        st._unshare()
    e = st.log[i]
    p, args, types = e[1][0], e[1], e[2]
    everyone = (1 << st.n) - 1
    full = everyone
    for v, t in zip(args[2:], types[2:]):
        if t == "card" and v is not None:
            full &= st.seen[v] | (1 << p)
    hidden = args[:2] + [None if t == "card" else v for v, t in zip(args[2:], types[2:])]
    others = (everyone & ~full) | SPECTATOR
    if fr[2].get("late"):
        # A question came between the action and now, so the log was read (and printed)
        # past the entry: it stays the actor's, and the others read theirs from here on.
        me = 1 << p
        if full == everyone:
            st.log.append([e[0], args, types, (everyone & ~me) | SPECTATOR, e[4]])
            return
        if full & ~me:
            st.log.append([e[0], args, types, full & ~me, e[4]])
        st.log.append([e[0], hidden, types, others, e[4]])
        return
    if full == everyone:
        st.log[i] = [e[0], args, types, -1, e[4]]
        return
    st.log[i] = [e[0], args, types, full, e[4]]
    st.log.insert(i + 1, [e[0], hidden, types, others, e[4]])
