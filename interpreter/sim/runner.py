"""Play seeded games with bots and reduce each to a small result record.

Pipeline position: above the engine, beside the CLI. A batch is described by a `SimSpec`
(ruleset, variants, players, one bot kind per seat, search budget); game i of a batch uses
seed `base + i`, and every bot's seed is derived from the game seed and its seat, so a game's
result depends on its seed alone, never on which worker played it or in what order.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

from ..errors import GrimoireError

MAX_DECISIONS = 200_000  # a runaway game is cut off and reported, not played forever


@dataclass(frozen=True)
class SimSpec:
    """What to play: the same for every game of a batch."""

    ruleset: str
    variants: tuple = ()
    players: int | None = None
    bots: tuple = ("random",)      # one kind for every seat, or one per seat
    budget: int = 100              # MCTS iterations per decision
    depth: int | None = None       # MCTS rollout truncation (None: play to the end)
    rotate: bool = False           # game i shifts the seats' bots by i (fair seat sharing)
    scenario: str | None = None    # a scenario file: every game starts from its position
    options: dict = field(default_factory=dict, hash=False)  # extra bot options (c, seconds, temperature, ...)
    watch: tuple = ()              # action ids whose offers and takes each game counts ("actions")

    def to_dict(self) -> dict:
        d = asdict(self)
        d["variants"] = list(self.variants)
        d["bots"] = list(self.bots)
        return d


def load_game(spec: SimSpec):
    """Load the spec's ruleset with its variants (once per worker); with a scenario, the
    scenario's compiled position (a `Position`, whose `game` is the ruleset)."""
    if spec.scenario:
        from ..scenarios.run import position
        return position(spec.scenario, spec.variants)
    from ..game import load
    return load(spec.ruleset, list(spec.variants))


def seat_bots(spec: SimSpec, n: int, index: int) -> list[str]:
    """The bot kind of each seat in game number `index` of a batch."""
    kinds = list(spec.bots)
    if len(kinds) == 1:
        kinds = kinds * n
    if len(kinds) != n:
        raise ValueError(f"{len(kinds)} bots named for a {n}-player game")
    if spec.rotate and n:
        k = index % n
        kinds = kinds[-k:] + kinds[:-k] if k else kinds
    return kinds


def play_game(game, spec: SimSpec, seed: int, index: int = 0) -> dict:
    """Play one game with bots; return seed, winners, winning sides, reason, decisions, turns.
    `game` is what `load_game` returned: a Game, or a scenario's Position to start from."""
    from ..bots import BELIEVERS, Seat, make_bot
    from ..bots.beliefs import beliefs_for
    pos = None
    if spec.scenario:
        pos, game = game, game.game
    n = spec.players if spec.players is not None else game.ruleset.min_players
    kinds = seat_bots(spec, n, index)
    t0 = time.perf_counter()
    st = None if pos is not None else game.new_game(seed=seed, players=n, record=False)
    bots = [make_bot(kind, seed * 1000 + p, game, **bot_options(spec, kind)) for p, kind in enumerate(kinds)]
    decisions = 0
    out = {"seed": seed, "index": index, "players": n, "bots": kinds}
    counts = {a: [0, 0] for a in spec.watch} if spec.watch else None
    try:
        if st is None:  # the scenario's position; a statement failing on this seed is reported
            from ..scenarios.run import play_position
            st = play_position(pos, seed)
        table = beliefs_for(game, st) if any(k in BELIEVERS for k in kinds) else None
        while not st.over:
            if decisions >= MAX_DECISIONS:
                st.finish("decision_limit", [])
                break
            seat = Seat(st, table)
            oid = bots[st.current_player()].choose(seat)
            if counts is not None:
                count_offer(st, seat.options, oid, counts)
            if table is not None:
                table.before(st, oid)
            refused = st.apply_in_place(oid)
            if refused is not None:
                raise GrimoireError(f"bot chose an illegal option: {refused.message}")
            if table is not None:
                table.after(st)
            decisions += 1
    except GrimoireError as e:  # a ruleset bug met in play: report the game, keep the batch
        out.update(winners=[], sides=[], reason="error", error=str(e).splitlines()[0][:300],
                   decisions=decisions, turns=st.turn if st is not None else 0, player_sides=[],
                   seconds=round(time.perf_counter() - t0, 4))
        _offers(out, counts)
        return out
    _offers(out, counts)
    res = st.result or {}
    out.update(winners=list(res.get("winners", [])), sides=list(res.get("sides", [])),
               reason=res.get("reason", ""), decisions=decisions, turns=st.turn,
               player_sides=[game.table(n).side_of(st, p) for p in range(n)],
               seconds=round(time.perf_counter() - t0, 4))
    if game.program.stats_fns:
        out["stats"], errors = end_stats(game, st)
        if errors:
            out["stats_errors"] = errors
    return out


def count_offer(st, options: list, oid: str, counts: dict) -> None:
    """Count, for every watched action offered at st's pending act decision, one offer, and
    one take for the action of the chosen option `oid` (counts: action id -> [offers, takes])."""
    if st.pending["k"] != "act":
        return
    chosen = None
    for a in {o.value[0] for o in options if o.value is not None and o.value[0] in counts}:
        counts[a][0] += 1
        if chosen is None:
            chosen = next((o.value for o in options if o.id == oid), None)
        if chosen is not None and chosen[0] == a:
            counts[a][1] += 1


def _offers(out: dict, counts: dict | None) -> None:
    if counts is not None:
        out["actions"] = {a: {"offered": k, "taken": t} for a, (k, t) in counts.items()}


POLICY_OPTIONS = ("temperature", "weights", "probe", "probe_worlds", "probe_delta", "probe_width",
                  "probe_horizon", "probe_once")  # a policy bot
ROLLOUT_OPTIONS = ("width", "worlds", "screen", "horizon", "delta", "futility", "quiet", "extend")  # and a rollout bot
ROLLOUT_ONLY = ("width", "worlds", "screen", "delta", "futility", "quiet", "extend")  # `horizon`: MCTS too


def bot_options(spec: SimSpec, kind: str) -> dict:
    """The construction options of a bot of this kind in the spec's games."""
    if kind == "mcts":
        return {"iterations": spec.budget, "depth": spec.depth,
                **{k: v for k, v in spec.options.items() if k not in POLICY_OPTIONS + ROLLOUT_ONLY}}
    if kind == "policy":
        return {k: v for k, v in spec.options.items() if k in POLICY_OPTIONS}
    if kind == "rollout":
        return {k: v for k, v in spec.options.items() if k in ROLLOUT_OPTIONS}
    return {}


def end_stats(game, st) -> tuple[dict, dict]:
    """The ruleset's `stats:` read on a finished game, and the errors of those that failed to
    evaluate (left out of the values; the game's result still counts)."""
    frame = [None, 0, {"me": st.current if st.current is not None else 0}, None]
    values, errors = {}, {}
    for name, fn in game.program.stats_fns.items():
        try:
            v = fn(st, frame)
        except Exception as e:  # a rules bug in a statistic must not lose the game's result
            errors[name] = f"{type(e).__name__}: {e}"[:200]
            continue
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            values[name] = v
        else:
            errors[name] = f"not a number: {v!r}"[:200]
    return values, errors


def play_seeds(game, spec: SimSpec, items: list[tuple[int, int]]) -> list[dict]:
    """Play the games (index, seed) in order."""
    return [play_game(game, spec, seed, index) for index, seed in items]


def same_outcome(a: dict, b: dict) -> bool:
    """Two results of one seed agree in everything but timing."""
    skip = {"seconds"}
    return {k: v for k, v in a.items() if k not in skip} == {k: v for k, v in b.items() if k not in skip}


_GAMES: dict = {}


def run_one(ruleset: str, seed: int, players: int | None = None, bots=("random",),
            variants=(), **spec_options) -> dict:
    """Load a ruleset (cached per process) and play one game: the one-call form of play_game."""
    spec = SimSpec(str(ruleset), tuple(variants), players, tuple(bots), **spec_options)
    key = (spec.ruleset, spec.variants)
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = load_game(spec)
    return play_game(game, spec, seed)
