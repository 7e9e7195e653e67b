"""Grimoire: a data-driven rules interpreter for tabletop games.

Pipeline: load (YAML + positions) -> overlay (variants) -> validate (JSON Schema) -> build
(Ruleset) -> compile (effects to closures) -> engine (State, decisions, views).
"""

from .errors import GrimoireError, Loc, Problem, Refusal, RulesetError, format_problems
from .game import Game, load
from .engine.state import Decision, Option, State

__all__ = ["Decision", "Game", "GrimoireError", "Loc", "Option", "Problem", "Refusal",
           "RulesetError", "State", "format_problems", "load"]
