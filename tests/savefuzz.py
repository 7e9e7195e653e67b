"""The save fuzzer: real mid-game saves of every shipped ruleset, damaged in every way we can
think of, and an oracle that says whether loading one did the right thing.

Shared by tests/test_save_fuzz.py (CI: 500+ mutants in seconds) and
benchmarks/attack_saves.py (the before/after counts of the closing note). A mutant must be
refused with one located line that does not quote the file, or load a game identical to the
original (an edit that changes nothing: a seat, the language, the snapshot dropped); anything
else (a traceback, a different game loaded) is a failure.
"""

from __future__ import annotations

import copy
import json
import random

from interpreter.bots import make_bot

# values a field is replaced with: every JSON type, edges of integers, players and cards that
# do not exist
ODD_VALUES = [None, True, False, 0, -1, 1, 2, 99, 10**6, 2**64, -(2**63), 1.5, "", "x", "7",
              "pass_turn", [], {}, [0], [-1], {"a": 1}, [[0, 1]], "\u0000", "é" * 3,
              # issue 25: numbers JSON Schema calls integers, and seats that name code
              2.0, 1e300, "this:Bot", "os:system", "interpreter.bots.random_bot:RandomBot", ["this:Bot"]]


def play_to(game, n: int, seed: int, decisions: int):
    """A game of n random bots, stopped after `decisions` decisions (earlier if it ends)."""
    st = game.new_game(seed=seed, players=n)
    bots = [make_bot("random", seed * 100 + p, game) for p in range(n)]
    for _ in range(decisions):
        if st.is_over():
            break
        assert st.apply_in_place(bots[st.current_player()].choose(st)) is None
    return st


def mid_game_states(game, n: int, seed: int, count: int = 4) -> list:
    """`count` states of one game, spread over it, none over; one with a card choice pending
    when the game has one (the attack on 'a choice naming a card never offered')."""
    full = play_to(game, n, seed, 100_000)
    length = len(full.history)
    points = sorted({max(1, length * (i + 1) // (count + 1)) for i in range(count)})
    out = [play_to(game, n, seed, k) for k in points]
    st = game.new_game(seed=seed, players=n)
    bots = [make_bot("random", seed * 100 + p, game) for p in range(n)]
    while not st.is_over():
        pend = st.pending
        if pend["k"] == "choose" and pend.get("t") == "card" and len(st.history) > 3:
            out.append(st)
            break
        st.apply_in_place(bots[st.current_player()].choose(st))
    return [s for s in out if not s.is_over()]


def _paths(x, path=()):
    yield path
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _get(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def _set(doc, path, value):
    _get(doc, path[:-1])[path[-1]] = value


def named_attacks(doc: dict, g) -> dict[str, dict]:
    """The damaged saves the issue lists, each by name (those the position allows)."""
    out = {}

    def edit(name, fn):
        d = copy.deepcopy(doc)
        if fn(d, d["state"]) is not False:
            out[name] = d

    edit("string seed", lambda d, s: _set(d, ("seed",), str(d["seed"])))
    edit("integer seats", lambda d, s: _set(d, ("seats",), 3))
    # issue 25: a save names no code, and its numbers are whole numbers
    edit("a seat naming a module (module:Class)", lambda d, s: _set(d, ("seats", 0), "this:Bot"))
    edit("a seat naming os.system", lambda d, s: _set(d, ("seats", 0), "os:system"))
    edit("a seat that is no bot kind", lambda d, s: _set(d, ("seats", 0), "HUMAN"))
    edit("seed 2.0", lambda d, s: _set(d, ("seed",), float(d["seed"])))
    edit("players 2.0", lambda d, s: _set(d, ("players",), float(d["players"])))
    edit("seed 1e300", lambda d, s: _set(d, ("seed",), 1e300))
    edit("missing ruleset", lambda d, s: d.pop("ruleset"))
    edit("malformed log entry", lambda d, s: s["log"].append(["turn", 5]))
    edit("pending player 99", lambda d, s: _set(s, ("pending", "p"), 99))
    edit("result naming player 99", lambda d, s: s.update(
        over=True, pending=None, stack=[], result={"reason": "x", "sides": [], "winners": [99]}))

    def two_zones(d, s):
        z = [i for i, zz in enumerate(s["zones"]) if zz]
        s["zones"][z[-1]].append(s["zones"][z[0]][0])
    edit("one card in two zones", two_zones)

    def minus_one(d, s):
        z = next(i for i, zz in enumerate(s["zones"]) if zz)
        s["zones"][z][0] = -1
    edit("card id -1", minus_one)

    def counter_out(d, s):
        for i, (name, _, _) in enumerate(g.ctr_label):
            s["counters"][i] = g.prog.counter_defs[name].max + 1
            return None
        return False
    edit("counter above its max", counter_out)

    def counter_under(d, s):
        for i, (name, _, _) in enumerate(g.ctr_label):
            s["counters"][i] = g.prog.counter_defs[name].min - 1
            return None
        return False
    edit("counter below its min", counter_under)

    def never_offered(d, s):
        pend = s["pending"]
        if pend["k"] != "choose" or pend.get("t") != "card":
            return False
        other = next(c for c in range(len(s["seen"])) if c not in pend["items"])
        pend["items"][0] = other
        s["seen"][other] = -1 & ((1 << 62) - 1)  # and let the chooser see it
    edit("pending choice naming a card never offered", never_offered)
    edit("pc of 10**6", lambda d, s: _set(s["stack"][-1], (1,), 10**6))
    edit("over with a pending decision", lambda d, s: s.update(over=True))

    def swap_hands(d, s):
        owned = [z for z in range(g.NZ) if g.zone_owner[z] >= 0 and g.zone_vis[z] == 1 and s["zones"][z]]
        pairs = [(a, b) for a in owned for b in owned
                 if g.zone_base_name[a] == g.zone_base_name[b] and g.zone_owner[a] != g.zone_owner[b]]
        if not pairs:
            return False
        a, b = pairs[0]
        s["zones"][a], s["zones"][b] = s["zones"][b], s["zones"][a]
    edit("swapped hands", swap_hands)

    def decision_edit(d, s):
        d["decisions"][len(d["decisions"]) // 2] = "pass_turn"
    edit("a decision replaced", decision_edit)
    edit("a decision removed", lambda d, s: d["decisions"].pop(len(d["decisions"]) // 2))
    edit("a decision prefix", lambda d, s: _set(d, ("decisions", 0), d["decisions"][0][:2]))
    edit("other seed", lambda d, s: _set(d, ("seed",), d["seed"] + 1))
    edit("other rules hash", lambda d, s: _set(d, ("ruleset_hash",), "0" * 16))
    edit("other player count", lambda d, s: _set(d, ("players",), d["players"] + 1))
    edit("snapshot dropped (harmless)", lambda d, s: d.pop("state"))
    return out


def random_mutants(text: str, rng: random.Random, count: int) -> list[tuple[str, bytes]]:
    """`count` damaged copies of a save's text: structural edits of its JSON, and edits of
    its bytes."""
    doc = json.loads(text)
    paths = [p for p in _paths(doc) if p]
    top = [p for p in paths if len(p) == 1 or p[:1] == ("seats",)]
    decisions = [p for p in paths if p[:1] == ("decisions",)]
    state = [p for p in paths if p[:1] == ("state",)]
    out = []
    for i in range(count):
        kind = rng.random()
        if kind < 0.2:  # bytes: a cut, a changed byte, a deleted line
            raw = text.encode()
            at = rng.randrange(len(raw))
            how = rng.choice(["cut", "byte", "line", "insert"])
            if how == "cut":
                raw = raw[:at]
            elif how == "byte":
                raw = raw[:at] + bytes([rng.randrange(256)]) + raw[at + 1:]
            elif how == "insert":
                raw = raw[:at] + rng.choice([b"{", b"]", b",", b'"', b"\xff", b"0"]) + raw[at:]
            else:
                lines = raw.split(b"\n")
                del lines[rng.randrange(len(lines))]
                raw = b"\n".join(lines)
            out.append((f"bytes:{how}@{at}", raw))
            continue
        d = json.loads(text)
        pool = top if kind < 0.45 else decisions if kind < 0.6 and decisions else state
        path = rng.choice(pool)
        parent = _get(d, path[:-1])
        op = rng.choice(["value", "value", "delete", "swap", "dup", "add_key"])
        if op == "delete":
            del parent[path[-1]]
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            j = rng.randrange(len(parent))
            parent[path[-1]], parent[j] = parent[j], parent[path[-1]]
        elif op == "dup" and isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
        elif op == "add_key" and isinstance(parent, dict):
            parent["extra"] = 1
        else:
            old = parent[path[-1]]
            vals = ODD_VALUES + ([old + 1, old - 1, float(old)] if type(old) is int else [])
            parent[path[-1]] = rng.choice(vals)
            op = "value"
        out.append((f"{op}:{'.'.join(map(str, path))}", json.dumps(d).encode()))
    return out


def verdict(outcome, original_state: dict, text_len: int) -> str | None:
    """None if loading a mutant did the right thing, else what went wrong. `outcome` is the
    LoadedSave, or the exception loading raised."""
    from interpreter.engine.persist import state_from_json
    from interpreter.errors import RulesetError, format_problems
    if isinstance(outcome, RulesetError):
        shown = format_problems(outcome.problems)
        if len(outcome.problems) != 1 or outcome.problems[0].loc.line < 0:
            return f"refused with {len(outcome.problems)} problems"
        if any(p.quote for p in outcome.problems) or len(shown) > 600:
            return f"the refusal quotes the file: {shown[:200]}"
        return None
    if isinstance(outcome, BaseException):
        return f"traceback: {type(outcome).__name__}: {outcome}"
    st = outcome.state
    got = json.loads(json.dumps(st.to_json()))
    if got != original_state:
        return "loaded a game other than the one saved"
    try:
        state_from_json(outcome.game, got)
    except RulesetError as e:
        return f"loaded an impossible state: {e}"
    return None
