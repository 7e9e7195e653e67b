"""Save files: a game written as its rules, variants, seed and decisions, and read back by
replaying them.

Pipeline position: the outermost layer, beside the CLI. A save names the ruleset (its id, its
directory and the hash of the merged rules), the variants, the seed, the player count and the
seat names, and lists every decision taken. Loading replays those decisions from the seed, so
a loaded game is always one the rules can reach: an edit that does not replay (an option the
rules never offered, a changed seed, a hand swapped in the snapshot) is refused. The file also
keeps a snapshot of the final state (`engine/persist.py`), for tools that read a save without
playing it; on load the snapshot must equal the replay, or the save is refused.

Every refusal is one located line (`save.json:14:3: ...`) that never quotes the file: a save
holds every player's hidden cards, and may be megabytes on one line.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from .errors import GrimoireError, Loc, Problem, RulesetError
from .files import write_atomic

FORMAT = "grimoire-save"
VERSION = 1
MAX_SAVE_BYTES = 8 * 1024 * 1024  # a long game's save is well under 1 MB; past this it is refused unread


@dataclass
class LoadedSave:
    """A save read back: the compiled game, the replayed state and the table's seats."""

    game: object
    state: object
    seats: list | None
    lang: str | None
    names: list | None


def save_text(game, st, seats=None, lang=None, names=None) -> str:
    """The text of a save of `st`: one key a line, one decision a line, the snapshot last."""
    variants = []
    for v in game.variants:  # a variant given as a path is found again from any directory
        p = Path(v)
        variants.append(str(p.resolve()) if p.is_file() else str(v))
    head = {"format": FORMAT, "version": VERSION, "ruleset": game.ruleset.id,
            "ruleset_path": str(Path(game.path).resolve()), "ruleset_hash": game.program.rules_hash,
            "variants": variants, "seed": st.seed, "players": st.n}
    if names:
        head["names"] = list(names)
    if seats:  # a save names no code: a plug-in bot's seat is written null (give it again with --seats)
        head["seats"] = [None if ":" in s else s for s in seats]
    if lang:
        head["lang"] = lang
    lines = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    decisions = ",\n".join(f"  {json.dumps(d, ensure_ascii=False)}" for d in st.history)
    lines.append(' "decisions": [' + (f"\n{decisions}\n ]," if decisions else "],"))
    lines.append(f' "state": {json.dumps(st.to_json(), ensure_ascii=False)}')
    return "{\n" + "\n".join(lines) + "\n}\n"


def write_save(path, game, st, seats=None, lang=None, names=None) -> None:
    """Write a save of `st` atomically (the old file stays whole if anything fails)."""
    write_atomic(path, save_text(game, st, seats, lang, names))


class _Refused(Exception):
    def __init__(self, path: tuple, message: str):
        self.path, self.message = path, message


def _refuse(loc: Loc, message: str) -> RulesetError:
    return RulesetError(Problem(loc, message, quote=False))


def read_save(path, load=None) -> LoadedSave:
    """Read a save file and replay it; refuse anything that does not replay, in one located
    line (a RulesetError holding one problem). `load(ruleset, variants)` loads the rules
    (default: `game.load`)."""
    try:
        with open(path, "rb") as f:  # the size first: a huge file is refused before it is read
            size = os.fstat(f.fileno()).st_size
            if size > MAX_SAVE_BYTES:
                raise _refuse(Loc(str(path), 1, 1), f"the save file is {size} bytes, over the limit of "
                                                    f"{MAX_SAVE_BYTES} bytes for a save")
            raw = f.read(MAX_SAVE_BYTES + 1)
    except OSError as e:
        raise _refuse(Loc(str(path), 0, 0), f"cannot read the save file: {e.strerror or e}") from None
    return parse_save(raw, str(path), load)


def parse_save(raw: bytes, file: str, load=None) -> LoadedSave:
    """Check and replay the bytes of a save file named `file` (see `read_save`)."""
    from .frontend.json_source import json_doc
    refuse = _refuse
    if len(raw) > MAX_SAVE_BYTES:
        raise refuse(Loc(file, 1, 1), f"the save file is over the limit of {MAX_SAVE_BYTES} bytes for a save")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        col = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise refuse(Loc(file, line, col), "the save file is not UTF-8 text") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise refuse(Loc(file, e.lineno, e.colno), f"the save file is not valid JSON: {e.msg}") from None
    except RecursionError:
        raise refuse(Loc(file, 1, 1), "the save file is not a Grimoire save (it is nested too deeply)") from None
    doc = json_doc(file, text, data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise refuse(doc.source.value(("format",) if isinstance(data, dict) else ()),
                     "not a Grimoire save file (format is not 'grimoire-save')")
    from .frontend.validate import validate_doc
    problems = validate_doc(doc, "save")
    if problems:
        first = problems[0]
        more = f" (and {len(problems) - 1} more problems)" if len(problems) > 1 else ""
        raise refuse(first.loc, first.message + more)
    try:
        return _replay(data, load)
    except _Refused as r:
        raise refuse(doc.source.value(r.path), r.message) from None


def _load_game(data: dict, load):
    if load is None:
        from .game import load
    where = data.get("ruleset_path")
    src = where if isinstance(where, str) and (Path(where) / "ruleset.yaml").is_file() else data["ruleset"]
    try:
        game = load(src, data.get("variants") or [])
    except RulesetError as e:
        if len(e.problems) == 1 and e.problems[0].loc.line == 0:  # not found: say it here
            p = e.problems[0]
            where = ("variants",) if p.message.startswith("variant") else ("ruleset",)
            raise _Refused(where, f"cannot load the rules of this game: {p.loc.file}: {p.message}") from None
        raise  # the rules themselves are broken: their own located problems
    if game.ruleset.id != data["ruleset"]:
        raise _Refused(("ruleset",), f"this save is a game of {data['ruleset']!r}, but {src} holds "
                                     f"{game.ruleset.id!r}")
    if game.program.rules_hash != data["ruleset_hash"]:
        raise _Refused(("ruleset_hash",), f"this save was made with other rules of {game.ruleset.id!r} "
                                          f"(rules hash {data['ruleset_hash']}, now "
                                          f"{game.program.rules_hash}); it cannot be continued")
    return game


def _short(value, limit: int = 40) -> str:
    """`value` quoted for a message, cut to `limit` characters: a refusal never echoes a file."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...'"


def _replay(data: dict, load) -> LoadedSave:
    for key in ("seed", "players"):  # JSON Schema counts 2.0 as an integer; the engine does not
        if type(data[key]) is not int:
            raise _Refused((key,), f"{key} must be a whole number written without a decimal point")
    game = _load_game(data, load)
    rs = game.ruleset
    n = data["players"]
    if not rs.min_players <= n <= rs.max_players:
        raise _Refused(("players",), f"{rs.id} is for {rs.min_players} to {rs.max_players} players, not {n}")
    names = data.get("names")
    for i, nm in enumerate(names or []):
        if nm is not None and nm not in game.program.card_index:
            raise _Refused(("names", i), f"{nm!r} is not a card of {rs.id!r}")
    seats = data.get("seats")
    if seats is not None and len(seats) != n:
        raise _Refused(("seats",), f"the save names {len(seats)} seats for {n} players")
    from .bots import KINDS
    for i, kind in enumerate(seats or []):
        if kind is not None and kind != "human" and kind not in KINDS:
            raise _Refused(("seats", i), f"seat {i + 1} is {_short(kind)}, which is not human or a built-in "
                                         f"bot ({', '.join(KINDS)}); a save never names code: give a "
                                         f"bot of your own on the command line (--seats)")
    try:
        st = game.new_game(seed=data["seed"], players=n, names=names)
    except GrimoireError as e:
        raise _Refused(("seed",), f"the rules fail while setting up this game: {e}") from None
    decisions = data["decisions"]
    for i, d in enumerate(decisions):
        if st.over:
            raise _Refused(("decisions", i), f"decision {i + 1} of {len(decisions)} comes after the "
                                             f"end of the game; the save was edited or is damaged")
        try:
            exact = any(o.id == d for o in st.options())
            refused = st.apply_in_place(d) if exact else True
        except GrimoireError as e:
            raise _Refused(("decisions", i), f"the rules fail while replaying decision {i + 1} "
                                             f"({d!r}): {e}") from None
        if refused is not None:
            raise _Refused(("decisions", i), f"decision {i + 1} ({d!r}) is not a legal option at that "
                                             f"point of the game; the save was edited or is damaged")
    snap = data.get("state")
    if snap is not None:
        _check_snapshot(st, snap)
    return LoadedSave(game, st, seats, data.get("lang"), names)


def _check_snapshot(st, snap: dict) -> None:
    from .engine.persist import VERSION as STATE_VERSION
    if snap.get("version") != STATE_VERSION:
        return  # written by another version of the engine: the decisions alone are the game
    mine = json.loads(json.dumps(st.to_json()))
    where = None if mine == snap else _first_difference(mine, snap, ())
    if where is not None:
        shown = ".".join(str(p) for p in where) or "state"
        raise _Refused(("state",) + where, f"the saved state does not match the game its decisions "
                                            f"replay (they differ at {shown}); the save was edited "
                                            f"or is damaged")


def _first_difference(a, b, path: tuple):
    """The path of the first place two JSON values differ, or None if they are equal."""
    if type(a) is not type(b):
        return path
    if isinstance(a, dict):
        for k in a:
            if k not in b:
                return path
            d = _first_difference(a[k], b[k], path + (k,))
            if d is not None:
                return d
        return path if len(a) != len(b) else None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = _first_difference(x, y, path + (i,))
            if d is not None:
                return d
        return path if len(a) != len(b) else None
    return None if a == b else path
