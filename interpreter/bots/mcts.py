"""The search bot: single-observer information-set MCTS (SO-ISMCTS) over determinized worlds.

Pipeline position: a player outside the engine. Every iteration samples one world the bot
cannot tell apart from the real one (`state.determinize(me, rng)`), so it never reads a hidden
card of the true state; the tree is keyed by option ids, which are stable names (a card's id,
not its instance), so one tree gathers statistics across all sampled worlds.

One iteration: select with UCT, using each child's *availability* count in place of the
parent's visits (options available only in some worlds are not starved); expand one untried
option; play out to the end of the game, or for `depth` moves and then score each player with
the ruleset's `evaluate:` heuristic for his side (0.5 for sides without one); back the reward
of the player who chose each edge up the path. A finished game gives 1 to each of
`result["winners"]` and 0 to everyone else.

Two things make the search useful where a heuristic moves little per decision:
- the exploration term is scaled by the spread (standard deviation) of the rewards seen at
  each node (`normalize="std"`, the default): a heuristic that moves a few hundredths per
  decision is explored by hundredths instead of being drowned by a term of order 1, while a
  luck-driven node, whose rewards spread widely, keeps exploring instead of locking in on an
  early lucky sample. (`normalize="range"` instead stretches the children's mean rewards to
  their own lowest and highest, which turns noise between close options into whole units;
  `False` is plain UCT.)
- playouts are random, weighted by the ruleset's `search: playout:` weights (by option id, or by the
  action id before `:`; 1 for the others), so a ruleset can say which moves a sensible player
  rarely makes. Expansion tries untried options in the same weighted order, and selection is
  PUCT with the weights as the prior.

Two things let it see the consequences of a choice, not only its next move:
- rollouts are cut at a horizon (`horizon`, in turns; "round", the default where the ruleset
  has an `evaluate:`, is one turn per player) and scored by the heuristic, so a choice whose
  cost shows up a few turns later (a quest closed early, an engine added) is seen at all,
  instead of drowning in whole-game playouts that carry no signal;
- macro-steps (`macro`, on by default): the tree holds only the searching player's own
  decisions of the current turn, and everyone else's (a window, an exchange) is played by
  the playout policy. A path of the tree is then a plan for the whole turn (move, sacrifice,
  card, ...), and every iteration scores a complete turn instead of spending its budget on
  the first small decision of it.
`workers > 1` runs root-parallel search over processes (parallel.py).

Deterministic given the seed when the budget is iterations; a time budget (`seconds`) stops
earlier on slow machines and is therefore not reproducible.
"""

from __future__ import annotations

import math
import time

from ..engine.rng import Rng, seed_state
from .base import as_seat
from .policy import softmax


class Node:
    """One decision reached by a path of option ids from the root."""

    __slots__ = ("avail", "children", "mover", "reward", "sq", "visits")

    def __init__(self, mover):
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0   # summed rewards of `mover`, the player whose choice led here
        self.sq = 0.0       # summed squares of those rewards (their spread scales exploration)
        self.avail = 0      # iterations in which this option was legal at its parent
        self.mover = mover


class MctsBot:
    """Chooses by information-set MCTS; sees only its own seat's view of the game."""

    def __init__(self, seed: int = 0, game=None, iterations: int = 200, seconds: float | None = None,
                 depth: int | None = None, c: float = 0.7, eval_scale: float | None = None,
                 normalize: bool | str = "std", weighted: bool = True, prior: bool = True,
                 policy: bool = True, horizon: int | str | None = "auto", macro: bool = True,
                 workers: int = 1):
        self.rng = Rng(seed_state(seed))
        self.seed = seed
        self.game = game
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.macro = macro
        self.workers = max(1, int(workers or 1))
        self._pool = None
        self.c = c
        self.eval_scale = eval_scale
        self.normalize = normalize
        self.prior = prior
        prog = getattr(game, "program", None)
        weights = getattr(prog, "playout_weights", None) if weighted else None
        self.weights: dict[str, float] = dict(weights or {})
        if eval_scale is None:
            self.eval_scale = getattr(prog, "evaluate_scale", None)
        self._wcache: dict = {}  # option id -> its weight, or (fn, arg names) to evaluate
        # the ruleset's policy (program/policy.py), where it has one, plays the rollouts (a
        # softmax draw at its temperature) and gives the prior; it runs on sampled worlds
        self.policy = getattr(prog, "policy", None) if policy else None
        self.guided = bool(self.weights) or self.policy is not None
        # rollouts are cut after `horizon` turns (then scored by `evaluate`): by default one
        # round of the table where the ruleset has an `evaluate`, else played to the end
        if horizon == "auto":
            horizon = "round" if getattr(prog, "evaluate_fns", None) else None
        self.horizon = horizon
        self.last_root: Node | None = None

    # ---- the decision ------------------------------------------------------------------------

    def choose(self, seat) -> str:
        """The id of the option with the most visits after the search budget is spent."""
        seat = as_seat(seat)
        opts = seat.options
        if len(opts) == 1:
            return opts[0].id
        if self.workers > 1:
            from .parallel import root_parallel
            root = root_parallel(self, seat.determinize(self.rng), Node)
        else:
            root = self.search(seat, self.iterations)
        self.last_root = root
        # the most visited option; exact ties (a won or lost position, where every option
        # scores the same) are broken at random, so a bot that cannot lose does not stall
        def key(oid):
            ch = root.children.get(oid)
            return (ch.visits, ch.reward) if ch is not None else (-1, 0.0)
        scored = [(key(o.id), o.id) for o in opts]
        top = max(k for k, _ in scored)
        best = [oid for k, oid in scored if k == top]
        return best[self.rng.below(len(best))] if len(best) > 1 else best[0]

    def search(self, seat, iterations: int) -> Node:
        """Run the search for `seat`'s decision (worlds drawn from its view) and return the
        root of the tree."""
        seat = as_seat(seat)
        root = Node(None)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        mine = None
        while done < iterations or (deadline is not None and iterations <= 0):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = seat.determinize(self.rng)
            world.record = False
            if self.macro and mine is None:
                mine = (seat.player, world.turn)  # the turn is public: the same in every world
            self._iterate(root, world, mine)
            done += 1
        return root

    # ---- one iteration -----------------------------------------------------------------------

    def _iterate(self, root: Node, s, mine=None) -> None:
        rng = self.rng
        node = root
        path = [root]
        horizon = self.horizon
        if horizon == "round":
            horizon = s.n
        stop_turn = None if horizon is None else s.turn + horizon
        # selection and expansion. Macro-steps (`mine` = (player, turn)): the tree holds only
        # the searching player's own decisions of this turn, so one path is a plan for the
        # whole turn; other players' answers inside it (windows, exchanges) are played by the
        # playout policy, and the turn's end leads straight to the rollout
        while not s.over:
            p = s.current_player()
            if mine is not None and (s.turn != mine[1] or p != mine[0]):
                if s.turn != mine[1]:
                    break
                s.apply_in_place(self._playout_move(s))
                continue
            kids = node.children
            untried = []
            seen = []
            for o in s.options():
                ch = kids.get(o.id)
                if ch is None:
                    untried.append(o)
                else:
                    ch.avail += 1
                    seen.append((o, ch))
            if untried:
                oid = self._pick(s, untried) if self.guided else untried[rng.below(len(untried))].id
                ch = kids[oid] = Node(p)
                ch.avail = 1
                s.apply_in_place(oid)
                path.append(ch)
                break
            best = self._select(s, seen)
            node = kids[best]
            s.apply_in_place(best)
            path.append(node)
        # rollout, cut after `depth` decisions or at the horizon's turn
        steps = 0
        depth = self.depth
        while not s.over and (depth is None or steps < depth) and (stop_turn is None or s.turn < stop_turn):
            s.apply_in_place(self._playout_move(s))
            steps += 1
        rewards = self._rewards(s)
        for nd in path[1:]:
            nd.visits += 1
            r = rewards[nd.mover]
            nd.reward += r
            nd.sq += r * r
        root.visits += 1

    def _playout_move(self, s) -> str:
        """The playout policy's move in s: by the ruleset's policy or playout weights, else uniform."""
        opts = s.options()
        if self.guided:
            return self._pick(s, opts)
        return opts[self.rng.below(len(opts))].id

    def _select(self, s, seen: list) -> str:
        """The option to follow among children that all have visits: UCT, or PUCT with the
        playout weights as the prior when the ruleset gives weights (and `prior` is on), with
        the exploration term scaled as `normalize` says (see the module's docstring)."""
        c = self.c
        qs = [ch.reward / ch.visits for _, ch in seen]
        mode = self.normalize
        if mode == "std":
            # exploration in units of the rewards' own spread at this node: a heuristic that
            # moves by hundredths explores by hundredths, a luck-driven one explores widely
            n = sum(ch.visits for _, ch in seen)
            mean = sum(ch.reward for _, ch in seen) / n
            var = sum(ch.sq for _, ch in seen) / n - mean * mean
            c *= math.sqrt(var) if var > 1e-9 else 1e-3
        elif mode:
            lo, hi = min(qs), max(qs)
            span = hi - lo
            qs = [(q - lo) / span for q in qs] if span > 1e-12 else [0.5] * len(qs)
        best, best_score = None, -math.inf
        if self.prior and self.guided:
            ws = (self._policy_probs(s, [o for o, _ in seen]) if self.policy is not None
                  else [self._weight(s, o) for o, _ in seen])
            total = sum(ws) or 1.0
            for (o, ch), q, w in zip(seen, qs, ws):
                score = q + c * (w / total) * math.sqrt(ch.avail) / (1 + ch.visits)
                if score > best_score:
                    best, best_score = o.id, score
            return best
        for (o, ch), q in zip(seen, qs):
            score = q + c * math.sqrt(math.log(ch.avail) / ch.visits)
            if score > best_score:
                best, best_score = o.id, score
        return best

    def _policy_probs(self, s, opts) -> list[float]:
        return softmax(self.policy.scores(s, s.current_player(), opts), self.policy.temperature)

    def _weight(self, s, o) -> float:
        """The playout weight of option o in state s (1 when the ruleset names neither the
        option nor its action)."""
        oid = o.id
        w = self._wcache.get(oid)
        if w is None:
            w = self.weights.get(oid)
            if w is None:
                w = self.weights.get(oid.split(":", 1)[0], 1.0)
            self._wcache[oid] = w
        if w.__class__ is float:
            return w
        fn, names = w
        loc = {"me": s.current_player()}
        if names and isinstance(o.value, tuple):
            loc.update(zip(names, o.value[1]))
        v = fn(s, [None, 0, loc, None])
        return float(v) if v and v > 0 else 0.0

    def _pick(self, s, opts) -> str:
        """The id of one of the options `opts` of state s, at random by the ruleset's playout
        weights (uniform if they are all 0), or by the policy's softmax where there is one."""
        if self.policy is not None:
            if len(opts) == 1:
                return opts[0].id
            ws = self._policy_probs(s, opts)
        else:
            ws = [self._weight(s, o) for o in opts]
        total = sum(ws)
        if total <= 0:
            return opts[self.rng.below(len(opts))].id
        r = self.rng.below(1 << 30) * total / (1 << 30)
        for o, w in zip(opts, ws):
            r -= w
            if r < 0:
                return o.id
        return next(o for o, w in zip(reversed(opts), reversed(ws)) if w > 0).id

    # ---- scoring -------------------------------------------------------------------------------

    def _rewards(self, s) -> list[float]:
        """Per player: 1 for a winner of a finished game, 0 otherwise; else the side's heuristic."""
        n = s.n
        if s.over:
            winners = (s.result or {}).get("winners", [])
            return [1.0 if p in winners else 0.0 for p in range(n)]
        g = s.g
        fns = g.prog.evaluate_fns
        if not fns:
            return [0.5] * n
        frame = [None, 0, {"me": s.current}, None]
        by_side: dict = {}
        out = []
        for p in range(n):
            side = g.side_of(s, p)
            v = by_side.get(side)
            if v is None:
                fn = fns.get(side)
                v = by_side[side] = 0.5 if fn is None else self._scaled(fn(s, frame))
            out.append(v)
        return out

    def _scaled(self, v) -> float:
        """A heuristic value in [0, 1].

        The effect language divides integers, so rulesets may write `evaluate:` as a
        percentage; unless told the scale, a value above 1 is read as 0..100.
        """
        v = float(v or 0)
        if self.eval_scale is not None:
            v /= self.eval_scale
        elif v > 1.0:
            v /= 100.0
        return max(0.0, min(v, 1.0))
