"""The rollout bot (bots/rollout.py): the policy, corrected where playouts of its best options
show a surer end of the game."""

from __future__ import annotations

import pytest

from interpreter.bots import Seat, make_bot
from interpreter.bots.rollout import RolloutBot
from interpreter.game import RULESETS, load


def blind_tide(tmp_path):
    """High Tide with a policy that never washes a card away, not even the winning one."""
    p = tmp_path / "blind.yaml"
    p.write_text("variant: blind\ntitle: never wash\nbase: high_tide\nmerge:\n  policy:\n    act:\n"
                 "      wash: \"0\"\n", encoding="utf-8")
    return load(RULESETS / "high_tide", [str(p)])


def winning_card_on_the_table(seat) -> bool:
    """Is the card the current player just played the one that reaches the goal?"""
    v = seat.view
    cur = v["current"]
    top = v["zones"][f"shore@{cur}"][-1]
    value = {"shell_1": 1, "shell_2": 2, "shell_3": 3, "pearl": 5}[top]
    return v["counters"][f"score@{cur}"] + value >= 12


def test_the_rollout_bot_washes_away_the_card_that_would_win_where_its_policy_never_does(tmp_path):
    g = blind_tide(tmp_path)
    critical = washed = 0
    wins = {"policy": 0, "rollout": 0}
    for kind in ("policy", "rollout"):
        for seed in range(80):
            st = g.new_game(seed=seed, players=2)
            bots = [make_bot(kind, seed * 10, g), make_bot("policy", seed * 10 + 1, g)]
            while not st.over:
                seat = Seat(st)
                oid = bots[st.current_player()].choose(seat)
                if (kind == "rollout" and seat.player == 0 and seat.prompt == "wash"
                        and len(seat.options) > 1 and winning_card_on_the_table(seat)):
                    critical += 1
                    washed += oid != "pass"
                    # searched in full: passing loses at once in every world; a wash that
                    # loses as surely (the other wins next turn anyway) is dropped from
                    # `futility` worlds on, one that saves the game is played in all 16
                    last = bots[0].last
                    assert last["candidates"][0] == "pass"
                    assert last["worlds"] == 16 if oid != "pass" else last["worlds"] >= 4
                if kind == "policy" and seat.player == 0 and seat.prompt == "wash":
                    assert oid == "pass"  # the blind policy really never washes
                st.apply_in_place(oid)
            wins[kind] += 0 in st.result["winners"]
    assert critical >= 5
    # washed where it saves the game for a while; not where the other wins next turn anyway
    # (the playouts play the blind policy on: it never washes the next winning card either)
    assert washed >= critical // 2
    assert wins["rollout"] > wins["policy"]


def test_far_from_any_end_the_rollout_bot_plays_as_the_policy_bot():
    g = load(RULESETS / "shadows_over_camelot", ["first_game"])
    pol = g.program.policy
    st = g.new_game(seed=3, players=3)
    policy = make_bot("policy", 7, g)
    roll = make_bot("rollout", 7, g)
    checked = 0
    while checked < 40:
        seat = Seat(st)
        if len(seat.options) > 1 and pol.view_safe(st, None):
            checked += 1
            scores = pol.scores(st, seat.player, seat.options)
            best = {o.id for o, s in zip(seat.options, scores) if s == max(scores)}
            # nothing ends within the horizon this early: one of the policy's best options
            assert roll.choose(seat) in best
            # screened (or taken unscreened in a turn whose screen showed no end)
            assert roll.full == 0 and roll.searched + roll.unscreened == checked
        st.apply_in_place(policy.choose(Seat(st)))


def test_only_a_gain_beyond_the_noise_overrides_the_policy():
    bot = RolloutBot(0, load(RULESETS / "high_tide", []), delta=2.0)
    cand = ["a", "b", "c"]
    # b wins in every world where a loses: a sure gain
    assert bot._best(cand, [[0.0, 1.0, 0.5]] * 8) == 1
    # c is ahead by one lucky world in sixteen: within the noise, the policy's a stays
    rows = [[0.5, 0.5, 0.5]] * 15 + [[0.0, 0.0, 1.0]]
    assert bot._best(cand, rows) == 0
    # the larger of two clear gains wins
    rows = [[0.0, 0.5, 1.0]] * 6 + [[0.5, 1.0, 1.0]] * 6
    assert bot._best(cand, rows) == 2
    assert bot.last["chosen"] == "c" and bot.last["worlds"] == 12


@pytest.mark.parametrize("name,players,variants", [("shadows_over_camelot", 3, ["first_game"]),
                                                   ("castle_of_the_devil", 4, [])])
def test_rollout_games_are_legal_and_repeat_from_their_seed(name, players, variants):
    g = load(RULESETS / name, variants)

    def play(seed):
        st = g.new_game(seed=seed, players=players, record=False)
        bots = [make_bot("rollout", seed * 100 + p, g, worlds=6, horizon=1.0) for p in range(players)]
        moves = []
        while not st.over:
            oid = bots[st.current_player()].choose(Seat(st))
            assert st.apply_in_place(oid) is None, oid
            moves.append(oid)
        return moves, st.result, sum(b.full for b in bots)

    a, b = play(5), play(5)
    assert a == b
    assert a[2] > 0  # the game's end was searched


def test_a_rollout_bot_needs_a_policy(tmp_path, capsys):
    from interpreter.cli import main
    p = tmp_path / "none.yaml"
    p.write_text("variant: none\ntitle: no policy\nbase: high_tide\nmerge:\n  policy: null\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no policy"):
        make_bot("rollout", 1, load(RULESETS / "high_tide", [str(p)]))
    # refused before a game is played, in play and in simulate alike
    assert main(["play", "high_tide", "--variant", str(p), "--bots", "rollout", "--quiet"]) == 2
    assert main(["simulate", "high_tide", "--variant", str(p), "--bots", "random,rollout", "--games", "2",
                 "--quiet", "--out", str(tmp_path / "sim")]) == 2
    assert capsys.readouterr().err.count("so there is no rollout bot") == 2
    assert not (tmp_path / "sim").exists()


def test_simulate_gives_each_bot_kind_its_own_options():
    from interpreter.sim import SimSpec
    from interpreter.sim.runner import bot_options
    spec = SimSpec("high_tide", (), 2, ("mcts", "rollout", "policy"), budget=30,
                   options={"horizon": 4, "worlds": 8, "temperature": 1.5, "c": 0.5})
    assert bot_options(spec, "mcts") == {"iterations": 30, "depth": None, "horizon": 4, "c": 0.5}
    assert bot_options(spec, "rollout") == {"horizon": 4, "worlds": 8}
    assert bot_options(spec, "policy") == {"temperature": 1.5}


def test_near_the_end_its_searches_choose_the_same_in_worlds_it_cannot_tell_apart():
    """The honesty check of test_bot_honesty.py, on the decisions where the rollout bot
    searches in full (the last rounds of a game), in the base game with its hidden Traitor."""
    from test_bot_honesty import twin

    from interpreter.engine.rng import Rng
    g = load(RULESETS / "shadows_over_camelot", [])
    full = checked = 0
    for seed in (11, 12):
        st = g.new_game(seed=seed, players=4)
        bots = [make_bot("policy", seed * 10 + p, g) for p in range(4)]
        states = []
        while not st.over:
            if len(st.options()) > 1:
                states.append(st.clone())
            st.apply_in_place(bots[st.current_player()].choose(Seat(st)))
        rng = Rng(seed)
        for s in states[-25:]:
            bot = make_bot("rollout", seed, g, worlds=6)
            world = Seat(s).determinize(rng)
            a, b = twin(bot), twin(bot)
            assert a.choose(Seat(s)) == b.choose(Seat(world))
            full += a.full
            checked += 1
    assert checked == 50 and full >= 10


def test_a_misspelt_rollout_option_is_refused():
    with pytest.raises(TypeError, match="world"):
        make_bot("rollout", 1, load(RULESETS / "high_tide", []), world=32)


def scripted(bot, outcomes):
    """Make bot's playouts score from `outcomes` (world -> candidate -> score), recording
    which candidates each world played."""
    played = []

    def play(seat, cand, cols, worlds, rows):
        for _ in range(worlds):
            w = len(rows)
            played.append(list(cols))
            rows.append([outcomes(w, j) if j in cols else None for j in range(len(cand))])
    bot._play = play
    return played


def test_the_sequential_test_stops_playing_a_candidate_with_no_gain_after_futility_worlds():
    bot = RolloutBot(0, load(RULESETS / "high_tide", []), futility=4)
    cand = ["a", "b", "c"]
    # b never differs from a, c wins every world a loses: b is dropped after 4 worlds, c
    # and a are played in all 16, and c is chosen
    played = scripted(bot, lambda w, j: 1.0 if j == 2 else 0.0)
    rows = []
    bot._play(None, cand, [0, 1, 2], 2, rows)
    bot._sequential(None, cand, rows)
    assert len(rows) == 16
    assert played[:4] == [[0, 1, 2]] * 4 and played[4:] == [[0, 2]] * 12
    assert bot._best(cand, rows) == 2 and bot.last["gain"][1] is None
    # no candidate ahead of the policy's choice: the search stops after 4 worlds
    played = scripted(bot, lambda w, j: 0.0 if j else 1.0)
    rows = []
    bot._play(None, cand, [0, 1, 2], 2, rows)
    bot._sequential(None, cand, rows)
    assert len(rows) == 4 and bot._best(cand, rows) == 0


def test_extend_plays_on_a_search_whose_leader_is_ahead_but_not_clear():
    g = load(RULESETS / "high_tide", [])
    cand = ["a", "b", "c"]
    # b is half a game ahead of a in one world in five and behind in world 7: ahead after 16
    # worlds, but by 2 standard errors only after 31
    def outcomes(w, j):
        if j != 1:
            return 0.5
        return 1.0 if w % 5 == 0 else 0.0 if w == 7 else 0.5

    for extend, worlds, chosen in ((0, 16, 0), (32, 31, 1)):
        bot = RolloutBot(0, g, futility=4, extend=extend)
        scripted(bot, outcomes)
        rows = []
        bot._play(None, cand, [0, 1, 2], 2, rows)
        bot._sequential(None, cand, rows)
        # extend: worlds are added until b clears delta, and b is chosen
        assert len(rows) == worlds and bot._best(cand, rows) == chosen
    # a candidate that is clear at 16 worlds is not played further
    bot = RolloutBot(0, g, futility=4, extend=32)
    scripted(bot, lambda w, j: 1.0 if j == 2 else 0.0)
    rows = []
    bot._play(None, cand, [0, 1, 2], 2, rows)
    bot._sequential(None, cand, rows)
    assert len(rows) == 16 and bot._best(cand, rows) == 2


def test_the_fixed_test_of_685a6d3_plays_every_candidate_in_every_world():
    g = load(RULESETS / "high_tide", [])
    bot = RolloutBot(0, g, futility=0, quiet="off")
    assert bot.futility == 0 and not bot.quiet
    with pytest.raises(ValueError, match="quiet"):
        RolloutBot(0, g, quiet="sometimes")
    assert (RolloutBot(0, g).quiet, RolloutBot(0, g).reach) == (True, 1.0)  # "round"
    assert RolloutBot(0, g, quiet="turn").reach == 0 and RolloutBot(0, g, quiet=2).reach == 2
    with pytest.raises(ValueError, match="quiet"):
        RolloutBot(0, g, quiet=-1)


def test_after_a_quiet_screen_the_rest_of_the_turn_plays_the_policy_unscreened():
    g = load(RULESETS / "shadows_over_camelot", ["first_game"])

    def early(quiet):
        st = g.new_game(seed=3, players=3, record=False)
        bots = [make_bot("rollout", 7 + p, g, quiet=quiet) for p in range(3)]
        for _ in range(60):  # far from any end: every screen is quiet
            st.apply_in_place(bots[st.current_player()].choose(Seat(st)))
        return {k: sum(getattr(b, k) for b in bots) for k in ("full", "searched", "unscreened", "playouts")}

    on, off, rnd = early("turn"), early("off"), early("round")
    assert on["full"] == off["full"] == rnd["full"] == 0
    assert on["unscreened"] > 0 and off["unscreened"] == 0
    assert on["playouts"] < off["playouts"]
    # quiet="round": a screen seen to run a round past its horizon covers the next round too
    assert rnd["unscreened"] > on["unscreened"] and rnd["searched"] < on["searched"]


def test_a_screen_that_sees_an_end_past_its_horizon_covers_only_its_turn():
    # a playout that ends within the reach (one round past the horizon) leaves the screen's
    # scores at 0.5 (the policy's choice stands) but covers no later turn
    g = load(RULESETS / "high_tide", [])
    bot = RolloutBot(0, g, horizon=1.0)
    st = g.new_game(seed=1, players=2, record=False)
    seat = Seat(st)
    calls = []

    def play(seat_, cand, cols, worlds, rows, reach=0):
        calls.append(reach)
        rows.extend([[0.5] * len(cand) for _ in range(worlds)])
        bot._calm = False  # an end was seen past the horizon
    bot._play = play
    while len(seat.options) < 2:
        st.apply_in_place(seat.options[0].id)
        seat = Seat(st)
    bot.choose(seat)
    assert calls == [2.0] and bot._quiet_until == st.turn
