"""Beliefs: who is on which side, inferred from what every player is seen to do.

Pipeline position: beside the bots, outside the engine. A ruleset opts in with a `beliefs:`
entry in its policy, naming the per-player zone that holds each player's secret role cards
(the side of a player is the ruleset's own `side_of`):

    policy:
      beliefs: {role: secret_role, temperature: 8, epsilon: 0.1}   # a per-player zone

It is an inverse-planning filter (a Bayesian observer who assumes every player plays the
ruleset's policy), in two parts:

- The table's *public evidence* (`Beliefs`, one per game, fed by the game loop): before each
  decision, for each side s, the probability that the deciding player q would take the
  chosen option if he were on side s: a softmax of the policy's scores at `temperature`,
  mixed with `epsilon` of a uniform choice (players are not bots). It is computed on a world
  built from public information only (`engine.views.public_world`): q's own hand and secret
  cards are re-dealt from the cards no spectator sees (keeping a card the choice shows), and
  q's role card is set to make q's side s (`set_side_card`). A choice that stays hidden
  (a card laid face down) is no evidence. So the evidence is the same for every observer:
  log-likelihoods ll[q][s], summed over the game.
- A seat's *prior* (`Seat.belief`): the role-card deals the observer cannot tell apart from
  the real one (its own role card, the roles it was shown), sampled `samples` times with a
  generator seeded by what the observer sees of the role cards; each sample is weighted by
  the product over players of exp(ll[q][side of q in the sample]).

The approximation, said plainly: the likelihood of q's choice is computed as if q held a
random hand consistent with the public view, not q's real hand (which the observer cannot
know), and as if every player played the shipped policy. Both make the evidence weaker,
never dishonest: nothing here reads a card its seat may not see.
"""

from __future__ import annotations

import math
import zlib

from ..engine.rng import Rng, seed_state
from ..engine.views import public_world, set_side_card, swap_places
from ..runtime.options import SPECTATOR

SAMPLES = 48      # role deals sampled for a seat's prior
FLOOR = -30.0     # the log-likelihood of one observation never goes below this (a player may err)


class Beliefs:
    """The public evidence of one game: per player and side, the log-likelihood of his
    observed choices had he been on that side."""

    def __init__(self, game, st, role: str, temperature: float = 8.0, epsilon: float = 0.1,
                 samples: int = SAMPLES, worlds: int = 1):
        self.policy = game.program.policy
        self.sides = list(game.program.sides)
        self.n = st.n
        g = st.g
        self.zones = {}
        for z, (name, _li, owner) in enumerate(g.zone_label):
            if name == role and owner is not None:
                self.zones[owner] = z
        if len(self.zones) != st.n:
            raise ValueError(f"beliefs: role {role!r} is not a zone of every player")
        self.temperature = max(1e-6, float(temperature))
        self.epsilon = min(1.0, max(0.0, float(epsilon)))
        self.samples = max(4, int(samples))
        self.worlds = max(1, int(worlds))
        self.ll = [[0.0] * len(self.sides) for _ in range(st.n)]
        self.observed = 0
        self.decisions = 0  # decisions taken since the tracker began (public: everyone counts them)
        self._pending = None
        self._priors: dict = {}

    # ---- evidence -------------------------------------------------------------------------

    def before(self, st, oid: str) -> None:
        """Score the choice `oid` about to be taken in `st`, for every side of its player."""
        self._pending = None
        opts = st.options()
        if len(opts) < 2 or st.pending is None:
            return
        q = st.pending["p"]
        if all(st.seen[c] & SPECTATOR for c in st.zones[self.zones[q]]):
            return  # q's role cards are face up: everyone knows his side already
        chosen = next((o for o in opts if o.id == oid), None)
        if chosen is None or not self.policy.view_safe(st):
            return  # an expression that reads beyond q's view: not scored from public data
        # every decision is scored: which names its expressions mention says nothing, since
        # the scores are taken on a public world whose options (q's hand re-dealt) are not
        # the real ones; a choice as likely on every side is no evidence (see after)
        keep = _cards_of(st, chosen)
        side_of = st.g.side_fn
        # the public worlds of this decision come from a generator of its own, seeded by its
        # number (public): whether an earlier decision was scored, or how many worlds it drew,
        # cannot change the worlds, hence the evidence, of this one
        rng = Rng(seed_state(0xB0E1 + (self.decisions << 20)))
        # the likelihood is averaged over `worlds` public worlds: what q holds is unknown, so
        # one world would count the scores of one guessed hand as evidence
        sums = [0.0] * len(self.sides)
        seen = [0] * len(self.sides)
        for _ in range(self.worlds):
            world = public_world(st, q, rng, keep)
            for i, s in enumerate(self.sides):
                if not set_side_card(world, q, self.zones[q], s, side_of):
                    continue
                world._opts = None
                wopts = world.options()
                ids = [o.id for o in wopts]
                if oid not in ids or not self.policy.view_safe(world):
                    continue
                sums[i] += self._prob(self.policy.scores(world, q, wopts), ids.index(oid))
                seen[i] += 1
        probs = [sums[i] / seen[i] if seen[i] else None for i in range(len(self.sides))]
        if all(p is None for p in probs):
            return
        self._pending = (q, probs, keep)

    def after(self, st) -> None:
        """Count the scored choice once it is taken, if everyone may see what it was."""
        pend, self._pending = self._pending, None
        self.decisions += 1
        if pend is None:
            return
        q, probs, keep = pend
        if any(not st.seen[c] & SPECTATOR for c in keep):
            return  # the card chosen stays hidden: nobody else saw the choice
        known = [p for p in probs if p is not None]
        if len(known) < 2 or max(known) - min(known) < 1e-9:
            return
        for i, p in enumerate(probs):
            if p is not None:
                self.ll[q][i] += max(FLOOR, math.log(p))
        self.observed += 1

    def _prob(self, scores: list[float], i: int) -> float:
        top = max(scores)
        ws = [math.exp((s - top) / self.temperature) for s in scores]
        return (1 - self.epsilon) * ws[i] / sum(ws) + self.epsilon / len(scores)

    # ---- a seat's posterior ---------------------------------------------------------------

    def particles(self, st, p: int | None) -> list[tuple]:
        """The role deals p cannot tell apart from the real one: [(side vector, deal)], where a
        deal is {role place: card}; sampled from p's view only (cached by what p sees)."""
        key = self._key(st, p)
        hit = self._priors.get(key)
        if hit is not None:
            return hit
        bit = SPECTATOR if p is None else 1 << p
        g = st.g
        sets = g.prog.kind_sets
        cdef = g.card_def
        by_set: dict = {}
        for z in sorted(set(self.zones.values())):
            for i, c in enumerate(st.zones[z]):
                if not st.seen[c] & bit:
                    by_set.setdefault(sets[cdef[c]], ([], []))[0].append((z, i))
        for zz in st.zones:
            for c in zz:
                if not st.seen[c] & bit and sets[cdef[c]] in by_set:
                    by_set[sets[cdef[c]]][1].append(c)
        for _, pool in by_set.values():
            pool.sort(key=lambda c: (cdef[c], c))  # an order p could know, not the real deal
        rng = Rng(seed_state(zlib.crc32(repr(key).encode())))
        world = st.clone()
        world.record = False
        world.zones = [z[:] for z in st.zones]
        side_of = g.side_fn
        out = []
        for _ in range(self.samples):
            deal = {}
            for places, pool in by_set.values():
                cards = pool[:]
                rng.shuffle(cards)
                deal.update(zip(places, cards))
            for (z, i), c in deal.items():
                world.zones[z][i] = c
            sv = [side_of(world, q) for q in range(self.n)]
            hv = tuple(self.sides.index(x) if x in self.sides else -1 for x in sv)
            out.append((hv, deal))
            for (z, i) in deal:
                world.zones[z][i] = st.zones[z][i]
        self._priors[key] = out
        return out

    def _key(self, st, p: int | None) -> tuple:
        """What p sees of the role cards (p None: what every player sees)."""
        bit = SPECTATOR if p is None else 1 << p
        cdef = st.g.card_def
        roles = tuple((z, tuple(cdef[c] if st.seen[c] & bit else -1 for c in st.zones[z]))
                      for z in sorted(set(self.zones.values())))
        return (p, roles)

    def weights(self, st, p: int | None) -> list[tuple]:
        """[(weight, side vector, deal)] for p, the weights summing to 1."""
        parts = self.particles(st, p)
        ll = self.ll
        logs = [sum(ll[q][h] for q, h in enumerate(hv) if h >= 0) for hv, _ in parts]
        top = max(logs)
        ws = [math.exp(x - top) for x in logs]
        total = sum(ws)
        return [(w / total, hv, deal) for w, (hv, deal) in zip(ws, parts)]

    def condition(self, world, st, p: int, rng) -> None:
        """Re-deal the role cards of `world` (drawn from p's view) to a deal drawn from p's
        posterior with `rng`: a belief-weighted world."""
        ws = self.weights(st, p)
        r = rng.below(1 << 30) / (1 << 30)
        deal = ws[-1][2]
        for w, _, d in ws:
            r -= w
            if r < 0:
                deal = d
                break
        for (z, i), c in deal.items():
            if world.zones[z][i] != c:
                swap_places(world, (z, i), (world.where[c], world.zones[world.where[c]].index(c)))
        world._opts = None

    def belief(self, st, p: int | None) -> list[dict]:
        """For every player q, {side: probability that q is on it}, as p believes (p None:
        as the table believes from public information alone, e.g. how suspect q looks)."""
        out = [dict.fromkeys(self.sides, 0.0) for _ in range(self.n)]
        for w, hv, _ in self.weights(st, p):
            for q, h in enumerate(hv):
                if h >= 0:
                    out[q][self.sides[h]] += w
        return out


def _cards_of(st, opt) -> tuple:
    """The cards an option names (an action's card arguments, or the card chosen)."""
    v = opt.value
    out = []
    if st.pending["k"] == "choose":
        if isinstance(v, int) and not isinstance(v, bool) and st.pending.get("t") == "card":
            out.append(v)
        return tuple(out)
    if isinstance(v, tuple) and len(v) == 2:
        act = st.g.prog.actions.get(v[0])
        types = list(getattr(act, "arg_types", ()) or ())
        for x, t in zip(v[1], types):
            if t == "card" and isinstance(x, int):
                out.append(x)
    return tuple(out)


def beliefs_for(game, st):
    """The game's public-evidence tracker, or None if its policy declares no `beliefs:`."""
    policy = getattr(getattr(game, "program", None), "policy", None)
    spec = getattr(policy, "beliefs", None)
    if not spec:
        return None
    return Beliefs(game, st, spec["role"], spec.get("temperature", 8.0), spec.get("epsilon", 0.1),
                   spec.get("samples", SAMPLES), spec.get("worlds", 1))


__all__ = ["Beliefs", "beliefs_for"]
