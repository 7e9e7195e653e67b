"""The table a seat plays at: the ruleset's `table:` section (spec) and the model drawn from a view (board)."""

from .board import decision_model, table_model
from .spec import table_problems, table_spec

__all__ = ["decision_model", "table_model", "table_problems", "table_spec"]
