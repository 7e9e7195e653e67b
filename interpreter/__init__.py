"""Grimoire: a data-driven rules interpreter for tabletop games.

Pipeline: load (YAML + positions) -> overlay (variants) -> validate (JSON Schema) -> build
(Ruleset) -> compile (effects to closures) -> engine (State, decisions, views).
"""

from .engine.state import Decision, Option, State
from .errors import GrimoireError, Loc, Problem, Refusal, RulesetError, format_problems
from .game import Game, load

__all__ = ["Decision", "Game", "GrimoireError", "Loc", "Option", "Problem", "Refusal",
           "RulesetError", "State", "format_problems", "load"]
