"""Pattern built-ins of the effect language: pairs, runs, what a set still misses, room left.

Pipeline position: runtime, like primitives.py: the functions behind entries of the effect
language's table of built-ins (effects/builtins.py); pure functions of plain values (and, for
zones, of the state), used mostly by policies that score
a card by the pattern it would make: `pairs(vs + [c.value]) > pairs(vs)` (it pairs up),
`longest_run(vs + [c.value]) > longest_run(vs)` (it extends a straight), `room(z) == 1` (it
fills the zone). `none` values are ignored.
"""

from __future__ import annotations


def pairs(xs) -> int:
    """How many disjoint pairs of equal values xs holds."""
    counts: dict = {}
    for x in xs:
        if x is not None:
            counts[x] = counts.get(x, 0) + 1
    return sum(n // 2 for n in counts.values())


def longest_run(xs) -> int:
    """The length of the longest run of consecutive whole numbers among xs's values."""
    vals = {x for x in xs if isinstance(x, int) and not isinstance(x, bool)}
    best = 0
    for v in vals:
        if v - 1 not in vals:  # v starts a run
            n = 1
            while v + n in vals:
                n += 1
            best = max(best, n)
    return best


def missing(need, have) -> list:
    """The values of `need` that `have` does not cover (each value of `have` covers one)."""
    left = list(have)
    out = []
    for x in need:
        if x in left:
            left.remove(x)
        else:
            out.append(x)
    return out


def most_common(xs):
    """The value xs holds most often (the first of them on a tie), or none."""
    counts: dict = {}
    for x in xs:
        if x is not None:
            counts[x] = counts.get(x, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


def capacity(st, z):
    """How many cards zone z may hold (none: no limit)."""
    return None if z is None else st.g.zone_capacity[z]


def room(st, z):
    """How many more cards fit in zone z (none: no limit)."""
    if z is None:
        return None
    cap = st.g.zone_capacity[z]
    return None if cap is None else max(0, cap - len(st.zones[z]))


def completes(st, z) -> bool:
    """One more card fills zone z to its capacity."""
    r = room(st, z)
    return r == 1


__all__ = ["capacity", "completes", "longest_run", "missing", "most_common", "pairs", "room"]
