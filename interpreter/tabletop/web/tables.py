"""The lobby's tables kept on disk, so that a server stopped and started again resumes them.

Pipeline position: beside the lobby (`web/lobby.py`), over `saves.py`. Every table of the
lobby is two files in the tables folder (`grimoire serve --tables DIR`), both written
atomically (a file is the old or the whole new content, never half) after every change:

    ID.save.json    an ordinary save of the game (`grimoire serve --load ID.save.json` reads it too)
    ID.table.json   what the lobby adds: the ruleset and variants asked for, the seats' links,
                    each seat's lone-Pass setting and the chat

The save is written first: a table file always names a save at least as new as itself. On
start the lobby reads every `*.table.json` back, replays its save (a save that does not
replay is refused and said, the other tables still resume) and serves the table under the
same id with the same links, so a link shared before the restart still opens its seat.
The folder holds every seat's secret link and hidden cards, as the server's memory did.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path

from ...errors import GrimoireError, RulesetError, format_problems
from ...files import write_atomic

TABLE_FORMAT = "grimoire-lobby-table"
_write = threading.Lock()  # (the hub persists from worker threads; a file is written by one at a time)


def table_file(folder: Path, tid: str) -> Path:
    return folder / f"{tid}.table.json"


def keep(folder: Path, t: dict) -> None:
    """Write table `t` of the lobby (its room, id, ruleset, variants) to the folder."""
    room = t["room"]
    with _write:
        room.save(folder / f"{t['id']}.save.json")
        meta = {"format": TABLE_FORMAT, "id": t["id"], "ruleset": t["ruleset"], "variants": t["variants"],
                "save": f"{t['id']}.save.json", "links": room.links(),
                "autopass": {str(i): on for i, on in room.autopass.items()}, "chat": room.chat}
        write_atomic(table_file(folder, t["id"]), json.dumps(meta, ensure_ascii=False, indent=1) + "\n")


def keep_quietly(folder: Path, t: dict) -> None:
    """`keep`, saying on stderr (not to the table) when the folder cannot be written: the game goes on."""
    import sys
    try:
        keep(folder, t)
    except GrimoireError as e:
        print(f"warning: table {t['id']} is not kept: {e}", file=sys.stderr)


def resume(folder: Path) -> tuple[list[dict], list[str]]:
    """The tables kept in the folder, in id order, and one line per table that could not be resumed."""
    from ...saves import read_save
    from .room import Room
    tables, problems = [], []
    files = sorted(folder.glob("*.table.json"), key=lambda f: (len(f.name), f.name)) if folder.is_dir() else []
    for f in files:
        try:
            meta = json.loads(f.read_text(encoding="utf-8"))
            if not isinstance(meta, dict) or meta.get("format") != TABLE_FORMAT:
                raise ValueError("not a table file of the lobby")
            if not str(meta.get("id")).isdigit() or meta.get("save") != f"{meta['id']}.save.json":
                raise ValueError("its id and save file are not those the lobby writes")
            loaded = read_save(folder / meta["save"])
            st = loaded.state
            room = Room(loaded.game, st, [s or "random" for s in loaded.seats or []], st.seed, loaded.lang or "en",
                        folder / meta["save"], tokens=meta["links"],
                        autopass=True)
            for i, on in (meta.get("autopass") or {}).items():
                if int(i) in room.autopass and isinstance(on, bool):
                    room.autopass[int(i)] = on
            room.chat = [c for c in meta.get("chat") or [] if isinstance(c, dict)]
            tables.append({"id": str(meta["id"]), "room": room, "ruleset": meta["ruleset"],
                           "variants": list(meta.get("variants") or []), "resumed": True})
        except RulesetError as e:  # a save that does not replay: its own located line
            problems.append(format_problems(e.problems))
        except GrimoireError as e:
            problems.append(f"{f}: cannot resume this table: {e}")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            problems.append(f"{f}: cannot resume this table: {e}")
    return tables, problems
