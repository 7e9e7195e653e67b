"""The search bot: single-observer information-set MCTS (SO-ISMCTS) over determinized worlds.

Pipeline position: a player outside the engine. Every iteration samples one world the bot
cannot tell apart from the real one (`state.determinize(me, rng)`), so it never reads a hidden
card of the true state; the tree is keyed by option ids, which are stable names (a card's id,
not its instance), so one tree gathers statistics across all sampled worlds.

One iteration: select with UCT, using each child's *availability* count in place of the
parent's visits (options available only in some worlds are not starved); expand one untried
option; play random moves to the end of the game, or for `depth` moves and then score each
player with the ruleset's `evaluate:` heuristic for his side (0.5 for sides without one);
back the reward of the player who chose each edge up the path. A finished game gives 1 to
each of `result["winners"]` and 0 to everyone else.

Deterministic given the seed when the budget is iterations; a time budget (`seconds`) stops
earlier on slow machines and is therefore not reproducible.
"""

from __future__ import annotations

import math
import time

from ..engine.rng import Rng, seed_state


class Node:
    """One decision reached by a path of option ids from the root."""

    __slots__ = ("avail", "children", "mover", "reward", "visits")

    def __init__(self, mover):
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.reward = 0.0   # summed rewards of `mover`, the player whose choice led here
        self.avail = 0      # iterations in which this option was legal at its parent
        self.mover = mover


class MctsBot:
    """Chooses by information-set MCTS; sees only its own seat's view of the game."""

    def __init__(self, seed: int = 0, game=None, iterations: int = 200, seconds: float | None = None,
                 depth: int | None = None, c: float = 0.7, eval_scale: float | None = None):
        self.rng = Rng(seed_state(seed))
        self.game = game
        self.iterations = iterations
        self.seconds = seconds
        self.depth = depth
        self.c = c
        self.eval_scale = eval_scale
        self.last_root: Node | None = None

    # ---- the decision ------------------------------------------------------------------------

    def choose(self, state) -> str:
        """The id of the option with the most visits after the search budget is spent."""
        opts = state.options()
        if len(opts) == 1:
            return opts[0].id
        me = state.current_player()
        root = Node(None)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while done < self.iterations or (deadline is not None and self.iterations <= 0):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = state.determinize(me, self.rng)
            world.record = False
            self._iterate(root, world)
            done += 1
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

    # ---- one iteration -----------------------------------------------------------------------

    def _iterate(self, root: Node, s) -> None:
        rng = self.rng
        node = root
        path = [root]
        c = self.c
        # selection and expansion
        while not s.over:
            p = s.current_player()
            opts = s.options()
            untried = []
            best, best_score = None, -1.0
            for o in opts:
                ch = node.children.get(o.id)
                if ch is None:
                    untried.append(o.id)
                    continue
                ch.avail += 1
                if not untried:
                    score = ch.reward / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                    if score > best_score:
                        best, best_score = o.id, score
            if untried:
                oid = untried[rng.below(len(untried))]
                ch = node.children[oid] = Node(p)
                ch.avail = 1
                s.apply_in_place(oid)
                path.append(ch)
                break
            node = node.children[best]
            s.apply_in_place(best)
            path.append(node)
        # rollout
        steps = 0
        depth = self.depth
        while not s.over and (depth is None or steps < depth):
            opts = s.options()
            s.apply_in_place(opts[rng.below(len(opts))].id)
            steps += 1
        rewards = self._rewards(s)
        for nd in path[1:]:
            nd.visits += 1
            nd.reward += rewards[nd.mover]
        root.visits += 1

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
