"""The web table in a real browser: headless Chromium clicks through whole games.

Debian's chromium and chromedriver (installed by .ci/run) drive the real page over the real
server. At every decision the test reads the board back from the page and compares it with
the seat's `view`: every zone's cards, every counter, every pile's size, the seat's own hand.
The test skips ONLY when no browser can be had, and says so loudly.
"""

from __future__ import annotations

import random
import warnings

import pytest
from webkit import chrome, have_browser, make_room, served, version, wait_for

from interpreter.tabletop import decision_model, table_spec

READ_PAGE = """
function cards(zone) { return Array.from(zone.querySelectorAll('[data-card]')).map(c => c.dataset.card); }
function stats(el) {
  var out = {zones: {}, values: {}};
  el.querySelectorAll('[data-zone]').forEach(z => out.zones[z.dataset.zone] = cards(z));
  el.querySelectorAll('[data-counter], [data-size]').forEach(
    c => out.values[c.dataset.counter || c.dataset.size] = Number(c.dataset.value));
  return out;
}
var board = Array.from(document.querySelectorAll('#board .box')).map(
  b => Object.assign(stats(b), {location: b.dataset.location}));
var players = Array.from(document.querySelectorAll('#players .player')).map(
  p => Object.assign(stats(p), {id: p.dataset.player}));
var priv = document.querySelector('#private');
var options = Array.from(document.querySelectorAll('button.option')).map(b => [b.dataset.option, b.textContent]);
return {board: board, players: players, private: priv ? stats(priv) : null, options: options,
        version: Number(document.body.dataset.version), status: document.getElementById('status').textContent};
"""


@pytest.fixture(scope="module")
def browser():
    if not have_browser():
        msg = ("\n" + "!" * 78 + "\nCHROMIUM OR CHROMEDRIVER IS MISSING: the web table was NOT tested in a browser."
               "\nInstall Debian's `chromium` and `chromium-driver` (.ci/run does this).\n" + "!" * 78)
        warnings.warn(msg)
        pytest.skip("no chromium/chromedriver here (see the warning above)")
    with chrome(1300, 900) as drv:
        yield drv


def _key(prog, zone: str, at: str | None) -> str:
    return zone if prog.zone_defs[zone].per == "none" else f"{zone}@{at}"


def _ckey(prog, ctr: str, at: str | None) -> str:
    return ctr if prog.counter_defs[ctr].per == "none" else f"{ctr}@{at}"


def check_page_shows_the_view(page: dict, room, seat: int) -> None:
    """Every card, counter and pile size on the page is the seat's view's, and nothing is missing."""
    prog = room.game.program
    v = room.state.view(seat)
    spec = table_spec(prog)
    hidden = [None]
    boxes = [(g, loc) for g in spec.board for loc in (g.locations or [None])]
    assert len(page["board"]) == len(boxes)
    for box, part_loc in zip(page["board"], boxes):
        g, loc = part_loc
        assert box["location"] == (loc or "")
        extra = g.extra.get(loc)
        zones = g.zones + (extra.zones if extra else [])
        assert set(box["zones"]) == set(zones)
        for z in zones:
            want = [c or "hidden" for c in v["zones"][_key(prog, z, loc)]]
            assert box["zones"][z] == want, (z, loc)
        for c in g.counters + g.tracks + (extra.counters + extra.tracks if extra else []):
            assert box["values"][c] == v["counters"][_ckey(prog, c, loc)], (c, loc)
        for f in g.flags + (extra.flags if extra else []):
            assert (f in box["values"]) == bool(v["counters"][_ckey(prog, f, loc)]), (f, loc)
        for s in g.sizes + (extra.sizes if extra else []):
            assert box["values"][s] == len(v["zones"][_key(prog, s, loc)])
    assert [p["id"] for p in page["players"]] == v["players"]
    assert (page["private"] is None) == (seat is None)
    for p in page["players"]:
        for z in spec.players.zones:
            assert p["zones"][z] == [c or "hidden" for c in v["zones"][f"{z}@{p['id']}"]]
        for c in spec.players.counters + spec.players.tracks:
            assert p["values"][c] == v["counters"][f"{c}@{p['id']}"]
        for s in spec.players.sizes:
            assert p["values"][s] == len(v["zones"][f"{s}@{p['id']}"])
    for z in spec.private.zones:
        got = page["private"]["zones"][z]
        assert got == [c or "hidden" for c in v["zones"][f"{z}@{v['you']}"]]
        assert hidden[0] not in got
    d = decision_model(room.state, seat, room.text())
    assert page["options"] == ([[o["id"], o["label"]] for o in d["options"]] if d else [])


def _click_through(drv, room, base, seat: int, clicks: int | None, seed: int) -> int:
    """Click random options of `seat` (all of the game when clicks is None); return the clicks."""
    drv.get(f"{base}/seat/{room.player_token(seat)}")
    wait_for(drv, lambda d: version(d) == room.version, what="the first view")
    rnd = random.Random(seed)
    n = 0
    while not room.state.is_over() and (clicks is None or n < clicks):
        page = drv.execute_script(READ_PAGE)
        assert page["version"] == room.version
        check_page_shows_the_view(page, room, seat)
        buttons = drv.find_elements("css selector", "button.option")
        assert buttons, "the seat decides, so its options are buttons"
        before = room.version
        rnd.choice(buttons).click()
        wait_for(drv, lambda d: version(d) > before and version(d) == room.version, what="the next view")
        n += 1
    page = drv.execute_script(READ_PAGE)
    check_page_shows_the_view(page, room, seat)
    return n


def test_a_whole_high_tide_game_by_clicking(browser):
    room = make_room("high_tide", ["human", "random"], seed=7)
    with served(room) as base:
        n = _click_through(browser, room, base, 0, None, 1)
        assert room.state.is_over() and n >= 5
        print(f"High Tide: {n} clicks, {len(room.state.history)} decisions")
        status = browser.find_element("id", "status").text
        assert room.text().msg("table-ui-over") in status
        # the human's clicks are the game's own decisions (the bot's in between)
        assert len(room.state.history) >= n


def test_ten_camelot_decisions_by_clicking_and_a_reload_restores_the_seat(browser):
    room = make_room("shadows_over_camelot", ["human", "random", "random", "random", "random"], seed=3)
    with served(room) as base:
        n = _click_through(browser, room, base, 0, 10, 2)
        assert n == 10
        hand = browser.find_elements("css selector", "#private [data-zone=hand] img.face")
        v = room.state.view(0)
        assert [h.get_attribute("data-card") for h in hand] == v["zones"][f"hand@{v['you']}"]
        assert all(h.get_attribute("src").endswith(f"/cards/en/{h.get_attribute('data-card')}.svg") for h in hand)
        at = room.version
        browser.refresh()
        wait_for(browser, lambda d: version(d) == at, what="the view after a reload")
        check_page_shows_the_view(browser.execute_script(READ_PAGE), room, 0)


def test_the_spectator_and_the_replay_pages(browser):
    room = make_room("shadows_over_camelot", ["human", "random", "random"], seed=4, lang="ru")
    rnd = random.Random(3)
    for _ in range(4):
        room.choose(room.player_token(0), rnd.choice(room.state.options()).id, room.version)
    with served(room) as base:
        browser.get(f"{base}/watch/{room.spectator_token}")
        wait_for(browser, lambda d: version(d) == room.version, what="the spectator's view")
        page = browser.execute_script(READ_PAGE)
        assert page["private"] is None and page["options"] == []
        assert not browser.find_elements("css selector", "#private")
        browser.get(f"{base}/replay/{room.host_token}")
        wait_for(browser, lambda d: d.find_element("id", "step-out").text.endswith(f"/ {len(room.state.history)}"),
                 what="the replay")
        browser.execute_script("var s = document.getElementById('seat'); s.value = '1'; s.onchange();"
                               "var t = document.getElementById('step'); t.value = '0'; t.oninput();")
        wait_for(browser, lambda d: d.find_element("id", "step-out").text.startswith("0 /"), what="step 0")
        start = room.game.new_game(seed=4, players=3)
        v = start.view(1)
        wait_for(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-seat") == v["you"],
                 what="seat 2's replay")
        shown = browser.execute_script(READ_PAGE)["private"]["zones"]["hand"]
        assert shown == v["zones"][f"hand@{v['you']}"]
