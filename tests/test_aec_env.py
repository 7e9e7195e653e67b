"""The PettingZoo AEC environment: PettingZoo's own API test on both big rulesets, whole games
to the end, and observations built from the seat's view alone."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from interpreter.bots.aec_env import env
from interpreter.engine.rng import Rng

RULESETS = [("rulesets/castle_of_the_devil", 4), ("rulesets/shadows_over_camelot", 3), ("rulesets/high_tide", 2)]


@pytest.mark.parametrize("ruleset, players", RULESETS, ids=[r.split("/")[1] for r, _ in RULESETS])
def test_pettingzoo_api_test_passes(ruleset, players):
    api_test(env(ruleset, players=players), num_cycles=400)


@pytest.mark.parametrize("ruleset, players", RULESETS[:2], ids=["castle_of_the_devil", "shadows_over_camelot"])
def test_a_whole_game_ends_with_every_agent_rewarded_and_removed(ruleset, players):
    e = env(ruleset, players=players)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = {a: 0.0 for a in e.possible_agents}
    steps = 0
    for agent in e.agent_iter(100_000):
        obs, reward, term, trunc, info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) == len(info["options"]) > 0
        e.step(int(rng.choice(legal)))
        steps += 1
    assert e.agents == [] and steps > 10
    winners = set(e.state.result["winners"])
    assert total == {a: (1.0 if p in winners else -1.0) if winners else 0.0
                     for p, a in enumerate(e.possible_agents)}


def test_an_agent_observes_its_view_and_nothing_hidden():
    e = env("rulesets/castle_of_the_devil", players=4)
    e.reset(seed=5)
    agent = e.agent_selection
    p = e.possible_agents.index(agent)
    seen = e.observe(agent)
    real = e.state
    differ = 0
    for k in range(3):  # worlds the player cannot tell from the real one: the same observation
        e.state = real.determinize(p, Rng(k + 1))
        differ += [list(z) for z in e.state.zones] != [list(z) for z in real.zones]
        assert np.array_equal(e.observe(agent)["observation"], seen["observation"])
    assert differ  # the hidden cards really were dealt otherwise
    e.state = real
    other = e.possible_agents[(p + 1) % 4]
    assert not e.observe(other)["action_mask"].any()  # only the deciding agent may act
