"""Grimoire: a data-driven rules interpreter for tabletop games.

Pipeline: load (YAML + positions) -> overlay (variants) -> validate (JSON Schema) -> build
(Ruleset) -> compile (effects to closures) -> engine (State, decisions, views).
"""

from .runtime import native

native.install()  # first: which hot modules load compiled, which from source (runtime/native.py)

from .engine.state import Decision, Option, State  # noqa: E402
from .errors import GrimoireError, Loc, Problem, Refusal, RulesetError, format_problems  # noqa: E402
from .game import Game, load  # noqa: E402

__all__ = ["Decision", "Game", "GrimoireError", "Loc", "Option", "Problem", "Refusal",
           "RulesetError", "State", "format_problems", "load"]
