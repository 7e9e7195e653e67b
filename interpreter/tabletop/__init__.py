"""The table a seat plays at: the ruleset's `table:` section (spec) and the model drawn from a view (board)."""

from .auto import lone_pass
from .board import decision_model, table_model
from .rules import rules_of
from .spec import table_problems, table_spec

__all__ = ["decision_model", "lone_pass", "rules_of", "table_model", "table_problems", "table_spec"]
