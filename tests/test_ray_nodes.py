"""Which Ray nodes run workers, decided without a cluster (interpreter/sim/ray_nodes.py).

A stand-in for `ray.nodes()` lists the nodes; the tests follow one node through the states a
real cluster gave (tests/test_ray.py runs them on real nodes): a worker that lacks a
dependency is retried with the dependencies shipped, one that still fails makes the node
unusable with its cause in one line, and a plug-in bot's own missing import is not taken
for a missing dependency.
"""

from __future__ import annotations

import pytest

pytest.importorskip("ray", reason="Ray is not installed (pip install 'grimoire[ray]')")

from interpreter.sim.ray_nodes import Nodes, cause_line, requirements  # noqa: E402

REQS = ["lark>=1.1.9", "ruamel.yaml>=0.18", "fluent.runtime>=0.4"]


class FakeRay:
    def __init__(self, nodes):
        self._nodes = nodes

    def nodes(self):
        return self._nodes


def node(i: int, cpus: int = 2, alive: bool = True) -> dict:
    return {"NodeID": f"{i:02d}" * 28, "NodeManagerAddress": f"10.0.0.{i}", "Alive": alive,
            "Resources": {"CPU": float(cpus)}}


def test_requirements_are_the_projects_without_extras():
    reqs = requirements()
    assert any(r.startswith("lark") for r in reqs) and not any("ray" in r for r in reqs)


def test_one_trial_per_node_then_all_its_cpus():
    nodes = Nodes(FakeRay([node(1), node(2, cpus=1)]), REQS)
    nodes.refresh()
    a, b = nodes.pick(), None
    nodes.placed(a)
    b = nodes.pick()
    nodes.placed(b)
    assert {a.address, b.address} == {"10.0.0.1", "10.0.0.2"} and nodes.pick() is None
    nodes.started(a)
    c = nodes.pick()
    assert c is a  # a's second CPU; b is still on trial
    assert nodes.capacity() == 3


def test_a_missing_dependency_is_retried_with_pip_then_reported():
    nodes = Nodes(FakeRay([node(1)]), REQS)
    nodes.refresh()
    n = nodes.pick()
    nodes.placed(n)
    nodes.failed_start(n, "ModuleNotFoundError: No module named 'lark'")
    assert n.pip and n.error is None
    assert nodes.options(n)["runtime_env"] == {"pip": {"packages": REQS, "pip_check": False}}
    nodes.placed(nodes.pick())
    nodes.failed_start(n, "RuntimeError: Please install virtualenv")
    assert n.error == ("ModuleNotFoundError: No module named 'lark'; installing the dependencies with the job "
                       "failed: RuntimeError: Please install virtualenv")
    assert nodes.pick() is None and nodes.capacity() == 0
    report = nodes.report()
    assert report["nodes_unusable"] == [{"node": "10.0.0.1", "node_id": n.id, "cause": n.error}]
    assert report["nodes_given_dependencies"] == []


def test_a_plugins_own_missing_import_is_not_a_missing_dependency():
    nodes = Nodes(FakeRay([node(1)]), REQS)
    nodes.refresh()
    n = nodes.pick()
    nodes.placed(n)
    nodes.failed_start(n, "GrimoireError: bot 'mine:Bot': cannot import module 'mine' (No module named 'numpyx')")
    assert not n.pip and "numpyx" in n.error


def test_a_node_that_leaves_is_not_used_and_a_new_one_is():
    fake = FakeRay([node(1)])
    nodes = Nodes(fake, REQS)
    nodes.refresh()
    fake._nodes = [node(1, alive=False), node(3, cpus=4)]
    nodes.refresh()
    assert nodes.capacity() == 4 and nodes.pick().address == "10.0.0.3"


def test_the_cause_of_a_ray_error_is_one_line_without_colour():
    class RayTaskError(Exception):
        pass

    text = ("\x1b[36mray::_Worker.ready()\x1b[39m (pid=123, ip=10.0.0.1, actor_id=abc, repr=<_Worker object>)\n"
            "  File \"x.py\", line 3, in ready\n    import lark\nModuleNotFoundError: No module named 'lark'\n")
    assert cause_line(RayTaskError(text)) == "ModuleNotFoundError: No module named 'lark'"
    e = RayTaskError("wrapped")
    e.cause = ImportError("cannot import name 'Bot'\nmore")
    assert cause_line(e) == "ImportError: cannot import name 'Bot'"
