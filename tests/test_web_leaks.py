"""Nothing the server sends a seat names a card that seat may not know, over whole games.

Every seat is a scripted browser on a websocket to the real server (uvicorn on 127.0.0.1), and
every message each one receives (and the seat's page and its /api/view over HTTP) is checked.
Card names are rendered as canary words (⟦card_id⟧), so any identity in any text is found.
What a seat may know is read from the engine's own `view` of that seat, accumulated over the
game (a card once seen stays known): its zones, the log entries it may read, its options. A
name outside that knowledge is a leak. The control test serves god's-eye views and checks the
watcher catches them, so the check can fail.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import urllib.request

import pytest
from webkit import make_room, served
from websockets.sync.client import connect

from interpreter.engine.state import State
from interpreter.i18n import Text
from interpreter.tabletop import table_spec

CANARY = re.compile(r"⟦([A-Za-z0-9_#]+)⟧")


class CanaryText(Text):
    """English, except that a card's name is ⟦its id⟧ (and its text says nothing)."""

    def msg(self, msg_id, args=None, default=None):
        if msg_id.startswith("card-"):
            return "" if msg_id.endswith("-text") else f"⟦{msg_id[5:]}⟧"
        return super().msg(msg_id, args, default)


class Watch:
    """What one seat (None: a spectator) may know so far, and the names a message gives away."""

    def __init__(self, room, seat):
        self.room, self.seat = room, seat
        self.known: set[str] = set()
        self.checked = self.positions = self.hidden = self.lone = 0

    def learn(self) -> None:
        prog = self.room.game.program
        v = self.room.state.view(self.seat)
        for cards in v["zones"].values():
            self.known.update(c for c in cards if c)
        self.known.update(v["players"])
        for e in v["log"]:
            for val, t in zip(e[1], e[2]):
                vals = val if isinstance(val, list) else [val]
                if t in ("card", "list:card"):
                    self.known.update(prog.card_ids[prog.card_def[c]] for c in vals if c is not None)
                elif t in ("kind", "list:kind"):
                    self.known.update(prog.card_ids[k] for k in vals if k is not None)
        for oid in (v.get("decision") or {}).get("options", []):
            self.known.update(re.split(r"[:,]", oid))

    def leaks(self, raw: str) -> set[str]:
        self.checked += 1
        d = json.loads(raw).get("decision") if raw.startswith("{") else None
        self.lone += bool(d and len(d["options"]) == 1)  # (a lone Pass, or an only option)
        prog = self.room.game.program
        named = set(CANARY.findall(raw))
        data = json.loads(raw) if raw.startswith("{") else {}
        for o in ((data.get("decision") or {}).get("options") or []):
            named.update(x for x in re.split(r"[:,]", o["id"]) if x in prog.card_index)

        def walk(x):
            if isinstance(x, dict):
                if set(x) == {"id", "name"} and x["id"]:
                    named.add(x["id"])
                for y in x.values():
                    walk(y)
            elif isinstance(x, list):
                for y in x:
                    walk(y)
        walk(data)
        out = {c for c in named if c in prog.card_index and c not in self.known}
        return out | self.face_up_leaks(data.get("model"))

    def face_up_leaks(self, model) -> set[str]:
        """Card by card: every face shown in a zone is, in the real state, at that place and seen by the seat."""
        if not model:
            return set()
        st, g = self.room.state, self.room.state.g
        bit = (1 << 62) if self.seat is None else 1 << self.seat
        where = {}
        for z, (name, li, owner) in enumerate(g.zone_label):
            where[(name, g.loc_ids[li] if li is not None else st.player_id(owner) if owner is not None else None)] = z
        places = [(z, b["location"]) for grp in model["board"] for b in grp["boxes"] for z in b["zones"]]
        places += [(z, p["id"]) for p in model["players"] for z in p["zones"]]
        if model["private"]:
            places += [(z, model["you"]) for z in model["private"]["zones"]]
        out = set()
        for z, at in places:
            zi = where.get((z["id"], at)) if (z["id"], at) in where else where[(z["id"], None)]
            real = st.zones[zi]
            assert len(real) == len(z["cards"])
            for c, shown in zip(real, z["cards"]):
                self.positions += 1
                if shown["id"] is None:
                    self.hidden += 1
                elif not (st.seen[c] & bit) or g.card_ids[g.card_def[c]] != shown["id"]:
                    out.add(f"{shown['id']} in {z['id']}@{at}")
        return out


def play_and_watch(ruleset: str, players: int, seed: int, max_decisions: int = 4000, autopass: bool = False):
    """Play one whole game with every seat a scripted websocket client; return the watchers' findings.
    With `autopass`, every seat answers its lone Pass and its only option by itself (at once:
    one push per click)."""
    room = make_room(ruleset, ["human"] * players, seed=seed, autopass=autopass, autoone=autopass, hold=(0.0, 0.0))
    room._texts["en"] = CanaryText(room.game.program, "en")
    watches = [Watch(room, p) for p in range(players)] + [Watch(room, None)]
    tokens = [room.player_token(p) for p in range(players)] + [room.spectator_token]
    found: dict = {}
    rnd = random.Random(seed)
    with served(room) as base:
        ws_base = base.replace("http://", "ws://")
        with contextlib.ExitStack() as stack:
            socks = [stack.enter_context(connect(f"{ws_base}/ws/{t}?lang=en", max_size=None)) for t in tokens]
            def receive_all():
                msgs = [s.recv(timeout=30) for s in socks]
                for w, raw in zip(watches, msgs):
                    w.learn()
                    leaked = w.leaks(raw)
                    if leaked:
                        found.setdefault(w.seat, set()).update(leaked)
                return [json.loads(m) for m in msgs]

            for w, t in zip(watches, tokens):
                for url in (f"/api/view/{t}", f"/seat/{t}" if w.seat is not None else f"/watch/{t}"):
                    with urllib.request.urlopen(base + url, timeout=30) as r:
                        raw = r.read().decode("utf-8")
                    w.learn()
                    if w.leaks(raw):
                        found.setdefault(w.seat, set()).update(w.leaks(raw))
            msgs = receive_all()
            n = 0
            while not room.state.is_over() and n < max_decisions:
                p = next(i for i, m in enumerate(msgs[:players]) if m["decision"])
                opt = rnd.choice(msgs[p]["decision"]["options"])["id"]
                socks[p].send(json.dumps({"type": "choose", "option": opt, "version": msgs[p]["version"]}))
                msgs = receive_all()
                n += 1
    return room, watches, found, n


@pytest.mark.parametrize("ruleset,players,seed,autopass", [
    ("high_tide", 3, 1, False), ("shadows_over_camelot", 5, 2, False), ("castle_of_the_devil", 4, 3, False),
    ("castle_of_the_devil", 4, 4, True), ("shadows_over_camelot", 4, 6, True)])
def test_no_seat_is_sent_a_card_it_may_not_know_over_a_whole_game(ruleset, players, seed, autopass):
    room, watches, found, n = play_and_watch(ruleset, players, seed, autopass=autopass)
    assert room.state.is_over(), f"the game did not end in {n} decisions"
    assert found == {}
    assert all(w.checked >= n for w in watches)
    # the check means something: cards were checked place by place, and (in the hidden-role
    # games) some card never became known to some seat at all
    assert all(w.positions > n for w in watches)
    if ruleset != "high_tide":
        prog = room.game.program
        assert all(set(prog.card_ids) - w.known for w in watches)
    if autopass:  # the seats did pass by themselves, and no client was ever asked a lone option
        assert len(room.state.history) > n and room.state.history.count("pass") > 0
        assert all(w.lone == 0 for w in watches)


def test_the_watch_catches_a_server_that_sends_what_the_seat_may_not_know(monkeypatch):
    room = make_room("shadows_over_camelot", ["human"] * 4, seed=5)
    room._texts["en"] = CanaryText(room.game.program, "en")
    for p in range(4):
        w = Watch(room, p)
        w.learn()
        assert not w.leaks(json.dumps(room.payload(room.player_token(p))))  # the real payload is clean
    spec = table_spec(room.game.program)
    monkeypatch.setattr(spec.players, "zones", spec.players.zones + ["hand", "loyalty"])
    w = Watch(room, 0)
    w.learn()
    assert not w.leaks(json.dumps(room.payload(room.player_token(0))))  # others' hands: face down
    real = State.view

    def gods_eye(self, player):  # a server that built its messages from the state
        s = self.clone()
        s.seen = [-1] * len(s.seen)
        return real(s, player)

    monkeypatch.setattr(State, "view", gods_eye)
    dirty = json.dumps(room.payload(room.player_token(0)))
    monkeypatch.setattr(State, "view", real)
    assert any(" in hand@" in x for x in w.leaks(dirty)), "others' hands shown face up must be caught"
    # a name in a sentence, too: a card that seat 0 has never seen named in the log
    unknown = sorted(set(room.game.program.card_ids) - w.known)[0]
    msg = room.payload(room.player_token(0))
    msg["model"]["log"].append(f"Someone draws ⟦{unknown}⟧.")
    assert w.leaks(json.dumps(msg, ensure_ascii=False)) == {unknown}
