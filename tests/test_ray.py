"""The Ray backend gives the same results as the local one, on a local Ray instance.

Skipped when Ray is not installed (it is an optional extra: pip install 'grimoire[ray]').
"""

from __future__ import annotations

import json

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'grimoire[ray]')")

from interpreter.cli import main  # noqa: E402
from interpreter.game import RULESETS  # noqa: E402
from interpreter.sim import SimSpec, run_batch  # noqa: E402
from interpreter.sim.runner import same_outcome  # noqa: E402

HIGH_TIDE = str(RULESETS / "high_tide")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def by_index(results):
    return sorted(results, key=lambda r: r["index"])


def test_ray_and_local_agree_seed_by_seed(local_ray):
    spec = SimSpec(HIGH_TIDE, players=3, bots=("mcts", "random", "random"), budget=5, rotate=True)
    local = by_index(run_batch(spec, seed=50, games=12, jobs=1))
    remote = by_index(run_batch(spec, seed=50, games=12, jobs=2, backend="ray"))
    assert [r["seed"] for r in remote] == list(range(50, 62))
    assert all(same_outcome(a, b) for a, b in zip(local, remote))


def test_simulate_command_on_ray(local_ray, tmp_path, capsys):
    out = tmp_path / "ray"
    code = main(["simulate", HIGH_TIDE, "--games", "20", "--players", "2", "--seed", "7",
                 "--backend", "ray", "--jobs", "2", "--out", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "results.json").read_text())
    assert data["backend"] == "ray" and data["summary"]["run"]["played"] == 20
    local = by_index(run_batch(SimSpec(HIGH_TIDE, players=2), seed=7, games=20, jobs=1))
    assert all(same_outcome(a, b) for a, b in zip(local, data["games"]["run"]))


def test_tune_on_ray_finds_what_the_local_pool_finds(local_ray):
    pytest.importorskip("optuna")
    from interpreter.sim.tune import tune
    castle = str(RULESETS / "castle_of_the_devil")
    kw = {"players": 4, "names": ["trade_info", "attack_info"], "eval_games": 6}
    local = tune(castle, "order", 4, 2, jobs=1, **kw)
    remote = tune(castle, "order", 4, 2, jobs=2, backend="ray", **kw)
    assert remote.train == local.train and remote.after == local.after
    assert remote.eval_before == local.eval_before and remote.eval_after == local.eval_after
