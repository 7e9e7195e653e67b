"""Issue 25, no door left open: a save names no code; a save, a translation or an output folder
that cannot be used is one located line, in bounded time and memory, never a traceback.
(The deep effects and huge numbers are cases of tests/broken; the web table has
tests/test_web_fuzz.py; benchmarks/attack_doors.py counts all of them on the command line.)"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from interpreter import saves
from interpreter.cli import main
from interpreter.commands import exchange

ROOT = Path(__file__).resolve().parent.parent
PLUGIN = '''
import pathlib
pathlib.Path("IMPORTED").write_text("x")


class Bot:
    def __init__(self, seed, game=None):
        pass

    def choose(self, seat):
        return seat.options[0].id
'''
LOCATED = re.compile(r"^\S+:\d+:\d+: error: ")


def _mid_game_save(tmp_path: Path, **changes) -> Path:
    assert main(["play", "high_tide", "--players", "2", "--seats", "random", "--seed", "3", "--quiet",
                 "--save", str(tmp_path / "full.json")]) == 0
    data = json.loads((tmp_path / "full.json").read_text(encoding="utf-8"))
    data["decisions"] = data["decisions"][:4]
    data.pop("state")
    data.update(changes)
    out = tmp_path / "game.save.json"
    out.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return out


@pytest.mark.parametrize("command", ["play", "serve"])
def test_a_save_naming_a_module_imports_nothing(tmp_path, monkeypatch, capsys, command):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "doormark.py").write_text(PLUGIN, encoding="utf-8")
    save = _mid_game_save(tmp_path, seats=["doormark:Bot", "random"])
    capsys.readouterr()
    argv = ["play", "--load", str(save), "--quiet"] if command == "play" else \
        ["serve", "--load", str(save), "--port", "0"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert LOCATED.match(err) and "never names code" in err, err
    assert not (tmp_path / "IMPORTED").exists() and "doormark" not in sys.modules


def test_a_plug_in_seat_is_given_on_the_command_line_and_saved_as_null(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "doormark.py").write_text(PLUGIN, encoding="utf-8")
    save = _mid_game_save(tmp_path)
    assert main(["play", "--load", str(save), "--quiet", "--seats", "random,doormark:Bot",
                 "--save", "p.json"]) == 0
    assert (tmp_path / "IMPORTED").exists()  # the command line may name code
    assert json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))["seats"] == ["random", None]
    (tmp_path / "IMPORTED").unlink()
    sys.modules.pop("doormark", None)
    assert main(["play", "--load", "p.json", "--quiet"]) == 0  # the null seat: the default bot
    assert not (tmp_path / "IMPORTED").exists()


@pytest.mark.parametrize("key,value", [("seed", 2.0), ("players", 2.0), ("seed", 1e300)])
def test_a_save_with_a_number_that_is_not_whole_is_refused(tmp_path, capsys, key, value):
    save = _mid_game_save(tmp_path, **{key: value})
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert LOCATED.match(err) and "whole number" in err, err


def test_a_save_over_the_limit_is_refused_unread(tmp_path, monkeypatch, capsys):
    save = _mid_game_save(tmp_path)
    monkeypatch.setattr(saves, "MAX_SAVE_BYTES", 100)
    read = []
    monkeypatch.setattr(saves, "parse_save", lambda *a, **k: read.append(a))
    capsys.readouterr()
    assert main(["play", "--load", str(save), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert LOCATED.match(err) and "over the limit of 100 bytes" in err and not read, err


def test_render_into_a_place_that_cannot_be_written_is_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    assert main(["render", "high_tide", "--lang", "en", "--out", "afile/sub"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: afile/sub: cannot write there") and len(err.splitlines()) == 1, err
    assert main(["render", "high_tide", "--lang", "en", "--out", "new/deep/dir"]) == 0  # a missing folder is made
    assert (tmp_path / "new" / "deep" / "dir" / "index.html").is_file()


def test_a_translation_over_the_limit_is_refused_unread(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    po = tmp_path / "big.po"
    po.write_text("# x\n" + 'msgid "a"\nmsgstr "b"\n\n' * 100, encoding="utf-8")
    monkeypatch.setattr(exchange, "MAX_EXCHANGE_BYTES", 1000)
    assert main(["i18n", "import", "high_tide", "big.po", "--lang", "pl"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("big.po:1:1: error: the file is") and "over the limit of 1000 bytes" in err, err

