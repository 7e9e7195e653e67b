"""Saving and loading game states as JSON, at any decision point (mid-effect included).

Pipeline position: engine. The state is plain data already; this module only names its parts,
stamps the ruleset id and hash (a save made with other rules is refused, with a clear
message), and checks a loaded document before trusting it: every card in exactly one zone,
counters within their bounds, program counters inside their code, a pending decision only in
a game that is not over, players that exist. A snapshot alone cannot prove it is reachable
(a swapped hand is well formed): save files are read by replaying their decisions
(`interpreter/saves.py`), and a snapshot kept in one must equal the replay.
"""

from __future__ import annotations

from array import array

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
        n = _int(data["players"])
        if not rs.min_players <= n <= rs.max_players:
            raise ValueError(f"{rs.id} is for {rs.min_players} to {rs.max_players} players, not {n}")
        table = game.table(n)
        st = table.blank_state()  # (persist sits below the State, which saves through it)
        st.g = table
        st.n = n
        st.zones = [[_int(c) for c in z] for z in _list(data["zones"])]
        if len(st.zones) != table.NZ:
            raise ValueError("zone count does not match the rules")
        ncards = len(table.card_def)
        where = [-1] * ncards
        for z, zz in enumerate(st.zones):
            for c in zz:
                if not 0 <= c < ncards:
                    raise ValueError(f"there is no card {c}")
                if where[c] != -1:
                    raise ValueError(f"card {c} is in two zones")
                where[c] = z
        if -1 in where:
            raise ValueError(f"card {where.index(-1)} is in no zone")
        st.where = array("I", where)  # as State.new keeps it
        try:
            st.seen = array("q", [_int(x) for x in _list(data["seen"])])
        except OverflowError:
            raise ValueError("a 'seen' mask is out of range") from None
        st.ctr = [_int(x) for x in _list(data["counters"])]
        if len(st.ctr) != len(table.ctr_init) or len(st.seen) != ncards:
            raise ValueError("counter or card count does not match the rules")
        defs = table.prog.counter_defs
        for i, v in enumerate(st.ctr):
            cd = defs[table.ctr_label[i][0]]
            if not cd.min <= v <= cd.max:
                raise ValueError(f"counter {cd.name} is {v}, outside {cd.min}..{cd.max}")
        st.at = list(_list(data["at"]))
        nloc = len(table.loc_ids)
        if len(st.at) != n or any(a is not None and not (type(a) is int and 0 <= a < nloc) for a in st.at):
            raise ValueError("a player is at a location that does not exist")
        st.stack = [[str(f[0]), _int(f[1]), dict(f[2]), f[3]] for f in _list(data["stack"])]
        for f in st.stack:
            if f[0] not in table.codes:
                raise ValueError(f"unknown code unit {f[0]!r}")
            if not 0 <= f[1] <= len(table.codes[f[0]].instrs):
                raise ValueError(f"program counter {f[1]} is outside code unit {f[0]!r}")
        st.pending = data["pending"]
        rng = data["rng"]
        if type(rng) is not str or not rng.isdigit() or len(rng) > 20:
            raise ValueError("the random generator's state is not a number")
        st.rng = Rng(int(rng))
        if not 0 <= st.rng.s < 1 << 64:
            raise ValueError("the random generator's state is out of range")
        st.seed = _int(data.get("seed", 0))
        st.current = data["current"]
        if st.current is not None and not (type(st.current) is int and 0 <= st.current < n):
            raise ValueError(f"the current player {st.current!r} does not exist")
        st.turn = _int(data["turn"])
        st.kinds = tuple(_list(data["kinds"]))
        st.over = data["over"]
        if type(st.over) is not bool:
            raise ValueError("'over' is not true or false")
        st.result = data["result"]
        _check_end(st, n)
        st.phase = data["phase"]
        if st.phase not in ("new", "setup", "turns"):
            raise ValueError(f"unknown phase {st.phase!r}")
        st.names_pending = data.get("names_pending")
        st.log = list(_list(data["log"]))
        for e in st.log:
            if not (type(e) is list and len(e) == 5 and type(e[0]) is str and type(e[3]) is int
                    and all(type(x) is list for x in (e[1], e[2], e[4]))):
                raise ValueError("a log entry is malformed")
        st.history = list(_list(data["history"]))
        if not all(type(h) is str for h in st.history):
            raise ValueError("a decision in the history is not an option id")
        st._cow = False
        st._zown = -1
        st._opts = None
        st.record = True
        _check_pending(st, n, ncards)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
        raise bad(f"the saved game is damaged: {e}") from None
    if st.pending is not None:
        try:
            st.options()
        except Exception as e:  # noqa: BLE001 - any failure means the save is unusable
            raise bad(f"the saved game is damaged: its pending decision cannot be read ({e})") from None
    return st


def _int(x) -> int:
    if type(x) is not int:
        raise ValueError(f"{x!r} is not an integer")
    return x


def _list(x) -> list:
    if type(x) is not list:
        raise ValueError(f"{type(x).__name__} found where a list belongs")
    return x


def _check_end(st, n: int) -> None:
    if st.over != (st.result is not None):
        raise ValueError("the game is over without a result, or has a result and goes on")
    if st.result is not None:
        winners = st.result.get("winners") if isinstance(st.result, dict) else None
        if type(winners) is not list or any(type(w) is not int or not 0 <= w < n for w in winners):
            raise ValueError("the result names a player who does not exist")
        if st.pending is not None or st.stack:
            raise ValueError("the game is over, yet a decision or an effect is pending")


def _check_pending(st, n: int, ncards: int) -> None:
    pend = st.pending
    if pend is None:
        return
    if type(pend) is not dict or pend.get("k") not in ("choose", "act"):
        raise ValueError("the pending decision is malformed")
    if type(pend.get("p")) is not int or not 0 <= pend["p"] < n:
        raise ValueError(f"the pending decision is for player {pend.get('p')!r}, who does not exist")
    if not st.stack:
        raise ValueError("a decision is pending outside any effect")
    if pend["k"] == "choose":
        items = pend.get("items")
        if type(items) is not list:
            raise ValueError("the pending choice has no options")
        if pend.get("t") == "card":
            for c in items:
                if type(c) is not int or not 0 <= c < ncards:
                    raise ValueError(f"the pending choice offers card {c!r}, which does not exist")
                if not st.seen[c] >> pend["p"] & 1:
                    raise ValueError(f"the pending choice offers card {c}, which its chooser cannot see")
