"""A CLI that never loses a game: paths that cannot be written and a missing Ray are one clean
line before any work is done; saves are read back by replaying them."""

from __future__ import annotations

import json

import pytest

from interpreter import cli
from interpreter.commands import play as play_command
from interpreter.commands import simulate as sim_commands


def run(capsys, *argv) -> tuple[int, str]:
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_simulate_out_is_a_file(tmp_path, capsys):
    f = tmp_path / "results"
    f.write_text("")
    code, text = run(capsys, "simulate", "high_tide", "--games", "1", "--out", str(f))
    assert code == 2 and text.strip() == f"error: --out {f} is a file, not a directory"


def test_simulate_out_under_a_file(tmp_path, capsys):
    f = tmp_path / "results"
    f.write_text("")
    code, text = run(capsys, "simulate", "high_tide", "--games", "1", "--out", str(f / "sub"))
    assert code == 2 and text.strip() == f"error: cannot create --out directory {f / 'sub'}: Not a directory"


def test_simulate_ray_backend_without_ray(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(sim_commands, "have_ray", lambda: False)
    code, text = run(capsys, "simulate", "high_tide", "--games", "1", "--backend", "ray",
                     "--out", str(tmp_path / "o"))
    assert code == 2
    assert text.strip().startswith("error: --backend ray needs Ray, which is not installed")
    assert not (tmp_path / "o").exists(), "refused before anything was written"


def test_play_save_and_load_replays(tmp_path, capsys):
    save = tmp_path / "g.json"
    code, _ = run(capsys, "play", "high_tide", "--seed", "4", "--quiet", "--save", str(save))
    assert code == 0
    data = json.loads(save.read_text())
    assert data["decisions"] and data["state"]["over"]
    code, text = run(capsys, "play", "--load", str(save), "--quiet")
    assert code == 0 and "winners" in text


def test_a_refused_save_is_one_line_without_the_file(tmp_path, capsys):
    save = tmp_path / "g.json"
    run(capsys, "play", "high_tide", "--seed", "4", "--quiet", "--save", str(save))
    data = json.loads(save.read_text())
    zones = data["state"]["zones"]
    a, b = next((i, j) for i in range(len(zones)) for j in range(i) if zones[i] != zones[j])
    zones[a], zones[b] = zones[b], zones[a]  # two zones' cards swapped
    save.write_text(json.dumps(data))  # one long line, as a tool might write it
    code, text = run(capsys, "play", "--load", str(save), "--quiet")
    assert code == 1
    lines = text.strip().splitlines()
    assert lines[0].startswith(f"{save}:1:") and "does not match the game its decisions replay" in lines[0]
    assert lines[1:] == ["1 error"]
    assert len(text) < 400


@pytest.mark.parametrize("bad", ["{", "[]", '{"format": "grimoire-save"}', "\xff"])
def test_garbage_saves_are_refused(tmp_path, capsys, bad):
    save = tmp_path / "g.json"
    save.write_bytes(bad.encode("latin-1"))
    code, text = run(capsys, "play", "--load", str(save), "--quiet")
    assert code == 1 and text.strip().splitlines()[0].startswith(f"{save}:")


def test_unwritable_save_and_log_are_refused_before_the_game(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("")
    for flag in ("--save", "--log"):
        code, text = run(capsys, "play", "high_tide", "--quiet", flag, str(f / "x.json"))
        assert code == 2, text
        assert text.strip() == f"error: cannot write {f / 'x.json'}: the directory {f} does not exist"


FAILING = """\
ruleset: fails
version: "1"
title: F
players: {min: 2, max: 2}
max_turns: 50
counters:
  n: {min: 0, max: 100}
  life: {per: player, min: 0, max: 10}
zones:
  deck: {visibility: hidden, holds: [c]}
cards:
  coin: {set: c, count: 3}
actions:
  safe: {group: main, effect: "n += 1"}
  boom: {group: main, when: "n >= 2", effect: "life(players[7]) += 1"}
turn: "act(me, main)"
"""


def test_a_rules_error_during_play_keeps_the_game(tmp_path, capsys, monkeypatch):
    """The failing move is reported at its line, with the source and a caret, in the author's
    words; --save keeps the game before that move, and it loads again."""
    (tmp_path / "rs").mkdir()
    (tmp_path / "rs" / "ruleset.yaml").write_text(FAILING)
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "g.json"
    code = cli.main(["play", "rs", "--quiet", "--seed", "3", "--save", str(save)])
    out = capsys.readouterr()
    assert code == 1
    lines, text = out.err.splitlines(), out.out
    assert lines[0] == ("rs/ruleset.yaml:15:48: error: players[7] is not a player: "
                        "a game of 2 has players[0] to players[1]")
    assert lines[1].strip().startswith("boom: {group: main") and lines[2].strip() == "^"
    assert f"game saved to {save}" in text
    from interpreter.saves import read_save
    loaded = read_save(save)
    assert not loaded.state.over and loaded.state.ctr[0] >= 2
    assert "boom" in {o.id for o in loaded.state.options()}


def test_the_terminal_takes_a_unique_prefix(monkeypatch, capsys):
    from interpreter.game import load
    from interpreter.i18n import Text
    st = load("high_tide").new_game(seed=3, players=3)
    answers = iter(["", "dra"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert play_command._ask_human(st, st.current_player(), Text(st.g.prog, "en")) == "draw_card"
