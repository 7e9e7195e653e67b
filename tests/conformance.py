"""The conformance suite: random games with invariants, run on every ruleset in rulesets/.

Helpers shared by tests/test_conformance.py (CI) and the slow, larger runs.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from interpreter.engine.persist import state_from_json
from interpreter.game import RULESETS, load

MAX_DECISIONS = 50_000


def shipped_rulesets() -> list[Path]:
    return sorted(d for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file())


def check_invariants(st) -> None:
    """Cards in exactly one place, `where` agrees, counters within bounds, options for the decider only."""
    g = st.g
    total = sum(len(z) for z in st.zones)
    assert total == len(g.card_def), f"{total} cards in zones, {len(g.card_def)} exist"
    seen = set()
    for zi, z in enumerate(st.zones):
        for c in z:
            assert c not in seen, f"card {c} is in two places"
            seen.add(c)
            assert st.where[c] == zi, f"card {c}: where says {st.where[c]}, found in {zi}"
    defs = g.prog.counter_defs
    for i, (name, _, _) in enumerate(g.ctr_label):
        cd = defs[name]
        assert cd.min <= st.ctr[i] <= cd.max, f"counter {name} = {st.ctr[i]} outside [{cd.min}, {cd.max}]"
    if st.pending is not None:
        p = st.pending["p"]
        assert p is not None and 0 <= p < st.n, f"decision for {p!r}"
        for q in range(st.n):
            v = st.view(q)
            assert ("decision" in v) == (q == p), "only the deciding player sees options"
        assert st.options(), "a pending decision has no options"
    else:
        assert st.over, "no decision pending but the game is not over"


def play_random(game, n: int, seed: int, check_every: int = 1, rng_seed: int | None = None):
    """Play one random game, checking invariants; return (final state, decisions, snapshots)."""
    st = game.new_game(seed=seed, players=n)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    decisions = []
    steps = 0
    check_invariants(st)
    while not st.over:
        opts = st.options()
        o = opts[rng.randrange(len(opts))].id
        decisions.append(o)
        r = st.apply_in_place(o)
        assert r is None, f"legal option refused: {r}"
        steps += 1
        assert steps <= MAX_DECISIONS, "game did not end within the decision bound"
        if steps % check_every == 0:
            check_invariants(st)
    check_invariants(st)
    return st, decisions


def replay(game, n, seed, decisions):
    st = game.new_game(seed=seed, players=n)
    for d in decisions:
        r = st.apply_in_place(d)
        assert r is None, f"replay refused {d!r}: {r}"
    return st


def canonical(st) -> str:
    return json.dumps(st.to_json(), sort_keys=True)


def roundtrip_continues(game, n, seed, decisions, at: int) -> None:
    """Serialize at decision `at`, load, and continue both: they must agree."""
    a = game.new_game(seed=seed, players=n)
    for d in decisions[:at]:
        a.apply_in_place(d)
    b = state_from_json(game, json.loads(json.dumps(a.to_json())))
    assert canonical(a) == canonical(b)
    for d in decisions[at:]:
        assert a.apply_in_place(d) is None
        assert b.apply_in_place(d) is None
    assert canonical(a) == canonical(b)


def clone_independent(game, n, seed, decisions, at: int) -> None:
    a = game.new_game(seed=seed, players=n)
    for d in decisions[:at]:
        a.apply_in_place(d)
    before = canonical(a)
    c = a.clone()
    rng = random.Random(at)
    for _ in range(20):
        if c.over:
            break
        opts = c.options()
        c.apply_in_place(opts[rng.randrange(len(opts))].id)
    assert canonical(a) == before, "playing on a clone changed the original"


def view_non_interference(game, n, seed, decisions, at: int) -> None:
    """Re-dealing what a player cannot see leaves that player's view identical."""
    from interpreter.engine.rng import Rng
    a = game.new_game(seed=seed, players=n)
    for d in decisions[:at]:
        a.apply_in_place(d)
    for p in range(n):
        v = json.dumps(a.view(p), sort_keys=True, default=str)
        for k in range(3):
            d = a.determinize(p, Rng(1000 * at + 10 * p + k + 1))
            check_invariants(d)
            assert json.dumps(d.view(p), sort_keys=True, default=str) == v, f"view of p{p + 1} changed"
            if d.pending is not None and not d.over:
                opts = d.options()
                assert d.apply(opts[0].id), "a determinized state must be playable"


def load_shipped(path):
    return load(path)


def load_shipped_variant(path, variant):
    """The ruleset with one of its variants (after the variants it requires)."""
    from interpreter.frontend.yaml_source import load_yaml
    needs = (load_yaml(variant).data or {}).get("requires") or []
    return load(path, [str(variant.parent / f"{v}.yaml") for v in needs] + [str(variant)])
