"""The policy bot: plays the ruleset's own `policy:` (program/policy.py), fast and honest.

Pipeline position: a player outside the engine, like the random and search bots. At each
decision it asks its Seat for the policy's score of every option (`Seat.evaluate`: on the
real state only where the expressions are proven to read nothing hidden, else on a world
drawn from the player's view) and takes the best (ties broken with its own generator), or,
with a temperature, draws one with probability proportional to exp(score / temperature).

Play that adapts to new rules: an option of an action the policy has no term for (one a
variant added: `Seat.unscored`) gets the policy's `default` score, which says nothing of it:
below what the policy would do, a plain argmax never takes it; above (where every scored
option is negative, say), it takes it blindly. Where a decision offers such options, the bot
probes them (`probe`, on by default): in each of `probe_worlds` worlds (6 where the ruleset
has an `evaluate:`, 24 where a playout is scored by its end alone) drawn from its view
(`Seat.determinize`), it plays its policy's choice among the scored options and each new
option in a copy of the same world, then the policy for every player up to a horizon (`probe_horizon`
rounds of the table, 2, where the ruleset has an `evaluate:`, scored by that heuristic for
the player's side; else to the end of the game, scored 1 for a win and 0 otherwise), and takes
the new option whose mean paired gain over the policy's choice is positive and above
`probe_delta` (3) standard errors. A new option not ahead after the first third of the worlds
(at least 2) is played out no further (most offers are settled there). A new option that
does no good is not taken: adapting is not taking every new option. Decisions without new
options are played as before, at no cost. (A one-round horizon and 2 standard errors made
the bots of one shipped house rule take its new action in 24% of its offers and cost their
side 12 points on fresh seeds: a heuristic's horizon too short to see what the policy's move
would have led to; benchmarks/results/adapt.txt.) A variant may instead score its action itself
(`merge: policy: act: ID: ...`): a scored action is the policy's own, and is not probed.
"""

from __future__ import annotations

import math

from ..engine.rng import Rng, seed_state
from .base import as_seat


class PolicyBot:
    """Chooses by the ruleset's policy: argmax, or softmax with a temperature."""

    def __init__(self, seed: int = 0, game=None, temperature: float = 0.0,
                 weights: dict | None = None, beliefs: bool = True, probe: bool = True,
                 probe_worlds: int | None = None, probe_delta: float = 3.0, probe_width: int = 3,
                 probe_horizon: float = 2.0, probe_once: bool = True, **_options):
        # weights: per side, {side: {weight: value}}: what `grimoire tune` tries
        self.rng = Rng(seed_state(seed))
        self.policy = ruleset_policy(game, "policy")
        self.temperature = float(temperature or 0.0)
        self.weights = dict(weights) if weights else None
        self.beliefs = bool(beliefs)  # False: plays as if the game kept no beliefs (belief() reads 0)
        self.probe = bool(probe)  # False: new actions keep the policy's default (never taken)
        self.probe_delta = float(probe_delta)
        self.probe_width = max(1, int(probe_width))  # new options probed at one decision, at most
        self.probe_horizon = float(probe_horizon)  # rounds of the table a playout runs (with evaluate:)
        # a new action the probe turned down is not probed again in the same turn of the same player
        self.probe_once = bool(probe_once)
        self._turned_down: tuple = (None, set())  # ((turn, player), actions turned down there)
        prog = getattr(game, "program", None)
        self._evaluate = getattr(prog, "evaluate_fns", None) or {}
        self._scale = getattr(prog, "evaluate_scale", None)
        # a playout scored by a heuristic says more than one scored only by a win or a loss
        worlds = probe_worlds if probe_worlds else (6 if self._evaluate else 24)
        self.probe_worlds = max(2, int(worlds))
        self.probed = self.adapted = 0  # decisions probed, and those where a new option was taken

    def choose(self, seat) -> str:
        """The id of the best option by the policy (or one drawn by its softmax)."""
        seat = as_seat(seat)
        opts = seat.options
        if len(opts) == 1:
            return opts[0].id
        if not self.beliefs:
            seat.beliefs = None
        scores = seat.evaluate(self.policy, self.rng, self.weights)
        new = seat.unscored(self.policy) if self.probe else []
        rest = [i for i in range(len(opts)) if i not in new] if new else []
        if not rest:
            return opts[pick(scores, self.temperature, self.rng)].id
        # the policy's choice among the options it scores, against the new ones, played out
        first = rest[pick([scores[i] for i in rest], self.temperature, self.rng)]
        down = None
        if self.probe_once:
            key = (seat.turn, seat.player)
            if self._turned_down[0] != key:
                self._turned_down = (key, set())
            down = self._turned_down[1]
            new = [i for i in new if opts[i].value[0] not in down]
            if not new:
                return opts[first].id
        tried = new[:self.probe_width]
        got = self._probe(seat, first, tried)
        if down is not None and got == first:
            down.update(opts[i].value[0] for i in tried)
        return opts[got].id

    def _probe(self, seat, first: int, new: list[int]) -> int:
        """The index of the option to take: `first` (the policy's choice) unless playouts show
        a new option better (paired over the same worlds)."""
        self.probed += 1
        cand = [first, *new]
        ids = [seat.options[i].id for i in cand]
        alive = list(range(1, len(cand)))
        rows: list[list] = []
        screen = max(2, self.probe_worlds // 3)
        while len(rows) < self.probe_worlds and alive:
            row = self._playouts(seat, ids, [0, *alive])
            rows.append(row)
            if len(rows) >= screen:  # a new option no better so far is played out no further
                alive = [j for j in alive if sum(r[j] - r[0] for r in rows) > 0]
        n = len(rows)
        best, gain = 0, 0.0
        for j in alive:
            d = [row[j] - row[0] for row in rows]
            m = sum(d) / n
            se = math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n)
            if m > gain and m > self.probe_delta * se:
                best, gain = j, m
        self.adapted += best != 0
        return cand[best]

    def _playouts(self, seat, ids: list[str], cols: list[int]) -> list:
        """One world drawn from the seat's view: the value, for the seat's player, of playing
        each option of `cols` and then the policy (greedy) for everyone up to the horizon
        (None for the other options)."""
        player = seat.player
        world = seat.determinize(self.rng)
        world.record = False
        stop = world.turn + max(1, round(self.probe_horizon * world.n)) if self._evaluate else None
        out: list = [None] * len(ids)
        for j in cols:
            s = world.clone()
            s.record = False
            s.apply_in_place(ids[j])
            moves = 0
            while not s.over and (stop is None or s.turn < stop) and moves < PLAYOUT_MOVES:
                s.apply_in_place(self._greedy(s))
                moves += 1
            out[j] = self._value(s, player)
        return out

    def _greedy(self, s) -> str:
        """The policy's best option in a playout (the first of equal scores)."""
        opts = s.options()
        if len(opts) == 1:
            return opts[0].id
        sc = self.policy.scores(s, s.current_player(), opts, self.weights)
        return opts[sc.index(max(sc))].id

    def _value(self, s, player: int) -> float:
        """1 or 0 for a finished game (won or not); else the ruleset's `evaluate:` for the
        player's side in [0, 1] (0.5 for a side without one)."""
        if s.over:
            return 1.0 if player in (s.result or {}).get("winners", []) else 0.0
        fn = self._evaluate.get(s.g.side_of(s, player))
        if fn is None:
            return 0.5
        v = float(fn(s, [None, 0, {"me": player}, None]) or 0)
        v = v / self._scale if self._scale is not None else (v / 100.0 if v > 1.0 else v)
        return max(0.0, min(v, 1.0))


PLAYOUT_MOVES = 20_000  # a probe's playout is cut here (a game that would run on and on)


def ruleset_policy(game, bot: str):
    """The game's compiled policy (`Program.policy`); ValueError if its ruleset has none."""
    policy = getattr(getattr(game, "program", None), "policy", None)
    if policy is None:
        name = getattr(getattr(game, "ruleset", None), "id", "this ruleset")
        raise ValueError(f"{name} has no policy: section, so there is no {bot} bot to play")
    return policy


def pick(scores: list[float], temperature: float, rng) -> int:
    """The index of the best score (ties at random), or a softmax draw at a temperature > 0."""
    if temperature > 0:
        top = max(scores)
        ws = [math.exp((s - top) / temperature) for s in scores]
        r = rng.below(1 << 30) * sum(ws) / (1 << 30)
        for i, w in enumerate(ws):
            r -= w
            if r < 0:
                return i
        return len(ws) - 1
    top = max(scores)
    best = [i for i, s in enumerate(scores) if s == top]
    return best[0] if len(best) == 1 else best[rng.below(len(best))]


def softmax(scores: list[float], temperature: float) -> list[float]:
    """Probabilities proportional to exp(score / temperature) (a search bot's prior)."""
    t = temperature if temperature > 0 else 1.0
    top = max(scores)
    ws = [math.exp((s - top) / t) for s in scores]
    total = sum(ws)
    return [w / total for w in ws]


__all__ = ["PolicyBot", "pick", "ruleset_policy", "softmax"]
