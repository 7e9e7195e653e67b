"""A human seat answers a lone Pass by itself, and nobody else can tell.

The window that asks everyone still asks the seat (that is what keeps hands secret); the
seat's client answers the one option it has. Over the real server (uvicorn, websockets), the
other human seat receives exactly the same messages, in the same order, whether the seat
passed by itself or clicked Pass; the answer is held for the room's hold, so it does not
come back at once; and in the terminal a whole game asks the human only real questions.
"""

from __future__ import annotations

import io
import json
import random
import time

import pytest
from webkit import make_room, served
from websockets.sync.client import connect

from interpreter.cli import main

HOLD = (0.02, 0.06)


def _pick(rnd, msg) -> str:
    """A scripted seat's choice: a lone option (Pass or another) without touching its random numbers."""
    opts = [o["id"] for o in msg["decision"]["options"]]
    return opts[0] if len(opts) == 1 else rnd.choice(opts)


def _play(autopass_a: bool, seed: int, limit: int = 120, ruleset: str = "castle_of_the_devil",
          kind: str = "autopass"):
    """2 scripted humans (A, B) and bots; A answers by itself (its lone Pass, or with kind
    "autoone" its only option) or clicks it. Return every message B received and the decisions."""
    n = 4 if ruleset == "castle_of_the_devil" else 5
    room = make_room(ruleset, ["human", "human"] + ["random"] * (n - 2), seed=seed, hold=HOLD)
    room.autopass[0] = autopass_a if kind == "autopass" else False
    room.autoone[0] = autopass_a if kind == "autoone" else False
    room.autoone[1] = room.autopass[1] = False
    got_b: list[dict] = []
    rnd = [random.Random(seed), random.Random(seed + 1)]
    clicks = 0
    with served(room) as base:
        ws = base.replace("http://", "ws://")
        with connect(f"{ws}/ws/{room.player_token(0)}") as a, connect(f"{ws}/ws/{room.player_token(1)}") as b:
            socks, last = [a, b], [None, None]
            sent = set()
            deadline = time.monotonic() + 120
            while clicks < limit and time.monotonic() < deadline:
                for i, s in enumerate(socks):
                    try:
                        raw = s.recv(timeout=0.01)
                    except TimeoutError:
                        continue
                    m = json.loads(raw)
                    assert m["type"] == "view", m
                    last[i] = m
                    if i == 1:
                        got_b.append(m)
                if any(m and m["model"]["over"] for m in last):
                    break
                for i, m in enumerate(last):
                    if not m or not m["decision"] or (i, m["version"]) in sent:
                        continue
                    if m["decision"].get("auto"):
                        continue  # the client leaves it to the server
                    sent.add((i, m["version"]))
                    socks[i].send(json.dumps({"type": "choose", "option": _pick(rnd[i], m), "version": m["version"]}))
                    clicks += 1
            # the last pushes of the last click
            time.sleep(0.3)
            while True:
                try:
                    got_b.append(json.loads(b.recv(timeout=0.2)))
                except TimeoutError:
                    break
    return got_b, list(room.state.history)


@pytest.mark.parametrize("seed,ruleset,kind", [(5, "castle_of_the_devil", "autopass"),
                                               (6, "shadows_over_camelot", "autoone")])
def test_the_other_seat_receives_the_same_messages_whether_a_seat_passed_by_itself_or_clicked(seed, ruleset, kind):
    auto_b, auto_history = _play(True, seed, ruleset=ruleset, kind=kind)
    click_b, click_history = _play(False, seed, ruleset=ruleset, kind=kind)
    n = min(len(auto_history), len(click_history))
    assert n > 60 and auto_history[:n] == click_history[:n]
    if kind == "autopass":
        assert auto_history[:n].count("pass") > 5  # lone Passes were part of it
    else:  # seat A's only options (not Pass) were part of it
        assert _only_options_of(ruleset, seed, auto_history[:n], 0) >= 2
    k = min(len(auto_b), len(click_b))
    assert k > 30
    assert auto_b[:k] == click_b[:k]  # message for message, the same pushes to seat B


def _only_options_of(ruleset: str, seed: int, history: list, seat: int) -> int:
    """How many of the decisions were seat's only option (not a Pass)."""
    from interpreter.game import load
    from interpreter.tabletop.auto import only_option
    game = load(ruleset)
    st = game.new_game(seed=seed, players=4 if ruleset == "castle_of_the_devil" else 5)
    k = 0
    for d in history:
        k += only_option(st, seat) is not None
        st = st.apply(d)
    return k


def test_a_lone_pass_is_held_then_answered_and_the_page_says_so():
    hold = (0.3, 0.3)
    room = make_room("castle_of_the_devil", ["human"] * 4, seed=3, hold=hold)
    rnd = random.Random(3)
    while room.auto_pending() is None:  # clicks until some seat's only option is Pass
        p = room.state.current_player()
        room.choose(room.player_token(p), rnd.choice(room.state.options()).id, room.version)
    q = room.state.current_player()
    w = (q + 1) % 4
    at = len(room.state.history)
    mine, other = room.payload(room.player_token(q)), room.payload(room.player_token(w))
    assert mine["decision"]["auto"] is True and [o["id"] for o in mine["decision"]["options"]] == ["pass"]
    assert other["decision"] is None and other["model"]["waiting_for"] == mine["model"]["you"]
    with served(room) as base, connect(f"{base.replace('http', 'ws')}/ws/{room.player_token(w)}") as b:
        first = json.loads(b.recv(timeout=10))
        t0 = time.monotonic()
        nxt = json.loads(b.recv(timeout=10))
        waited = time.monotonic() - t0
    assert first == other and nxt["version"] == first["version"] + 1
    assert waited >= hold[0] * 0.9, f"the lone Pass came back after {waited:.3f} s, not held"
    assert room.state.history[at] == "pass"


def test_a_seat_can_turn_it_off_and_a_spectator_cannot_set_it():
    room = make_room("castle_of_the_devil", ["human", "human", "random", "random"], seed=2, hold=HOLD)
    with served(room) as base:
        ws = base.replace("http://", "ws://")
        with connect(f"{ws}/ws/{room.player_token(0)}") as a, connect(f"{ws}/ws/{room.spectator_token}") as s:
            assert json.loads(a.recv(timeout=10))["autopass"] is True
            a.send(json.dumps({"type": "autopass", "on": False}))
            assert json.loads(a.recv(timeout=10))["autopass"] is False and room.autopass[0] is False
            a.send(json.dumps({"type": "autopass", "on": "yes"}))
            assert json.loads(a.recv(timeout=10))["type"] == "refused"
            first = json.loads(s.recv(timeout=10))
            assert "autopass" not in first
            s.send(json.dumps({"type": "autopass", "on": False}))
            assert json.loads(s.recv(timeout=10))["type"] == "refused"


def _terminal_prompts(monkeypatch, capsys, *extra) -> tuple[int, int]:
    """A whole 4-player Castle game at the terminal, seat 1 human answering 1 every time."""
    asked = []
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    import interpreter.commands.play as play
    real = play._ask_human

    def counting(st, p, text):
        asked.append([o.id for o in st.options()])
        return real(st, p, text)
    monkeypatch.setattr(play, "_ask_human", counting)
    assert main(["play", "castle_of_the_devil", "--players", "4", "--seats", "human,random,random,random",
                 "--seed", "3", "--quiet", *extra]) == 0
    capsys.readouterr()
    return len(asked), sum(a == ["pass"] for a in asked)


def test_the_terminal_asks_a_human_no_lone_pass_unless_told_to(monkeypatch, capsys):
    n_auto, lone_auto = _terminal_prompts(monkeypatch, capsys)
    n_all, lone_all = _terminal_prompts(monkeypatch, capsys, "--no-autopass")
    assert lone_auto == 0 and lone_all > 0
    assert n_auto == n_all - lone_all  # the same game: only the lone Passes are gone


def test_the_terminal_rings_the_bell_when_a_human_turn_comes_only_with_bell(monkeypatch, capsys):
    """`--bell` writes BEL once each time a human seat's turn comes after another seat decided;
    without it, never; and the only options are taken by themselves unless --no-autoone."""
    import interpreter.commands.play as play
    real = play._ask_human

    def run(*extra) -> tuple[str, list]:
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
        asked = []

        def counting(st, p, text):
            asked.append(len(st.options()))
            return real(st, p, text)
        monkeypatch.setattr(play, "_ask_human", counting)
        assert main(["play", "castle_of_the_devil", "--players", "4", "--seats", "human,random,random,random",
                     "--seed", "3", "--quiet", *extra]) == 0
        return capsys.readouterr().out, asked
    rung, asked = run("--bell")
    quiet, asked_quiet = run()
    assert "\a" not in quiet and asked == asked_quiet
    assert 0 < rung.count("\a") <= len(asked)  # at most once a prompt: a turn that comes, not every question
    assert 1 not in asked  # no prompt with one option reached the human
    _, asked_all = run("--no-autoone")
    assert asked_all.count(1) > 0 and len(asked_all) - asked_all.count(1) == len(asked)
