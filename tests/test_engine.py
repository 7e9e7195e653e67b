"""The decision API, determinism, persistence, views and the play command, on High Tide."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from interpreter.errors import Refusal, RulesetError


@pytest.fixture(scope="module")
def game():
    from langkit import game as shared_game
    return shared_game()  # the same compiled game the snippet helpers compile into


def canon(st):
    return json.dumps(st.to_json(), sort_keys=True)


def test_decision_names_player_prompt_and_stable_options(game):
    st = game.new_game(seed=3, players=3)
    d = st.decision()
    assert d.player == st.current == 0
    ids = [o.id for o in d.options]
    assert ids[0] == "draw_card"
    assert all(i == "draw_card" or i.startswith("play:shell") or i.startswith("play:pearl") for i in ids)
    assert len(ids) == len(set(ids)), "copies of one card are one option"


def test_illegal_option_is_refused_and_state_unchanged(game):
    st = game.new_game(seed=3, players=3)
    before = canon(st)
    r = st.apply("play:no_such_card")
    assert isinstance(r, Refusal) and not r
    assert "not a legal option" in r.message
    assert canon(st) == before
    assert st.apply_in_place("nonsense") is not None
    assert canon(st) == before


def test_apply_returns_new_state_and_leaves_old(game):
    st = game.new_game(seed=3, players=3)
    before = canon(st)
    nxt = st.apply("draw_card")
    assert canon(st) == before
    assert canon(nxt) != before


@pytest.mark.parametrize("bad", ["", "draw", "DRAW_CARD", " draw_card", "draw_card "])
def test_the_api_takes_exact_option_ids_only(game, bad):
    """"draw" is a unique prefix of draw_card, but a program says what it means: refused, and
    the state is unchanged (only the terminal matches prefixes, for people)."""
    st = game.new_game(seed=3, players=3)
    before = canon(st)
    r = st.apply(bad)
    assert not r and "is not a legal option now" in r.message
    assert st.apply_in_place(bad) is not None
    assert canon(st) == before
    assert st.apply("draw_card")


def test_same_seed_same_game(game):
    def play(seed):
        st = game.new_game(seed=seed, players=4)
        from interpreter.bots import make_bot
        bot = make_bot("random", seed)
        while not st.is_over():
            st.apply_in_place(bot.choose(st))
        return canon(st)
    assert play(11) == play(11)
    assert play(11) != play(12)


def test_mid_effect_save_and_load(game):
    """A window (other players answering a played card) is a decision in the middle of an
    effect: saving there and loading gives a state that continues identically."""
    st = game.new_game(seed=5, players=3)
    from langkit import execute
    execute("move_all(hand(players[0]), deck)\nplace(hand(players[0]), [shell_2])\n"
            "place(hand(players[1]), [shell_2])", st)
    st._opts = None
    st = st.apply("play:shell_2")
    assert st.current_player() == 1 and st.pending["k"] == "act", "inside the wash window"
    assert len(st.stack) >= 2, "the play effect is suspended on the stack"
    loaded = game.state_from_json(json.loads(json.dumps(st.to_json())))
    assert canon(loaded) == canon(st)
    a, b = st.apply("wash:shell_2"), loaded.apply("wash:shell_2")
    assert canon(a) == canon(b)


def test_save_from_other_rules_is_refused(game):
    st = game.new_game(seed=1, players=2)
    data = st.to_json()
    data["ruleset_hash"] = "0000"
    with pytest.raises(RulesetError, match="different version of the rules"):
        game.state_from_json(data)
    data = st.to_json()
    data["zones"][0].append(0)
    with pytest.raises(RulesetError, match="damaged"):
        game.state_from_json(data)
    with pytest.raises(RulesetError, match="not a Grimoire saved game"):
        game.state_from_json({"hello": 1})


def test_view_hides_other_hands_and_determinize_keeps_view(game):
    from interpreter.engine.rng import Rng
    st = game.new_game(seed=2, players=3)
    v0 = st.view(0)
    assert all(c is not None for c in v0["zones"]["hand@p1"])
    assert all(c is None for c in v0["zones"]["hand@p2"])
    assert "decision" in v0 and "decision" not in st.view(1)
    for k in range(5):
        d = st.determinize(0, Rng(k))
        assert d.view(0) == v0
    changed = any(st.determinize(0, Rng(k)).view(1) != st.view(1) for k in range(5))
    assert changed, "determinize re-deals what player 1 holds, unseen by player 0"


def test_clone_is_independent(game):
    st = game.new_game(seed=2, players=3)
    before = canon(st)
    c = st.clone()
    c.apply_in_place("draw_card")
    assert canon(st) == before


def test_wrong_player_count_is_a_clear_error(game):
    with pytest.raises(RulesetError, match="for 2 to 4 players, not 9"):
        game.new_game(seed=1, players=9)


def run_cli(*args, input_text=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args], input=input_text,
                          capture_output=True, text=True, cwd=cwd, timeout=120)


def test_play_all_bots_prints_log_and_result():
    r = run_cli("play", "high_tide", "--players", "3", "--seed", "4")
    assert r.returncode == 0, r.stderr
    assert "— Player 1's turn —" in r.stdout
    assert "The tide has turned" in r.stdout
    assert "Traceback" not in r.stderr


def test_play_human_seat_through_the_terminal(tmp_path):
    # a bad number first (a clear message, no traceback), then always option 1
    r = run_cli("play", "high_tide", "--seats", "human,random", "--seed", "2",
                input_text="99\nfoo\n" + "1\n" * 400, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "please type a number from 1 to" in r.stdout
    assert "hand:" in r.stdout.lower() or "Hand" in r.stdout
    assert "The tide has turned" in r.stdout


def test_play_interrupted_and_resumed(tmp_path):
    save = tmp_path / "game.save.json"
    r = run_cli("play", "high_tide", "--seats", "human,random", "--seed", "2", "--save", str(save),
                input_text="1\n1\n", cwd=tmp_path)  # end of input after two moves: saved
    assert r.returncode == 0, r.stderr
    assert save.is_file() and "game saved" in r.stdout
    data = json.loads(save.read_text())
    assert data["format"] == "grimoire-save" and len(data["decisions"]) >= 2
    r2 = run_cli("play", "--load", str(save), "--seats", "random,random", cwd=tmp_path)
    assert r2.returncode == 0, r2.stderr
    assert "The tide has turned" in r2.stdout


def test_play_bad_save_file_is_a_clear_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    r = run_cli("play", "--load", str(bad))
    assert r.returncode == 1
    assert "bad.json:1:2:" in r.stderr and "not valid JSON" in r.stderr
    assert "Traceback" not in r.stderr


def test_validate_broken_ruleset_exit_code_and_json(tmp_path):
    d = tmp_path / "rs"
    d.mkdir()
    (d / "ruleset.yaml").write_text('ruleset: x\nversion: "1"\ntitle: X\nplayers: {min: 2, max: 2}\n'
                                    'zones:\n  deck: {visibility: hidden}\nturn: "draw(deck, dek, 1)"\n')
    r = run_cli("validate", str(d))
    assert r.returncode == 1 and "undefined name 'dek' (did you mean 'deck'?)" in r.stderr
    r = run_cli("validate", str(d), "--format", "json")
    assert r.returncode == 1
    errors = json.loads(r.stdout)["errors"]
    assert errors[0]["line"] == 7 and errors[0]["col"] == 19


def test_scenario_failure_says_what_and_actual_values(tmp_path):
    sc = tmp_path / "wrong.yaml"
    sc.write_text("name: wrong on purpose\nruleset: high_tide\nsetup: {players: 2, seed: 1}\n"
                  "expect:\n  - \"size(deck) == 99\"\n")
    r = run_cli("test", str(sc))
    assert r.returncode == 1
    assert "wrong.yaml:5:5: expected size(deck) == 99 (left is 11, right is 99)" in r.stdout
    assert "0 passed, 1 failed" in r.stdout


def test_determinize_depends_only_on_the_view(game):
    """Two states a player cannot tell apart give the same sampled world for the same rng."""
    from interpreter.engine.rng import Rng
    st = game.new_game(seed=3, players=3)
    w = st.determinize(0, Rng(1))
    assert w.view(0) == st.view(0)
    kinds = lambda s: [[s.g.card_def[c] for c in z] for z in s.zones]  # noqa: E731
    assert kinds(st.determinize(0, Rng(5))) == kinds(w.determinize(0, Rng(5)))
    assert st.determinize(0, Rng(5)).rng.s == w.determinize(0, Rng(5)).rng.s


def test_a_clone_and_its_parent_share_zone_lists_until_one_of_them_moves_a_card():
    """Zones are copied on write (State.clone, ops.zone_w): whichever of the two states moves
    a card first gets lists of its own, and the other never sees the move."""
    from interpreter.bots.random_bot import RandomBot
    from interpreter.game import RULESETS, load
    g = load(RULESETS / "shadows_over_camelot")
    st = g.new_game(seed=4, players=4)
    bot = RandomBot(4)
    for _ in range(30):
        st.apply_in_place(bot.choose(st))
    before = [list(z) for z in st.zones]
    kid = st.clone()
    assert all(a is b for a, b in zip(kid.zones, st.zones))  # nothing copied yet
    moved = False
    for _ in range(40):  # the child plays on: the parent's zones stay as they were
        if kid.over:
            break
        kid.apply_in_place(RandomBot(5).choose(kid))
        moved = moved or [list(z) for z in kid.zones] != before
    assert moved and [list(z) for z in st.zones] == before
    # and the parent, playing on itself, leaves a second clone's zones alone
    other = st.clone()
    snap = [list(z) for z in other.zones]
    for _ in range(40):
        if st.over:
            break
        st.apply_in_place(bot.choose(st))
    assert [list(z) for z in other.zones] == snap
    for s in (st, kid, other):  # every card in one zone, where agreeing
        assert sorted(c for z in s.zones for c in z) == list(range(len(s.where)))
        assert all(s.where[c] == z for z, zz in enumerate(s.zones) for c in zz)
