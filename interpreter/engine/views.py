"""Hidden information: what one player may know (`view`), and worlds consistent with it.

Pipeline position: engine. Nothing here is written per game: a card's identity is visible
to a player iff its `seen` bit for that player is set (set by the visibility of the zone it
entered, by `reveal`, cleared by face-down moves and shuffles). `determinize` re-deals every
card a player cannot see among the places such cards occupy, card set by card set, so a
search bot can sample a world it cannot tell apart from the real one.
"""

from __future__ import annotations

from ..runtime.options import ACT_LOG, SPECTATOR
from .decisions import player_id, value_id
from .rng import Rng


def _visible_counter(g, i: int, p: int) -> bool:
    vis = g.ctr_vis[i]
    return vis == 0 or (vis == 1 and g.ctr_owner[i] == p)


def view(st, p: int | None) -> dict:
    """Everything player p may know, as plain JSON-ready data (p None: a spectator, who sees
    only what every player may see)."""
    g = st.g
    bit = SPECTATOR if p is None else 1 << p
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
        "you": None if p is None else player_id(st, p),
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
    return deal_world(st, p, rng)[0]


def deal_world(st, p: int, rng, keep_future: bool = False):
    """`determinize` with its re-deal: (world, {real card: card now in its place}).

    The world keeps only what p may know: the log entries p may read, no record of the
    decisions taken (p's view has none; others' hidden choices are in it), and every card a
    suspended effect holds follows its place in the new deal. With `keep_future` the world
    keeps st's random future (the leak check compares worlds on the same dice)."""
    s = st.clone()
    bit = 1 << p
    _keep_readable_log(s, bit)  # the world's own log and (empty) history: nothing shared
    s.history = []
    s._cow = False
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
        for (z, i, old), c in zip(places, new):
            s.zones[z][i] = c
            s.where[c] = z
            if c != old:
                mapping[old] = c
        for (z, i, _), m in zip(places, masks):
            s.seen[s.zones[z][i]] = m
    if mapping:
        _remap_references(s, mapping)
    s.rng = Rng(st.rng.s) if keep_future else Rng(rng.below(1 << 62))  # the future, too, is what p cannot know
    s._opts = None
    return s, mapping


def public_world(st, p: int, rng, keep=()) -> object:
    """A world for scoring p's decision from public information only: every card p knows and
    no spectator may see (p's hand, p's secret card, what p was shown) re-dealt from the pool
    of cards hidden from spectators, card set by card set, so the world's p-side depends only
    on the public view and `rng`. Cards in `keep` stay (the card a choice made public: the
    world is conditioned on p having held it). Cards nobody in particular sees stay where
    they are: a caller scores only expressions proven to read what p sees (view_safety)."""
    s = st.clone()
    s.record = False
    bit = 1 << p
    seen, where, zones = s.seen, s.where, s.zones
    mapping: dict[int, int] = {}
    for cards in _cards_by_set(s.g):
        mine = [c for c in cards if seen[c] & bit and not seen[c] & SPECTATOR and c not in keep]
        if not mine:
            continue
        # the cards p holds in the world: drawn from the pool in an order p's table could
        # know (by kind), never from where the hidden cards really are (a partial shuffle)
        pool = [c for c in cards if not seen[c] & SPECTATOR and c not in keep]
        total = len(pool)
        if total < 2:
            continue
        for j in range(len(mine)):
            r = j + rng.below(total - j)
            pool[j], pool[r] = pool[r], pool[j]
        drawn = pool[:len(mine)]
        mine_set, drawn_set = set(mine), set(drawn)
        places = [(where[c], zones[where[c]].index(c)) for c in mine]
        freed = [(where[c], zones[where[c]].index(c)) for c in drawn if c not in mine_set]
        displaced = [c for c in mine if c not in drawn_set]
        moves = list(zip(places, drawn)) + list(zip(freed, displaced))
        masks = [seen[zones[z][i]] for (z, i), _ in moves]
        for ((z, i), c), m in zip(moves, masks):
            old = zones[z][i]
            zones[z][i] = c
            where[c] = z
            seen[c] = m
            if c != old:
                mapping[old] = c
    if mapping:
        _remap_references(s, mapping)
    s._opts = None
    return s


def _cards_by_set(g) -> list:
    """Every card instance, grouped by card set, each group in the order (kind, instance)."""
    out = g.__dict__.get("_cards_by_set")
    if out is None:
        sets = g.prog.kind_sets
        groups: dict = {}
        for c, k in enumerate(g.card_def):
            groups.setdefault(sets[k], []).append(c)
        out = g.__dict__["_cards_by_set"] = [sorted(cs, key=lambda c: (g.card_def[c], c))
                                             for cs in groups.values()]
    return out


def set_side_card(world, p: int, zone: int, want, side_of) -> bool:
    """Swap the cards of `zone` (p's secret role cards, hidden from spectators) with
    spectator-hidden cards of the same card set until side_of(world, p) == want; True if
    found. Masks stay with places (whoever may see the place sees the new card)."""
    if side_of(world, p) == want:
        return True
    g = world.g
    sets = g.prog.kind_sets
    cdef = g.card_def
    seen, where, zones = world.seen, world.where, world.zones
    for mi, own in enumerate(zones[zone]):
        if seen[own] & SPECTATOR:
            continue
        tried = {cdef[own]}
        for cards in _cards_by_set(g):
            if sets[cdef[cards[0]]] != sets[cdef[own]]:
                continue
            for c in cards:
                if seen[c] & SPECTATOR or cdef[c] in tried or where[c] == zone:
                    continue
                tried.add(cdef[c])
                other = (where[c], zones[where[c]].index(c))
                swap_places(world, (zone, mi), other)
                if side_of(world, p) == want:
                    world._opts = None
                    return True
                swap_places(world, (zone, mi), other)
    return False


def swap_places(s, a: tuple, b: tuple) -> None:
    """Exchange the cards of two places, their seen masks staying with the places."""
    (za, ia), (zb, ib) = a, b
    ca, cb = s.zones[za][ia], s.zones[zb][ib]
    ma, mb = s.seen[ca], s.seen[cb]
    s.zones[za][ia], s.zones[zb][ib] = cb, ca
    s.where[cb], s.where[ca] = za, zb
    s.seen[cb], s.seen[ca] = ma, mb
    _remap_references(s, {ca: cb, cb: ca})


def card_locals(g, code_id: str) -> dict:
    """The locals of a code unit that hold cards ('card' or 'list:card'): by their declared
    or inferred type, and, for an untyped parameter, by what every call site passes to it.
    Not `this`: the code running is that card's own hook, so it names the card itself."""
    cache = g.__dict__.setdefault("_card_locals", {})
    out = cache.get(code_id)
    if out is None:
        prog = g.prog
        code = g.codes[code_id]
        out = {k: t for k, t in code.local_types.items() if t in ("card", "list:card") and k != "this"}
        passed = (getattr(prog, "call_arg_types", {}) or {}).get(_callee(prog, code_id), ())
        for name, ts in zip(code.params, passed):
            if code.local_types.get(name, "any") == "any" and len(ts) == 1 and next(iter(ts)) in ("card", "list:card"):
                out[name] = next(iter(ts))
        cache[code_id] = out
    return out


def _callee(prog, code_id: str):
    """How call sites name a code unit (see effects/blocking.note_call_types)."""
    kind, _, rest = code_id.partition(":")
    if kind == "proc":
        return ("proc", rest)
    if kind in ("card", "loc"):
        return ("hook", rest.rpartition(":")[2])
    if kind == "trigger":
        for ev, units in prog.triggers.items():
            if any(cid == code_id for cid, _ in units):
                return ("event", ev)
    return None


def _remap_references(s, mapping: dict) -> None:
    """Cards held in suspended effects' variables follow their places in the new deal."""
    g = s.g
    for fr in s.stack:
        loc = fr[2]
        for k, t in card_locals(g, fr[0]).items():
            v = loc.get(k)
            if t == "card":
                if v in mapping:
                    loc[k] = mapping[v]
            elif isinstance(v, list):
                loc[k] = [mapping.get(c, c) for c in v]
    for fr in s.stack:
        if fr[0] == ACT_LOG:  # an action's entry awaiting its readers names the world's cards
            i = fr[2]["i"]
            e = s.log[i]
            s.log[i] = [e[0], [mapping.get(v, v) if t == "card" else v for v, t in zip(e[1], e[2])],
                        e[2], e[3], e[4]]
    pend = s.pending
    if pend is not None and pend.get("t") == "card":
        pend = dict(pend)
        pend["items"] = [mapping.get(c, c) for c in pend["items"]]
        s.pending = pend


def _keep_readable_log(s, bit: int) -> None:
    """Drop the log entries p may not read. An action's entry whose readers are not settled
    yet (its ACT_LOG frame is suspended below the action) stays, so that the world settles it
    as the real game will; `_remap_references` then names the world's cards in it."""
    pending = {fr[2]["i"]: fr for fr in s.stack if fr[0] == ACT_LOG}
    if not pending:
        s.log = [e for e in s.log if e[3] & bit]
        return
    log, new_index = [], {}
    for i, e in enumerate(s.log):
        if e[3] & bit or i in pending:
            new_index[i] = len(log)
            log.append(e)
    for i, fr in pending.items():
        fr[2] = {**fr[2], "i": new_index[i]}
    s.log = log


__all__ = ["view", "determinize", "deal_world", "public_world", "set_side_card", "swap_places", "card_locals",
           "value_id"]
