"""Which Ray nodes can run a worker, and what each one needs: placement, shipped dependencies,
and a loud report of the nodes that cannot play.

Pipeline position: under the Ray pool (`ray_pool.py`). Each node with CPUs is tried with one
worker before it gets more. A worker that cannot start because a module is missing (a node
set up with Ray but not Grimoire's dependencies) is tried once more with the dependencies
installed by the job itself (Ray's `runtime_env` pip, from the requirements of the installed
distribution, else of the checkout's pyproject.toml); a node that still cannot start one is
unusable, and its cause is reported in one line (the CLI prints it, results.json keeps it).
Workers are placed on nodes by hand (a node-affinity strategy), the emptiest first, never
more than a node's CPUs, so a node that cannot play is not tried again and again.
"""

from __future__ import annotations

import importlib.metadata
import re
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_EXC_LINE = re.compile(r"^\s*([A-Za-z_][\w.]*(Error|Exception|Exit|Interrupt)|ModuleNotFoundError)\b.*")
_NO_MODULE = re.compile(r"No module named '([\w.]+)'")


def requirements() -> list[str]:
    """Grimoire's own dependencies (no extras): the installed distribution's, else the ones in
    the pyproject.toml beside this checkout; [] if neither is found."""
    try:
        reqs = importlib.metadata.requires("grimoire") or []
    except importlib.metadata.PackageNotFoundError:
        reqs = []
        pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
        if pyproject.is_file():
            import tomllib
            try:
                reqs = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
            except (tomllib.TOMLDecodeError, KeyError, OSError):
                reqs = []
    return [r for r in reqs if "extra ==" not in r.replace('"', "").replace("'", "")]


def cause_line(exc: BaseException) -> str:
    """The cause of a Ray error in one line: the original exception of a task when Ray kept
    it, else the last line of the traceback Ray printed, without its colour codes."""
    cause = getattr(exc, "cause", None)
    if isinstance(cause, BaseException) and not type(cause).__module__.startswith("ray."):
        text = str(cause).strip().splitlines()
        return f"{type(cause).__name__}: {text[0] if text else ''}".strip()[:300]
    lines = [ln.strip() for ln in _ANSI.sub("", str(exc)).splitlines() if ln.strip()]
    found = [ln for ln in lines if _EXC_LINE.match(ln)]
    return (found[-1] if found else lines[-1] if lines else type(exc).__name__)[:300]


@dataclass
class Node:
    """One node of the cluster, as the pool sees it."""

    id: str
    address: str
    cpus: int
    actors: int = 0           # live workers placed here (starting, idle or playing)
    trying: int = 0           # of which not yet started
    confirmed: bool = False   # a worker started here (in the current mode)
    pip: bool = False         # workers here get the dependencies installed by the job
    error: str | None = None  # why no worker can run here (unusable)
    missing: str = ""         # what a worker lacked before the job shipped the dependencies
    alive: bool = True

    @property
    def name(self) -> str:
        return f"{self.address} ({self.id[:8]})"

    def usable(self) -> bool:
        return self.alive and self.error is None

    def room(self) -> int:
        """How many more workers may be started here now."""
        if not self.usable():
            return 0
        if not self.confirmed:
            return 1 - self.trying  # one trial at a time
        return self.cpus - self.actors


class Nodes:
    """The nodes of the cluster: where the next worker goes, and what a failure means."""

    def __init__(self, ray, reqs: list[str] | None = None):
        self.ray = ray
        self.reqs = requirements() if reqs is None else reqs
        self.by_id: dict[str, Node] = {}

    def refresh(self) -> None:
        """Look at the cluster: new nodes join, dead ones leave."""
        seen = set()
        for n in self.ray.nodes():
            cpus = int(n.get("Resources", {}).get("CPU", 0))
            if not n.get("Alive") or cpus < 1:
                continue
            seen.add(n["NodeID"])
            if n["NodeID"] not in self.by_id:
                self.by_id[n["NodeID"]] = Node(n["NodeID"], n.get("NodeManagerAddress", "?"), cpus)
        for node in self.by_id.values():
            node.alive = node.id in seen

    def capacity(self) -> int:
        """CPUs of the nodes that can (or may yet) run a worker."""
        return sum(n.cpus for n in self.by_id.values() if n.usable())

    def pick(self) -> Node | None:
        """The node for one more worker (the emptiest with room), or None."""
        free = [n for n in self.by_id.values() if n.room() > 0]
        return min(free, key=lambda n: (n.actors / n.cpus, n.address, n.id)) if free else None

    def options(self, node: Node) -> dict:
        """Ray options placing a worker on `node` (with the dependencies if it needs them)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy
        opts = {"scheduling_strategy": NodeAffinitySchedulingStrategy(node.id, soft=False)}
        if node.pip:
            opts["runtime_env"] = {"pip": {"packages": list(self.reqs), "pip_check": False}}
        return opts

    def lacks_dependency(self, cause: str) -> bool:
        """The cause is a missing module that one of the requirements provides (a plug-in bot's
        own missing import is not mended by installing Grimoire's dependencies)."""
        m = _NO_MODULE.search(cause)
        if not m:
            return False
        top = m.group(1).split(".")[0].lower()
        return any(re.split(r"[^A-Za-z0-9_]", r.strip(), maxsplit=1)[0].lower().replace("-", "_") == top
                   for r in self.reqs)

    def placed(self, node: Node) -> None:
        node.actors += 1
        node.trying += 1

    def started(self, node: Node) -> None:
        node.trying -= 1
        node.confirmed = True

    def failed_start(self, node: Node, cause: str) -> None:
        """A worker could not start on `node`: try the shipped dependencies once, else give up there."""
        node.actors -= 1
        node.trying -= 1
        if not node.confirmed and not node.pip and self.lacks_dependency(cause):
            node.pip, node.missing = True, cause
            return
        if not node.confirmed:
            node.error = f"{node.missing}; installing the dependencies with the job failed: {cause}" \
                if node.pip else cause

    def gone(self, node: Node | None) -> None:
        """A started worker of `node` ended (lost, or stopped)."""
        if node is not None:
            node.actors = max(0, node.actors - 1)

    def unusable(self) -> list[Node]:
        return [n for n in self.by_id.values() if n.error is not None]

    def report(self) -> dict:
        """For results.json: the nodes that ran no worker (and why), and those given the dependencies."""
        return {"nodes_unusable": [{"node": n.address, "node_id": n.id, "cause": n.error} for n in self.unusable()],
                "nodes_given_dependencies": [{"node": n.address, "node_id": n.id, "packages": list(self.reqs)}
                                             for n in self.by_id.values() if n.pip and n.error is None]}
