"""Saving and loading game states as JSON, at any decision point (mid-effect included).

Pipeline position: engine. The state is plain data already; this module only names its parts,
stamps the ruleset id and hash (a save made with other rules is refused, with a clear
message), and checks a loaded document before trusting it.
"""

from __future__ import annotations

from ..errors import Loc, Problem, RulesetError
from .rng import Rng

FORMAT = "grimoire-state"
# 2: runs of statements that never ask a player are one VM instruction, so the program
# counters saved in version 1 point elsewhere now
VERSION = 2


def state_to_json(st) -> dict:
    g = st.g
    return {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": g.prog.rs.id,
        "ruleset_hash": g.prog.rules_hash,
        "players": st.n,
        "seed": st.seed,
        "zones": [list(z) for z in st.zones],
        "seen": list(st.seen),
        "counters": list(st.ctr),
        "at": list(st.at),
        "stack": [[f[0], f[1], dict(f[2]), f[3]] for f in st.stack],
        "pending": st.pending,
        "rng": str(st.rng.s),
        "current": st.current,
        "turn": st.turn,
        "kinds": list(st.kinds),
        "over": st.over,
        "result": st.result,
        "phase": st.phase,
        "names_pending": st.names_pending,
        "log": st.log,
        "history": st.history,
    }


def state_from_json(game, data, file: str = "<save>"):
    """Rebuild a State from `state_to_json` output; refuse damaged or foreign saves."""

    def bad(msg):
        return RulesetError(Problem(Loc(file, 1, 1), msg))

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise bad("not a Grimoire saved game (format is not 'grimoire-state')")
    if data.get("version") != VERSION:
        raise bad(f"this save is in version {data.get('version')} of the state format, written by another "
                  f"version of Grimoire (this one reads version {VERSION}); replay its decisions instead")
    rs = game.ruleset
    if data.get("ruleset") != rs.id:
        raise bad(f"this save is a game of {data.get('ruleset')!r}, not of {rs.id!r}")
    rules_hash = game.program.rules_hash if game.program.rs is rs else rs.hash
    if data.get("ruleset_hash") != rules_hash:
        raise bad(f"this save was made with a different version of the rules of {rs.id!r} "
                  f"(rules hash {data.get('ruleset_hash')}, now {rules_hash}); it cannot be continued")
    try:
        n = int(data["players"])
        table = game.table(n)
        st = table.blank_state()  # (persist sits below the State, which saves through it)
        st.g = table
        st.n = n
        st.zones = [[int(c) for c in z] for z in data["zones"]]
        if len(st.zones) != table.NZ:
            raise ValueError("zone count does not match the rules")
        st.where = [0] * len(table.card_def)
        placed = 0
        for z, zz in enumerate(st.zones):
            for c in zz:
                st.where[c] = z
                placed += 1
        if placed != len(table.card_def):
            raise ValueError("cards are missing or duplicated")
        st.seen = [int(x) for x in data["seen"]]
        st.ctr = [int(x) for x in data["counters"]]
        if len(st.ctr) != len(table.ctr_init) or len(st.seen) != len(st.where):
            raise ValueError("counter or card count does not match the rules")
        st.at = list(data["at"])
        st.stack = [[str(f[0]), int(f[1]), dict(f[2]), f[3]] for f in data["stack"]]
        for f in st.stack:
            if f[0] not in table.codes:
                raise ValueError(f"unknown code unit {f[0]!r}")
        st.pending = data["pending"]
        st.rng = Rng(int(data["rng"]))
        st.seed = data.get("seed", 0)
        st.current = data["current"]
        st.turn = int(data["turn"])
        st.kinds = tuple(data["kinds"])
        st.over = bool(data["over"])
        st.result = data["result"]
        st.phase = str(data["phase"])
        st.names_pending = data.get("names_pending")
        st.log = list(data["log"])
        st.history = list(data["history"])
        st._cow = False
        st._opts = None
        st.record = True
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise bad(f"the saved game is damaged: {e}") from None
    if st.pending is not None:
        try:
            st.options()
        except Exception as e:  # noqa: BLE001 - any failure means the save is unusable
            raise bad(f"the saved game is damaged: its pending decision cannot be read ({e})") from None
    return st
