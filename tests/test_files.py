"""Atomic writes: the old file stays whole when a write fails, and no temporary file stays
behind, even after the writer was killed outright."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from interpreter import files
from interpreter.files import OutputError, write_atomic


def _tmps(d):
    return sorted(p.name for p in d.iterdir() if p.name.endswith(".tmp"))


def test_interrupted_write_keeps_the_old_file_and_no_tmp(tmp_path, monkeypatch):
    f = tmp_path / "game.save.json"
    f.write_text("old")

    def boom(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", boom)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(f, "new")
    assert f.read_text() == "old"
    assert _tmps(tmp_path) == []


def test_unwritable_paths_are_output_errors(tmp_path):
    with pytest.raises(OutputError, match="cannot write .*: No such file or directory"):
        write_atomic(tmp_path / "nowhere" / "x.json", "x")
    with pytest.raises(OutputError, match="it is a directory"):
        write_atomic(tmp_path, "x")
    (tmp_path / "file").write_text("")
    with pytest.raises(OutputError, match="cannot write"):
        write_atomic(tmp_path / "file" / "x.json", "x")


_SLOW_WRITER = """
import os, sys, time
from interpreter import files
files.os.fsync = lambda fd: (print("writing", flush=True), time.sleep(60))
files.write_atomic(sys.argv[1], "x" * 1000)
"""


def test_a_killed_writers_tmp_is_removed_by_the_next_write(tmp_path):
    f = tmp_path / "game.save.json"
    p = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(f)], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "writing"
        assert len(_tmps(tmp_path)) == 1, "the writer is inside its write"
    finally:
        p.kill()
        p.wait()
    assert len(_tmps(tmp_path)) == 1, "SIGKILL leaves the tmp behind ..."
    write_atomic(f, "whole")
    assert _tmps(tmp_path) == [], "... and the next write of the file removes it"
    assert f.read_text() == "whole"


def test_a_live_writers_tmp_is_left_alone(tmp_path):
    f = tmp_path / "game.save.json"
    other = tmp_path / f".game.save.json.{os.getppid()}.tmp"  # a process that is running
    other.write_text("")
    write_atomic(f, "x")
    assert other.exists()
