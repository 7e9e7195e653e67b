"""Players that are programs. Every bot sees only what its seat may see: the legal options of
its own decision and, for search bots, worlds sampled from its view (`determinize`)."""

from __future__ import annotations

from .random_bot import RandomBot


def make_bot(kind: str, seed: int, game=None, **opts):
    """A bot by name: 'random' or 'mcts'."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "mcts":
        from .mcts import MctsBot
        return MctsBot(seed, game, **opts)
    if ":" in kind:  # a class of one's own: package.module:Name
        from .plugin import make_plugin_bot
        return make_plugin_bot(kind, seed, game)
    raise ValueError(f"unknown bot {kind!r}")


__all__ = ["RandomBot", "make_bot"]
