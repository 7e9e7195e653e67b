"""Batch simulation: many seeded games with bots, statistics, and where they run.

Pipeline position: above the engine. `runner` plays one game and reduces it to a record;
`backends` runs batches here, in a local process pool or on Ray; `stats` turns records into
win rates with confidence intervals and comparisons; `report` writes them to disk;
`commands` is the `grimoire simulate` subcommand.
"""

from .backends import run_batch
from .runner import SimSpec, play_game, run_one
from .stats import compare, summarize, wilson

__all__ = ["SimSpec", "compare", "play_game", "run_batch", "run_one", "summarize", "wilson"]
