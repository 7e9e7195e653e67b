"""State-changing primitives shared by compiled effects, the flow loop and scenario helpers.

Pipeline position: runtime (below the compiler and the engine). These functions take a
State and plain ints (card instances, zone indexes, players) and keep the invariants: every
card is in exactly one zone, `where` agrees with the zone lists, and `seen` (who may see a
card's identity) is reset by the visibility of the zone a card enters.
"""

from __future__ import annotations

ALL = -1  # a `seen` mask meaning every player


def entry_mask(st, z: int, facedown: bool = False) -> int:
    """Who sees a card that enters zone z."""
    if facedown:
        return 0
    vis = st.g.zone_vis[z]
    if vis == 0:  # public
        return ALL
    if vis == 1:  # owner
        owner = st.g.zone_owner[z]
        return 0 if owner < 0 else (1 << owner)
    return 0


def zone_w(st, z: int) -> list:
    """Zone z's card list, to change: a clone shares its parent's lists until one of them
    changes a zone, which then gets a copy of its own (State.clone, `_zown`)."""
    zs = st.zones
    if st._zown >> z & 1:
        return zs[z]
    zz = zs[z] = zs[z][:]
    st._zown |= 1 << z
    return zz


def move(st, c: int, z: int, facedown: bool = False, bottom: bool = False) -> None:
    """Move card c onto zone z (top unless bottom)."""
    old = st.where[c]
    zs = st.zones
    own = st._zown
    if own >> old & 1:
        zs[old].remove(c)
    else:
        zz = zs[old] = zs[old][:]
        zz.remove(c)
        own |= 1 << old
    if own >> z & 1:
        zz = zs[z]
    else:
        zz = zs[z] = zs[z][:]
        own |= 1 << z
    st._zown = own
    if bottom:
        zz.insert(0, c)
    else:
        zz.append(c)
    st.where[c] = z
    st.seen[c] = entry_mask(st, z, facedown)


def draw(st, src: int, dst: int, n: int, facedown: bool = False) -> list:
    """Move the top n cards of src onto dst, refilling src through its on_empty hook."""
    out = []
    zs = st.zones
    for _ in range(n):
        if not zs[src]:
            if not refill(st, src):
                break
        c = zs[src][-1]
        move(st, c, dst, facedown)
        out.append(c)
    return out


def refill(st, z: int) -> bool:
    """Run zone z's on_empty routine synchronously; True if z has cards afterwards."""
    fn = st.g.zone_on_empty[z]
    if fn is None:
        return False
    fn(st)
    return bool(st.zones[z])


def shuffle(st, z: int) -> None:
    """Shuffle zone z; in a non-public zone nobody knows the cards any more."""
    cards = zone_w(st, z)
    st.rng.shuffle(cards)
    mask = entry_mask(st, z)
    for c in cards:
        st.seen[c] = mask


def move_all(st, src: int, dst: int, facedown: bool = False) -> None:
    """Move every card of src onto dst, keeping their order."""
    for c in list(st.zones[src]):
        move(st, c, dst, facedown)


def holder(st, c: int):
    """The player owning the zone that holds card c, or None."""
    o = st.g.zone_owner[st.where[c]]
    return o if o >= 0 else None
