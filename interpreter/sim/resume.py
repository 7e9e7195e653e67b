"""`simulate --resume DIR`: continue a run from the games its games.jsonl already holds.

Pipeline position: beside the simulate command. A run writes what it plays (ruleset, variants,
scenario as absolute paths, players, bots, seed, games, ...) to DIR/run.json before its first
game; `--resume DIR` reads it back, keeps every complete line of games.jsonl (a run killed in
the middle of a line loses only that line), and plays the games that are missing. Games are
given by their seeds, so a resumed run ends with the same games as one never interrupted.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import GrimoireError
from ..files import write_atomic

REQUEST = "run.json"
FIELDS = ("ruleset", "variant", "games", "bots", "rotate", "players", "seed", "budget", "depth",
          "compare", "scenario", "sweep")


class ResumeError(GrimoireError):
    """A directory that cannot be resumed: one line for the user."""


def save_request(out: Path, args) -> None:
    """Write what this run plays to out/run.json (paths absolute, so any directory can resume)."""
    req = {k: getattr(args, k, None) for k in FIELDS}
    req["ruleset"] = str(Path(args.ruleset_path).resolve())
    req["variant"] = [_where(v) for v in args.variant]
    req["base_variant"] = [_where(v) for v in args.base_variant]
    req["scenario"] = str(Path(args.scenario).resolve()) if args.scenario else None
    req["as_typed"] = as_typed(args)
    write_atomic(out / REQUEST, json.dumps({"format": "grimoire-simulation-run", "version": 1, **req},
                                           indent=1) + "\n")


def _where(v: str) -> str:
    """A variant as run.json keeps it: a file's absolute path (any directory can resume), or a
    name of one of the ruleset's own variants, which the ruleset resolves again."""
    p = Path(v)
    return str(p.resolve()) if p.is_file() else v


def apply_request(args) -> None:
    """Fill args from --resume DIR's run.json (a --games given now extends the run)."""
    d = Path(args.resume)
    path = d / REQUEST
    try:
        req = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResumeError(f"{d} holds no {REQUEST}: it is not the output of a simulate run") from None
    except (OSError, ValueError) as e:
        raise ResumeError(f"{path}: cannot be read ({e})") from None
    games = args.games
    for k in FIELDS:
        if k not in req:
            raise ResumeError(f"{path}: no {k!r}")
        setattr(args, k, req[k])
    args.base_variant = list(req.get("base_variant") or [])  # a run from before --base-variant has none
    if games is not None:
        args.games = games
    args.as_typed = req.get("as_typed") or {"variant": args.variant, "scenario": args.scenario}
    args.out = str(d)


def as_typed(args) -> dict:
    """The variant and scenario paths as the user typed them (the reports show these)."""
    return getattr(args, "as_typed", None) or {"variant": list(args.variant), "scenario": args.scenario,
                                                "base_variant": list(args.base_variant)}


def finished_games(d: Path, names) -> dict[str, list[dict]]:
    """The games already played in d/games.jsonl, per run name, each index once."""
    runs: dict[str, dict[int, dict]] = {n: {} for n in names}
    path = d / "games.jsonl"
    if not path.is_file():
        return {n: [] for n in names}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except ValueError:  # the line a kill cut short
            continue
        run = rec.pop("run", None) if isinstance(rec, dict) else None
        if run in runs and isinstance(rec.get("index"), int):
            runs[run].setdefault(rec["index"], rec)
    return {n: [rs[i] for i in sorted(rs)] for n, rs in runs.items()}
