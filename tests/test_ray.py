"""The Ray backend on a real local cluster: two nodes of one CPU each, so two worker processes.

One cluster (head + a second node on loopback, `ray.cluster_utils.Cluster`) is shared by the
module and stopped at its end; each test joins it as a driver does, through `--address`.
Skipped when Ray is not installed (it is an optional extra: pip install 'grimoire[ray]').
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'grimoire[ray]')")

from interpreter.cli import main  # noqa: E402
from interpreter.game import RULESETS  # noqa: E402
from interpreter.sim import SimSpec, run_batch  # noqa: E402
from interpreter.sim.backends import Session  # noqa: E402
from interpreter.sim.runner import same_outcome  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
HIGH_TIDE = str(RULESETS / "high_tide")
CASTLE = RULESETS / "castle_of_the_devil"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    from ray.cluster_utils import Cluster
    # the nodes start outside the checkout, as a remote node would be
    old = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("nodes"))
    c = None
    try:
        c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
        c.add_node(num_cpus=1)
        os.chdir(old)
        c.wait_for_nodes(timeout=180)  # start-up is slow on a loaded machine
        yield c
    finally:
        os.chdir(old)
        if ray.is_initialized():
            ray.shutdown()
        if c is not None:
            c.shutdown()


def only(per_run: dict):
    """The one run of a simulation without --compare."""
    [value] = per_run.values()
    return value


def by_index(results):
    return sorted(results, key=lambda r: r["index"])


def without_execution(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    return text[:text.index('\n "execution"')]


def test_a_killed_worker_loses_no_game(cluster):
    spec = SimSpec(HIGH_TIDE, players=3, bots=("mcts", "random", "random"), budget=8, rotate=True)
    games = 120
    local = by_index(run_batch(spec, seed=50, games=games, jobs=1))
    got, killed = [], None
    with Session("ray", address=cluster.address) as session:
        for r in session.run(spec, 50, games):
            got.append(r)
            if killed is None and len(got) >= 5 and session.pool.busy:
                actor, _ = next(iter(session.pool.busy.values()))
                killed = session.pool.info_of[actor._actor_id.hex()]["pid"]
                os.kill(killed, signal.SIGKILL)
        info = session.info()
    assert killed is not None
    assert info["workers_lost"] >= 1 and info["nodes"] == 2
    assert [r["index"] for r in by_index(got)] == list(range(games))  # every game, each once
    assert all(same_outcome(a, b) for a, b in zip(local, by_index(got)))


def test_workers_run_shipped_code_not_the_checkout(cluster, tmp_path, monkeypatch):
    # Ray puts the driver's directory first on a worker's path; a driver outside the checkout
    # leaves the worker nothing of it, so the code must come through the runtime_env
    monkeypatch.chdir(tmp_path)
    with Session("ray", address=cluster.address) as session:
        where = ray.get(session.pool.actor_class.remote().where.remote(), timeout=180)
    assert "py_modules_files" in where["interpreter"]
    assert not Path(where["interpreter"]).resolve().is_relative_to(ROOT)
    # the virtual environment may live in the checkout (.venv/): its site-packages are not the sources
    venv = Path(sys.prefix).resolve()
    checkout = [p for p in where["sys_path"] if p and Path(p).resolve().is_relative_to(ROOT)
                and not Path(p).resolve().is_relative_to(venv)]
    assert checkout == []
    assert not Path(where["cwd"]).resolve().is_relative_to(ROOT)


@pytest.fixture(scope="module")
def relative_run(cluster, tmp_path_factory):
    """simulate --backend ray from a directory outside the checkout, with relative paths."""
    here = tmp_path_factory.mktemp("elsewhere")
    shutil.copytree(CASTLE, here / "cotd", ignore=shutil.ignore_patterns("scenarios"))
    (here / "house").mkdir()
    shutil.copy(CASTLE / "variants" / "beginner.yaml", here / "house" / "beginner.yaml")
    old = os.getcwd()
    os.chdir(here)
    try:
        code = main(["simulate", "cotd", "--variant", "house/beginner.yaml", "--players", "4", "--games", "30",
                     "--seed", "3", "--backend", "ray", "--address", cluster.address, "--out", "ray", "--quiet"])
    finally:
        os.chdir(old)
    return here, code


def test_simulate_on_ray_from_elsewhere_with_relative_paths(relative_run):
    here, code = relative_run
    assert code == 0
    data = json.loads((here / "ray" / "results.json").read_text())
    assert data["failure"] is None and sorted(g["index"] for g in only(data["games"])) == list(range(30))
    ex = data["execution"]
    assert ex["backend"] == "ray" and ex["nodes"] >= 1 and ex["workers"] >= 1 and ex["ray_version"] == ray.__version__


def test_results_json_byte_identical_across_jobs_and_ray(relative_run, monkeypatch):
    here, _ = relative_run
    monkeypatch.chdir(here)
    for jobs in ("1", "2"):
        assert main(["simulate", "cotd", "--variant", "house/beginner.yaml", "--players", "4", "--games", "30",
                     "--seed", "3", "--jobs", jobs, "--out", f"jobs{jobs}", "--quiet"]) == 0
    ray_text = without_execution(here / "ray" / "results.json")
    assert without_execution(here / "jobs1" / "results.json") == ray_text
    assert without_execution(here / "jobs2" / "results.json") == ray_text


def test_ray_address_from_the_environment_with_jobs(cluster, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)
    out = tmp_path / "env"
    code = main(["simulate", HIGH_TIDE, "--games", "20", "--players", "2", "--seed", "7",
                 "--backend", "ray", "--jobs", "2", "--out", str(out), "--quiet"])
    assert code == 0, capsys.readouterr().err
    data = json.loads((out / "results.json").read_text())
    assert data["execution"]["jobs"] == 2 and only(data["summary"])["played"] == 20
    local = by_index(run_batch(SimSpec(HIGH_TIDE, players=2), seed=7, games=20, jobs=1))
    assert all(same_outcome(a, b) for a, b in zip(local, only(data["games"])))


def test_tune_on_ray_finds_what_the_local_pool_finds(cluster):
    pytest.importorskip("optuna")
    from interpreter.sim.tune import tune
    castle = str(RULESETS / "castle_of_the_devil")
    kw = {"players": 4, "names": ["trade_info", "attack_info"], "eval_games": 6}
    local = tune(castle, "order", 4, 2, jobs=1, **kw)
    remote = tune(castle, "order", 4, 2, jobs=2, backend="ray", address=cluster.address, **kw)
    assert remote.train == local.train and remote.after == local.after
    assert remote.eval_before == local.eval_before and remote.eval_after == local.eval_after


# ---- a node that cannot play, plug-in bots the nodes do not have (issue 30) ------------------

PLUGIN = '''
import os

if os.getpid() != {driver} and {fail_on_workers}:
    import a_module_no_node_has  # noqa: F401


class Last:
    def __init__(self, seed, game=None):
        self.seed = seed

    def choose(self, seat):
        return seat.options[-1].id
'''


def write_plugin(tmp_path, monkeypatch, name: str, fail_on_workers: bool) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / f"{name}.py").write_text(PLUGIN.format(driver=os.getpid(), fail_on_workers=fail_on_workers))
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_a_plugin_bot_is_shipped_to_nodes_that_do_not_share_the_disk(cluster, tmp_path, monkeypatch):
    folder = write_plugin(tmp_path, monkeypatch, "shipped_bots", fail_on_workers=False)
    kind = "shipped_bots:Last"
    spec = SimSpec(HIGH_TIDE, players=2, bots=(kind, "random"))
    with Session("ray", address=cluster.address, plugins=(kind,)) as session:
        shutil.rmtree(folder)  # from now on the module exists only in what the job carries
        got = by_index(session.run(spec, 3, 12))
        where = ray.get(session.pool.workers()[0].where.remote(("shipped_bots",)), timeout=60)
        info = session.info()
    assert "py_modules_files" in where["modules"]["shipped_bots"]
    assert [r["index"] for r in got] == list(range(12)) and all(r["reason"] != "error" for r in got)
    assert info["nodes_unusable"] == [] and info["workers"] >= 1


def test_a_plugin_the_workers_cannot_import_says_why_in_one_line(cluster, tmp_path, monkeypatch, capsys):
    write_plugin(tmp_path, monkeypatch, "broken_bots", fail_on_workers=True)
    out = tmp_path / "out"
    code = main(["simulate", HIGH_TIDE, "--players", "2", "--games", "4", "--bots", "broken_bots:Last,random",
                 "--backend", "ray", "--address", cluster.address, "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1, err
    [line] = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert "no Ray node can run a worker" in line and "No module named 'a_module_no_node_has'" in line
    assert "\x1b[" not in err and "actor_id" not in err and "Traceback" not in err


def test_a_node_without_the_dependencies_is_reported_not_silently_unused(cluster, tmp_path, monkeypatch, capsys):
    # a third node whose Python lacks lark (a package of that name that fails to import shadows
    # it); the job is given no requirements to install, so the node cannot be mended
    shadow = tmp_path / "shadow" / "lark"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'lark'\", name='lark')\n")
    from interpreter.sim import ray_nodes
    monkeypatch.setattr(ray_nodes, "requirements", lambda: [])
    broken = cluster.add_node(num_cpus=1, env_vars={"PYTHONPATH": str(shadow.parent)})
    try:
        cluster.wait_for_nodes(timeout=180)
        out = tmp_path / "out"
        code = main(["simulate", HIGH_TIDE, "--players", "2", "--games", "16", "--backend", "ray",
                     "--address", cluster.address, "--out", str(out), "--quiet"])
        err = capsys.readouterr().err
        assert code == 0, err
        ex = json.loads((out / "results.json").read_text())["execution"]
        [bad] = ex["nodes_unusable"]
        assert bad["cause"] == "ModuleNotFoundError: No module named 'lark'"
        assert bad["node_id"] == broken.node_id and ex["nodes"] >= 1
        assert f"warning: Ray node {bad['node']} ({broken.node_id[:8]}) runs no worker: " \
               f"ModuleNotFoundError: No module named 'lark'" in err
    finally:
        cluster.remove_node(broken)
