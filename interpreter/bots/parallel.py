"""Root-parallel search: several processes search the same decision, their trees are summed.

Pipeline position: beside the search bot (mcts.py), which calls `root_parallel` when it has
`workers > 1`. Each worker is a forked process holding the bot's game and settings; per
decision it gets a world drawn from the bot's view (as a save: never the real state, so a
worker knows no more than the bot), searches it with its own seed for its share of the
iterations, and sends back the root's children (visits and summed rewards). The bot then
plays the option with the most visits over all workers. With a fixed iteration budget the
result depends only on the bot's seed and the world, not on which process finished first.
"""

from __future__ import annotations

import multiprocessing as mp

from ..engine.rng import Rng, seed_state

_BOT = None  # the worker's copy of the bot (set by the pool's initializer, inherited by fork)


def _init(bot) -> None:
    global _BOT
    _BOT = bot
    bot.workers = 1
    bot._pool = None


def _search(task) -> dict:
    data, seed, iterations = task
    bot = _BOT
    from .base import Seat
    world = Seat(bot.game.state_from_json(data))
    bot.rng = Rng(seed_state(seed))
    root = bot.search(world, iterations)
    return {oid: (ch.visits, ch.reward, ch.sq, ch.avail) for oid, ch in root.children.items()}


def pool_for(bot):
    """The bot's worker pool, started on first use (fork where the platform has it)."""
    if bot._pool is None:
        methods = mp.get_all_start_methods()
        ctx = mp.get_context("fork" if "fork" in methods else methods[0])
        bot._pool = ctx.Pool(bot.workers, initializer=_init, initargs=(bot,))
    return bot._pool


def root_parallel(bot, world, node):
    """Search `world` (a state drawn from the bot's view) in `bot.workers` processes and
    return one root (`node`, the search's node class) whose children hold the summed statistics."""
    Node = node
    n = bot.workers
    data = world.to_json()
    share = [bot.iterations // n + (1 if i < bot.iterations % n else 0) for i in range(n)]
    tasks = [(data, bot.rng.below(1 << 62), k) for k in share if k > 0]
    root = Node(None)
    for part in pool_for(bot).map(_search, tasks):
        for oid, (v, r, sq, av) in part.items():
            ch = root.children.get(oid)
            if ch is None:
                ch = root.children[oid] = Node(world.current_player())
            ch.visits += v
            ch.reward += r
            ch.sq += sq
            ch.avail += av
            root.visits += v
    return root


def close(bot) -> None:
    """Stop the bot's worker processes, if it started any."""
    if bot._pool is not None:
        bot._pool.terminate()
        bot._pool.join()
        bot._pool = None
