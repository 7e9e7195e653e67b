"""The policy bot: plays the ruleset's own `policy:` (program/policy.py), fast and honest.

Pipeline position: a player outside the engine, like the random and search bots. At each
decision it asks its Seat for the policy's score of every option (`Seat.evaluate`: on the
real state only where the expressions are proven to read nothing hidden, else on a world
drawn from the player's view) and takes the best (ties broken with its own generator), or,
with a temperature, draws one with probability proportional to exp(score / temperature).
"""

from __future__ import annotations

import math

from ..engine.rng import Rng, seed_state
from .base import as_seat


class PolicyBot:
    """Chooses by the ruleset's policy: argmax, or softmax with a temperature."""

    def __init__(self, seed: int = 0, game=None, temperature: float = 0.0,
                 weights: dict | None = None, beliefs: bool = True, **_options):
        # weights: per side, {side: {weight: value}}: what `grimoire tune` tries
        self.rng = Rng(seed_state(seed))
        self.policy = ruleset_policy(game, "policy")
        self.temperature = float(temperature or 0.0)
        self.weights = dict(weights) if weights else None
        self.beliefs = bool(beliefs)  # False: plays as if the game kept no beliefs (belief() reads 0)

    def choose(self, seat) -> str:
        """The id of the best option by the policy (or one drawn by its softmax)."""
        seat = as_seat(seat)
        opts = seat.options
        if len(opts) == 1:
            return opts[0].id
        if not self.beliefs:
            seat.beliefs = None
        scores = seat.evaluate(self.policy, self.rng, self.weights)
        return opts[pick(scores, self.temperature, self.rng)].id


def ruleset_policy(game, bot: str):
    """The game's compiled policy (`Program.policy`); ValueError if its ruleset has none."""
    policy = getattr(getattr(game, "program", None), "policy", None)
    if policy is None:
        name = getattr(getattr(game, "ruleset", None), "id", "this ruleset")
        raise ValueError(f"{name} has no policy: section, so there is no {bot} bot to play")
    return policy


def pick(scores: list[float], temperature: float, rng) -> int:
    """The index of the best score (ties at random), or a softmax draw at a temperature > 0."""
    if temperature > 0:
        top = max(scores)
        ws = [math.exp((s - top) / temperature) for s in scores]
        r = rng.below(1 << 30) * sum(ws) / (1 << 30)
        for i, w in enumerate(ws):
            r -= w
            if r < 0:
                return i
        return len(ws) - 1
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def softmax(scores: list[float], temperature: float) -> list[float]:
    """Probabilities proportional to exp(score / temperature) (a search bot's prior)."""
    t = temperature if temperature > 0 else 1.0
    top = max(scores)
    ws = [math.exp((s - top) / t) for s in scores]
    total = sum(ws)
    return [w / total for w in ws]


__all__ = ["PolicyBot", "pick", "ruleset_policy", "softmax"]
