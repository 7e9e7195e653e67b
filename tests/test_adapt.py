"""Play that adapts to new rules (issue 24): the policy bot tries a variant's new action where
it helps and leaves it where it harms, a variant may score its action itself, and `simulate`
counts new actions' offers and takes and warns when one is almost never taken."""

from __future__ import annotations

import json
from pathlib import Path

from interpreter.bots.base import Seat
from interpreter.bots.policy import PolicyBot
from interpreter.cli import main
from interpreter.game import RULESETS, load
from interpreter.sim.runner import SimSpec, load_game, play_game
from interpreter.sim.stats import rarely_taken, summarize

HIGH_TIDE = str(RULESETS / "high_tide")
FIXTURES = Path(__file__).parent / "fixtures"
HARVEST = str(FIXTURES / "high_tide_harvest.yaml")  # a new action scoring 8 points: it helps
GIFT = str(FIXTURES / "high_tide_gift.yaml")        # a new action giving the others 2 points each


def counts(variant: str, action: str, probe: bool, games: int = 8, seed: int = 20_000_000) -> dict:
    spec = SimSpec(HIGH_TIDE, (variant,), 3, ("policy",), options={"probe": probe}, watch=(action,))
    game = load_game(spec)
    s = summarize([play_game(game, spec, seed + i, i) for i in range(games)])
    return s["actions"][action]


def test_a_new_action_that_helps_is_taken_where_the_plain_policy_ignores_it():
    off = counts(HARVEST, "harvest", probe=False)
    on = counts(HARVEST, "harvest", probe=True)
    assert off["offered"] > 50 and on["offered"] > 20
    # the plain policy takes it only where its default score beats every scored option
    assert off["taken_share"] < 0.1
    assert on["taken_share"] > 0.25 and on["taken_share"] > 4 * off["taken_share"] and on["games_taken"] >= 7


def test_a_new_action_that_harms_is_not_taken():
    off = counts(GIFT, "gift", probe=False)
    on = counts(GIFT, "gift", probe=True)
    assert on["offered"] > 50
    # adapting is not taking every new option: fewer takes than the policy's blind default
    assert on["taken"] <= 2 and on["taken"] < off["taken"]


def test_the_probe_plays_only_decisions_with_new_options():
    game = load("high_tide", [])
    bot = PolicyBot(1, game)
    st = game.new_game(seed=5, players=3, record=False)
    plain = PolicyBot(1, game, probe=False)
    for _ in range(40):
        if st.over:
            break
        assert bot.choose(Seat(st)) == plain.choose(Seat(st))
        st.apply_in_place(bot.choose(Seat(st)))
    assert bot.probed == 0


def test_the_probe_takes_a_new_option_on_evidence_and_counts_it():
    game = load("high_tide", [HARVEST])
    st = game.new_game(seed=20_000_002, players=3, record=False)
    seat = Seat(st)
    bot = PolicyBot(3, game)
    assert [seat.options[i].id for i in seat.unscored(bot.policy)] == ["harvest"]
    assert bot.choose(seat) == "harvest" and bot.probed == 1 and bot.adapted == 1
    assert PolicyBot(3, game, probe=False).choose(Seat(st)) != "harvest"
    # where a pearl (5 points and 2 cards) is in hand, 8 points now are not shown to be better
    st = game.new_game(seed=20_000_000, players=3, record=False)
    bot = PolicyBot(3, game)
    assert bot.choose(Seat(st)) == "play:pearl" and bot.probed == 1 and bot.adapted == 0


def test_a_variant_may_score_its_new_action_in_its_policy(tmp_path):
    v = tmp_path / "scored_harvest.yaml"
    v.write_text((FIXTURES / "high_tide_harvest.yaml").read_text()
                 + "  policy:\n    act:\n      harvest: \"1000 if score(me) < 4 else -1000\"\n")
    game = load("high_tide", [str(v)])
    st = game.new_game(seed=20_000_003, players=3, record=False)
    seat = Seat(st)
    bot = PolicyBot(3, game)
    assert seat.unscored(bot.policy) == []  # the variant's term scores it: nothing to probe
    assert bot.choose(seat) == "harvest" and bot.probed == 0
    st.apply_in_place("harvest")  # score 8 now: the variant's term says no more
    while not st.over and st.current_player() != 0:
        st.apply_in_place(bot.choose(Seat(st)))
    if not st.over:
        assert bot.choose(Seat(st)) != "harvest"


def test_rarely_taken_warns_for_never_and_under_one_percent():
    summaries = {"v": {"played": 10, "actions": {"a": {"offered": 400, "taken": 3}, "b": {"offered": 0, "taken": 0},
                                                  "c": {"offered": 100, "taken": 1}}}}
    w = rarely_taken(summaries, {"v": ("a", "b", "c")})
    assert [x["action"] for x in w] == ["a", "b"]
    assert w[0] == {"id": "cli-sim-action-rarely-taken", "run": "v", "action": "a", "offered": 400, "taken": 3}
    assert w[1]["id"] == "cli-sim-action-never-offered" and w[1]["games"] == 10


def test_simulate_counts_a_new_action_and_warns_when_it_is_almost_never_taken(tmp_path, capsys):
    out = tmp_path / "gift"
    code = main(["simulate", HIGH_TIDE, "--variant", GIFT, "--compare", "--bots", "policy", "--games", "6",
                 "--players", "3", "--seed", "20000000", "--jobs", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0
    data = json.loads((out / "results.json").read_text())
    c = data["summary"]["high_tide_gift"]["actions"]["gift"]
    assert c["offered"] > 30 and c["taken"] < 0.01 * c["offered"]
    assert "actions" not in data["summary"]["high_tide"]  # the base run has no new action
    assert data["warnings"] == [{"id": "cli-sim-action-rarely-taken", "run": "high_tide_gift",
                                 "action": "gift", "offered": c["offered"], "taken": c["taken"]}]
    assert f"new action 'gift' {c['taken']} times in {c['offered']} offers in high_tide_gift" in err
    assert all(g["actions"]["gift"]["offered"] >= 0 for g in data["games"]["high_tide_gift"])


def test_simulate_does_not_warn_about_a_new_action_that_is_taken(tmp_path, capsys):
    out = tmp_path / "harvest"
    code = main(["--lang", "ru", "simulate", HIGH_TIDE, "--variant", HARVEST, "--bots", "policy", "--games", "4",
                 "--players", "3", "--seed", "20000000", "--jobs", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0
    data = json.loads((out / "results.json").read_text())
    assert data["summary"]["high_tide_harvest"]["actions"]["harvest"]["taken"] > 0
    assert "warnings" not in data and "«harvest»" not in err  # (High Tide's loser side never wins: that warns)


def test_the_warning_is_localized():
    from interpreter.sim.summary_text import words
    vals = {"action": "gift", "taken": 0, "offered": 40, "run": "gift"}
    texts = {lang: words(lang, "cli-sim-action-rarely-taken", vals) for lang in ("en", "ru", "pl", "pt")}
    assert len(set(texts.values())) == 4 and all("gift" in t and "40" in t for t in texts.values())


def test_the_probing_policy_bot_is_honest():
    # the probe's worlds are drawn from the seat's view: a re-deal of the hidden cards the
    # player cannot tell apart from the real ones gives the same choice (tests/test_bot_honesty.py)
    from tests.test_bot_honesty import audit
    game = load("high_tide", [HARVEST])
    checked = probed = 0
    for seed in range(5):
        bots = [PolicyBot(seed * 100 + p, game, probe_worlds=6) for p in range(3)]
        n, _, differ = audit(game, 3, bots, seed, 40)
        assert differ == 0
        checked += n
        probed += sum(b.probed for b in bots)
    assert checked >= 40 and probed > 0


def test_a_new_action_turned_down_is_not_probed_again_in_the_same_turn():
    game = load("high_tide", [GIFT])
    for seed in range(20_000_000, 20_000_040):
        st = game.new_game(seed=seed, players=3, record=False)
        seat = Seat(st)
        bot = PolicyBot(3, game)
        if not seat.unscored(bot.policy):
            continue
        first = bot.choose(seat)
        if bot.probed == 1 and bot.adapted == 0:  # turned down: the policy's choice
            assert bot.choose(Seat(st)) == first and bot.probed == 1  # same turn: no second probe
            again = PolicyBot(3, game, probe_once=False)
            again.choose(Seat(st))
            again.choose(Seat(st))
            assert again.probed == 2
            return
    raise AssertionError("no seed where the gift was offered and turned down")
