"""Where a batch of games runs: this process, a local process pool, or a Ray cluster.

Pipeline position: above the runner. Every backend plays the same (index, seed) items with
the same `play_game`, so results depend only on the seeds; the split into chunks only
decides what runs where. Each worker loads (and compiles) the ruleset once. Results are
yielded as chunks finish, in no particular order; `run_batch` callers sort by index.

Closing the generator (or Ctrl-C while waiting on it) stops the workers: finished games
have been yielded already, unfinished ones are dropped.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

from .runner import SimSpec, load_game, play_game, play_seeds

BACKENDS = ("local", "ray")


def plan(seed: int, games: int, jobs: int, first: int = 0) -> list[list[tuple[int, int]]]:
    """Split games first..games-1 into chunks of (index, seed); game i has seed `seed + i`."""
    items = [(i, seed + i) for i in range(first, games)]
    size = max(1, min(16, len(items) // max(1, jobs * 8)))
    return [items[k:k + size] for k in range(0, len(items), size)]


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_batch(spec: SimSpec, seed: int, games: int, jobs: int | None = None,
              backend: str = "local", address: str | None = None) -> Iterator[dict]:
    """Yield the result of every game of the batch as it finishes."""
    if backend == "ray":
        return _run_ray(spec, seed, games, jobs, address)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r} ({', '.join(BACKENDS)})")
    jobs = jobs or default_jobs()
    if jobs == 1:
        return _run_inline(spec, seed, games)
    return _run_pool(spec, seed, games, jobs)


def _run_inline(spec: SimSpec, seed: int, games: int) -> Iterator[dict]:
    game = load_game(spec)
    for i in range(games):
        yield play_game(game, spec, seed + i, i)


# ---- local process pool -------------------------------------------------------------------------

_worker: dict = {}


def _init_worker(spec: SimSpec) -> None:
    # Ctrl-C goes to the whole process group; the parent decides what stops, not the workers
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _worker["spec"] = spec
    _worker["game"] = load_game(spec)


def _work(items: list[tuple[int, int]]) -> list[dict]:
    return play_seeds(_worker["game"], _worker["spec"], items)


class _Interrupts:
    """Ctrl-C as a flag while a pool runs, turned into KeyboardInterrupt at a safe point.

    A KeyboardInterrupt raised inside concurrent.futures.wait can leave futures' locks held,
    and the pool's manager thread then deadlocks at exit; so the signal only sets a flag.
    """

    def __init__(self) -> None:
        self.hit = False
        self.old = None

    def __enter__(self):
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN):
            self.old = signal.signal(signal.SIGINT, self._on)
        return self

    def _on(self, signum, frame) -> None:
        self.hit = True

    def check(self) -> None:
        """Raise KeyboardInterrupt if Ctrl-C was pressed."""
        if self.hit:
            self.hit = False
            raise KeyboardInterrupt

    def __exit__(self, *exc) -> None:
        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)
            self.old = None


def _run_pool(spec: SimSpec, seed: int, games: int, jobs: int) -> Iterator[dict]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    # fork where there is one: workers start fast and scripts need no `if __name__ ==
    # "__main__"` guard (spawn re-imports the main module). The simulate command runs no
    # other thread while forking (its progress bar refreshes by hand).
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_init_worker,
                               initargs=(spec,))
    chunks = iter(plan(seed, games, jobs))
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


# ---- Ray ------------------------------------------------------------------------------------------

def _run_ray(spec: SimSpec, seed: int, games: int, jobs: int | None, address: str | None) -> Iterator[dict]:
    try:
        import ray
    except ImportError as e:
        raise RuntimeError("the Ray backend needs Ray: pip install 'grimoire[ray]'") from e
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=jobs, log_to_driver=False)
        started = True
    try:
        yield from _ray_batch(ray, spec, seed, games, jobs)
    finally:
        if started:
            ray.shutdown()


def _ray_batch(ray, spec: SimSpec, seed: int, games: int, jobs: int | None) -> Iterator[dict]:
    @ray.remote
    class Worker:
        """Holds one compiled ruleset and plays chunks of seeds."""

        def __init__(self, spec):
            self.spec = spec
            self.game = load_game(spec)

        def play(self, items):
            return play_seeds(self.game, self.spec, items)

    n = jobs or max(1, int(ray.available_resources().get("CPU", 1)))
    workers = [Worker.remote(spec) for _ in range(n)]
    chunks = plan(seed, games, n)
    chunks.reverse()
    running: dict = {}
    try:
        for w in workers:  # two chunks in flight per worker hides the round trip
            for _ in range(2):
                if chunks:
                    running[w.play.remote(chunks.pop())] = w
        while running:
            [ref], _ = ray.wait(list(running), num_returns=1)
            w = running.pop(ref)
            if chunks:
                running[w.play.remote(chunks.pop())] = w
            yield from ray.get(ref)
    finally:
        for w in workers:
            ray.kill(w)
