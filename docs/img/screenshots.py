"""Make the screenshots of docs/playtesting.md: the web table and the terminal, per ruleset and language.

Run from the repository root: python docs/img/screenshots.py

Each game is played at random from a fixed seed to a fixed decision, so the pictures are the
same on every run. The web pages are shot by headless Chromium (as the browser tests drive
it); the terminal screens are drawn by rich at 100x40, exported as SVG and shot the same way.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from rich.console import Console  # noqa: E402
from webkit import chrome, make_room, served, version, wait_for  # noqa: E402

from interpreter.tabletop.terminal import HEIGHT, WIDTH, fit_events, render, seat_screen  # noqa: E402

OUT = Path(__file__).resolve().parent
SHOTS = [  # ruleset, players, seed, decisions, language, file stem
    ("shadows_over_camelot", 5, 4, 45, "en", "camelot-en"),
    ("shadows_over_camelot", 5, 4, 45, "ru", "camelot-ru"),
    ("castle_of_the_devil", 5, 2, 40, "en", "castle-en"),
    ("castle_of_the_devil", 5, 2, 40, "pl", "castle-pl"),
]


def advance(room, decisions: int, seed: int) -> None:
    rnd = random.Random(seed)
    for _ in range(decisions):
        if room.state.is_over():
            return
        p = room.state.current_player()
        room.choose(room.player_token(p), rnd.choice(room.state.options()).id, room.version)


def terminal_svg(room, seat: int, path: Path) -> None:
    model, decision = seat_screen(room.state, seat, room.text())
    con = Console(record=True, width=WIDTH, height=HEIGHT, file=open("/dev/null", "w"), force_terminal=True,
                  color_system="truecolor")
    con.print(render(model, decision, fit_events(model, decision)))
    path.write_text(con.export_svg(title=f"grimoire play {room.game.ruleset.id} --lang {room.lang}"))


def main() -> int:
    with chrome(1400, 1000) as drv:
        for rs, n, seed, k, lang, stem in SHOTS:
            room = make_room(rs, ["human"] * n, seed=seed, lang=lang)
            advance(room, k, seed)
            seat = room.state.current_player()
            with served(room) as base:
                drv.set_window_size(1400, 1000)
                drv.get(f"{base}/seat/{room.player_token(seat)}")
                wait_for(drv, lambda d: version(d) == room.version, what="the table")
                time.sleep(0.5)  # the card faces
                drv.save_screenshot(str(OUT / f"web-{stem}.png"))
                if stem == "camelot-en":
                    drv.get(f"{base}/replay/{room.host_token}")
                    wait_for(drv, lambda d: d.find_element("id", "step-out").text, what="the replay")
                    drv.execute_script("var s = document.getElementById('step'); s.value = '30'; s.oninput();")
                    time.sleep(0.8)
                    drv.save_screenshot(str(OUT / "web-replay.png"))
            with tempfile.TemporaryDirectory() as tmp:
                svg = Path(tmp) / "screen.svg"
                terminal_svg(room, seat, svg)
                drv.set_window_size(1000, 940)
                drv.get(svg.as_uri())
                time.sleep(0.3)
                drv.save_screenshot(str(OUT / f"terminal-{stem}.png"))
            print("wrote", stem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
