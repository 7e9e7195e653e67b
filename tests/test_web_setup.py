"""Setup decisions at a table of several humans: the waiting seats read what they wait for,
and the deciding seat hands a whole share out in one step (a plan), taken as the same
decisions the clicks would be; the tab's title says when it is your turn (in Chromium)."""

from __future__ import annotations

import json
import random

import pytest
from webkit import chrome, have_browser, make_room, served, version, wait_for
from websockets.sync.client import connect

from interpreter.tabletop.web.room import Refused

CAMELOT = ["human", "human", "policy", "policy", "policy"]


def _to_share(seed: int, hold=(0.0, 0.0)):
    """A 5-seat Camelot room (2 humans) played by random clicks up to the opening hand-out."""
    room = make_room("shadows_over_camelot", CAMELOT, seed=seed, hold=hold)
    rnd = random.Random(seed)
    while room.state.pending.get("g") != "share":
        p = room.state.current_player()
        room.choose(room.player_token(p), rnd.choice(room.state.options()).id, room.version)
    return room


def _steps(plan: dict, k: int) -> list[str]:
    return [f"{plan['action']}:{r['id']},{plan['choices'][(i + 1) % len(plan['choices'])]['id']}"
            for i, r in enumerate((plan["rows"] * k)[:k])]


@pytest.mark.parametrize("seed", [1, 4])
def test_a_whole_hand_out_in_one_step_is_the_decisions_the_clicks_would_be(seed):
    room, clicked = _to_share(seed), _to_share(seed)
    p = room.state.current_player()
    me, other = room.payload(room.player_token(p)), room.payload(room.player_token(1 - p))
    plan = me["decision"]["plan"]
    assert plan["action"] and plan["rows"] and len(plan["choices"]) == 5
    assert {f"{plan['action']}:{r['id']},{c['id']}" for r in plan["rows"] for c in plan["choices"]} == {
        o["id"] for o in me["decision"]["options"]}  # the plan is the seat's own options, nothing more
    # the other human reads what the table waits for (the prompt is public: the leak check compares it)
    assert other["decision"] is None and other["model"]["waiting_prompt"] == me["decision"]["prompt"]
    at = len(room.state.history)
    steps = _steps(plan, 12)  # more steps than cards: the table stops where the question changes
    taken = room.choose_plan(room.player_token(p), steps, room.version)
    assert 1 <= taken <= 5
    for option in room.state.history[at:at + taken]:  # the same ids clicked one by one
        clicked.choose(clicked.player_token(clicked.state.current_player()), option, clicked.version)
    assert room.state.history == clicked.state.history
    assert room.state.history[at:at + taken] == steps[:taken]
    if taken < len(steps) and room.state.pending and room.state.pending.get("g") == "share":
        assert steps[taken] not in {o.id for o in room.state.options()}  # stopped at one that is no option


def test_a_plan_is_refused_like_a_click_and_changes_nothing():
    room = _to_share(1)
    p = room.state.current_player()
    plan = room.payload(room.player_token(p))["decision"]["plan"]
    good = _steps(plan, 2)
    before = (list(room.state.history), room.version)
    for token, steps, ver, says in (
            (room.player_token(1 - p), good, room.version, "not your decision"),
            (room.spectator_token, good, room.version, "does not decide"),
            (room.player_token(p), good, room.version - 1, "out of date"),
            (room.player_token(p), [], room.version, "1 to 64 ids"),
            (room.player_token(p), "give", room.version, "1 to 64 ids"),
            (room.player_token(p), [1, 2], room.version, "1 to 64 ids"),
            (room.player_token(p), good * 40, room.version, "1 to 64 ids"),
            (room.player_token(p), ["nope"] + good, room.version, "not one of your options")):
        with pytest.raises(Refused, match=says):
            room.choose_plan(token, steps, ver)
        assert (list(room.state.history), room.version) == before


def test_the_other_human_gets_one_push_for_a_whole_hand_out_over_websockets():
    room = _to_share(2)
    p = room.state.current_player()
    with served(room) as base:
        ws = base.replace("http://", "ws://")
        with connect(f"{ws}/ws/{room.player_token(p)}") as a, connect(f"{ws}/ws/{room.player_token(1 - p)}") as b:
            mine, theirs = json.loads(a.recv(timeout=10)), json.loads(b.recv(timeout=10))
            assert theirs["model"]["waiting_prompt"] == mine["decision"]["prompt"]
            steps = _steps(mine["decision"]["plan"], len(mine["decision"]["plan"]["rows"]))
            a.send(json.dumps({"type": "plan", "options": steps, "version": mine["version"]}))
            after = json.loads(b.recv(timeout=20))
            assert after["version"] > theirs["version"] + 0 and after["version"] == room.version
            with pytest.raises(TimeoutError):  # one push for the whole plan, not one per card
                b.recv(timeout=0.5)


@pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromedriver")
def test_in_chromium_the_title_says_your_turn_and_the_hand_out_is_one_dialog():
    room = _to_share(3, hold=(0.0, 0.0))
    p = room.state.current_player()
    with served(room) as base, chrome() as browser:
        browser.get(f"{base}/seat/{room.player_token(1 - p)}")
        wait_for(browser, lambda d: version(d) == room.version, what="the waiting seat's table")
        assert "Your turn" not in browser.title and room.game.ruleset.title in browser.title
        status = browser.find_element("id", "status").text
        assert room.payload(room.player_token(p))["decision"]["prompt"] in status
        browser.get(f"{base}/seat/{room.player_token(p)}")
        wait_for(browser, lambda d: version(d) == room.version, what="the deciding seat's table")
        assert browser.title.startswith("● Your turn — ") and room.game.ruleset.title in browser.title
        assert browser.find_element("id", "sound").is_selected() is False  # sound is off by default
        browser.find_element("id", "sound").click()
        assert browser.execute_script("return localStorage.getItem('grimoire.sound')") == "1"
        at = len(room.state.history)
        browser.find_element("css selector", "#plan summary").click()
        rows = browser.find_elements("css selector", "#plan .plan-row")
        assert len(rows) == len(room.payload(room.player_token(p))["decision"]["plan"]["rows"])
        browser.find_element("id", "plan-go").click()
        wait_for(None, lambda _: len(room.state.history) >= at + len(rows) or room.state.pending.get("g") != "share",
                 what="the hand-out taken")
        assert all(d.startswith("give_card:") for d in room.state.history[at:at + len(rows)])
        browser.refresh()
        wait_for(browser, lambda d: version(d) == room.version, what="the table after the hand-out")
        assert browser.find_element("id", "sound").is_selected()  # the setting stayed (localStorage)
        mine = room.state.current_player() == p and room.payload(room.player_token(p))["decision"]
        assert browser.title.startswith("● Your turn") == bool(mine and not mine.get("auto"))


def _hand_ids(room, seat: int) -> list[str]:
    model = room.payload(room.player_token(seat))["model"]
    return [c["id"] for z in model["private"]["zones"] if z["id"] == "hand" for c in z["cards"] if c["id"]]


def test_a_waiting_seat_answers_its_own_setup_question_ahead_and_it_is_the_click_it_would_be():
    room = make_room("shadows_over_camelot", CAMELOT, seed=5, hold=(0.0, 0.0))
    clicked = make_room("shadows_over_camelot", CAMELOT, seed=5, hold=(0.0, 0.0))
    assert room.state.current_player() == 0 and room.state.pending["prompt"] == "opening_offer"
    waiting = room.payload(room.player_token(1))
    assert waiting["ahead"] == {"open": True, "option": None} and waiting["decision"] is None
    assert room.payload(room.player_token(0))["ahead"]["open"] is False  # (the seat asked answers as usual)
    mine = _hand_ids(room, 1)[-1]
    room.answer_ahead(room.player_token(1), mine)
    assert room.payload(room.player_token(1))["ahead"]["option"] == mine
    first = room.state.options()[0].id
    room.choose(room.player_token(0), first, room.version)
    # seat 2 was never asked: its answer was taken when its question came, then the bots offered
    assert room.state.history[:2] == [first, mine] and room.ahead == {}
    clicked.choose(clicked.player_token(0), first, clicked.version)
    assert clicked.state.current_player() == 1 and clicked.state.pending["prompt"] == "opening_offer"
    clicked.choose(clicked.player_token(1), mine, clicked.version)
    assert clicked.state.history == room.state.history  # the same game as the click at its turn


def test_an_answer_ahead_that_is_no_option_is_dropped_and_the_seat_is_asked():
    room = make_room("shadows_over_camelot", CAMELOT, seed=5, hold=(0.0, 0.0))
    room.answer_ahead(room.player_token(1), "no_such_card")
    room.choose(room.player_token(0), room.state.options()[0].id, room.version)
    assert room.state.current_player() == 1 and room.state.pending["prompt"] == "opening_offer"
    assert room.ahead == {}
    for token, option, says in ((room.player_token(1), "x", "nothing can be answered ahead"),  # it decides
                                (room.spectator_token, "x", "does not decide"),
                                (room.player_token(0), 7, "ahead")):
        with pytest.raises(Refused, match=says):
            room.answer_ahead(token, option)
    room.answer_ahead(room.player_token(0), None)  # (dropping nothing is no error)
    while room.state.phase == "setup":  # after the setup nothing is answered ahead
        p = room.state.current_player()
        room.choose(room.player_token(p), room.state.options()[0].id, room.version)
    other = 1 - room.state.current_player() if room.state.current_player() in (0, 1) else 0
    assert room.payload(room.player_token(other))["ahead"]["open"] is False
    with pytest.raises(Refused, match="nothing can be answered ahead"):
        room.answer_ahead(room.player_token(other), _hand_ids(room, other)[0])


@pytest.mark.skipif(not have_browser(), reason="needs Debian's chromium and chromedriver")
def test_in_chromium_a_waiting_seat_clicks_its_setup_answer_ahead():
    room = make_room("shadows_over_camelot", CAMELOT, seed=5, hold=(0.0, 0.0))
    mine = _hand_ids(room, 1)[0]
    with served(room) as base, chrome() as browser:
        browser.get(f"{base}/seat/{room.player_token(1)}")
        wait_for(browser, lambda d: version(d) == room.version, what="the waiting seat's table")
        assert not browser.find_elements("css selector", "button.option")  # it is not asked
        browser.find_element("css selector", f"#ahead button.ahead-option[data-option='{mine}']").click()
        wait_for(None, lambda _: room.ahead.get(1, (None, None))[1] == mine, what="the answer written ahead")
        wait_for(browser, lambda d: d.find_elements("css selector", "#ahead button.chosen"), what="it is shown")
        room.choose(room.player_token(0), room.state.options()[0].id, room.version)
        assert room.state.history[1] == mine
