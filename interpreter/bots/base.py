"""The bot protocol: what a program playing a seat is given, and what it must answer.

Pipeline position: between the engine and the players. At each of its decisions a bot gets
a `Seat`, never the `State`: the deciding player, the legal options, that player's `view`,
and `determinize(rng)`, which samples a whole world the player cannot tell apart from the
real one (a search bot plays its futures out there). A bot answers with one option id:

    class MyBot:
        def __init__(self, seed, game=None, **options): ...
        def choose(self, seat: Seat) -> str: ...

Everything a bot reads through a Seat is what its player may know, so a bot's choice (with
its own seed) cannot depend on the other players' hidden cards; tests/test_bot_honesty.py
checks this for every shipped bot on every ruleset. The one door to the real state is
`Seat.evaluate`, which runs a ruleset's own compiled policy: on the real state only when the
policy compiler has proven that the expressions read nothing the player cannot see, and on a
world drawn from the player's view otherwise.
"""

from __future__ import annotations

from typing import Protocol

from ..runtime.primitives import beliefs_read_from


class Seat:
    """One decision as the deciding player sees it: options, view, and worlds to search."""

    __slots__ = ("_belief", "_public", "_state", "_view", "_world", "beliefs", "options", "player")

    def __init__(self, state, beliefs=None) -> None:
        self._state = state
        self.beliefs = beliefs  # the game's public evidence (bots/beliefs.py), if it keeps one
        self._belief = self._public = None
        self.player: int = state.current_player()
        self.options = state.options()
        self._view: dict | None = None
        self._world = None

    @property
    def kind(self) -> str:
        """'act' (one of a group of actions, or pass) or 'choose' (one of offered items)."""
        return self._state.pending["k"]

    @property
    def prompt(self) -> str:
        """The prompt of a choose decision, or the action group of an act decision."""
        pend = self._state.pending
        return pend["prompt"] if pend["k"] == "choose" else pend["g"]

    @property
    def view(self) -> dict:
        """Everything the deciding player may know (`State.view`), built on first use."""
        if self._view is None:
            self._view = self._state.view(self.player)
        return self._view

    @property
    def game_over(self) -> bool:
        return self._state.over

    @property
    def players(self) -> int:
        """The number of players at the table (public)."""
        return self._state.n

    @property
    def turn(self) -> int:
        """The number of the turn being played (public: every player counts the turns)."""
        return self._state.turn

    def determinize(self, rng):
        """A full state the player cannot tell apart from the real one, drawn with `rng`
        (the bot's own generator): the hidden cards re-dealt, the future re-seeded. Where the
        game keeps beliefs, the role cards are dealt in proportion to the player's belief
        (`belief`), so a search bot's worlds follow what the table has seen."""
        world = self._state.determinize(self.player, rng)
        if self.beliefs is not None:
            self.beliefs.condition(world, self._state, self.player, rng)
        return world

    def belief(self) -> list[dict] | None:
        """For every player, {side: probability he is on it}, as this player believes from
        his view and the public history (None where the game keeps no beliefs)."""
        if self.beliefs is None:
            return None
        if self._belief is None:
            self._belief = self.beliefs.belief(self._state, self.player)
        return self._belief

    def belief_of(self, q: int, side: str, public: bool = False) -> float:
        """The probability that player q is on `side`, as this player believes (the policy's
        `belief(q, side)` reads it as a percentage), or, `public`, as the table believes from
        public information alone (`public_belief(q, side)`: how suspect q looks to the
        others); 0 without beliefs."""
        if self.beliefs is None or q is None:
            return 0.0
        if public:
            if self._public is None:
                self._public = self.beliefs.belief(self._state, None)
            return self._public[q].get(side, 0.0)
        return self.belief()[q].get(side, 0.0)

    def unscored(self, policy) -> list[int]:
        """The indices of the options whose action the policy does not score (a new action a
        variant added): a search bot tries them rather than trust the policy's default."""
        return policy.unscored(self._state, self.player, self.options)

    def evaluate(self, policy, rng, overrides: dict | None = None) -> list[float]:
        """The ruleset policy's score of each option (in `options` order).

        `policy` is the program's compiled policy (`Program.policy`); `overrides` replaces
        weights by side ({side: {weight: value}}). When every expression this decision may
        run is proven to read only what the player sees, they run on the real state (any
        world consistent with the view gives the same numbers); otherwise on one world drawn
        with `rng` from the player's view, the same for all options."""
        st = self._state
        with beliefs_read_from(self):
            if policy.view_safe(st, overrides):
                return policy.scores(st, self.player, self.options, overrides)
            return self._world_scores(policy, rng, overrides)

    def _world_scores(self, policy, rng, overrides) -> list[float]:
        st = self._state
        if self._world is None:
            self._world = st.determinize(self.player, rng)
            self._world.record = False
        world = self._world
        wopts = world.options()
        scores = dict(zip((o.id for o in wopts), policy.scores(world, self.player, wopts, overrides)))
        default = min(scores.values(), default=0.0)
        return [scores.get(o.id, default) for o in self.options]


class Bot(Protocol):
    """What every bot is: seeded at construction, then asked one decision at a time."""

    def choose(self, seat: Seat) -> str:
        """The id of one of `seat.options`."""
        ...


def as_seat(x) -> Seat:
    """A Seat for x: x itself, or the current decision of a State (callers that still hand a
    bot the state get it wrapped, so the bot reads only the Seat)."""
    return x if isinstance(x, Seat) else Seat(x)


def decide(bot, state) -> str:
    """Ask `bot` for the decision pending in `state`, showing it only its seat."""
    return bot.choose(Seat(state))


__all__ = ["Bot", "Seat", "as_seat", "decide"]
