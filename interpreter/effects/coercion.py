"""Type checks and coercions of compiled expressions.

Pipeline position: compiler (effects/), mixed into the Compiler (compile.py). `need`
records a problem when a value's type is not the one a place accepts (effects/types.py
says which types accept which); `coerce` wraps a closure so its value has the wanted type
(a card id names the player it stands for).
"""

from __future__ import annotations

from ..runtime.primitives import kind_to_player
from .scope import CheckError
from .types import accepts, show


class CoercionMixin:
    """Checking and converting the types of expressions (a part of Compiler)."""

    def need(self, src, node, want: str, got: str) -> None:
        """Record a problem and abandon the construct unless type `got` is accepted as `want`."""
        if not accepts(want, got):
            self.problem(src, node, f"expected {show(want)}, found {show(got)}")
            raise CheckError

    def coerce(self, fn, got: str, want: str):
        """Wrap fn so its value has type `want` (card id -> the player it names)."""
        if want == "player" and got == "kind":
            return lambda st, fr: kind_to_player(st, fn(st, fr))
        if want.startswith("list:player") and got == "list:kind":
            return lambda st, fr: [kind_to_player(st, k) for k in fn(st, fr)]
        return fn
