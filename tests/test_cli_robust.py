"""A CLI that never loses a game: paths that cannot be written and a missing Ray are one clean
line before any work is done; saves are read back by replaying them."""

from __future__ import annotations

import json

import pytest

from interpreter import cli
from interpreter.sim import commands as sim_commands


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
    data["state"]["zones"][0], data["state"]["zones"][1] = data["state"]["zones"][1], data["state"]["zones"][0]
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
