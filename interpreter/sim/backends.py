"""Where a batch of games runs: this process, a local process pool, or a Ray cluster.

Pipeline position: above the runner. Every backend plays the same (index, seed) items with
the same `play_game`, so results depend only on the seeds; the split into chunks only
decides what runs where. Each worker loads (and compiles) the ruleset once. Results are
yielded as chunks finish, in no particular order; `run_batch` callers sort by index.

A `Session` holds the workers of one command, so that `--compare` and sweeps start them once;
the Ray pool itself is in `ray_pool.py`. Closing the generator (or Ctrl-C while waiting on it)
stops the workers: finished games have been yielded already, unfinished ones are dropped.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Iterable, Iterator

from .ray_connect import BackendError
from .runner import SimSpec, load_game, play_game, play_seeds

BACKENDS = ("local", "ray")


def plan(items: list[tuple[int, int]], jobs: int) -> list[list[tuple[int, int]]]:
    """Split (index, seed) items into chunks for a local pool of `jobs` workers."""
    size = max(1, min(16, len(items) // max(1, jobs * 8)))
    return [items[k:k + size] for k in range(0, len(items), size)]


def batch_items(seed: int, games: int, skip: Iterable[int] = ()) -> list[tuple[int, int]]:
    """The (index, seed) of games 0..games-1 but those in `skip`; game i has seed `seed + i`."""
    skip = set(skip)
    return [(i, seed + i) for i in range(games) if i not in skip]


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Session:
    """The workers of one command: how to run batches, and (on Ray) the pool kept between them.

    Raises BackendError (one line) when the backend cannot start: no Ray, a bad or unreachable
    address, an address given to the local backend."""

    def __init__(self, backend: str = "local", jobs: int | None = None, address: str | None = None,
                 connect_timeout: float | None = None, plugins: tuple = ()):
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} ({', '.join(BACKENDS)})")
        if jobs is not None and jobs < 1:
            raise BackendError(f"--jobs must be at least 1, not {jobs}")
        self.backend, self.jobs, self.pool, self._ray, self._started = backend, jobs, None, None, False
        self.jobs_requested = jobs
        if backend == "local":
            if address:
                raise BackendError(f"--address {address} is for --backend ray; the local backend "
                                   f"runs on this machine")
            # never more processes than cores: --jobs 10000 would only fork 10000 copies to share them
            self.jobs = min(jobs, default_jobs()) if jobs else default_jobs()
            self.jobs_requested = jobs
            return
        from .ray_connect import CONNECT_TIMEOUT, connect, import_ray, plugin_paths
        from .ray_pool import RayPool
        self._ray = import_ray()
        # plug-in bots (package.module:Class) go with the job, as the interpreter does
        self._started = connect(self._ray, address, jobs, connect_timeout or CONNECT_TIMEOUT,
                                ship=plugin_paths(plugins))
        self.pool = RayPool(self._ray, jobs, plugins)

    def run(self, spec: SimSpec, seed: int, games: int, skip: Iterable[int] = ()) -> Iterator[dict]:
        """Yield the result of every game of the batch (but `skip`) as it finishes."""
        items = batch_items(seed, games, skip)
        if self.pool is not None:
            return self.pool.run(spec, items)
        if self.jobs == 1:
            return _run_inline(spec, items)
        return _run_pool(spec, items, self.jobs)

    def info(self) -> dict:
        """Where the games ran: backend, jobs, workers used (and on Ray nodes and version)."""
        out = {"backend": self.backend, "jobs": self.jobs}
        if self.jobs_requested is not None and self.jobs_requested != self.jobs:
            out["jobs_requested"] = self.jobs_requested
        if self.pool is not None:
            out.update(self.pool.info())
        else:
            out["workers"] = self.jobs
        return out

    def close(self) -> None:
        """Stop the workers (and Ray, if this session started it)."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if self._started:
            self._ray.shutdown()
            self._started = False

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def run_batch(spec: SimSpec, seed: int, games: int, jobs: int | None = None,
              backend: str = "local", address: str | None = None) -> Iterator[dict]:
    """Yield the result of every game of the batch as it finishes (a session of its own)."""
    with Session(backend, jobs, address) as session:
        yield from session.run(spec, seed, games)


def _run_inline(spec: SimSpec, items: list[tuple[int, int]]) -> Iterator[dict]:
    game = load_game(spec)
    for index, seed in items:
        yield play_game(game, spec, seed, index)


# ---- local process pool -------------------------------------------------------------------------

_worker: dict = {}


def _init_worker(spec: SimSpec, parent: int) -> None:
    # Ctrl-C goes to the whole process group; the parent decides what stops, not the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(parent)
    _worker["spec"] = spec
    _worker["game"] = load_game(spec)


def die_with_parent(parent: int) -> None:
    """End this worker when its parent process ends, however it ends (SIGKILL included).

    On Linux the kernel sends SIGKILL on the parent's death (prctl PR_SET_PDEATHSIG); a thread
    also checks every second that the parent is still the one that started us (other systems,
    and a parent that died before the prctl call)."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):  # no libc prctl: the thread below still watches
            pass
    if os.getppid() != parent:
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="grimoire-parent-watch", daemon=True).start()


def _work(items: list[tuple[int, int]]) -> list[dict]:
    return play_seeds(_worker["game"], _worker["spec"], items)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a `kill`, a job scheduler's stop): handled like Ctrl-C, the exit code is 143."""


def raise_terminated(signum, frame) -> None:
    """A SIGTERM handler: stop as Ctrl-C does (finished games are kept, workers stopped)."""
    raise Terminated


class _Interrupts:
    """Ctrl-C and SIGTERM as a flag while a pool runs, turned into KeyboardInterrupt at a safe point.

    A KeyboardInterrupt raised inside concurrent.futures.wait can leave futures' locks held,
    and the pool's manager thread then deadlocks at exit; so the signal only sets a flag.
    """

    def __init__(self) -> None:
        self.hit: int | None = None
        self.old: dict = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                old = signal.getsignal(sig)
                if old is not None and old is not signal.SIG_IGN:  # None: a handler set outside Python
                    self.old[sig] = signal.signal(sig, self._on)
        return self

    def _on(self, signum, frame) -> None:
        self.hit = signum

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl-C was pressed (Terminated for SIGTERM)."""
        if self.hit is not None:
            hit, self.hit = self.hit, None
            raise Terminated if hit == signal.SIGTERM else KeyboardInterrupt

    def __exit__(self, *exc) -> None:
        for sig, old in self.old.items():
            signal.signal(sig, old)
        self.old.clear()


def _run_pool(spec: SimSpec, items: list[tuple[int, int]], jobs: int) -> Iterator[dict]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    # fork where there is one: workers start fast and scripts need no `if __name__ ==
    # "__main__"` guard (spawn re-imports the main module). The simulate command runs no
    # other thread while forking (its progress bar refreshes by hand).
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                               initargs=(spec, os.getpid()))
    chunks = iter(plan(items, jobs))
    pending: set = set()

    def fill() -> None:  # a few chunks in flight per worker, not the whole batch
        while len(pending) < 2 * jobs:
            chunk = next(chunks, None)
            if chunk is None:
                return
            pending.add(pool.submit(_work, chunk))

    try:
        with _Interrupts() as ctrl_c:
            fill()
            while pending:
                done, rest = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                pending.clear()
                pending.update(rest)
                ctrl_c.check()
                fill()
                for fut in done:
                    yield from fut.result()
                ctrl_c.check()
    finally:
        procs = list(getattr(pool, "_processes", {}).values())  # no public way to stop workers
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)
