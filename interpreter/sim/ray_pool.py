"""The Ray backend: a pool of actors, one CPU each, that follows the cluster and survives losses.

Pipeline position: under `backends.py`, over the runner and the bundle. Ray's scheduler places
the actors (each declares `num_cpus=1`, so `--jobs 8` on two CPUs runs two at a time, not
eight); the pool asks for as many as the cluster has CPUs, looks again every few seconds, and
grows as nodes join. A chunk goes to an actor once it has started, so a pending actor holds no
work. A chunk whose actor dies (a killed process, a lost node) goes back to the queue and is
played again elsewhere: games are deterministic, so the retry gives exactly the result the
lost one would have. Chunks are sized from the measured seconds per game, about a second of
work each, and smaller near the end so that no worker is left with the tail. The pool is kept
across batches (`--compare`, sweeps): actors start once, and hold each compiled ruleset.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator

from .bundle import Bundle, pack, unpack
from .ray_connect import BackendError
from .ray_nodes import Nodes, cause_line
from .runner import SimSpec, load_game, play_seeds

CHUNK_SECONDS = 1.0    # work per chunk, from the measured time per game
MAX_CHUNK = 256
RESCALE_SECONDS = 3.0  # how often the pool looks at the cluster's CPUs
MAX_RETRIES = 3        # a chunk that has killed this many workers stops the run


class _Worker:
    """One actor: unpacks a batch's files once, keeps the compiled game, plays chunks."""

    def __init__(self):
        self.games: dict = {}

    def ready(self, plugins: tuple = ()) -> dict:
        """Where this worker runs, once it has imported the game and the plug-in bots (an
        ImportError here makes the node unusable, with its cause)."""
        import ray

        from ..bots.plugin import load_bot_class
        from ..game import load  # noqa: F401  (the dependencies: lark, ruamel.yaml, ...)
        for kind in plugins:
            load_bot_class(kind)
        return {"pid": os.getpid(), "node": ray.get_runtime_context().get_node_id()}

    def where(self, modules: tuple = ()) -> dict:
        """Where this worker's code comes from (the tests check it is not the driver's checkout),
        and the files the named modules were imported from."""
        import importlib
        return {"interpreter": sys.modules["interpreter"].__file__, "sys_path": list(sys.path), "cwd": os.getcwd(),
                "modules": {m: importlib.import_module(m).__file__ for m in modules}}

    def play(self, key: str, holder: list, items: list) -> list[dict]:
        got = self.games.get(key)
        if got is None:
            import ray
            bundle: Bundle = ray.get(holder[0])
            spec = unpack(bundle)
            try:
                got = self.games[key] = (spec, load_game(spec))
            finally:  # compiled: the files are not read again
                shutil.rmtree(os.path.dirname(spec.ruleset), ignore_errors=True)
        spec, game = got
        return play_seeds(game, spec, items)


class _Sizer:
    """Games per chunk: about CHUNK_SECONDS of work by the measured seconds per game."""

    def __init__(self) -> None:
        self.games = 0
        self.seconds = 0.0

    def add(self, results: list[dict]) -> None:
        self.games += len(results)
        self.seconds += sum(r.get("seconds", 0.0) for r in results)

    def size(self, left: int, workers: int) -> int:
        if not self.games:
            return 1  # the first chunks measure
        per_game = max(self.seconds / self.games, 1e-5)
        tail = max(1, left // max(1, 2 * workers))  # near the end every worker gets a share
        return max(1, min(MAX_CHUNK, int(CHUNK_SECONDS / per_game), tail))


class RayPool:
    """Actors on a Ray cluster, kept for every batch of one command."""

    def __init__(self, ray, jobs: int | None = None, plugins: tuple = (), reqs: list[str] | None = None):
        self.ray = ray
        self.jobs = jobs
        self.plugins = tuple(plugins)
        self.actor_class = ray.remote(num_cpus=1, max_restarts=0)(_Worker)
        self.nodes = Nodes(ray, reqs)
        self.idle: list = []
        self.starting: dict = {}  # ready ref -> actor
        self.busy: dict = {}      # result ref -> (actor, chunk)
        self.info_of: dict = {}   # actor id -> its ready() info
        self.node_of: dict = {}   # actor id -> the Node it was placed on
        self.used: set = set()    # actors that finished a chunk
        self.bundles: dict = {}
        self.lost = 0
        self._looked = 0.0
        errors = ray.exceptions
        self.lost_errors = tuple(getattr(errors, n) for n in (
            "RayActorError", "WorkerCrashedError", "ObjectLostError", "NodeDiedError",
            "OwnerDiedError", "ActorUnavailableError", "OutOfMemoryError") if hasattr(errors, n))
        # an actor that cannot start: its __init__ failed, or its runtime_env (code) could not be set up
        self.start_errors = tuple(getattr(errors, n) for n in ("RayTaskError", "RuntimeEnvSetupError")
                                  if hasattr(errors, n))

    # ---- the cluster -----------------------------------------------------------------------

    def wanted(self) -> int:
        """How many actors: one per CPU of the nodes that can run one, at most --jobs."""
        room = self.nodes.capacity()
        return min(self.jobs, room) if self.jobs else room

    def alive(self) -> int:
        return len(self.idle) + len(self.starting) + len(self.busy)

    def scale(self, force: bool = False) -> None:
        """Start actors up to `wanted()`, each on a node with room (looked up at most every
        RESCALE_SECONDS); raise BackendError when no node of the cluster can run one."""
        now = time.monotonic()
        if not force and now - self._looked < RESCALE_SECONDS:
            return
        self._looked = now
        self.nodes.refresh()
        while self.alive() < self.wanted():
            node = self.nodes.pick()
            if node is None:
                break
            a = self.actor_class.options(**self.nodes.options(node)).remote()
            self.nodes.placed(node)
            self.node_of[a._actor_id.hex()] = node
            self.starting[a.ready.remote(self.plugins)] = a
        if not self.alive() and self.nodes.by_id and not self.nodes.capacity():
            causes = "; ".join(f"{n.name}: {n.error}" for n in self.nodes.unusable())
            raise BackendError(f"no Ray node can run a worker: {causes}")

    def workers(self) -> list:
        """The started actors (idle or playing)."""
        return self.idle + [a for a, _ in self.busy.values()]

    def info(self) -> dict:
        """Workers used, nodes, Ray version, the nodes that ran no worker: for results.json."""
        used = [self.info_of[k] for k in self.used if k in self.info_of]
        return {"workers": len(used), "nodes": len({i["node"] for i in used}),
                "ray_version": self.ray.__version__, "workers_lost": self.lost, **self.nodes.report()}

    # ---- a batch --------------------------------------------------------------------------

    def _ship(self, spec: SimSpec) -> tuple[str, list]:
        """The bundle of a spec in the object store, once per command (driver reads files once)."""
        bundle = pack(spec)
        if bundle.key not in self.bundles:
            self.bundles[bundle.key] = [self.ray.put(bundle)]  # in a list: Ray passes the ref as is
        return bundle.key, self.bundles[bundle.key]

    def run(self, spec: SimSpec, items: Iterable[tuple[int, int]]) -> Iterator[dict]:
        """Play the (index, seed) items; yield results as chunks finish."""
        ray = self.ray
        key, holder = self._ship(spec)
        queue = deque(items)
        left = {index for index, _ in queue}  # a retried chunk may also have finished: once each
        sizer = _Sizer()
        tries: Counter = Counter()
        self.scale(force=True)
        try:
            while left:
                self.scale()
                while self.idle and queue:
                    n = sizer.size(len(queue), self.alive())
                    chunk = [queue.popleft() for _ in range(min(n, len(queue)))]
                    a = self.idle.pop()
                    self.busy[a.play.remote(key, holder, chunk)] = (a, chunk)
                if not queue and not self.busy:  # cannot happen: every game is queued, running or done
                    raise BackendError(f"{len(left)} games were neither queued nor running")
                refs = list(self.starting) + list(self.busy)
                if not refs:  # no node has room now: look again soon
                    time.sleep(0.5)
                    self.scale(force=True)
                    continue
                done, _ = ray.wait(refs, num_returns=1, timeout=1.0)
                for ref in done:
                    if ref in self.starting:
                        self._started(ref)
                        continue
                    a, chunk = self.busy.pop(ref)
                    try:
                        results = ray.get(ref)
                    except self.lost_errors:
                        self._lost(a, chunk, tries)
                        queue.extendleft(reversed([it for it in chunk if it[0] in left]))
                        continue
                    except self.start_errors as e:  # the chunk raised in the worker: one line
                        self.busy[ref] = (a, chunk)  # stopped with the others below
                        raise self.failed(a, e) from None
                    self.idle.append(a)
                    self.used.add(a._actor_id.hex())
                    sizer.add(results)
                    for r in results:
                        if r["index"] in left:
                            left.discard(r["index"])
                            yield r
        finally:
            if self.busy:  # stopped early (Ctrl-C, an error): those actors' work is dropped
                for a, _ in self.busy.values():
                    self._kill(a)
                self.busy.clear()

    def _started(self, ref) -> None:
        a = self.starting.pop(ref)
        node = self.node_of.get(a._actor_id.hex())
        try:
            self.info_of[a._actor_id.hex()] = self.ray.get(ref)
        except self.lost_errors + self.start_errors as e:
            self._kill(a)
            if node is not None:
                self.nodes.failed_start(node, cause_line(e))
            self.scale(force=True)  # the next try: with the dependencies, or on another node
            return
        if node is not None:
            self.nodes.started(node)
        self.idle.append(a)

    def _lost(self, actor, chunk, tries: Counter) -> None:
        self.lost += 1
        self._kill(actor)
        self.nodes.gone(self.node_of.pop(actor._actor_id.hex(), None))
        tries[chunk[0]] += 1
        if tries[chunk[0]] >= MAX_RETRIES:
            raise BackendError(f"games {chunk[0][0]}..{chunk[-1][0]} lost their worker {MAX_RETRIES} times")

    def failed(self, actor, e: BaseException) -> BackendError:
        """A worker's chunk raised: the cause in one line, with the node it ran on."""
        node = self.node_of.get(actor._actor_id.hex())
        where = node.name if node is not None else "?"
        cause = cause_line(e)
        return BackendError(f"a worker on Ray node {where} failed: {cause}", "cli-sim-worker-failed",
                            node=where, cause=cause)

    def _kill(self, actor) -> None:
        try:
            self.ray.kill(actor)
        except Exception:  # already dead: nothing to stop
            pass

    def close(self) -> None:
        """Stop every actor of the pool."""
        for a in self.workers() + list(self.starting.values()):
            self._kill(a)
        self.idle.clear()
        self.busy.clear()
        self.starting.clear()
