"""The web table in Chromium: rules at hand, the lone Pass answered by itself under the leak
check, and a layout that fits a phone (375 px) and a desktop (1280 px) with no sideways scroll.

Screenshots of both widths are written to the test's temporary directory (their paths are
printed: `pytest -s` shows them). Skips ONLY when no browser can be had, and says so loudly.
"""

from __future__ import annotations

import json
import random
import time
import warnings

import pytest
from test_web_leaks import CanaryText, Watch
from webkit import OVERFLOW, chrome, have_browser, make_room, served, version, wait_for


@pytest.fixture(scope="module")
def browser():
    if not have_browser():
        warnings.warn("\nCHROMIUM OR CHROMEDRIVER IS MISSING: the web table was NOT tested in a browser.")
        pytest.skip("no chromium/chromedriver here (see the warning above)")
    with chrome(1280, 900) as drv:
        yield drv


def _open(drv, base, room, seat=0, lang="en"):
    drv.get(f"{base}/seat/{room.player_token(seat)}?lang={lang}")
    wait_for(drv, lambda d: version(d) == room.version, what="the seat's view")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_card_location_and_counter_shows_its_rules_text_on_request(browser, lang):
    room = make_room("shadows_over_camelot", ["human", "random", "random", "random", "random"], seed=3, lang=lang)
    rules = room.payload(room.player_token(0), lang)["rules"]
    with served(room) as base:
        _open(browser, base, room, 0, lang)
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('[data-rule]')).map(e => [e.dataset.rule, e.title]);")
        keys = {k for k, _ in shown}
        # every card, location and counter on the page can explain itself, in the seat's language
        assert {k for k in rules if not k.startswith("action:")} <= keys
        for k, title in shown:
            if k in rules and rules[k]["text"]:
                assert rules[k]["text"] in title, (k, title)
        card = browser.find_element("css selector", "#private [data-zone=hand] img.face")
        cid = card.get_attribute("data-card")
        card.click()
        wait_for(browser, lambda d: d.find_element("id", "zoom").is_displayed(), what="the card's rules")
        text = browser.find_element("css selector", "#zoom .rule-text").text
        assert text and text == rules["card:" + cid]["text"].strip()
        browser.find_element("css selector", "#zoom").click()
        loc = browser.find_element("css selector", "#board h4[data-rule^='location:']")
        loc.click()
        key = loc.get_attribute("data-rule")
        wait_for(browser, lambda d: d.find_element("css selector", "#zoom .rule").get_attribute("data-rule") == key,
                 what="the location's rules")
        assert browser.find_element("css selector", "#zoom .rule-text").text == rules[key]["text"]
        assert rules[key]["text"] != room.text("en").msg(key.replace(":", "-") + "-text") or lang == "en"


def test_a_whole_castle_game_asks_no_lone_pass_under_the_leak_check(browser):
    room = make_room("castle_of_the_devil", ["human", "random", "random", "random"], seed=11)
    room._texts["en"] = CanaryText(room.game.program, "en")
    watch = Watch(room, 0)
    rnd, clicks, leaks = random.Random(4), 0, set()
    deadline = time.monotonic() + 240
    with served(room) as base:
        _open(browser, base, room)
        while not room.state.is_over() and time.monotonic() < deadline:
            options = [b.get_attribute("data-option") for b in browser.find_elements("css selector", "button.option")]
            assert options and options != ["pass"], "a lone Pass reached the page"
            watch.learn()
            leaks |= watch.leaks(browser.execute_script("return document.body.innerText;"))
            leaks |= watch.leaks(json.dumps(room.payload(room.player_token(0)), ensure_ascii=False))
            before = room.version
            browser.find_element("css selector", f"button.option[data-option='{rnd.choice(options)}']").click()
            wait_for(browser, lambda d: version(d) > before and version(d) == room.version, what="the next view")
            clicks += 1
    assert room.state.is_over(), f"the game did not end in {clicks} clicks"
    assert leaks == set()
    mine = [d for d, p in zip(room.state.history, _deciders(room)) if p == 0]
    assert mine.count("pass") > 0 and len(mine) > clicks  # seat 1 passed by itself, never by a click
    print(f"Castle, seat 1: {clicks} clicks, {len(mine)} decisions ({len(mine) - clicks} lone Passes by itself)")


def _deciders(room) -> list[int]:
    """Who took each decision of the room's game (replayed from its decisions)."""
    st, out = room.game.new_game(seed=room.seed, players=room.state.n), []
    for d in room.state.history:
        out.append(st.current_player())
        st = st.apply(d)
    return out


@pytest.mark.parametrize("width", [375, 1280])
def test_the_table_fits_a_phone_and_a_desktop(browser, width, tmp_path_factory):
    out = tmp_path_factory.mktemp("screens")
    room = make_room("shadows_over_camelot", ["human", "random", "random", "random", "random"], seed=5)
    rnd = random.Random(1)
    for _ in range(12):  # some cards on the quests and in the history
        room.choose(room.player_token(0), rnd.choice(room.state.options()).id, room.version)
    try:
        browser.set_window_size(width, 900)
        with served(room) as base:
            _open(browser, base, room)
            wait_for(browser, lambda d: d.execute_script("return window.innerWidth") <= width, what="the width")
            got = browser.execute_script(OVERFLOW)
            shot = out / f"table-camelot-{width}.png"
            browser.save_screenshot(str(shot))
            print(f"screenshot: {shot}")
            assert got["scroll"] <= got["client"] and not got["wide"], got
            if width < 700:  # one column: the players come under the board
                top = browser.execute_script(
                    "return [document.querySelector('.col.main').getBoundingClientRect().bottom,"
                    "document.querySelector('.col.side').getBoundingClientRect().top];")
                assert top[1] >= top[0] - 1
            # the seat decides: the tab's title says so
            if room.state.current_player() == 0:
                assert browser.title.startswith("● Your turn — ")
            castle = make_room("castle_of_the_devil", ["human", "random", "random", "random"], seed=2)
            with served(castle) as b2:
                _open(browser, b2, castle)
                got = browser.execute_script(OVERFLOW)
                shot = out / f"table-castle-{width}.png"
                browser.save_screenshot(str(shot))
                print(f"screenshot: {shot}")
                assert got["scroll"] <= got["client"] and not got["wide"], got
    finally:
        browser.set_window_size(1280, 900)


def test_chat_at_the_table(browser):
    from websockets.sync.client import connect
    room = make_room("high_tide", ["human", "human"], seed=3)
    with served(room) as base:
        _open(browser, base, room, 0)
        ws = base.replace("http://", "ws://")
        with connect(f"{ws}/ws/{room.player_token(1)}") as other, connect(f"{ws}/ws/{room.spectator_token}") as spec:
            other.recv(timeout=10)
            spec.recv(timeout=10)
            box = browser.find_element("id", "chat-text")
            box.send_keys("Who has the pearl?")
            browser.find_element("id", "chat-send").click()
            heard = json.loads(other.recv(timeout=10))
            assert heard["chat"][-1]["text"] == "Who has the pearl?" and heard["chat"][-1]["seat"] == 0
            assert json.loads(spec.recv(timeout=10))["chat"] == heard["chat"]
            other.send(json.dumps({"type": "chat", "text": "Not me."}))
            wait_for(browser, lambda d: "Not me." in d.find_element("id", "chat-lines").text, what="the answer")
            before = room.version
            for sock, msg in ((spec, {"type": "chat", "text": "psst"}), (other, {"type": "chat", "text": "x" * 501}),
                              (other, {"type": "chat", "text": "   "}), (other, {"type": "chat", "text": 7})):
                sock.send(json.dumps(msg))
                while True:  # (a push of the line above may come first)
                    got = json.loads(sock.recv(timeout=10))
                    if got["type"] == "refused":
                        break
            assert len(room.chat) == 2 and room.version == before  # the game did not move
            # a line being typed survives the table being redrawn
            box.send_keys("half a")
            room_view = room.payload(room.player_token(0))
            assert room_view["chat"][-1]["text"] == "Not me."
            other.send(json.dumps({"type": "chat", "text": "again"}))
            wait_for(browser, lambda d: "again" in d.find_element("id", "chat-lines").text, what="a redraw")
            assert box.get_attribute("value") == "half a"


def test_a_take_back_the_other_human_refuses_then_accepts(browser):
    from websockets.sync.client import connect
    room = make_room("high_tide", ["human", "human"], seed=4, hold=(0.0, 0.0))
    rnd = random.Random(2)

    def recv_until(sock, cond):
        while True:
            m = json.loads(sock.recv(timeout=10))
            if cond(m):
                return m

    with served(room) as base:
        ws = base.replace("http://", "ws://")
        with connect(f"{ws}/ws/{room.player_token(1)}") as other, connect(f"{ws}/ws/{room.spectator_token}") as spec:
            last = json.loads(other.recv(timeout=10))
            spec.recv(timeout=10)
            _open(browser, base, room, 0)
            mine = 0
            while mine < 3:  # seat 1 clicks in the browser, seat 2 answers over its socket
                if room.state.current_player() == 0:
                    before = room.version
                    wait_for(browser, lambda d: version(d) == before
                             and d.find_elements("css selector", "button.option"), what="seat 1's options")
                    browser.find_elements("css selector", "button.option")[0].click()
                    wait_for(browser, lambda d: version(d) > before, what="the next view")
                    mine += 1
                else:
                    last = recv_until(other, lambda m: m["type"] == "view" and m["version"] == room.version)
                    opt = rnd.choice(last["decision"]["options"])["id"]
                    other.send(json.dumps({"type": "choose", "option": opt, "version": last["version"]}))
                    recv_until(other, lambda m: m["type"] == "view" and m["version"] > last["version"])
            history = list(room.state.history)
            spec.send(json.dumps({"type": "takeback"}))
            assert recv_until(spec, lambda m: m["type"] == "refused")
            browser.find_element("id", "takeback-ask").click()
            asked = recv_until(other, lambda m: m["type"] == "view" and m["takeback"])
            assert asked["takeback"]["seat"] == 0 and room.state.history == history
            other.send(json.dumps({"type": "takeback", "accept": False}))
            recv_until(other, lambda m: m["type"] == "view" and m["takeback"] is None)
            assert room.state.history == history and room.takeback is None
            wait_for(browser, lambda d: d.find_elements("id", "takeback-ask"), what="the refusal")
            browser.find_element("id", "takeback-ask").click()
            recv_until(other, lambda m: m["type"] == "view" and m["takeback"])
            at = room.version
            other.send(json.dumps({"type": "takeback", "accept": True}))
            back = recv_until(other, lambda m: m["type"] == "view" and m["version"] > at)
    # back to seat 1's last decision, replayed from the decisions: seat 1 decides it again
    deciders = [p for p in _deciders_of(room.game, room.seed, history)]
    k = max(i for i, p in enumerate(deciders) if p == 0)
    assert room.state.history == history[:k] and room.state.current_player() == 0
    fresh = room.game.new_game(seed=room.seed, players=2)
    for d in history[:k]:
        fresh = fresh.apply(d)
    assert fresh.to_json() == room.state.to_json()
    assert back["takeback"] is None and back["decision"] is None  # (seat 2 does not decide there)
    wait_for(browser, lambda d: version(d) == room.version and d.find_elements("css selector", "button.option"),
             what="seat 1's decision again")


def _deciders_of(game, seed, history) -> list[int]:
    st, out = game.new_game(seed=seed, players=2), []
    for d in history:
        out.append(st.current_player())
        st = st.apply(d)
    return out


def test_the_lobby_refuses_a_bad_table_and_changes_nothing():
    from starlette.testclient import TestClient

    from interpreter.tabletop.web.lobby import create_lobby
    client = TestClient(create_lobby())
    gs = client.get("/api/games").json()
    assert {g["id"] for g in gs["games"]} >= {"high_tide", "castle_of_the_devil", "shadows_over_camelot"}
    good = {"ruleset": "high_tide", "players": 2, "lang": "en", "seats": ["human", "random"], "variants": []}
    for bad, says in (({**good, "ruleset": "chess"}, "no game"), ({**good, "players": 9}, "players"),
                      ({**good, "seats": ["human"]}, "one seat per player"),
                      ({**good, "seats": ["human", "wizard"]}, "one seat per player"),
                      ({**good, "lang": "ru"}, "has text in"), ({**good, "variants": ["nope"]}, "variants of"),
                      ([1, 2], "JSON object")):
        r = client.post("/api/tables", json=bad)
        assert r.status_code == 400 and says in r.json()["message"], (bad, r.json())
    assert client.get("/api/tables").json() == []
    t = client.post("/api/tables", json=good).json()
    assert [j["seat"] for j in t["join"]] == [1] and client.get("/api/tables").json()[0]["id"] == t["id"]
    seat = t["join"][0]["url"].split("testserver", 1)[1]
    assert client.get(seat).status_code == 200 and 'data-base="/t/1"' in client.get(seat).text
    view = client.get(seat.replace("/seat/", "/api/view/")).json()
    assert view["type"] == "view" and view["decision"]


def test_the_lobby_makes_a_table_of_each_shipped_game(browser):
    from interpreter.tabletop.web.lobby import create_lobby
    port_app = create_lobby()
    import threading

    import uvicorn
    from webkit import free_port
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(port_app, host="127.0.0.1", port=port, log_level="warning"))
    server.install_signal_handlers = lambda: None
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    wait_for(None, lambda _: server.started, what="the lobby server")
    base = f"http://127.0.0.1:{port}"
    try:
        for rid, players in (("high_tide", 2), ("castle_of_the_devil", 4), ("shadows_over_camelot", 3)):
            browser.get(base + "/?lang=ru")
            wait_for(browser, lambda d: d.find_element("tag name", "body").get_attribute("data-ready") == "1",
                     what="the lobby's games")
            browser.execute_script(f"var g = document.getElementById('game'); g.value = '{rid}'; g.onchange();"
                                   f"var p = document.getElementById('players'); p.value = '{players}'; p.oninput();")
            if rid == "shadows_over_camelot":  # a variant and a language chosen in the form
                browser.find_element("css selector", "#variants input[value=first_game]").click()
                browser.execute_script("document.getElementById('lang').value = 'pl';")
            assert len(browser.find_elements("css selector", "#seats select")) == players
            browser.find_element("id", "create").click()
            link = wait_for(browser, lambda d: d.find_element("css selector", "#created a.join"), what="the join link")
            table = port_app.state.tables[-1]
            assert table["ruleset"] == rid and table["room"].state.n == players
            assert table["room"].seats[0] == "human" and all(s != "human" for s in table["room"].seats[1:])
            link.click()
            room = table["room"]
            wait_for(browser, lambda d: version(d) == room.version, what=f"the {rid} table")
            assert browser.find_elements("css selector", "button.option") or room.state.current_player() != 0
            if rid == "shadows_over_camelot":
                assert room.lang == "pl" and "first_game" in table["variants"]
                assert room.game.ruleset.title in browser.title
        browser.get(base + "/")
        wait_for(browser, lambda d: len(d.find_elements("css selector", "#tables li")) == 3, what="the table list")
    finally:
        server.should_exit = True
        th.join(timeout=10)
