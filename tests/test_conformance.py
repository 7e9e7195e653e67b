"""Conformance suite on every shipped ruleset and every supported player count."""

from __future__ import annotations

import os
import random

import pytest
from conformance import (
    canonical,
    clone_independent,
    load_shipped,
    load_shipped_variant,
    play_random,
    replay,
    roundtrip_continues,
    shipped_rulesets,
    view_non_interference,
)
from leakcheck import leaks_in_game

GAMES = int(os.environ.get("GRIMOIRE_CONFORMANCE_GAMES", "2"))
CASES = []
for path in shipped_rulesets():
    try:
        g = load_shipped(path)
    except Exception:  # a broken ruleset is reported by test_rulesets_validate
        continue
    for n in range(g.ruleset.min_players, g.ruleset.max_players + 1):
        CASES.append((path.name, n))
_games: dict = {}


def game(name):
    if name not in _games:
        from interpreter.game import RULESETS
        _games[name] = load_shipped(RULESETS / name)
    return _games[name]


@pytest.mark.parametrize("name,n", CASES)
def test_random_games_hold_invariants(name, n):
    g = game(name)
    for i in range(GAMES):
        seed = 100 * n + i
        st, decisions = play_random(g, n, seed, check_every=1)
        assert st.over and st.result is not None
        assert canonical(replay(g, n, seed, decisions)) == canonical(st), "replay differs"
        if decisions:
            rng = random.Random(seed)
            at = rng.randrange(len(decisions))
            roundtrip_continues(g, n, seed, decisions, at)
            clone_independent(g, n, seed, decisions, at)
            view_non_interference(g, n, seed, decisions, rng.randrange(len(decisions)))


@pytest.mark.parametrize("name,n", CASES)
def test_no_step_tells_a_player_more_than_it_may_know(name, n):
    """The leak check (tests/leakcheck.py): 40 steps of a random game, every observer, two
    worlds each; the slow run checks every step of several games."""
    leaks, compared = leaks_in_game(game(name), n, 500 + n, worlds=2, points=40)
    assert compared > 0
    assert not leaks, "\n".join(str(x) for x in leaks[:5])


@pytest.mark.slow
@pytest.mark.parametrize("name,n", CASES)
def test_no_leak_in_every_step(name, n):
    for seed in range(4):
        leaks, _ = leaks_in_game(game(name), n, 900 + seed, worlds=3)
        assert not leaks, "\n".join(str(x) for x in leaks[:5])


VARIANTS = [(path.name, v) for path in shipped_rulesets() for v in sorted((path / "variants").glob("*.yaml"))]


@pytest.mark.slow
@pytest.mark.parametrize("name,variant", VARIANTS, ids=lambda x: getattr(x, "stem", x))
def test_no_leak_in_a_variant(name, variant):
    from interpreter.game import RULESETS
    g = load_shipped_variant(RULESETS / name, variant)
    for n in range(g.ruleset.min_players, g.ruleset.max_players + 1):
        leaks, _ = leaks_in_game(g, n, 700 + n, worlds=2, points=30)
        assert not leaks, "\n".join(str(x) for x in leaks[:5])


@pytest.mark.slow
@pytest.mark.parametrize("name,n", CASES)
def test_many_random_games(name, n):
    g = game(name)
    for i in range(50):
        play_random(g, n, 10_000 + i, check_every=7)


@pytest.mark.parametrize("path", shipped_rulesets(), ids=lambda p: p.name)
def test_rulesets_validate(path, capsys):
    from interpreter.cli import main
    assert main(["validate", str(path)]) == 0, capsys.readouterr().err
