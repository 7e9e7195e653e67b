"""The compiled hot modules (interpreter/runtime/native.py, built by setup.py with Cython) and
the pure-Python path beside them.

* The README's install compiles every module of COMPILED, and the package loads them compiled.
* Pure Python (`GRIMOIRE_PURE=1`) and compiled play the same games: seeded random games of
  every shipped ruleset digested part by part (benchmarks/replay_guard.py: options, choices,
  every view, the log, the result), and `simulate` with policy bots (beliefs and the probe on)
  and one rollout game, whose results.json must be the same but for the time taken.
* A module whose source changed since the build runs from its source (never stale code), and
  the others stay compiled.
"""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from interpreter.runtime import native

ROOT = Path(__file__).resolve().parent.parent

_PLAY = """
import json, sys
sys.path.insert(0, {bench!r})
from replay_guard import play, player_counts
from interpreter.game import RULESETS, load
from interpreter.runtime import native
rows = []
for name in ("high_tide", "shadows_over_camelot", "castle_of_the_devil"):
    g = load(RULESETS / name)
    for n in player_counts(g.ruleset.min_players, g.ruleset.max_players):
        rows += [[name, n, seed, play(g, n, seed)] for seed in range(2)]
print(json.dumps({{"status": native.status(), "games": rows}}))
"""


def _env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_ENV}
    env.update(extra)
    return env


def _run(args, env, cwd=None) -> str:
    r = subprocess.run(args, env=env, cwd=cwd, capture_output=True, text=True, timeout=600,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, f"{args}\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}"
    return r.stdout


def _not_compiled(status: dict) -> dict:
    return {m: s for m, s in status.items() if s != "compiled"}


def test_the_install_compiled_every_hot_module():
    status = native.status()
    assert set(status) == set(native.COMPILED)
    assert not _not_compiled(status), (
        f"these modules run as pure Python: {_not_compiled(status)}; `pip install -e .` rebuilds them")
    for m in native.COMPILED:
        f = importlib.import_module(m).__file__
        assert not f.endswith(".py"), f"{m} loaded from {f}"


def test_pure_python_and_compiled_play_the_same_games(tmp_path):
    code = _PLAY.format(bench=str(ROOT / "benchmarks"))
    compiled = json.loads(_run([sys.executable, "-c", code], _env()))
    pure = json.loads(_run([sys.executable, "-c", code], _env(**{native.PURE_ENV: "1"})))
    assert not _not_compiled(compiled["status"])
    assert all(s.startswith("python") for s in pure["status"].values()), pure["status"]
    assert len(pure["games"]) >= 12
    assert pure["games"] == compiled["games"]

    grimoire = [sys.executable, "-c", "import sys; from interpreter.cli import main; sys.exit(main())"]
    runs = [("shadows_over_camelot", ["--players", "5", "--bots", "policy", "--games", "4"]),
            ("castle_of_the_devil", ["--players", "4", "--bots", "policy", "--games", "4"]),
            ("shadows_over_camelot", ["--variant", "first_game", "--players", "3", "--bots", "rollout",
                                      "--games", "1"])]
    for k, (name, args) in enumerate(runs):
        docs = []
        for mode, env in (("compiled", _env()), ("pure", _env(**{native.PURE_ENV: "1"}))):
            out = tmp_path / f"{k}-{mode}"
            _run(grimoire + ["simulate", name, *args, "--seed", "7", "--jobs", "1", "--out", str(out), "--quiet"], env)
            doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
            for timing in ("seconds", "games_per_second"):  # the only figures not given by the seeds
                assert doc["execution"].pop(timing) > 0
            docs.append(doc)
        assert docs[0]["games"], f"simulate {name} {args} played nothing"
        assert docs[0] == docs[1], f"simulate {name} {args}: pure Python and compiled differ"


def test_a_module_edited_since_the_build_runs_from_its_source(tmp_path):
    assert not _not_compiled(native.status()), "needs the built package (the README's install)"
    pkg = tmp_path / "interpreter"
    shutil.copytree(native.PACKAGE, pkg, ignore=shutil.ignore_patterns("__pycache__", "_data"))
    edited = "interpreter.engine.rng"
    src = native.source_file(edited, pkg)
    src.write_text(src.read_text(encoding="utf-8") + "\nEDITED_SINCE_THE_BUILD = True\n", encoding="utf-8")
    probe = ("import json, interpreter, interpreter.engine.rng as r, interpreter.engine.flow as f\n"
             "from interpreter.runtime import native\n"
             "print(json.dumps([native.status(), r.__file__, getattr(r, 'EDITED_SINCE_THE_BUILD', False),"
             " f.__file__]))")
    env = _env(PYTHONPATH=str(tmp_path))
    status, rng_file, edited_ran, flow_file = json.loads(_run([sys.executable, "-c", probe], env, cwd=tmp_path))
    assert status[edited] == "python (source changed since the build)"
    assert rng_file.endswith(".py") and edited_ran, "the edited module ran stale compiled code"
    assert not flow_file.endswith(".py"), "an unchanged module should still load compiled"
    assert _not_compiled(status) == {edited: status[edited]}
