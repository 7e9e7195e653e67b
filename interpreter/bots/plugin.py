"""Bots of one's own: `--bots package.module:ClassName` in play and simulate.

Pipeline position: beside `bots/__init__.make_bot`, which calls `load_bot_class` for any kind
written `module:Name`. The class is built as `Name(seed, game)`, then asked `choose(...)` for
each decision exactly as the built-in bots are (see docs/api.md). The module is imported as
Python would with `python -m` from the current directory, so a `mybots.py` beside the author
works without installing it; the worker processes of `simulate` import it the same way.
"""

from __future__ import annotations

import importlib
import os
import sys

from ..errors import GrimoireError


def is_plugin(kind: str) -> bool:
    """Does a bot kind name a class (`module:Name`) rather than a built-in bot?"""
    return ":" in kind


def load_bot_class(kind: str):
    """The class `module:Name` names; GrimoireError saying what is wrong if it cannot be used."""
    modname, _, attr = kind.partition(":")
    if not modname or not attr:
        raise GrimoireError(f"bot {kind!r}: write package.module:ClassName")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())  # as `python -m` would: the author's own folder
    try:
        mod = importlib.import_module(modname)
    except ImportError as e:
        raise GrimoireError(f"bot {kind!r}: cannot import module {modname!r} ({e})") from None
    cls = mod
    for part in attr.split("."):
        cls = getattr(cls, part, None)
        if cls is None:
            names = ", ".join(n for n in dir(mod) if not n.startswith("_") and isinstance(getattr(mod, n), type))
            raise GrimoireError(f"bot {kind!r}: module {modname!r} has no {attr!r} (its classes: {names or 'none'})")
    if not callable(getattr(cls, "choose", None)):
        raise GrimoireError(f"bot {kind!r}: {attr} has no choose() method (see docs/api.md)")
    return cls


def make_plugin_bot(kind: str, seed: int, game):
    """An instance of the bot class `kind` names, for one seat."""
    return load_bot_class(kind)(seed, game)
