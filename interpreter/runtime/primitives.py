"""The primitive operations compiled effects call: players, zones, cards, chance, the end.

Pipeline position: runtime. Each takes the State first (when it reads or changes it) and
plain values: card instances, zone indexes, players, card ids (kinds). The effect
language's table of built-ins (effects/builtins.py) names them and declares their types;
the compiler calls them from closures and generated code. Moves go through ops.py, which
keeps the invariants of zones, `where` and `seen`.
"""

from __future__ import annotations

from . import ops

NOARG = object()  # an optional parameter left out (the implementation sees this sentinel)


def kind_to_player(st, k):
    """The player named by card id k (the holder of such a card in the player_name zone)."""
    g = st.g
    if k is None:
        return None
    for c in g.kind_instances[k]:
        z = st.where[c]
        if g.zone_base_name[z] == g.player_name_zone:
            return g.zone_owner[z]
    return None


def next_seat(st, p):
    return None if p is None else (p + 1) % st.n


def prev_seat(st, p):
    return None if p is None else (p - 1) % st.n


def order_from(st, p):
    n = st.n
    return [(p + i) % n for i in range(n)] if p is not None else []


def others(st, p):
    n = st.n
    return [(p + i) % n for i in range(1, n)] if p is not None else list(range(n))


def players_at(st, loc):
    return [p for p in range(st.n) if st.at[p] == loc]


def is_named(st, p, k):
    return p is not None and kind_to_player(st, k) == p


def has_kind(st, z, k):
    d = st.g.card_def
    return any(d[c] == k for c in st.zones[z])


def is_full(st, z):
    cap = st.g.zone_capacity[z]
    return cap is not None and len(st.zones[z]) >= cap


def count(xs, x=NOARG):
    if x is NOARG:
        return len(xs)
    return sum(1 for y in xs if y == x)


def group_sizes(xs):
    counts: dict = {}
    for x in xs:
        counts[x] = counts.get(x, 0) + 1
    return sorted(counts.values(), reverse=True)


def is_straight(xs):
    return all(x == i + 1 for i, x in enumerate(xs))


def distinct(xs):
    seen, out = set(), []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def sorted_values(xs):
    return sorted(xs, key=lambda x: (x is None, x))


def roll(st, n):
    return st.rng.roll(n)


def random_item(st, xs):
    return xs[st.rng.below(len(xs))] if xs else None


def used(st, kind):
    return kind in st.kinds


def side(st, p):
    return st.g.side_fn(st, p)


class beliefs_read_from:
    """`with beliefs_read_from(seat):` the policy's `belief(q, side)` reads that seat's belief
    while its scores run (a seat has one only where the game keeps beliefs; anywhere else,
    e.g. in a search bot's playouts, `belief` reads 0)."""

    READER: list = [None]

    def __init__(self, seat):
        self.seat = seat

    def __enter__(self):
        self.prev = beliefs_read_from.READER[0]
        beliefs_read_from.READER[0] = self.seat

    def __exit__(self, *exc):
        beliefs_read_from.READER[0] = self.prev


def belief(st, q, side):
    """The percentage (0..100) with which the deciding seat believes q is on `side`."""
    seat = beliefs_read_from.READER[0]
    return 0 if seat is None else 100.0 * seat.belief_of(q, side)


def public_belief(st, q, side):
    """The percentage with which the table, from public information alone, believes q is on
    `side` (how suspect q looks to the others)."""
    seat = beliefs_read_from.READER[0]
    return 0 if seat is None else 100.0 * seat.belief_of(q, side, public=True)


def knows(st, p, c):
    return bool(st.seen[c] & (1 << p))


def copies(st, k):
    return list(st.g.kind_instances[k])


def top(st, z):
    zz = st.zones[z]
    return zz[-1] if zz else None


def bottom(st, z):
    zz = st.zones[z]
    return zz[0] if zz else None


def zone_owner(st, z):
    o = st.g.zone_owner[z]
    return o if o >= 0 else None


NO_CARD = ("move() was given none instead of a card (a choice with nothing to choose from, top() "
           "of an empty zone, or an index past the end?)")
NO_ZONE = "move() was given none instead of a zone (the zone of a player who does not exist?)"


def move(st, c, z, facedown, bottom):
    if c is None or z is None:  # nothing moves, silently, and the rules go on wrong: say so
        raise RuntimeError(NO_CARD if c is None else NO_ZONE)
    ops.move(st, c, z, facedown, bottom)
    return None


def move_all(st, z1, z2, facedown):
    ops.move_all(st, z1, z2, facedown)


def draw(st, z1, z2, n, facedown):
    return ops.draw(st, z1, z2, n, facedown)


def shuffle(st, z):
    ops.shuffle(st, z)


def reveal(st, c, to):
    if c is None:
        return
    if to is None:
        st.seen[c] = ops.ALL
        return
    m = st.seen[c]
    for p in to:
        if p is not None:
            m |= 1 << p
    st.seen[c] = m


def move_to(st, p, loc):
    if p is not None:
        st.at[p] = loc


def end(st, reason, sides):
    st.finish(reason, list(sides))


def check_end(st):
    st.check_end()


def end_turn(st):
    st.stack.clear()
    st.pending = None


def place(st, z, kinds):
    """Scenario helper: move a card of each listed id onto z, from anywhere but z."""
    owner = st.g.zone_owner
    for k in kinds:
        # take from a hidden zone nobody owns first (a deck, the box), then from other
        # unowned zones (the table), last from a player's: placing cards for one player
        # does not silently take them out of another's hand or off the table
        vis = st.g.zone_vis
        cands = sorted((c for c in st.g.kind_instances[k] if st.where[c] != z),
                       key=lambda c: (owner[st.where[c]] >= 0, vis[st.where[c]] != 2))
        for c in cands:
            ops.move(st, c, z)
            break
        else:
            raise RuntimeError(f"place(): no card {st.g.card_ids[k]!r} left outside the zone")


def give(st, z, k):
    place(st, z, [k])
