"""The ranges of simulate's number options: a number out of its range is refused in one line.

Pipeline position: beside the simulate command (which prints the refusal in the user's
language: each problem is a message id of interpreter/messages/LANG.yaml and its values).
"""

from __future__ import annotations

import math

MAX_GAMES = 1_000_000  # per run: more is a typo, or a study to split into --resume steps


def check_numbers(args) -> tuple[str, dict] | None:
    """(message id, values) of the first number option out of its range, or None."""
    if not 1 <= args.games <= MAX_GAMES:
        return "cli-sim-games-range", {"games": str(args.games), "max": str(MAX_GAMES)}
    at_least = [("--jobs", args.jobs, 1), ("--budget", args.budget, 1), ("--depth", args.depth, 0)]
    for option, value, low in at_least:
        if value is not None and value < low:
            return "cli-sim-at-least", {"option": option, "min": low, "value": str(value)}
    if not (math.isfinite(args.temperature) and args.temperature >= 0):
        return "cli-sim-at-least", {"option": "--temperature", "min": 0, "value": str(args.temperature)}
    if not (math.isfinite(args.connect_timeout) and args.connect_timeout > 0):
        return "cli-sim-seconds", {"option": "--connect-timeout", "value": str(args.connect_timeout)}
    return None
