"""What compiling one code unit knows: its names with their types, where it was written,
and how a problem abandons one construct.

Pipeline position: compiler (effects/), at its bottom: every part of the compiler and the
built-ins table import it. `Source` maps a position inside a code string to its file,
line and column in the YAML file; a `Scope` holds the names visible in one code unit;
`CheckError` abandons one expression after its problem was recorded.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Loc
from .codegen import EMPTY


class CheckError(Exception):
    """Raised inside the compiler to abandon one expression after recording a problem."""


@dataclass
class Source:
    """Where a code string was written: enough to map effect positions into the file."""

    doc: object
    path: tuple

    def loc(self, line: int, col: int) -> Loc:
        return self.doc.source.text(self.path, line, col)


class Scope:
    """Names visible while compiling one code unit, with their types."""

    def __init__(self, names: dict[str, str], kind: str = "effect", this_card=None, here_loc=None,
                 card_params: dict | None = None):
        self.names = dict(names)
        self.kind = kind
        self.this_card = this_card
        self.here_loc = here_loc
        self.card_params = card_params or {}
        self.counter = 0
        self.pyvars: frozenset = EMPTY  # comprehension variables bound as Python variables

    def hidden(self, base: str) -> str:
        self.counter += 1
        return f"_{base}{self.counter}"
