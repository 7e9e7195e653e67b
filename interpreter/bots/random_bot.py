"""The random bot: uniform over the legal options, seeded, so games replay exactly."""

from __future__ import annotations

from ..engine.rng import Rng, seed_state


class RandomBot:
    """Chooses uniformly among the options of its own decision."""

    def __init__(self, seed: int = 0):
        self.rng = Rng(seed_state(seed))

    def choose(self, state) -> str:
        """The id of a uniformly random legal option."""
        opts = state.options()
        return opts[self.rng.below(len(opts))].id
