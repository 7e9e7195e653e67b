"""Shoot the lobby and a table of both games at a phone's width (375 px) and a desktop's (1280 px),
and check that nothing is wider than the screen (no sideways scroll).

Run from the repository root: python docs/img/screens_widths.py

Writes web-lobby-{375,1280}.png, web-table-camelot-{375,1280}.png and
web-table-castle-{375,1280}.png here; prints, per shot, the page's width and scroll width and
the elements that stick out, and exits 1 if any does. Games are played at random from fixed
seeds to fixed decisions (two human seats, so a setup question shows what the other waits on).
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import uvicorn  # noqa: E402
from screenshots import advance  # noqa: E402
from webkit import OVERFLOW, chrome, free_port, make_room, served, version, wait_for  # noqa: E402

from interpreter.tabletop.web.lobby import create_lobby  # noqa: E402

OUT = Path(__file__).resolve().parent
WIDTHS = {375: 1400, 1280: 1000}  # width -> window height
# stem, ruleset, players, seed, decisions (None: to the first question with a plan, its dialog open)
TABLES = [("camelot", "shadows_over_camelot", 5, 3, None), ("castle", "castle_of_the_devil", 4, 2, 30)]


def shoot(drv, name: str, width: int) -> bool:
    got = drv.execute_script(OVERFLOW)
    ok = got["scroll"] <= got["client"] and not got["wide"]
    drv.save_screenshot(str(OUT / f"{name}-{width}.png"))
    print(f"{name}-{width}.png: width {got['client']}, scroll width {got['scroll']}, "
          f"{'no overflow' if ok else 'OVERFLOW ' + ', '.join(got['wide'])}")
    return ok


def main() -> int:
    ok = True
    lobby = create_lobby("en")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(lobby, host="127.0.0.1", port=port, log_level="warning"))
    server.install_signal_handlers = lambda: None
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    with chrome(1280, 1000) as drv:
        try:
            for width, height in WIDTHS.items():
                drv.set_window_size(width, height)
                drv.get(f"http://127.0.0.1:{port}/")
                wait_for(drv, lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "1",
                         timeout=90, what="the lobby")
                if not lobby.state.tables:
                    drv.execute_script("var g = document.getElementById('game'); g.value = 'shadows_over_camelot';"
                                       "g.onchange(); var p = document.getElementById('players'); p.value = '5';"
                                       "p.oninput();")
                    drv.find_element("id", "create").click()
                    wait_for(drv, lambda d: d.find_elements("css selector", "#tables li"), timeout=60,
                             what="the table list")
                time.sleep(0.3)
                ok = shoot(drv, "web-lobby", width) and ok
        finally:
            server.should_exit = True
        for stem, rs, n, seed, k in TABLES:
            room = make_room(rs, ["human", "human"] + ["policy"] * (n - 2), seed=seed, hold=(0.0, 0.0))
            while k is None and "plan" not in (room.payload(room.player_token(room.state.current_player()))
                                               ["decision"] or {}):
                advance(room, 1, seed + len(room.state.history))
            advance(room, k or 0, seed)
            seat = room.state.current_player()
            with served(room) as base:
                for width, height in WIDTHS.items():
                    drv.set_window_size(width, height)
                    drv.get(f"{base}/seat/{room.player_token(seat)}")
                    wait_for(drv, lambda d: version(d) == room.version, what="the table")
                    if k is None:
                        drv.find_element("css selector", "#plan summary").click()
                    time.sleep(0.6)  # the card faces
                    ok = shoot(drv, f"web-table-{stem}", width) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
