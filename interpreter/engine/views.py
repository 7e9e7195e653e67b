"""Hidden information: what one player may know (`view`), and worlds consistent with it.

Pipeline position: engine. Nothing here is written per game: a card's identity is visible
to a player iff its `seen` bit for that player is set (set by the visibility of the zone it
entered, by `reveal`, cleared by face-down moves and shuffles). `determinize` re-deals every
card a player cannot see among the places such cards occupy, card set by card set, so a
search bot can sample a world it cannot tell apart from the real one.
"""

from __future__ import annotations

from .decisions import player_id, value_id
from .rng import Rng


def _visible_counter(g, i: int, p: int) -> bool:
    vis = g.ctr_vis[i]
    return vis == 0 or (vis == 1 and g.ctr_owner[i] == p)


def view(st, p: int) -> dict:
    """Everything player p may know, as plain JSON-ready data."""
    g = st.g
    bit = 1 << p
    ids = g.card_ids
    cdef = g.card_def
    zones: dict = {}
    for z, (name, li, owner) in enumerate(g.zone_label):
        key = name if li is None and owner is None else (
            f"{name}@{g.loc_ids[li]}" if li is not None else f"{name}@{player_id(st, owner)}")
        zones[key] = [ids[cdef[c]] if st.seen[c] & bit else None for c in st.zones[z]]
    counters = {}
    for i, (name, li, owner) in enumerate(g.ctr_label):
        if not _visible_counter(g, i, p):
            continue
        key = name if li is None and owner is None else (
            f"{name}@{g.loc_ids[li]}" if li is not None else f"{name}@{player_id(st, owner)}")
        counters[key] = st.ctr[i]
    out = {
        "you": player_id(st, p),
        "players": [player_id(st, q) for q in range(st.n)],
        "turn": st.turn,
        "current": player_id(st, st.current) if st.current is not None else None,
        "at": {player_id(st, q): (g.loc_ids[st.at[q]] if st.at[q] is not None else None) for q in range(st.n)},
        "zones": zones,
        "counters": counters,
        "over": st.over,
        "result": st.result,
        "log": [e for e in st.log if e[3] & bit],
    }
    if st.pending is not None:
        pend = st.pending
        out["waiting_for"] = player_id(st, pend["p"])
        if pend["p"] == p:
            out["decision"] = {"prompt": pend.get("prompt") or pend.get("g"),
                               "options": [o.id for o in st.options()]}
    return out


def determinize(st, p: int, rng) -> object:
    """A full state p cannot tell apart from st: unseen cards re-dealt, the future re-seeded."""
    s = st.clone()
    s._unshare()
    bit = 1 << p
    g = s.g
    sets = g.prog.kind_sets
    cdef = g.card_def
    groups: dict[str, list] = {}
    for z, zz in enumerate(s.zones):
        for i, c in enumerate(zz):
            if not s.seen[c] & bit:
                groups.setdefault(sets[cdef[c]], []).append((z, i, c))
    mapping: dict[int, int] = {}
    for places in groups.values():
        if len(places) < 2:
            continue
        cards = [c for _, _, c in places]
        masks = [s.seen[c] for c in cards]
        # start from an order p could know (by card kind), so the sample depends only on
        # p's view and on rng, never on where the hidden cards really are
        new = sorted(cards, key=lambda c: (cdef[c], c))
        rng.shuffle(new)
        for (z, i, old), c, m in zip(places, new, masks):
            s.zones[z][i] = c
            s.where[c] = z
            mapping[old] = c
        for (z, i, _), m in zip(places, masks):
            s.seen[s.zones[z][i]] = m
    if mapping:
        _remap_references(s, mapping)
    s.rng = Rng(rng.below(1 << 62))  # the future, too, is what p cannot know
    s._opts = None
    return s


def _remap_references(s, mapping: dict) -> None:
    """Cards held in suspended effects' variables follow their places in the new deal."""
    codes = s.g.codes
    for fr in s.stack:
        types = codes[fr[0]].local_types
        loc = fr[2]
        for k, v in loc.items():
            t = types.get(k, "")
            if t == "card" and v in mapping:
                loc[k] = mapping[v]
            elif t == "list:card" and isinstance(v, list):
                loc[k] = [mapping.get(c, c) for c in v]
    pend = s.pending
    if pend is not None and pend.get("t") == "card":
        pend = dict(pend)
        pend["items"] = [mapping.get(c, c) for c in pend["items"]]
        s.pending = pend


__all__ = ["view", "determinize", "value_id"]
