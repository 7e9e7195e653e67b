"""Tuning a side's policy weights by simulation (`grimoire tune`, commands/tune.py).

Pipeline position: simulation, above the runner and its backends (a batch of games per
trial, on the local pool or on Ray). Every trial plays the same training games
(seeds from `--seed` + 1,000,000 on, so trials are compared on common seeds) with the side's
policy seats reading the trial's weights and every other seat its usual bot; the optimizer is
optuna's TPE sampler (seeded, so a tuning run is reproducible with one job), started from the
ruleset's own weights. The best weights and the ruleset's are then played on the evaluation
seeds (`--seed` on, as `grimoire simulate` uses them), never seen while tuning, and the side's
win rate is reported before and after with 95% intervals and a paired test. The weights are
written as a variant file (`merge: policy: sides: SIDE: weights:`), so `--variant FILE` plays
them everywhere a variant goes.

New actions (`--new-actions`): an action the variants add over the bare ruleset that no policy
scores (the policy bot can only probe it, bots/policy.py) gets a term of the tuned side's
policy, `act: ID: "new_ID"`, a weight `new_ID` fitted like the others: the score the action's
options get against the policy's own (above the side's best option, it is taken wherever the
rules offer it; below, never). Searched in plus or minus the largest of the side's weights (at
least 1), from 0 (the policy's `default`). The term and its weight go into the variant written.
"""

from __future__ import annotations

import tempfile
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from ..game import load
from .backends import run_batch
from .runner import SimSpec
from .stats import compare, rate

TRAIN_OFFSET = 1_000_000  # training seeds start here after --seed: disjoint from evaluation


@dataclass
class TuneResult:
    """What a tuning run found, with the evaluation of before and after."""

    side: str
    names: list
    before: dict           # the ruleset's weights
    after: dict            # the best trial's weights
    train: list = field(default_factory=list)   # (trial weights, training win rate) per trial
    eval_before: dict = field(default_factory=dict)
    eval_after: dict = field(default_factory=dict)
    paired: dict = field(default_factory=dict)
    terms: dict = field(default_factory=dict)   # new action -> the weight that scores it


def search_space(weights: dict) -> dict:
    """The interval each weight is searched in: its value plus or minus its size (at least 1)."""
    out = {}
    for k, w in weights.items():
        span = max(abs(w), 1.0)
        out[k] = (w - span, w + span)
    return out


def side_wins(results: list[dict], side: str) -> int:
    return sum(1 for r in results if side in r.get("sides", []))


def new_unscored(game, ruleset: str) -> list[str]:
    """The actions `game`'s variants add over the bare ruleset that no policy scores."""
    pol = game.program.policy
    scored = set(pol.base.act).union(*(sec.act for sec in pol.sides.values()))
    bare = set(load(ruleset, []).program.actions)
    return sorted(a for a in game.program.actions if a not in bare and a not in scored)


def overlay_text(ruleset_id: str, side: str, weights: dict, terms: dict, head: list | None = None,
                 title: str | None = None) -> str:
    """A variant giving `side`'s policy these weights and, for each new action, its term."""
    lines = [*(head or []), f"variant: tuned_{side}",
             f"title: {title or f'Policy weights of {side}, tuned by simulation'}",
             f"base: {ruleset_id}", "merge:", "  policy:", "    sides:", f"      {side}:", "        weights:"]
    lines += [f"          {k}: {weights[k]:g}" for k in sorted(weights)]
    if terms:
        lines.append("        act:")
        lines += [f'          {a}: "{w}"' for a, w in sorted(terms.items())]
    return "\n".join(lines) + "\n"


def tune(ruleset: str, side: str, games: int, trials: int, *, variants=(), players=None, names=None,
         seed: int = 1, eval_games: int | None = None,
         jobs: int | None = None, backend: str = "local", address: str | None = None,
         progress=None, new_actions: bool = False) -> TuneResult:
    """Fit the policy weights of `side` (see the module's docstring); return what was found."""
    game = load(ruleset, list(variants))
    pol = game.program.policy
    if pol is None:
        raise ValueError(f"{game.ruleset.id} has no policy: section, so there are no weights to tune")
    if side not in game.program.sides:
        raise ValueError(f"{side!r} is no side of {game.ruleset.id} (sides: {', '.join(game.program.sides)})")
    if not new_actions:
        return _tune(game, side, games, trials, list(variants), players, names, seed, eval_games,
                     jobs, backend, address, progress, {})
    added = new_unscored(game, ruleset)
    if not added:
        raise ValueError("the variants add no action that the policy does not score")
    own = pol.weights_of(side)
    terms = {a: f"new_{a}" for a in added}
    clash = [w for w in terms.values() if w in own]
    if clash:
        raise ValueError(f"the policy of {side} already has a weight {clash[0]!r}")
    with tempfile.TemporaryDirectory(prefix="grimoire-tune-") as tmp:
        overlay = Path(tmp) / f"new_actions_{side}.yaml"
        overlay.write_text(overlay_text(game.ruleset.id, side, {w: 0 for w in terms.values()}, terms))
        game = load(ruleset, [*variants, str(overlay)])
        res = _tune(game, side, games, trials, [*variants, str(overlay)], players,
                    names or list(terms.values()), seed, eval_games, jobs, backend, address, progress,
                    {w: max([1.0, *(abs(v) for v in own.values())]) for w in terms.values()})
    res.terms = terms
    return res


def _tune(game, side, games, trials, variants, players, names, seed, eval_games, jobs, backend,
          address, progress, spans: dict) -> TuneResult:
    import optuna  # the optional extra `tune`: imported only when tuning

    base = game.program.policy.weights_of(side)
    names = list(names or base)
    unknown = [n for n in names if n not in base]
    if unknown or not names:
        raise ValueError(f"no weight {unknown[0]!r} in the policy of {side}" if unknown
                         else f"the policy of {side} has no weights")
    n = players if players is not None else game.ruleset.min_players
    if not game.ruleset.min_players <= n <= game.ruleset.max_players:
        raise ValueError(f"{game.ruleset.id} is for {game.ruleset.min_players} to "
                         f"{game.ruleset.max_players} players, not {n}")
    path = str(game.path)

    def spec(ws: dict) -> SimSpec:
        # every seat plays the policy; the weights reach the seats whose side is the tuned one
        return SimSpec(path, tuple(variants), n, ("policy",), options={"weights": {side: ws}})

    m = eval_games or 2 * games
    tasks = {}
    if progress:  # one bar for the trials, one for the evaluation
        tasks["train"] = progress.add_task(f"tune {side}: {trials} trials", total=trials * games)
        tasks["eval"] = progress.add_task("evaluate before and after", total=2 * m)

    def play(ws: dict, first_seed: int, count: int, bar: str) -> list[dict]:
        task = tasks.get(bar)
        out = []
        with closing(run_batch(spec(ws), first_seed, count, jobs, backend, address)) as batch:
            for r in batch:
                out.append(r)
                if task is not None:
                    progress.advance(task)
        return sorted(out, key=lambda r: r["index"])

    result = TuneResult(side, names, dict(base), dict(base))
    space = search_space({k: base[k] for k in names})
    space.update({k: (base[k] - r, base[k] + r) for k, r in spans.items() if k in space})
    sampler = optuna.samplers.TPESampler(seed=seed)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    study.enqueue_trial({k: base[k] for k in names})  # the ruleset's own weights first
    train_seed = seed + TRAIN_OFFSET
    for i in range(trials):
        trial = study.ask()
        ws = {**base, **{k: trial.suggest_float(k, *space[k]) for k in names}}
        runs = play(ws, train_seed, games, "train")
        wins = side_wins(runs, side) / max(1, len(runs))
        study.tell(trial, wins)
        result.train.append(({k: ws[k] for k in names}, wins))
    result.after = {**base, **{k: round(v, 3) for k, v in study.best_params.items()}}
    before = play(result.before, seed, m, "eval")
    after = play(result.after, seed, m, "eval")
    result.eval_before = rate(side_wins(before, side), len(before))
    result.eval_after = rate(side_wins(after, side), len(after))
    result.paired = compare(before, after)["by_side"].get(side, {})
    return result


def variant_text(result: TuneResult, ruleset_id: str, games: int, trials: int) -> str:
    """The tuned weights (and the terms of new actions) as a variant file."""
    head = [
        f"# Written by `grimoire tune`: {trials} trials of {games} games; on the evaluation seeds the",
        f"# {result.side} side won {pct(result.eval_before)} before and {pct(result.eval_after)} after.",
    ]
    return overlay_text(ruleset_id, result.side, result.after, result.terms, head)


def pct(r: dict) -> str:
    """A rate with its 95% interval, in percent."""
    lo, hi = r.get("ci95", (0, 0))
    return f"{100 * r.get('rate', 0):.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"


__all__ = ["TRAIN_OFFSET", "TuneResult", "new_unscored", "overlay_text", "pct", "search_space", "tune",
           "variant_text"]
