"""The lobby's tables survive a restart: kept in the tables folder after every change, resumed
with the same links, the same decisions and the same chat when a new lobby starts on the folder."""

from __future__ import annotations

import json

from starlette.testclient import TestClient

from interpreter.tabletop.web.lobby import create_lobby


def _path(url: str) -> str:
    return url.split("testserver", 1)[1]


def test_a_lobby_table_resumes_after_a_restart_with_its_links_and_decisions(tmp_path):
    folder = tmp_path / "tables"
    first = create_lobby("en", folder)
    body = {"ruleset": "high_tide", "players": 2, "lang": "en", "seats": ["human", "random"], "variants": [],
            "seed": 7}
    with TestClient(first) as client:
        t = client.post("/api/tables", json=body).json()
        t2 = client.post("/api/tables", json={**body, "ruleset": "castle_of_the_devil", "players": 4,
                                              "seats": ["human", "human", "policy", "policy"]}).json()
        assert sorted(p.name for p in folder.iterdir()) == ["1.save.json", "1.table.json",
                                                            "2.save.json", "2.table.json"]
        seat = _path(t["join"][0]["url"])
        for _ in range(3):  # three decisions of the human seat (bots answer in between)
            view = client.get(seat.replace("/seat/", "/api/view/")).json()
            if view["decision"] is None:
                break
            r = client.post(seat.replace("/seat/", "/api/choose/"),
                            json={"option": view["decision"]["options"][0]["id"], "version": view["version"]})
            assert r.status_code == 200, r.json()
        with client.websocket_connect(seat.replace("/seat/", "/ws/")) as ws:
            ws.receive_json()
            ws.send_json({"type": "chat", "text": "back in five"})
            ws.receive_json()
            ws.send_json({"type": "autopass", "on": False})
            ws.receive_json()
        before = first.state.tables[0]["room"]
        history, version_seen = list(before.state.history), before.version
        assert history and version_seen > 0
    kept = json.loads((folder / "1.table.json").read_text(encoding="utf-8"))
    assert kept["chat"][-1]["text"] == "back in five" and kept["autopass"] == {"0": False}

    second = create_lobby("en", folder)  # the server started again on the same folder
    assert second.state.problems == []
    with TestClient(second) as client:
        listed = client.get("/api/tables").json()
        assert [x["id"] for x in listed] == ["1", "2"] and all(x["resumed"] for x in listed)
        assert listed[0]["join"] == t["join"] and listed[0]["watch"] == t["watch"] and listed[0]["host"] == t["host"]
        assert listed[1]["join"] == t2["join"]
        room = second.state.tables[0]["room"]
        assert room.state.history[:len(history)] == history  # the same game, replayed from its decisions
        assert room.autopass == {0: False} and room.chat[-1]["text"] == "back in five"
        view = client.get(seat.replace("/seat/", "/api/view/")).json()  # the old link opens its seat
        assert view["type"] == "view" and view["seat"] == 0
        t3 = client.post("/api/tables", json=body).json()  # a new table takes the next id
        assert t3["id"] == "3" and (folder / "3.table.json").is_file()


def test_a_kept_table_that_does_not_replay_is_said_and_the_others_resume(tmp_path):
    folder = tmp_path / "tables"
    body = {"ruleset": "high_tide", "players": 2, "lang": "en", "seats": ["human", "random"], "variants": []}
    with TestClient(create_lobby("en", folder)) as client:
        client.post("/api/tables", json=body)
        client.post("/api/tables", json=body)
    save = folder / "1.save.json"
    save.write_text(save.read_text(encoding="utf-8").replace('"seed": 1', '"seed": 2'), encoding="utf-8")
    (folder / "9.table.json").write_text("{not json", encoding="utf-8")
    lobby = create_lobby("en", folder)
    assert [t["id"] for t in lobby.state.tables] == ["2"]
    assert len(lobby.state.problems) == 2
    assert any("1.save.json" in p for p in lobby.state.problems)
    assert any("9.table.json" in p for p in lobby.state.problems)
    assert all("Traceback" not in p for p in lobby.state.problems)


def test_in_chromium_the_lobby_lists_a_resumed_table_and_its_link_opens_the_seat(tmp_path):
    import threading

    import pytest
    import uvicorn
    from webkit import chrome, free_port, have_browser, version, wait_for
    if not have_browser():
        pytest.skip("needs Debian's chromium and chromedriver")
    folder = tmp_path / "tables"
    body = {"ruleset": "high_tide", "players": 2, "lang": "en", "seats": ["human", "random"], "variants": []}
    with TestClient(create_lobby("en", folder)) as client:
        client.post("/api/tables", json=body)
    lobby = create_lobby("en", folder)
    room = lobby.state.tables[0]["room"]
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(lobby, host="127.0.0.1", port=port, log_level="warning"))
    server.install_signal_handlers = lambda: None
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    wait_for(None, lambda _: server.started, timeout=30, what="the lobby server")
    try:
        with chrome(1280, 900) as browser:
            browser.get(f"http://127.0.0.1:{port}/")
            row = wait_for(browser, lambda d: d.find_element("css selector", "#tables li[data-resumed='1']"),
                           timeout=60, what="the resumed table in the list")
            assert "Resumed" in row.text
            row.find_element("css selector", "a.join").click()
            wait_for(browser, lambda d: version(d) == room.version, timeout=30, what="the resumed seat's table")
            assert browser.find_elements("css selector", "button.option")
    finally:
        server.should_exit = True
        th.join(timeout=10)
