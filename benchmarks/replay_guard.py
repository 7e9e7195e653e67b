"""Replay guard: digests of seeded random-bot games, to show a refactor changed no game.

Run: python benchmarks/replay_guard.py --out BEFORE.jsonl   (on the old code)
     python benchmarks/replay_guard.py --out AFTER.jsonl --compare BEFORE.jsonl

For every shipped ruleset, seeds 0-30 (--seeds) at three player counts of its allowed range
(smallest, middle, largest), one random bot per game (seeded with the game's seed) plays to
the end with the log on. Each game writes one JSON line with a digest of each part:

* options: at every decision, who decides, the prompt and kind, and every legal option id;
* choices: the option id taken;
* views: every player's view (`State.view`) at every decision (its log as the number of
  entries the player sees and the last TAIL of them) and at the end (whole);
* log: the full log (every event with its arguments, types, viewer mask and names);
* result: the result and the decision history.

`--compare` reports every game whose digests differ, part by part, and exits non-zero if
any does (or if a game is missing). This script is a measurement, not a test: rules changes
change the digests on purpose, so no test pins them.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.bots.random_bot import RandomBot  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402

PARTS = ("options", "choices", "views", "log", "result")
TAIL = 8  # the last log entries of a view digested at every decision


def _dump(x) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _view_at_decision(v: dict) -> dict:
    """A view with its log cut to the count and the last entries a player sees (a whole
    view's log at every decision makes the guard quadratic; the full log is digested at
    the end, and so are the full views)."""
    log = v.pop("log")
    v["log_len"] = len(log)
    v["log_tail"] = log[-TAIL:]
    return v


def player_counts(lo: int, hi: int) -> list[int]:
    """Three player counts of [lo, hi]: smallest, middle, largest (fewer if the range is)."""
    return sorted({lo, (lo + hi) // 2, hi})


def play(game, n: int, seed: int) -> dict:
    """One seeded random-bot game; the digest of each part and a few plain facts."""
    h = {k: hashlib.sha256() for k in PARTS}
    st = game.new_game(seed=seed, players=n)
    bot = RandomBot(seed)
    decisions = 0
    while not st.over:
        for p in range(st.n):
            h["views"].update(_dump(_view_at_decision(st.view(p))))
        d = st.decision()
        h["options"].update(_dump([d.player, d.prompt, d.kind, [o.id for o in d.options]]))
        oid = bot.choose(st)
        h["choices"].update(_dump([d.player, oid]))
        r = st.apply_in_place(oid)
        if r is not None:
            raise SystemExit(f"seed {seed}, {n} players: the bot's option {oid!r} was refused: {r}")
        decisions += 1
    for p in range(st.n):
        h["views"].update(_dump(st.view(p)))
    h["log"].update(_dump(st.log))
    h["result"].update(_dump([st.result, st.history, st.turn]))
    return {"decisions": decisions, "turns": st.turn, "reason": (st.result or {}).get("reason"),
            **{k: v.hexdigest()[:32] for k, v in h.items()}}


def run(seeds: range, names: list[str] | None) -> list[dict]:
    out = []
    for path in sorted(d for d in RULESETS.iterdir() if (d / "ruleset.yaml").is_file()):
        if names and path.name not in names:
            continue
        game = load(path)
        rs = game.ruleset
        for n in player_counts(rs.min_players, rs.max_players):
            for seed in seeds:
                out.append({"ruleset": path.name, "players": n, "seed": seed, **play(game, n, seed)})
    return out


def compare(now: list[dict], before_file: Path) -> int:
    """Print every difference from an earlier run; the number of games that differ."""
    key = lambda r: (r["ruleset"], r["players"], r["seed"])  # noqa: E731
    old = {key(r): r for r in map(json.loads, before_file.read_text().splitlines()) if r}
    new = {key(r): r for r in now}
    bad = 0
    for k in sorted(set(old) | set(new)):
        a, b = old.get(k), new.get(k)
        if a is None or b is None:
            print(f"{k}: only in the {'new' if a is None else 'earlier'} run")
            bad += 1
            continue
        diff = [p for p in PARTS if a[p] != b[p]]
        if diff:
            print(f"{k}: differs in {', '.join(diff)}")
            bad += 1
    print(f"{len(new)} games now, {len(old)} before: {len(new) - bad if bad <= len(new) else 0} identical, "
          f"{bad} different")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True, help="JSON lines, one game each")
    ap.add_argument("--compare", type=Path, help="an earlier --out to compare with")
    ap.add_argument("--seeds", type=int, default=31, help="seeds 0..N-1 (default 31)")
    ap.add_argument("--rulesets", help="comma-separated names (default: every shipped ruleset)")
    a = ap.parse_args(argv)
    t0 = time.process_time()
    rows = run(range(a.seeds), a.rulesets.split(",") if a.rulesets else None)
    a.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rows))
    print(f"{len(rows)} games, {sum(r['decisions'] for r in rows)} decisions, "
          f"{time.process_time() - t0:.1f} s CPU -> {a.out}")
    if a.compare is not None:
        return 1 if compare(rows, a.compare) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
