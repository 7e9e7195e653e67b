"""The hidden-information figures of issue 14, before and after the fix, on random games.

    python benchmarks/leak_figures.py            # this branch: fixed windows, determinize, log
    python benchmarks/leak_figures.py --before   # the Castle windows (tests/fixtures variant),
                                                 # determinize and act-log settling of before

`--before` runs this branch's engine with three parts put back as they were before the fix
(main at a4eb69c): the Castle fight windows and trade answer
(tests/fixtures/castle_leaky_windows.yaml), and `determinize` and `settle_act_log`, read with
`git show a4eb69c:...`. Figures:

- windows: over 40 random Castle games (3..10 players), how often the player asked in the
  Priest / Hypnotist / item window could act (held an unused Priest, ...), and how many trade
  offers were settled without asking the target;
- leaks: what the leak check (tests/leakcheck.py) finds in 8 of those games (40 steps each);
- determinize: at every 3rd decision point of the 40 games, in the decider's world: log
  entries it may not read, decisions of the history kept, and decision points where a
  suspended frame still holds the real card of a place the re-deal gave another card;
- play log: 10 Castle games printed as `grimoire play` prints them (each viewer's new lines
  at each decision): lines printed twice and lines never printed, for the first seat and for
  the spectator of an all-bot game.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
import types
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from interpreter.engine import decisions  # noqa: E402
from interpreter.engine.rng import Rng  # noqa: E402
from interpreter.engine.state import SPECTATOR  # noqa: E402
from interpreter.engine.views import card_locals  # noqa: E402
from interpreter.game import RULESETS, load  # noqa: E402
from interpreter.i18n import Text  # noqa: E402

LEAKY = ROOT / "tests" / "fixtures" / "castle_leaky_windows.yaml"
BEFORE = "a4eb69c"  # main before the fix


def main_module(path: str, name: str):
    """A module of the tree before the fix, run inside this package (its relative imports
    resolve here)."""
    src = subprocess.run(["git", "-C", str(ROOT), "show", f"{BEFORE}:{path}"], check=True,
                         capture_output=True, text=True).stdout
    mod = types.ModuleType(f"interpreter.engine.{name}")
    mod.__package__ = "interpreter.engine"
    exec(compile(src, f"{BEFORE}:{path}", "exec"), mod.__dict__)
    return mod


def games(game, n_games=40):
    """(players, seed, the decision points' states) of random games; states are copies."""
    for seed in range(n_games):
        n = 3 + seed % 8
        st = game.new_game(seed=seed, players=n)
        rng = random.Random(seed)
        points = []
        while not st.over:
            points.append(st.clone())
            opts = st.options()
            st.apply_in_place(opts[rng.randrange(len(opts))].id)
        yield n, seed, points


def window_figures(game) -> dict:
    asked, could = Counter(), Counter()
    offers = unasked = 0
    for _, _, points in games(game):
        for i, st in enumerate(points):
            pend = st.pending
            if pend["k"] == "act" and pend["g"] in ("priest", "hypnosis", "fight"):
                asked[pend["g"]] += 1
                could[pend["g"]] += any(o.id != "pass" for o in st.options())
            if st.history and st.history[-1].startswith("trade:") and i > 0:
                offers += 1
                unasked += pend.get("prompt") != "trade_answer"
    return {"asked": dict(asked), "could_act": dict(could), "trade_offers": offers,
            "offers_settled_without_asking": unasked}


def leak_figures(game) -> dict:
    from leakcheck import leaks_in_game, prompts_of
    found, compared, kinds = 0, 0, Counter()
    for seed in range(8):
        leaks, c = leaks_in_game(game, 3 + seed, seed, worlds=2, points=40)
        found += len(leaks)
        compared += c
        for x in leaks:
            kinds[",".join(sorted(prompts_of(x))) or "log"] += 1
    return {"steps_compared": compared, "leaks": found, "by_prompt": dict(kinds)}


def determinize_figures(game, determinize) -> dict:
    points = hidden_kept = history_kept = stale_cases = 0
    for _, seed, states in games(game):
        for k, st in enumerate(states[::3]):
            p = st.pending["p"]
            w = determinize(st, p, Rng(seed * 100_000 + k))
            points += 1
            pend = {fr[2]["i"] for fr in w.stack if fr[0] == decisions.ACT_LOG}
            hidden_kept += sum(1 for i, e in enumerate(w.log) if not e[3] & (1 << p) and i not in pend)
            history_kept += len(w.history)
            # a card the re-deal replaced in its place, still held by a suspended frame
            swapped = {c for z, zz in enumerate(st.zones) for i, c in enumerate(zz) if w.zones[z][i] != c}
            stale = False
            for fr, wf in zip(st.stack, w.stack):
                for name, t in card_locals(st.g, fr[0]).items():
                    v, wv = fr[2].get(name), wf[2].get(name)
                    vals = v if isinstance(v, list) else [v]
                    wvals = wv if isinstance(wv, list) else [wv]
                    stale |= any(c in swapped and c == wc for c, wc in zip(vals, wvals))
            stale_cases += stale
    return {"decision_points": points, "hidden_log_entries_kept": hidden_kept,
            "history_entries_kept": history_kept, "points_with_real_card_in_a_frame": stale_cases}


def play_log_figures(game) -> dict:
    text = Text(game.program, "en")
    out = {}
    for who, bit in (("first seat", 1), ("spectator", SPECTATOR)):
        extra = missing = total = 0
        for seed in range(1, 11):
            st = game.new_game(seed=seed, players=5)
            rng = random.Random(seed)
            printed, lines = 0, Counter()
            while True:
                for e in st.log[printed:]:  # what cmd_play's flush_log does
                    if e[3] & bit:
                        lines[text.event(st, e)] += 1
                printed = len(st.log)
                if st.over:
                    break
                opts = st.options()
                st.apply_in_place(opts[rng.randrange(len(opts))].id)
            final = Counter(text.event(st, e) for e in st.log if e[3] & bit)
            total += sum(final.values())
            extra += sum(max(0, c - final[k]) for k, c in lines.items())
            missing += sum(max(0, c - lines[k]) for k, c in final.items())
        out[who] = {"lines": total, "printed_twice": extra, "never_printed": missing}
    return out


def run(before: bool) -> dict:
    from interpreter.engine import views
    determinize = views.determinize
    game = load(RULESETS / "castle_of_the_devil", [str(LEAKY)] if before else [])
    if before:
        determinize = main_module("interpreter/engine/views.py", "_views_main").determinize
        old = main_module("interpreter/engine/decisions.py", "_decisions_main").settle_act_log
        game.program.codes[decisions.ACT_LOG].instrs[0] = old
    t0 = time.process_time()
    out = {"windows": window_figures(game), "leak_check": leak_figures(game),
           "determinize": determinize_figures(game, determinize), "play_log": play_log_figures(game)}
    out["cpu_seconds"] = round(time.process_time() - t0, 1)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", action="store_true", help="the windows, determinize and log settling of before")
    args = ap.parse_args()
    res = run(args.before)
    print(f"before (the parts of {BEFORE})" if args.before else "after (this branch)")
    for k, v in res.items():
        print(f"  {k}: {v}")
