"""Players that are programs. Every bot sees only what its seat may see: a `Seat` with the legal
options of its own decision, its view and, for search bots, worlds sampled from that view
(`determinize`); see base.py for the protocol."""

from __future__ import annotations

from .base import Bot, Seat, as_seat, decide
from .random_bot import RandomBot

KINDS = ("random", "policy", "mcts", "rollout")
NEED_POLICY = ("policy", "rollout")  # the bots that play the ruleset's `policy:`
BELIEVERS = ("policy", "rollout", "mcts")  # the bots that read beliefs (where a ruleset keeps them)


def make_bot(kind: str, seed: int, game=None, **opts):
    """A bot by name: 'random', 'policy', 'mcts' or 'rollout'."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "policy":
        from .policy import PolicyBot
        return PolicyBot(seed, game, **opts)
    if kind == "mcts":
        from .mcts import MctsBot
        return MctsBot(seed, game, **opts)
    if kind == "rollout":
        from .rollout import RolloutBot
        return RolloutBot(seed, game, **opts)
    if ":" in kind:  # a class of one's own: package.module:Name
        from .plugin import make_plugin_bot
        return make_plugin_bot(kind, seed, game)
    raise ValueError(f"unknown bot {kind!r} ({', '.join(KINDS)}, or package.module:Name)")


def default_kind(game) -> str:
    """The bot a seat gets when nobody says: the ruleset's policy where it has one."""
    return "policy" if getattr(getattr(game, "program", None), "policy", None) is not None else "random"


__all__ = ["BELIEVERS", "KINDS", "NEED_POLICY", "Bot", "RandomBot", "Seat", "as_seat", "decide", "default_kind",
           "make_bot"]
