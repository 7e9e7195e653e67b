"""The save fuzzer: at least 500 damaged copies of real mid-game saves of every shipped
ruleset; none may end in a traceback or load a game other than the one saved, and every
refusal is one located line that does not quote the file."""

from __future__ import annotations

import functools
import json
import random

import pytest
from savefuzz import mid_game_states, named_attacks, random_mutants, verdict

from interpreter.engine.persist import state_from_json
from interpreter.errors import RulesetError
from interpreter.game import RULESETS, load
from interpreter.saves import parse_save, save_text

RULESETS_AND_PLAYERS = [("high_tide", 2), ("shadows_over_camelot", 4), ("castle_of_the_devil", 5)]
MUTANTS_PER_SAVE = 40
# well-formed states that only replaying the decisions shows to be unreachable
ONLY_BY_REPLAY = ("swapped hands", "pending choice naming a card never offered")


@functools.cache
def _load(src, variants=()):
    return load(src, list(variants))


def cached_load(src, variants):
    return _load(str(src), tuple(variants))


@functools.cache
def saves(name: str, n: int) -> list[tuple[str, dict, object]]:
    game = cached_load(RULESETS / name, [])
    out = []
    for st in mid_game_states(game, n, seed=11):
        text = save_text(game, st, ["random"] * n, "en")
        out.append((text, json.loads(json.dumps(st.to_json())), st))
    return out


def _outcome(raw: bytes):
    try:
        return parse_save(raw, "game.save.json", cached_load)
    except RulesetError as e:
        return e
    except Exception as e:  # noqa: BLE001 - a traceback is what the fuzzer looks for
        return e


@pytest.mark.parametrize("name,n", RULESETS_AND_PLAYERS)
def test_saves_load_back_identically(name, n):
    for text, original, st in saves(name, n):
        loaded = parse_save(text.encode(), "game.save.json", cached_load)
        assert verdict(loaded, original, len(text)) is None
        assert loaded.state.options() == st.options()


@pytest.mark.parametrize("name,n", RULESETS_AND_PLAYERS)
def test_named_attacks_are_refused(name, n):
    """The damaged saves of the issue: each refused in one line (or harmless, for a dropped
    snapshot); the same edits made to a bare snapshot are refused by its own checks."""
    seen = set()
    for text, original, st in saves(name, n):
        attacks = named_attacks(json.loads(text), st.g)
        for what, doc in attacks.items():
            seen.add(what)
            out = _outcome(json.dumps(doc).encode())
            assert verdict(out, original, 0) is None, f"{what}: {verdict(out, original, 0)}"
            if what == "snapshot dropped (harmless)":
                assert not isinstance(out, Exception)
                continue
            assert isinstance(out, RulesetError), what
            if doc.get("state") != original and "state" in doc and what not in ONLY_BY_REPLAY:
                with pytest.raises(RulesetError):  # the snapshot alone is checked too
                    state_from_json(cached_load(RULESETS / name, []), doc["state"])
    want = {"string seed", "integer seats", "missing ruleset", "malformed log entry", "pending player 99",
            "result naming player 99", "one card in two zones", "card id -1", "counter above its max",
            "pc of 10**6", "over with a pending decision", "swapped hands",
            "a seat naming a module (module:Class)", "a seat naming os.system", "a seat that is no bot kind",
            "seed 2.0", "players 2.0", "seed 1e300"}
    assert want <= seen, want - seen


def test_fuzzed_saves_never_crash_or_lie():
    rng = random.Random(2026)
    total = 0
    failures = []
    for name, n in RULESETS_AND_PLAYERS:
        for text, original, _ in saves(name, n):
            for what, raw in random_mutants(text, rng, MUTANTS_PER_SAVE):
                total += 1
                bad = verdict(_outcome(raw), original, len(raw))
                if bad:
                    failures.append(f"{name} {what}: {bad}")
    assert total >= 500
    assert not failures, "\n".join(failures[:20]) + f"\n({len(failures)} of {total})"
