"""Static types of the effect language and the rules for mixing them.

Types are short strings: int, bool, str, card (a card instance), kind (a card id written in
the text), player, loc, zone, none, any, and list:T. The checker uses them to reject
`size(3)` or `life(deck)` before play; at run time values are plain ints, strs and lists.
"""

from __future__ import annotations

SCALARS = ("int", "bool", "str", "card", "kind", "player", "loc", "zone", "none", "any")
NULLABLE = ("card", "player", "loc", "str", "kind", "int", "any")


def list_of(t: str) -> str:
    return "list:" + t


def elem(t: str) -> str:
    """Element type of a list type ('any' for anything else)."""
    return t[5:] if t.startswith("list:") else "any"


def is_list(t: str) -> bool:
    return t.startswith("list:") or t == "any"


def accepts(expected: str, got: str) -> bool:
    """Can a value of type `got` stand where `expected` is needed (after coercion)?"""
    if expected == got or expected == "any" or got == "any":
        return True
    if got == "none" and (expected in NULLABLE or expected.startswith("list:")):
        return True
    if expected == "player" and got == "kind":
        return True  # a card id naming a player (player_name)
    if expected.startswith("list:") and got.startswith("list:"):
        return accepts(expected[5:], got[5:])
    if expected == "int" and got == "bool":
        return False
    return False


def join(a: str, b: str) -> str:
    """The type of `x if c else y` or of a list holding both."""
    if a == b:
        return a
    if a == "none":
        return b
    if b == "none":
        return a
    if a.startswith("list:") and b.startswith("list:"):
        return list_of(join(a[5:], b[5:]))
    if {a, b} == {"player", "kind"}:
        return "player"
    return "any"


def show(t: str) -> str:
    """A type as a rules author reads it."""
    names = {"int": "a number", "bool": "true/false", "str": "a string", "card": "a card",
             "kind": "a card id", "player": "a player", "loc": "a location", "zone": "a zone",
             "none": "none", "any": "anything"}
    if t.startswith("list:"):
        return "a list of " + show(t[5:]).replace("a ", "", 1) + "s"
    return names.get(t, t)


def can_equal(a: str, b: str) -> bool:
    """Can a value of type a ever be equal to one of type b? (`==` between types that cannot
    is always false: a card and a number, a list and a player.)"""
    if a == b or "any" in (a, b) or "none" in (a, b):
        return True
    if {a, b} in ({"card", "kind"}, {"player", "kind"}, {"int", "bool"}):
        return True
    if a.startswith("list:") and b.startswith("list:"):
        return can_equal(a[5:], b[5:])
    return False
