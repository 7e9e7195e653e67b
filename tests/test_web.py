"""grimoire serve over HTTP and websockets: refusals that change nothing, reconnects, saves, replays."""

from __future__ import annotations

import argparse
import json
import random
import socket

import pytest
from starlette.testclient import TestClient
from webkit import make_room, served
from websockets.sync.client import connect

from interpreter.cli import build_parser, main
from interpreter.commands.serve import build_room
from interpreter.tabletop.web.app import create_app
from interpreter.tabletop.web.replay import Replay
from interpreter.tabletop.web.room import seat_payload


@pytest.fixture
def room(tmp_path):
    return make_room("high_tide", ["human", "human"], seed=3, save=tmp_path / "ht.save.json")


def _snapshot(room):
    return json.dumps(room.state.to_json(), sort_keys=True), room.version


def test_bad_requests_are_refused_and_change_nothing(room):
    client = TestClient(create_app(room))
    p = room.state.current_player()
    me, other = room.player_token(p), room.player_token(1 - p)
    good = room.state.options()[0].id
    before = _snapshot(room)
    cases = [
        (me, {"option": "play:pearl_that_is_not_there", "version": 0}, 400, "is not one of your options now"),
        (me, {"option": good[:3], "version": 0}, 400, "is not one of your options now"),  # no prefixes here
        (me, {"option": 7, "version": 0}, 400, "is not one of your options now"),
        (me, {"option": good, "version": 5}, 409, "this view is out of date"),
        (me, {"option": good}, 409, "this view is out of date"),
        (other, {"option": good, "version": 0}, 409, "it is not your decision now: the table waits for Player"),
        ("forged-token", {"option": good, "version": 0}, 403, "unknown link"),
        (room.spectator_token, {"option": good, "version": 0}, 409, "a spectator does not decide"),
        (room.host_token, {"option": good, "version": 0}, 409, "a host does not decide"),
    ]
    for token, body, status, msg in cases:
        r = client.post(f"/api/choose/{token}", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["type"] == "refused" and msg in r.json()["message"], r.json()
        assert _snapshot(room) == before
    r = client.post(f"/api/choose/{me}", content=b"{not json")
    assert r.status_code == 400 and "not JSON" in r.json()["message"]
    r = client.post(f"/api/choose/{me}", json=["a", "list"])
    assert r.status_code == 400
    assert _snapshot(room) == before
    r = client.post(f"/api/choose/{me}", json={"option": good, "version": 0})
    assert r.status_code == 200 and r.json()["version"] == 1
    assert room.state.history == [good]


def test_the_websocket_refuses_bad_input_and_pushes_every_decision_to_every_seat(room):
    # (the real server: the test client runs each websocket on its own event loop, and one
    # decision's pushes to every seat would then cross loops)
    p = room.state.current_player()
    with served(room) as base, \
            connect(f"{base.replace('http', 'ws')}/ws/{room.player_token(p)}") as a, \
            connect(f"{base.replace('http', 'ws')}/ws/{room.player_token(1 - p)}") as b, \
            connect(f"{base.replace('http', 'ws')}/ws/{room.spectator_token}") as s:
        for x in (a, b, s):
            x.receive_text = lambda x=x: x.recv(timeout=30)
            x.send_text = x.send
        first = [json.loads(x.receive_text()) for x in (a, b, s)]
        assert [m["version"] for m in first] == [0, 0, 0]
        assert first[0]["decision"] and first[1]["decision"] is None and first[2]["decision"] is None
        assert first[2]["model"]["private"] is None and first[2]["role"] == "spectator"
        before = _snapshot(room)
        for ws, msg in ((a, "not json"), (a, json.dumps({"type": "choose", "option": "nope", "version": 0})),
                        (b, json.dumps({"type": "choose", "option": first[0]["decision"]["options"][0]["id"],
                                        "version": 0})),
                        (s, json.dumps({"type": "choose", "option": "x", "version": 0})),
                        (a, json.dumps({"type": "hello"}))):
            ws.send_text(msg)
            answer = json.loads(ws.receive_text())
            assert answer["type"] == "refused" and answer["message"]
        assert _snapshot(room) == before
        a.send_text(json.dumps({"type": "choose", "option": first[0]["decision"]["options"][0]["id"], "version": 0}))
        after = [json.loads(x.receive_text()) for x in (a, b, s)]
        assert [m["version"] for m in after] == [1, 1, 1]
        assert (after[0]["decision"] is None) != (after[1]["decision"] is None)


def test_a_wrong_token_is_refused_on_every_route(room):
    client = TestClient(create_app(room))
    with client.websocket_connect("/ws/nobody") as ws:
        assert json.loads(ws.receive_text())["type"] == "refused"
    for url in ("/seat/nobody", "/watch/nobody", "/host/nobody", "/replay/nobody", "/api/view/nobody"):
        assert client.get(url).status_code == 403, url
    assert client.post("/api/save/nobody").status_code == 403
    # a player's link opens neither the host's page nor its save or replay
    tok = room.player_token(0)
    assert client.get(f"/host/{tok}").status_code == 403
    assert client.post(f"/api/save/{tok}").status_code == 403
    assert client.get(f"/api/replay/{tok}").status_code == 403


def test_a_reload_restores_the_seat(room):
    client = TestClient(create_app(room))
    tok = room.player_token(room.state.current_player())
    with client.websocket_connect(f"/ws/{tok}") as ws:
        m = json.loads(ws.receive_text())
        ws.send_text(json.dumps({"type": "choose", "option": m["decision"]["options"][0]["id"], "version": 0}))
        last = json.loads(ws.receive_text())
    page = client.get(f"/seat/{tok}")
    assert page.status_code == 200 and tok in page.text
    with client.websocket_connect(f"/ws/{tok}") as ws:
        again = json.loads(ws.receive_text())
    assert again == last == client.get(f"/api/view/{tok}").json()


def test_save_then_resume_with_serve_and_with_play(room, tmp_path):
    client = TestClient(create_app(room))
    rnd = random.Random(1)
    for _ in range(6):
        p = room.state.current_player()
        room.choose(room.player_token(p), rnd.choice(room.state.options()).id, room.version)
    r = client.post(f"/api/save/{room.host_token}")
    assert r.status_code == 200 and r.json()["type"] == "saved"
    path = r.json()["file"]
    args = build_parser().parse_args(["serve", "--load", path])
    again = build_room(args)
    assert again.state.to_json() == room.state.to_json() and again.seats == ["human", "human"]
    assert main(["play", "--load", path, "--seats", "random", "--quiet"]) == 0


def test_the_replay_steps_through_the_decisions_as_a_chosen_seat_saw_them(room):
    client = TestClient(create_app(room))
    rnd = random.Random(2)
    states = [room.state]
    for _ in range(8):
        p = room.state.current_player()
        room.choose(room.player_token(p), rnd.choice(room.state.options()).id, room.version)
        states.append(room.state)
    host = room.host_token
    text = room.text()
    for step in (0, 3, 8):
        for seat in (0, 1):
            got = client.get(f"/api/replay/{host}?seat={seat}&step={step}").json()
            want = seat_payload(room.game.program, states[step], seat, text, step)["model"]
            assert got["model"] == want and got["steps"] == 8 and got["decision"] is None
            if step:  # what was decided is shown to the seat that decided it, to the others only who
                decider = states[step - 1].current_player()
                assert (":" in got["decided"]) == (seat == decider), got["decided"]
        spectator = client.get(f"/api/replay/{host}?seat=spectator&step={step}").json()
        assert spectator["model"]["private"] is None
    assert client.get(f"/api/replay/{host}").json()["step"] == 8
    for q in ("step=9", "step=-1", "seat=5", "step=x"):
        r = client.get(f"/api/replay/{host}?{q}")
        assert r.status_code == 400 and r.json()["type"] == "refused", q
    assert client.get(f"/replay/{host}").status_code == 200


def test_a_replay_that_does_not_end_where_the_save_does_is_refused(room):
    from interpreter.tabletop.web.room import Refused
    room.choose(room.player_token(room.state.current_player()), room.state.options()[0].id, 0)
    other = room.game.new_game(seed=99, players=2)
    with pytest.raises(Refused, match="does not end where the save does"):
        Replay(room.game, 3, 2, list(room.state.history), other)


def test_card_faces_are_drawn_by_the_card_renderer_in_the_seat_language():
    room = make_room("shadows_over_camelot", ["human", "random", "random"])
    client = TestClient(create_app(room))
    ru = client.get("/cards/ru/merlin.svg")
    assert ru.status_code == 200 and ru.headers["content-type"].startswith("image/svg+xml")
    assert room.text("ru").msg("card-merlin") in ru.text
    assert room.text("en").msg("card-merlin") in client.get("/cards/en/merlin.svg").text
    assert client.get("/cards/en/hidden.svg").status_code == 200
    assert client.get("/cards/en/no_such_card.svg").status_code == 404
    assert client.get("/cards/xx/merlin.svg").status_code == 404
    # the seat page and its view come in the language asked for
    tok = room.player_token(0)
    assert client.get(f"/api/view/{tok}?lang=pl").json()["model"]["lang"] == "pl"


def test_the_host_page_lists_every_human_seat_and_the_spectator():
    room = make_room("high_tide", ["human", "random", "human"])
    page = TestClient(create_app(room)).get(f"/host/{room.host_token}").text
    assert f"/seat/{room.player_token(0)}" in page and f"/seat/{room.player_token(2)}" in page
    assert f"/watch/{room.spectator_token}" in page and "random" in page


def test_bots_play_their_seats_until_a_human_decides():
    room = make_room("high_tide", ["random", "human", "random"], seed=5)
    assert room.state.current_player() == 1 or room.state.is_over()
    while not room.state.is_over():
        assert room.state.current_player() == 1
        room.choose(room.player_token(1), room.state.options()[0].id, room.version)
    assert room.state.result is not None


def test_serve_binds_to_this_machine_by_default_and_refuses_unknown_seat_kinds(capsys):
    args = build_parser().parse_args(["serve", "high_tide"])
    assert args.host == "127.0.0.1"
    assert main(["serve", "high_tide", "--seats", "human,wizard"]) == 2
    assert "unknown seat kind 'wizard'" in capsys.readouterr().err
    assert main(["serve", "high_tide", "--seats", "human,random,random,random,random"]) == 1
    assert main(["serve", "high_tide", "--lang", "ru"]) == 2 and "high_tide has no ru text" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        assert main(["serve", "high_tide", "--port", str(busy.getsockname()[1])]) == 1
        assert "cannot listen on 127.0.0.1:" in capsys.readouterr().err
        assert main(["serve", "--port", str(busy.getsockname()[1])]) == 1  # (the lobby, without a RULESET)
        assert "cannot listen on 127.0.0.1:" in capsys.readouterr().err
    with pytest.raises(ValueError, match="names 3 seats but the game has 2"):
        build_room(argparse.Namespace(load=None, ruleset="high_tide", variant=[], seed=1, players=2,
                                      seats="human,random,random", lang=None, save=None))


def test_stopping_the_server_saves_the_game(tmp_path):
    """`grimoire serve` in its own process: a decision over HTTP, then SIGTERM (as a service
    manager stops it; a parent that ignores SIGINT cannot pass Ctrl-C on): the game is saved."""
    import os
    import signal
    import subprocess
    import sys
    import urllib.request

    from webkit import free_port
    port, save = free_port(), tmp_path / "ht.save.json"
    proc = subprocess.Popen([sys.executable, "-m", "interpreter.cli", "serve", "high_tide", "--port", str(port),
                             "--save", str(save), "--seed", "4"], stdout=subprocess.PIPE, text=True,
                            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        lines = [proc.stdout.readline() for _ in range(4)]
        token = lines[1].strip().rsplit("/", 1)[1]
        url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                with urllib.request.urlopen(f"{url}/api/view/{token}", timeout=5) as r:
                    view = json.loads(r.read())
                break
            except OSError:
                import time
                time.sleep(0.05)
        req = urllib.request.Request(f"{url}/api/choose/{token}", method="POST", data=json.dumps(
            {"option": view["decision"]["options"][0]["id"], "version": view["version"]}).encode())
        with urllib.request.urlopen(req, timeout=10) as r:
            assert json.loads(r.read())["version"] >= 1
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "game saved to" in out
    data = json.loads(save.read_text())
    assert data["format"] == "grimoire-save" and len(data["decisions"]) >= 1
