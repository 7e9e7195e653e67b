"""`grimoire tune`: trials on training seeds, evaluation on disjoint seeds, a variant file."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.game import RULESETS, load
from interpreter.sim.tune import TRAIN_OFFSET, search_space, tune

pytest.importorskip("optuna")
CASTLE = str(RULESETS / "castle_of_the_devil")


def test_search_space_brackets_each_weight():
    assert search_space({"a": 4.0, "b": -2.0, "c": 0.0, "d": 0.5}) == {
        "a": (0.0, 8.0), "b": (-4.0, 0.0), "c": (-1.0, 1.0), "d": (-0.5, 1.5)}


def test_tune_tries_weights_on_training_seeds_and_evaluates_on_others():
    res = tune(CASTLE, "order", 6, 3, players=4, names=["attack_info", "trade_info"], eval_games=10, jobs=1)
    assert len(res.train) == 3
    assert res.train[0][0] == {"attack_info": 2.0, "trade_info": 3.0}  # the ruleset's own first
    assert res.eval_before["games"] == res.eval_after["games"] == 10
    assert set(res.after) == set(res.before)
    assert {k for k in res.after if res.after[k] != res.before[k]} <= {"attack_info", "trade_info"}
    again = tune(CASTLE, "order", 6, 3, players=4, names=["attack_info", "trade_info"], eval_games=10, jobs=1)
    assert again.after == res.after and again.train == res.train  # seeded: reproducible


def test_tune_refuses_what_it_cannot_tune():
    with pytest.raises(ValueError, match="no side"):
        tune(CASTLE, "knights", 2, 1, players=4, jobs=1)
    with pytest.raises(ValueError, match="no weight 'nope'"):
        tune(CASTLE, "order", 2, 1, players=4, names=["nope"], jobs=1)


def test_the_command_writes_a_variant_that_plays(tmp_path, capsys):
    out = tmp_path / "tuned.yaml"
    rc = main(["tune", CASTLE, "--side", "brotherhood", "--players", "4", "--games", "4", "--trials", "2",
               "--eval-games", "6", "--jobs", "1", "--weights", "pearl_push", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert rc == 0, text
    assert f"seeds {1 + TRAIN_OFFSET} on" in text and "before" in text and "after" in text
    g = load(CASTLE, [str(out)])
    assert "pearl_push" in g.program.policy.sides["brotherhood"].weights
    assert main(["diff", CASTLE, "--variant", str(out)]) == 0
    assert "policy" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--side", "order", "--games", "0", "--trials", "1"], "--games must be at least 1"),
    (["--side", "order", "--games", "2", "--trials", "1", "--eval-games", "0"], "--eval-games must be"),
    (["--side", "order", "--games", "2", "--trials", "1", "--out", "/nonexistent/dir/t.yaml"], "no directory"),
    (["--side", "knights", "--games", "2", "--trials", "1", "--players", "4"], "no side"),
    (["--side", "order", "--games", "2", "--trials", "1", "--players", "2"], "not 2"),
])
def test_the_command_refuses_bad_arguments_plainly(argv, message, capsys):
    assert main(["tune", CASTLE, *argv, "--jobs", "1", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


HARVEST = str(Path(__file__).parent / "fixtures" / "high_tide_harvest.yaml")


def test_new_actions_get_a_fitted_weight_and_the_variant_scores_them(tmp_path):
    from interpreter.bots.base import Seat
    from interpreter.bots.policy import PolicyBot
    from interpreter.sim.tune import new_unscored, variant_text

    ht = str(RULESETS / "high_tide")
    game = load(ht, [HARVEST])
    assert new_unscored(game, ht) == ["harvest"]  # added by the variant, scored by no policy
    assert new_unscored(load(ht, []), ht) == []
    res = tune(ht, "winner", 4, 3, players=3, variants=[HARVEST], eval_games=4, jobs=1, new_actions=True)
    assert res.terms == {"harvest": "new_harvest"}
    assert res.train[0][0] == {"new_harvest": 0.0}  # from the policy's default; only the new weight
    assert all(-30.0 <= w["new_harvest"] <= 30.0 for w, _ in res.train[1:])  # +-the largest weight
    out = tmp_path / "tuned.yaml"
    out.write_text(variant_text(res, "high_tide", 4, 3))
    tuned = load(ht, [HARVEST, str(out)])
    assert new_unscored(tuned, ht) == []  # the written variant scores the new action
    st = tuned.new_game(seed=20_000_002, players=3, record=False)
    bot = PolicyBot(3, tuned)
    bot.choose(Seat(st))
    assert bot.probed == 0  # scored now: the policy ranks it, nothing is probed
    with pytest.raises(ValueError, match="add no action"):
        tune(ht, "winner", 2, 1, players=3, jobs=1, new_actions=True)
