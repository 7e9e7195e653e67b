"""The rollout bot: the ruleset's policy, corrected by playing its best options out.

Pipeline position: a player outside the engine, like the policy and MCTS bots; it sees only
its Seat (the options, the policy's scores from its own view, worlds drawn from that view).

This is policy improvement by simulation (a rollout algorithm, as in Tesauro and Galperin's
backgammon rollouts and Bertsekas' rollout policies), over determinized worlds. At a decision:

1. The candidates are the `width` options the policy scores best (`Seat.evaluate`, so a score
   that reads hidden cards runs on a drawn world); the first is the one the policy bot would
   take. Options of an action the policy does not score (one a variant added) are candidates
   too (up to `width` of them): only playouts can say what they are worth.
2. Each of `worlds` worlds is drawn from the player's view (`Seat.determinize`), and every
   candidate is played out in a copy of the same world (common random numbers: the same
   re-deal and the same dice, so the comparison between candidates is paired). The playout is
   the policy's best move for every player, for `horizon` rounds of the table.
3. A playout scores 1 if the game ended with the player among the winners, 0 if it ended
   otherwise, and 0.5 if it is still running at the horizon.
4. The bot leaves the policy's choice only for a candidate whose mean paired difference over
   it is above `delta` standard errors of that difference: noise between close options never
   moves it, so it plays at least as well as the policy wherever its playouts are right.

Most decisions of a long game are far from any end, where every playout scores 0.5: after
the first `screen` worlds show no game ending, the bot takes the policy's choice at once.
Two economies (issue 30) spend the playouts where they can change the choice:
- `quiet` ("round", the default): a screen's playouts run on one round (`n` turns) past their
  horizon (their scores are still the horizon's) while none has ended; when none ended there
  either, the bot's decisions up to `n` turns later take the policy's choice without a screen:
  their horizons end no later than those playouts were seen to run without an end. The turn
  number is public. "turn" (the former default) covers only the rest of the screened turn
  (where the horizon is the same); a number covers that many rounds; "off" screens every
  decision.
- `futility` (4, the default): from that many worlds on, a candidate whose summed
  difference against the policy's choice is not positive is played out no further (it
  cannot be chosen on the evidence so far), and the search stops when no candidate is left:
  a sequential test instead of a fixed `worlds` for every candidate. With `extend` (0, off,
  the default), a search whose leading candidate is still ahead at `worlds` worlds but not by
  `delta` standard errors goes on, a world at a time, up to `extend` worlds: more playouts
  only where the choice is close.
`quiet=False, futility=0` is the bot of 685a6d3 exactly (the same worlds, the same games), and
`quiet="turn"` the bot of 3ce356e.
So the search spends its time where the game is decided, its last rounds: it sees the loss
a move leads to within the horizon, and the win another move reaches, which no score of one
decision can. (Cutting playouts at the horizon and scoring them by the ruleset's `evaluate:`
instead was measured worse: the search then chases whatever the heuristic over-values; see
docs/simulation.md.)

Deterministic given the seed: every world and playout is drawn from the bot's generator.
"""

from __future__ import annotations

import math

from ..engine.rng import Rng, seed_state
from .base import as_seat
from .policy import pick, ruleset_policy


class RolloutBot:
    """The policy bot, overridden where playouts of its best options show a surer end."""

    def __init__(self, seed: int = 0, game=None, width: int = 3, worlds: int = 16,
                 screen: int = 2, horizon: float = 2.0, delta: float = 2.0,
                 futility: int = 4, quiet: bool | str | float = "round", extend: int = 0):
        self.rng = Rng(seed_state(seed))
        self.policy = ruleset_policy(game, "rollout")
        self.width = max(1, int(width))
        self.worlds = max(2, int(worlds))
        self.screen = max(1, min(int(screen), self.worlds))
        self.horizon = float(horizon)
        self.delta = float(delta)
        self.futility = max(0, int(futility or 0))  # 0: every candidate plays all `worlds`
        # with the sequential test: up to this many worlds while a candidate is ahead of the
        # policy's choice but not yet by `delta` standard errors (0: stop at `worlds`)
        self.extend = max(self.worlds, int(extend or 0))
        self.quiet, self.reach = _quiet(quiet)
        self._quiet_until = None  # the last turn a quiet screen covers (quiet="turn", "round")
        self._calm = False  # no playout of this screen has ended within its horizon + reach
        # what the last decisions did (for reports): searched, played out in full, overridden,
        # taken unscreened in a quiet turn, and the playouts run
        self.searched = self.full = self.overridden = self.unscreened = self.playouts = 0
        self.last: dict | None = None  # the last full search: candidates, means, differences

    def choose(self, seat) -> str:
        """The id of the policy's choice, or of a candidate its playouts show is better."""
        seat = as_seat(seat)
        opts = seat.options
        if len(opts) == 1:
            return opts[0].id
        scores = seat.evaluate(self.policy, self.rng)
        first = pick(scores, 0.0, self.rng)  # the policy bot's own choice (ties at random)
        rest = sorted((i for i in range(len(opts)) if i != first), key=lambda i: -scores[i])
        top = [first, *rest][:self.width]
        # options the policy gives no score (an action a variant added) are always tried too
        new = [i for i in seat.unscored(self.policy) if i not in top]
        cand = [opts[i].id for i in top + new[:self.width]]
        if len(cand) == 1:
            return cand[0]
        if self.quiet and self._quiet_until is not None and seat.turn <= self._quiet_until:
            self.unscreened += 1
            return cand[0]  # a screen showed no end within this decision's horizon
        self.searched += 1
        rows: list[list] = []
        every = list(range(len(cand)))
        self._calm = True
        self._play(seat, cand, every, self.screen, rows, self.reach * seat.players if self.quiet else 0)
        if all(v == 0.5 for row in rows for v in row):
            if self.quiet:  # the turns whose horizon ends where these playouts were seen to run
                self._quiet_until = seat.turn + (round(self.reach * seat.players) if self._calm else 0)
            return cand[0]  # no game ends within the horizon: nothing to correct
        self.full += 1
        if self.futility:
            self._sequential(seat, cand, rows)
        else:
            self._play(seat, cand, every, self.worlds - self.screen, rows)
        best = self._best(cand, rows)
        self.overridden += best != 0
        return cand[best]

    def _sequential(self, seat, cand: list[str], rows: list) -> None:
        """Add worlds one at a time, from `futility` worlds on only for the candidates whose
        summed difference against the policy's choice is positive, until `worlds` worlds or
        no candidate is left (then the policy's choice stands). With `extend`, a search whose
        leading candidate is ahead but not clear at `worlds` goes on to `extend` worlds."""
        alive = list(range(1, len(cand)))
        sums = [sum(row[j] - row[0] for row in rows) for j in range(len(cand))]
        # past `worlds`, only while a candidate is ahead but not clear (`extend`)
        while len(rows) < self.worlds or (len(rows) < self.extend and self._close(rows, alive, sums)):
            if len(rows) >= self.futility:
                alive = [j for j in alive if sums[j] > 0]
                if not alive:
                    return
            self._play(seat, cand, [0, *alive], 1, rows)
            row = rows[-1]
            for j in alive:
                sums[j] += row[j] - row[0]

    def _close(self, rows: list, alive: list[int], sums: list) -> bool:
        """Whether some candidate still played out is ahead of the policy's choice (a positive
        summed difference) and none yet clears `delta` standard errors."""
        n = len(rows)
        ahead = False
        for j in alive:
            if sums[j] <= 0:
                continue
            ahead = True
            m = sums[j] / n
            var = sum((row[j] - row[0] - m) ** 2 for row in rows) / (n - 1)
            if m > self.delta * math.sqrt(var / n):
                return False
        return ahead

    def _best(self, cand: list[str], rows: list[list]) -> int:
        """The index of the candidate to play (0, the policy's choice, unless one clears delta
        over every world; a candidate dropped by the sequential test is not chosen)."""
        n = len(rows)
        best, gain = 0, 0.0
        means = []
        for j in range(len(cand)):
            if any(row[j] is None for row in rows):
                means.append(None)
                continue
            d = [row[j] - row[0] for row in rows]
            m = sum(d) / n
            var = sum((x - m) ** 2 for x in d) / (n - 1)
            means.append(m)
            if j and m > gain and m > self.delta * math.sqrt(var / n):
                best, gain = j, m
        self.last = {"candidates": cand, "worlds": n, "gain": means, "chosen": cand[best]}
        return best

    def _play(self, seat, cand: list[str], cols: list[int], worlds: int, rows: list,
              reach: float = 0) -> None:
        """Append, for each of `worlds` new worlds, the playout score of the candidates `cols`
        (None for the others). With `reach` (turns), a screen: while no playout has ended, each
        runs on past its horizon for that many turns more (the score is still the horizon's),
        and `_calm` says whether none ended there either."""
        player = seat.player
        best_move = self._best_move
        extra = round(reach)
        for _ in range(worlds):
            world = seat.determinize(self.rng)
            world.record = False
            stop = world.turn + max(1, round(self.horizon * world.n))
            row: list = [None] * len(cand)
            for j in cols:
                s = world.clone()
                s.record = False
                s.apply_in_place(cand[j])
                while not s.over and s.turn < stop:
                    s.apply_in_place(best_move(s))
                row[j] = _score(s, player)
                if extra and self._calm:
                    far = stop + extra
                    while not s.over and s.turn < far:
                        s.apply_in_place(best_move(s))
                    self._calm = not s.over
            self.playouts += len(cols)
            rows.append(row)

    def _best_move(self, s) -> str:
        """The policy's best option in a playout (the first of equal scores: no draw, so the
        candidates of one world see exactly the same playout where their choices agree)."""
        opts = s.options()
        if len(opts) == 1:
            return opts[0].id
        sc = self.policy.scores(s, s.current_player(), opts)
        top = max(sc)
        return opts[sc.index(top)].id


def _quiet(quiet) -> tuple[bool, float]:
    """The `quiet` option as (on, reach in rounds): "turn" (reach 0), "round" (1), a number of
    rounds, or "off"."""
    if quiet in (True, "turn"):
        return True, 0.0
    if quiet in (False, None, "off"):
        return False, 0.0
    if quiet == "round":
        return True, 1.0
    if isinstance(quiet, (int, float)) and not isinstance(quiet, bool) and 0 <= quiet <= 10:
        return True, float(quiet)
    raise ValueError(f"rollout option quiet is 'turn', 'round', a number of rounds or 'off', not {quiet!r}")


def _score(s, player: int) -> float:
    """1 if the game is over and `player` won, 0 if it is over otherwise, 0.5 if it runs on."""
    if not s.over:
        return 0.5
    return 1.0 if player in (s.result or {}).get("winners", []) else 0.0


__all__ = ["RolloutBot"]
