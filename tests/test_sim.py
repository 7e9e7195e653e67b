"""Batch simulation: seeds decide results whatever the split, statistics on known inputs,
the simulate command's reports, and Ctrl-C keeping the finished games."""

from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from interpreter.cli import main
from interpreter.game import RULESETS
from interpreter.sim import SimSpec, run_batch, run_one
from interpreter.sim.backends import batch_items, plan
from interpreter.sim.runner import same_outcome, seat_bots
from interpreter.sim.stats import compare, mcnemar, mean_sd, summarize, two_proportion, wilson

HIGH_TIDE = str(RULESETS / "high_tide")


def by_index(results) -> list[dict]:
    return sorted(results, key=lambda r: r["index"])


# ---- seeds decide ---------------------------------------------------------------------------------

def test_plan_covers_every_game_once_with_seed_base_plus_index():
    for games, jobs in [(1, 1), (7, 2), (100, 2), (1000, 8)]:
        items = [it for chunk in plan(batch_items(40, games), jobs) for it in chunk]
        assert items == [(i, 40 + i) for i in range(games)]


def test_batch_items_skip_the_finished_games_and_keep_the_seeds():
    assert batch_items(10, 5, skip={1, 3}) == [(0, 10), (2, 12), (4, 14)]


def test_same_seeds_same_results_with_one_and_two_processes():
    spec = SimSpec(HIGH_TIDE, players=3)
    one = by_index(run_batch(spec, seed=100, games=24, jobs=1))
    two = by_index(run_batch(spec, seed=100, games=24, jobs=2))
    assert [r["seed"] for r in one] == list(range(100, 124))
    assert len(two) == 24
    assert all(same_outcome(a, b) for a, b in zip(one, two))
    assert len({tuple(r["winners"]) for r in one}) > 1  # the seeds really differ


def test_mcts_games_are_reproducible_across_processes():
    spec = SimSpec(HIGH_TIDE, players=2, bots=("mcts", "random"), budget=8)
    one = by_index(run_batch(spec, seed=5, games=4, jobs=1))
    two = by_index(run_batch(spec, seed=5, games=4, jobs=2))
    assert all(same_outcome(a, b) for a, b in zip(one, two))


def test_run_one_is_the_result_of_that_seed():
    spec = SimSpec(HIGH_TIDE, players=3)
    [batch] = list(run_batch(spec, seed=9, games=1, jobs=1))
    single = run_one(HIGH_TIDE, 9, players=3)
    assert same_outcome(batch, single)
    assert set(single) >= {"seed", "winners", "sides", "reason", "decisions", "turns"}
    assert single["reason"] == "tide_turned" and single["sides"] == ["winner"]


def test_rotating_seats_gives_every_seat_each_bot():
    spec = SimSpec(HIGH_TIDE, players=3, bots=("mcts", "random", "random"), rotate=True)
    assert [seat_bots(spec, 3, i).index("mcts") for i in range(4)] == [0, 1, 2, 0]
    with pytest.raises(ValueError):
        seat_bots(SimSpec(HIGH_TIDE, bots=("mcts", "random")), 3, 0)


# ---- statistics on known inputs ----------------------------------------------------------------

def test_wilson_interval_known_values():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert hi == 1.0 and round(lo, 4) == 0.7225
    lo, hi = wilson(81, 263)  # Wilson (1927) / Newcombe (1998) example: 0.2553 to 0.3662
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    assert wilson(0, 0) == (0.0, 1.0)


def test_mean_sd_and_tests_known_values():
    m, sd = mean_sd([1, 2, 3, 4])
    assert m == 2.5 and math.isclose(sd, 1.2909944, rel_tol=1e-6)
    assert mean_sd([]) == (0.0, 0.0) and mean_sd([3]) == (3.0, 0.0)
    t = two_proportion(50, 100, 60, 100)
    assert math.isclose(t["z"], 1.4213, abs_tol=1e-4) and math.isclose(t["p"], 0.1552, abs_tol=1e-4)
    assert math.isclose(mcnemar(10, 2), 2 * (1 + 12 + 66) / 4096)  # exact binomial
    assert mcnemar(0, 0) == 1.0 and mcnemar(3, 3) == 1.0
    # large counts: chi-square with continuity correction, (|40-20|-1)^2/60 = 6.0167
    assert math.isclose(mcnemar(40, 20), math.erfc(math.sqrt(361 / 60 / 2)))
    assert math.isclose(mcnemar(40, 20), 0.01417, abs_tol=1e-5)


def record(seed, sides, winners, decisions=10, reason="done", bots=("mcts", "random")):
    return {"seed": seed, "index": seed, "sides": sides, "winners": winners, "reason": reason,
            "decisions": decisions, "turns": decisions // 2, "bots": list(bots),
            "player_sides": ["good", "evil"]}


def test_summarize_counts_sides_bots_seats_and_lengths():
    rs = [record(0, ["good"], [0], 10), record(1, ["evil"], [1], 20), record(2, ["good"], [0], 30),
          record(3, [], [], 40, reason="turn_limit"),
          {"seed": 4, "index": 4, "reason": "error", "error": "x", "winners": [], "sides": [],
           "decisions": 1, "turns": 1, "bots": ["mcts", "random"], "player_sides": []}]
    s = summarize(rs)
    assert (s["games"], s["played"], s["errors"], s["no_winner"]) == (5, 4, 1, 1)
    assert s["by_side"]["good"]["wins"] == 2 and s["by_side"]["good"]["rate"] == 0.5
    assert s["by_side"]["good"]["ci95"] == list(wilson(2, 4))
    assert s["by_side"]["evil"]["wins"] == 1
    assert s["by_bot"]["mcts"]["wins"] == 2 and s["by_bot"]["mcts"]["games"] == 4
    assert s["by_seat"]["2"]["wins"] == 1
    assert s["decisions"]["mean"] == 25 and math.isclose(s["decisions"]["sd"], mean_sd([10, 20, 30, 40])[1])
    assert s["reasons"] == {"done": 3, "turn_limit": 1, "error": 1}


def test_compare_pairs_games_by_seed():
    base = [record(i, ["good"] if i < 10 else ["evil"], [0] if i < 10 else [1]) for i in range(20)]
    # the variant turns 8 of good's wins into losses and 1 loss into a win: McNemar 8 against 1
    other = [record(i, ["evil"] if 2 <= i < 10 or i in (10, 11) else ["good"] if i < 10 or i == 12
                    else ["evil"], []) for i in range(20)]
    other = [dict(r, decisions=r["decisions"] + 2) for r in other] + [record(99, ["good"], [0])]
    c = compare(base, other)
    assert c["paired_games"] == 20
    g = c["by_side"]["good"]
    assert (g["base"]["wins"], g["variant"]["wins"]) == (10, 3)
    assert (g["base_only"], g["variant_only"]) == (8, 1)
    assert math.isclose(g["mcnemar_p"], mcnemar(8, 1)) and g["significant"]
    assert math.isclose(g["difference"], -7 / 20)
    assert g["ci95"][0] < -7 / 20 < g["ci95"][1]
    assert c["decisions"]["difference"] == 2 and c["decisions"]["p"] == 0.0


# ---- the simulate command ---------------------------------------------------------------------------

def test_simulate_writes_json_csv_and_png(tmp_path, capsys):
    out = tmp_path / "run"
    code = main(["simulate", HIGH_TIDE, "--games", "12", "--players", "3", "--seed", "3",
                 "--jobs", "1", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert code == 0
    assert "winner" in text and "95% CI" in text
    data = json.loads((out / "results.json").read_text())
    assert data["format"] == "grimoire-simulation" and not data["interrupted"]
    assert data["summary"]["high_tide"]["played"] == 12
    assert [g["seed"] for g in data["games"]["high_tide"]] == list(range(3, 15))
    rows = (out / "games.csv").read_text().splitlines()
    assert rows[0].startswith("run,index,seed,players,bots,winners,sides,reason") and len(rows) == 13
    assert (out / "chart.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len((out / "games.jsonl").read_text().splitlines()) == 12
    assert not list(out.glob(".*.tmp"))  # atomic writes leave no temporary files


def test_simulate_compare_reports_differences(tmp_path, capsys):
    variant = tmp_path / "short.yaml"
    variant.write_text("variant: short\ntitle: Short game\nbase: high_tide\nmerge:\n  params: {goal: 4}\n")
    out = tmp_path / "cmp"
    code = main(["simulate", HIGH_TIDE, "--variant", str(variant), "--compare", "--games", "30",
                 "--players", "2", "--jobs", "2", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert code == 0 and "short against high_tide" in text
    data = json.loads((out / "results.json").read_text())
    assert set(data["games"]) == {"high_tide", "short"}
    d = data["comparison"]["decisions"]
    assert data["comparison"]["paired_games"] == 30
    assert d["difference"] < 0 and d["p"] < 0.05  # a goal of 4 ends games sooner
    assert len((out / "games.csv").read_text().splitlines()) == 61


def test_simulate_compares_a_house_rule_on_a_base_variant(tmp_path, capsys):
    # --base-variant is played by both runs: the comparison is short+fast against short, not
    # against the bare ruleset (a house rule measured on the first game, say)
    short = tmp_path / "short.yaml"
    short.write_text("variant: short\ntitle: Short game\nbase: high_tide\nmerge:\n  params: {goal: 4}\n")
    shorter = tmp_path / "shorter.yaml"
    shorter.write_text("variant: shorter\ntitle: Shorter\nbase: high_tide\nmerge:\n  params: {goal: 2}\n")
    out = tmp_path / "cmp"
    code = main(["simulate", HIGH_TIDE, "--base-variant", str(short), "--variant", str(shorter), "--compare",
                 "--games", "30", "--players", "2", "--jobs", "1", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert code == 0 and "short + shorter against short" in text
    data = json.loads((out / "results.json").read_text())
    assert set(data["games"]) == {"short", "short + shorter"}
    assert data["base_variants"] == [str(short)] and data["variants"] == [str(shorter)]
    plain = tmp_path / "plain"
    assert main(["simulate", HIGH_TIDE, "--variant", str(short), "--games", "30", "--players", "2", "--jobs", "1",
                 "--out", str(plain), "--quiet"]) == 0
    base_games = data["games"]["short"]
    assert [g["winners"] for g in base_games] == [g["winners"] for g in json.loads(
        (plain / "results.json").read_text())["games"]["short"]]  # the base run is the short game itself
    assert data["comparison"]["decisions"]["difference"] < 0  # a goal of 2 ends games sooner still


def test_simulate_refuses_bad_arguments(capsys):
    assert main(["simulate", HIGH_TIDE, "--games", "2", "--bots", "clever"]) == 2
    assert main(["simulate", HIGH_TIDE, "--games", "2", "--compare"]) == 2
    assert main(["simulate", HIGH_TIDE, "--games", "2", "--players", "9"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'clever'" in err and "--compare needs" in err and "not 9" in err


def _sigint_as_in_a_terminal() -> None:
    """In the child before it starts: Ctrl-C at its default, as in a terminal. A parent that
    ignores SIGINT (a job started with `&` or nohup, some CI runners) passes the ignore on to
    its children, and a Python started that way never turns Ctrl-C into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("jobs", [1, 2])
def test_interrupted_run_keeps_finished_games(tmp_path, jobs):
    out = tmp_path / "int"
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli", "simulate", HIGH_TIDE, "--games", "100000",
         "--players", "4", "--jobs", str(jobs), "--out", str(out), "--quiet"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        preexec_fn=_sigint_as_in_a_terminal)
    log = out / "games.jsonl"
    deadline = time.time() + 60
    while time.time() < deadline:
        if log.exists() and len(log.read_text().splitlines()) >= 20:
            break
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C reaches the whole process group
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr.decode()
    assert b"interrupted" in stderr
    data = json.loads((out / "results.json").read_text())
    assert data["interrupted"]
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    games = data["games"]["high_tide"]
    assert len(games) == len(lines) >= 20
    assert sorted(g["seed"] for g in games) == sorted(x["seed"] for x in lines)
    assert len((out / "games.csv").read_text().splitlines()) == len(games) + 1
    assert (out / "chart.png").exists()


def test_end_of_game_stats_are_recorded_summarised_compared_and_written(tmp_path, capsys):
    # a variant may add `stats:` (here to High Tide, which has none): numbers read when each
    # game ends, reported as means, compared on paired seeds, written as CSV columns
    stats = tmp_path / "stats.yaml"
    stats.write_text("variant: stats\ntitle: Stats\nbase: high_tide\nmerge:\n"
                     "  stats: {top_score: \"max([score(p) for p in players])\", "
                     "players: \"player_count\"}\n", encoding="utf-8")
    short = tmp_path / "short.yaml"
    short.write_text("variant: short\ntitle: Short game\nbase: high_tide\nmerge:\n  params: {goal: 4}\n")
    out = tmp_path / "st"
    code = main(["simulate", HIGH_TIDE, "--variant", str(stats), "--games", "20", "--players", "3",
                 "--jobs", "1", "--out", str(out), "--quiet"])
    text = capsys.readouterr().out
    assert code == 0 and "at the end: players 3.00 ± 0.00, top_score" in text
    data = json.loads((out / "results.json").read_text())
    games = data["games"]["stats"]
    assert all(set(g["stats"]) == {"top_score", "players"} and g["stats"]["players"] == 3 for g in games)
    tops = [g["stats"]["top_score"] for g in games]
    assert data["summary"]["stats"]["stats"]["top_score"]["mean"] == pytest.approx(sum(tops) / 20)
    rows = (out / "games.csv").read_text().splitlines()
    assert rows[0].endswith(",stat:players,stat:top_score")
    assert [int(r.rsplit(",", 1)[1]) for r in rows[1:]] == tops
    # compared on paired seeds: Camelot declares its stats; 13 engines make the siege last longer
    out2 = tmp_path / "cmp"
    code = main(["simulate", str(RULESETS / "shadows_over_camelot"), "--variant", "thirteen_engines",
                 "--compare", "--games", "40", "--players", "4", "--jobs", "1", "--out", str(out2), "--quiet"])
    text = capsys.readouterr().out
    assert code == 0 and "siege_engines" in text
    cmp = json.loads((out2 / "results.json").read_text())["comparison"]
    assert set(cmp["stats"]) == {"white_swords", "black_swords", "siege_engines", "knights_alive", "traitor_present",
                                 "traitor_unmasked", "false_accusations", "engines_chosen"}
    assert cmp["stats"]["siege_engines"]["difference"] >= 0


def test_compare_pairs_stats_by_seed():
    base = [dict(record(i, ["good"], [0]), stats={"swords": i}) for i in range(10)]
    other = [dict(record(i, ["good"], [0]), stats={"swords": i + 3}) for i in range(10)]
    c = compare(base, other)
    assert c["stats"]["swords"]["difference"] == 3 and c["stats"]["swords"]["p"] == 0.0
    assert c["stats"]["swords"]["base"] == 4.5 and c["stats"]["swords"]["variant"] == 7.5


def test_a_statistic_that_fails_is_reported_and_the_game_still_counts(tmp_path):
    bad = tmp_path / "bad.yaml"
    # indexing past a list's end gives none at run time: no number to record
    bad.write_text("variant: bad\ntitle: Bad stat\nbase: high_tide\nmerge:\n"
                   "  stats: {ok: \"player_count\", broken: \"[1, 2][5]\"}\n", encoding="utf-8")
    r = run_one(HIGH_TIDE, 3, players=2, variants=(str(bad),))
    assert r["reason"] != "error" and r["stats"] == {"ok": 2}
    assert r["stats_errors"] == {"broken": "not a number: None"}


# ---- playing on from a scenario's position ---------------------------------------------------------

CAMELOT = RULESETS / "shadows_over_camelot"
ENDGAME = str(CAMELOT / "scenarios" / "endgame_five_five.yaml")


def test_every_game_starts_from_the_scenario_position_with_its_own_seed(tmp_path, capsys):
    out = tmp_path / "end"
    code = main(["simulate", "shadows_over_camelot", "--scenario", ENDGAME, "--games", "40",
                 "--seed", "5", "--jobs", "2", "--out", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "results.json").read_text())
    games = data["games"]["shadows_over_camelot"]
    assert data["scenario"] == ENDGAME and [g["seed"] for g in games] == list(range(5, 45))
    assert all(g["players"] == 3 and g["reason"] != "error" for g in games)
    # Swords are never taken off the table (an accusation flips one): every game ends with
    # the position's ten or more, which a game from the opening almost never reaches
    assert all(g["stats"]["white_swords"] + g["stats"]["black_swords"] >= 10 for g in games)
    # the seeds deal different games: not every game ends the same way after the same turns
    assert len({(g["reason"], g["turns"]) for g in games}) > 5
    # one process or two, the same games
    again = list(run_batch(SimSpec(str(CAMELOT), players=3, scenario=ENDGAME), 5, 40, jobs=1))
    assert len(again) == len(games)
    assert all(same_outcome(a, b) for a, b in zip(by_index(again), by_index(games)))


def test_a_scenario_for_another_ruleset_or_player_count_is_refused(tmp_path, capsys):
    assert main(["simulate", HIGH_TIDE, "--scenario", ENDGAME, "--games", "2", "--quiet",
                 "--out", str(tmp_path / "a")]) == 2
    assert main(["simulate", "shadows_over_camelot", "--scenario", ENDGAME, "--players", "4",
                 "--games", "2", "--quiet", "--out", str(tmp_path / "b")]) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert "is a scenario of shadows_over_camelot, not of high_tide" in err
    assert "is set up for 3 players, not 4" in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_mistake_in_the_scenario_is_reported_at_its_line(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nruleset: shadows_over_camelot\nsetup: {players: 3}\n"
                   "given:\n- siege_engines = nosuch\nexpect: [siege_engines == 0]\n", encoding="utf-8")
    assert main(["simulate", "shadows_over_camelot", "--scenario", str(bad), "--games", "2",
                 "--quiet", "--out", str(tmp_path / "c")]) == 1
    err = " ".join(capsys.readouterr().err.split())
    assert f"{bad}:5:19" in err and "undefined name 'nosuch'" in err
    assert not (tmp_path / "c").exists()


def test_a_sweep_runs_each_value_on_the_same_seeds_and_charts_the_curve(tmp_path, capsys):
    out = tmp_path / "sw"
    code = main(["simulate", HIGH_TIDE, "--players", "2", "--games", "12", "--jobs", "1", "--quiet",
                 "--sweep", "goal=8..12:2", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data = json.loads((out / "results.json").read_text())
    assert data["sweep"]["values"] == [8, 10, 12]
    assert data["sweep"]["runs"] == ["goal=8", "goal=10", "goal=12 (the rules)"]
    assert list(data["games"]) == data["sweep"]["runs"]
    assert all([g["seed"] for g in data["games"][r]] == list(range(1, 13)) for r in data["sweep"]["runs"])
    pts = data["sweep"]["by_side"]["winner"]
    assert [p["value"] for p in pts] == [8, 10, 12] and all(p["ci95"][0] <= p["rate"] <= p["ci95"][1] for p in pts)
    # each value is a variant file the run wrote (repeatable by hand); the rules' own value is none
    assert sorted(f.name for f in (out / "sweep").iterdir()) == ["goal=10.yaml", "goal=8.yaml"]
    assert (out / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    mean = [data["summary"][r]["decisions"]["mean"] for r in data["sweep"]["runs"]]
    assert mean[0] < mean[2]  # a lower goal ends games sooner
    assert "goal=8" in captured.out and "warning: side 'the others' never won in 12 games of goal=8" in captured.err


@pytest.mark.parametrize("bad, words", [("goal=9..3", "must go up"), ("goal", "PARAM=A..B"),
                                        ("goal=a,b", "neither"), ("gaol=1..3", "no param 'gaol'")])
def test_a_bad_sweep_is_a_clear_error(bad, words, tmp_path, capsys):
    assert main(["simulate", HIGH_TIDE, "--games", "2", "--sweep", bad, "--out", str(tmp_path / "x")]) == 1
    assert words in capsys.readouterr().err
    assert not (tmp_path / "x").exists()  # nothing written for a run that cannot start


def test_each_run_gets_a_new_output_folder_unless_out_says(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert main(["simulate", HIGH_TIDE, "--games", "2", "--jobs", "1", "--quiet"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["simulate-high_tide", "simulate-high_tide-2"]
    assert "simulate-high_tide-2/results.json" in capsys.readouterr().out
