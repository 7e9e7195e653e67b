"""The random bot: uniform over the legal options, seeded, so games replay exactly."""

from __future__ import annotations

from ..engine.rng import Rng, seed_state
from .base import as_seat


class RandomBot:
    """Chooses uniformly among the options of its own decision."""

    def __init__(self, seed: int = 0, game=None, **_options):
        self.rng = Rng(seed_state(seed))

    def choose(self, seat) -> str:
        """The id of a uniformly random legal option."""
        opts = as_seat(seat).options
        return opts[self.rng.below(len(opts))].id
