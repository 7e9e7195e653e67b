"""A PettingZoo AEC environment for any ruleset, for learning agents (extra: `pettingzoo`).

Pipeline position: beside the bots, above the engine's decision API. Each seat is an agent
`player_0`, `player_1`, ...; the agent to act is the player the engine is waiting for. An
agent observes only its own `State.view`, encoded as a fixed-length vector (how many cards of
each kind it knows of in each zone, plus how many it cannot see; the counters it may see;
the turn; whose turn it is), with an `action_mask` over the options of the pending decision:
action i is option i of `State.options()` (`infos[agent]["options"]` holds their ids). A
finished game gives +1 to each winner and -1 to each other player (0 to all when nobody
wins); a game cut off after `max_decisions` is truncated.

    from interpreter.bots.aec_env import env
    e = env("path/to/ruleset", players=3)
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..engine.decisions import player_id
from ..game import load

_BIG = 2**31 - 1


class GrimoireAEC(AECEnv):
    """One game of a ruleset as an AEC environment: one agent per seat."""

    metadata = {"name": "grimoire_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, ruleset, players: int | None = None, variants=(), max_actions: int = 256,
                 max_decisions: int = 20_000, render_mode: str | None = None):
        super().__init__()
        self.game = load(ruleset, list(variants))
        rs = self.game.ruleset
        self.players = players or rs.min_players
        self.max_actions = max_actions
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self.state = self.game.new_game(seed=0, players=self.players)
        g = self.state.g
        self._kinds = len(g.card_ids)
        self._zones = len(g.zone_label)
        n_cards = len(g.card_def)
        defs = self.game.program.counter_defs
        lo_c = [max(-_BIG, defs[name].min) for name, _, _ in g.ctr_label]
        hi_c = [min(_BIG, defs[name].max) for name, _, _ in g.ctr_label]
        turns = max(1, int(g.max_turns or _BIG))
        size = self._zones * (self._kinds + 1)
        low = np.array([0] * size + lo_c + [0] + [0] * (2 * self.players), dtype=np.float32)
        high = np.array([n_cards] * size + hi_c + [turns] + [1] * (2 * self.players), dtype=np.float32)
        obs = spaces.Box(low=low, high=high, dtype=np.float32)
        mask = spaces.Box(low=0, high=1, shape=(max_actions,), dtype=np.int8)
        self.observation_spaces = {a: spaces.Dict({"observation": obs, "action_mask": mask})
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(max_actions) for a in self.possible_agents}

    @functools.cache  # noqa: B019 - the spaces are fixed per environment
    def observation_space(self, agent):
        return self.observation_spaces[agent]

    @functools.cache  # noqa: B019
    def action_space(self, agent):
        return self.action_spaces[agent]

    # ---- the game ----------------------------------------------------------------------------

    def reset(self, seed=None, options=None):
        """A new game with `seed` (0 when none is given)."""
        self.state = self.game.new_game(seed=0 if seed is None else int(seed), players=self.players,
                                        record=False)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def _select(self) -> None:
        st = self.state
        if st.over:
            return
        p = st.current_player()
        self.agent_selection = self.possible_agents[p]
        opts = st.options()
        if len(opts) > self.max_actions:
            raise ValueError(f"a decision has {len(opts)} options, more than max_actions={self.max_actions}: "
                             "make the environment with a larger max_actions")
        for a in self.agents:
            self.infos[a] = {}
        self.infos[self.agent_selection] = {"options": [o.id for o in opts]}

    def step(self, action):
        """Play option number `action` of the pending decision (None for a finished agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        opts = self.state.options()
        i = int(action)
        if not 0 <= i < len(opts):
            raise ValueError(f"action {i} is masked out: the decision has {len(opts)} options")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_in_place(opts[i].id)
        self.decisions += 1
        self._clear_rewards()
        if self.state.over:
            winners = set((self.state.result or {}).get("winners") or [])
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = (1.0 if p in winners else -1.0) if winners else 0.0
                self.terminations[a] = True
                self.infos[a] = {}
        elif self.decisions >= self.max_decisions:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {}
        else:
            self._select()
        self._accumulate_rewards()

    # ---- what an agent sees ------------------------------------------------------------------

    def observe(self, agent):
        """The agent's own view, encoded, and the mask of its legal actions."""
        p = self.possible_agents.index(agent)
        st = self.state
        view = st.view(p)
        g = st.g
        kinds = {k: i for i, k in enumerate(g.card_ids)}
        cards = np.zeros((self._zones, self._kinds + 1), dtype=np.float32)
        for z, key in enumerate(view["zones"]):
            for c in view["zones"][key]:
                cards[z, self._kinds if c is None else kinds[c]] += 1
        counters = [float(view["counters"].get(_label(st, lab), 0)) for lab in g.ctr_label]
        you = [1.0 if q == p else 0.0 for q in range(self.players)]
        cur = st.current_player() if not st.over else None
        current = [1.0 if q == cur else 0.0 for q in range(self.players)]
        obs = np.concatenate([cards.ravel(), np.array(counters + [float(st.turn)] + you + current,
                                                      dtype=np.float32)])
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if not st.over and cur == p:
            mask[:len(st.options())] = 1
        return {"observation": obs, "action_mask": mask}

    def render(self):
        """The current decision, as text (render_mode 'ansi')."""
        st = self.state
        if st.over:
            return f"game over: {st.result}"
        return f"turn {st.turn}: {self.agent_selection} chooses among {', '.join(o.id for o in st.options())}"

    def close(self):
        pass


def _label(st, lab) -> str:
    name, li, owner = lab
    if li is None and owner is None:
        return name
    return f"{name}@{st.g.loc_ids[li]}" if li is not None else f"{name}@{player_id(st, owner)}"


def env(ruleset, **kw) -> GrimoireAEC:
    """The AEC environment of a ruleset (a path or a shipped ruleset's id)."""
    return GrimoireAEC(ruleset, **kw)
