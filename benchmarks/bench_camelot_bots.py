"""How well the bots play Shadows over Camelot: win rates with 95% intervals, paired comparisons.

Run: python benchmarks/bench_camelot_bots.py PART [--games N] [--players 3,5] [--seed S] [--jobs J]

Parts (each prints its numbers and appends them as one JSON line to --out):
  policy    Loyal win rate of policy bots on `first_game` (Wilson 95% intervals)
  search    MCTS Knights (policy playouts) against policy Knights on the same seeds (McNemar)
  rollout   rollout-search Knights (the policy, corrected by playouts) against policy Knights,
            on the same seeds (McNemar)
  traitor   the base game (Traitor dealt as the rules say, playing its policy) against
            `first_game` on the same seeds; how often the Traitor is unmasked, how often an
            accusation hits a Loyal Knight; with --base-ruleset DIR, the same seeds played by
            that copy of the ruleset too (another policy), paired (McNemar); --records DIR
            keeps every game, --against-records DIR pairs with the games another checkout
            (another engine too) wrote there
  pair      no games: the records of --records DIR paired with those of --against-records DIR
  compare   `first_game` against `first_game` + each house rule, paired (McNemar)
  speed     CPU time of whole 5-player policy games (median; and the base game with every seat's
            beliefs, mean), and MCTS decisions per CPU second

The evaluation seeds start at --seed (default 30,000,000), which no tuning ever played:
`grimoire tune` trains on seeds from 1,000,000 on, and the hand tuning of the policy used seeds
below 1,000,000, 2,000,000-8,000,999 and 9,000,000-9,000,999 (the round that made it win).
Games are played by `interpreter.sim.run_batch` (seed i is game i of the batch, so a result
depends only on its seed); CPU seconds are summed over the worker processes.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter.sim import SimSpec, run_batch  # noqa: E402
from interpreter.sim.stats import compare, wilson  # noqa: E402

CAMELOT = str(ROOT / "rulesets" / "shadows_over_camelot")
HOUSE_RULES = ("hand_limit_12", "thirteen_engines", "hard_siege", "no_sacrifice")


def cpu() -> float:
    """CPU seconds of this process and of its finished children."""
    a, b = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return a.ru_utime + a.ru_stime + b.ru_utime + b.ru_stime


def play(variants, players, bots, games, seed, jobs, ruleset=CAMELOT, **spec):
    t0 = cpu()
    res = list(run_batch(SimSpec(ruleset, tuple(variants), players, tuple(bots), **spec), seed, games, jobs))
    return sorted(res, key=lambda r: r["seed"]), cpu() - t0


def loyal(results) -> dict:
    k = sum(1 for r in results if "loyal" in r["sides"])
    n = len(results)
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def show(label: str, d: dict) -> str:
    return f"{label}: {d['wins']}/{d['games']} = {d['rate']:.1%} [{d['ci95'][0]:.1%}, {d['ci95'][1]:.1%}]"


def paired(a, b) -> dict:
    c = compare(a, b)["by_side"].get("loyal") or {}
    return {k: c.get(k) for k in ("base", "variant", "difference", "ci95", "base_only", "variant_only",
                                   "mcnemar_p", "significant")}


def show_paired(label: str, c: dict) -> str:
    return (f"{label}: {c['base']['rate']:.1%} -> {c['variant']['rate']:.1%}, difference "
            f"{c['difference']:+.1%} [{c['ci95'][0]:+.1%}, {c['ci95'][1]:+.1%}], "
            f"pairs {c['base_only']}/{c['variant_only']}, McNemar p = {c['mcnemar_p']:.2g}"
            f"{' (significant)' if c['significant'] else ''}")


def ends(results) -> dict:
    out: dict = {}
    for r in results:
        out[r["reason"]] = out.get(r["reason"], 0) + 1
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def mean_stat(results, name) -> float:
    xs = [r["stats"][name] for r in results if name in (r.get("stats") or {})]
    return sum(xs) / len(xs) if xs else 0.0


# ---- parts ------------------------------------------------------------------------------------

def part_policy(a) -> dict:
    out = {}
    for n in a.players:
        res, secs = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs)
        d = loyal(res)
        d.update(cpu_s=round(secs, 1), ends=ends(res),
                 white_swords=mean_stat(res, "white_swords"), black_swords=mean_stat(res, "black_swords"),
                 engines=mean_stat(res, "siege_engines"))
        print(show(f"policy, first_game, {n} players", d), f"({secs:.0f} CPU s)", d["ends"], flush=True)
        out[str(n)] = d
    return out


def part_search(a) -> dict:
    out = {}
    for n in a.players:
        base, s1 = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs)
        opts = {"horizon": a.horizon} if a.horizon is not None else {}
        srch, s2 = play(["first_game"], n, ["mcts"], a.games, a.seed, a.jobs, budget=a.budget, options=opts)
        c = paired(base, srch)
        c.update(budget=a.budget, cpu_s_policy=round(s1, 1), cpu_s_search=round(s2, 1),
                 decisions=sum(r["decisions"] for r in srch))
        print(show_paired(f"policy -> mcts (budget {a.budget}), {n} players", c), f"({s2:.0f} CPU s)", flush=True)
        out[str(n)] = c
    return out


def part_rollout(a) -> dict:
    out = {}
    opts = {k: getattr(a, k) for k in ("worlds", "width", "horizon_rounds", "delta") if getattr(a, k) is not None}
    if "horizon_rounds" in opts:
        opts["horizon"] = opts.pop("horizon_rounds")
    # --against JSON: the baseline is a rollout bot with those options instead of the policy
    against = None if a.against is None else json.loads(a.against)
    label = "policy" if against is None else f"rollout {against}"
    for n in a.players:
        if against is None:
            base, s1 = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs)
        else:
            base, s1 = play(["first_game"], n, ["rollout"], a.games, a.seed, a.jobs, options=against)
        srch, s2 = play(["first_game"], n, ["rollout"], a.games, a.seed, a.jobs, options=opts)
        c = paired(base, srch)
        decisions = sum(r["decisions"] for r in srch)
        c.update(options=opts, against=against, cpu_s_base=round(s1, 1), cpu_s_search=round(s2, 1),
                 decisions=decisions, cpu_s_per_game=round(s2 / len(srch), 2))
        print(show_paired(f"{label} -> rollout {opts}, {n} players", c),
              f"({s2:.0f} CPU s, {s2 / len(srch):.1f} s a game)", flush=True)
        out[str(n)] = c
    return out


def part_traitor(a) -> dict:
    out = {}
    for n in a.players:
        open_, _ = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs)
        base, secs = play([], n, ["policy"], a.games, a.seed, a.jobs)
        c = paired(open_, base)
        with_t = [r for r in base if r["stats"].get("traitor_present")]
        c.update(
            traitor_games=len(with_t),
            loyal_with_traitor=loyal(with_t),
            loyal_without_traitor=loyal([r for r in base if not r["stats"].get("traitor_present")]),
            traitor_unmasked=sum(1 for r in with_t if r["stats"].get("traitor_unmasked")),
            false_accusations=sum(r["stats"].get("false_accusations", 0) for r in base),
            games_with_false_accusation=sum(1 for r in base if r["stats"].get("false_accusations")),
            cpu_s=round(secs, 1))
        # the same seeds with the Traitor in the game and without him (first_game)
        seeds = {r["seed"] for r in with_t}
        c["paired_traitor_games"] = paired([r for r in open_ if r["seed"] in seeds], with_t)
        print(show_paired(f"no Traitor -> base game, {n} players", c), flush=True)
        print(show_paired(f"  the {len(with_t)} seeds where the Traitor is dealt", c["paired_traitor_games"]),
              f"; unmasked in {c['traitor_unmasked']}; {c['false_accusations']} accusations hit a Loyal "
              f"Knight (in {c['games_with_false_accusation']} games)", flush=True)
        if a.base_ruleset:
            # the same seeds played by another copy of the ruleset (e.g. main's policy): paired
            old_open, _ = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs, ruleset=a.base_ruleset)
            old, _ = play([], n, ["policy"], a.games, a.seed, a.jobs, ruleset=a.base_ruleset)
            old_t = [r for r in old if r["stats"].get("traitor_present")]
            c["against_base_ruleset"] = {
                "first_game": paired(old_open, open_),
                "traitor_games": paired(old_t, with_t),
                "base_unmasked": sum(1 for r in old_t if r["stats"].get("traitor_unmasked")),
                "base_games_with_false_accusation": sum(1 for r in old if r["stats"].get("false_accusations"))}
            print(show_paired(f"  --base-ruleset -> this policy, first_game {n} players",
                              c["against_base_ruleset"]["first_game"]), flush=True)
            print(show_paired(f"  --base-ruleset -> this policy, base game {n} players, Traitor dealt",
                              c["against_base_ruleset"]["traitor_games"]),
                  f"; base unmasked in {c['against_base_ruleset']['base_unmasked']}, false accusation in "
                  f"{c['against_base_ruleset']['base_games_with_false_accusation']} games", flush=True)
        if a.records:  # every game, to pair a later run of another checkout with (--against-records)
            save_records(Path(a.records), n, open_, base)
        if a.against_records:  # an earlier run (e.g. main's checkout, same seeds): paired
            c["against_records"] = against_records(Path(a.against_records), n, open_, base)
        out[str(n)] = c
    return out


RECORD_KEYS = ("seed", "index", "winners", "sides", "reason", "decisions", "turns", "player_sides", "stats")


def against_records(folder: Path, n: int, open_, base) -> dict:
    """This run's first_game and base games paired with those an earlier run wrote to folder."""
    old_open, old = load_records(folder, n)
    old_t = [r for r in old if r["stats"].get("traitor_present")]
    with_t = [r for r in base if r["stats"].get("traitor_present")]
    out = {"first_game": paired(old_open, open_), "base_game": paired(old, base),
           "traitor_games": paired(old_t, with_t),
           "base_unmasked": sum(1 for r in old_t if r["stats"].get("traitor_unmasked")),
           "base_games_with_false_accusation": sum(1 for r in old if r["stats"].get("false_accusations"))}
    for k in ("first_game", "base_game", "traitor_games"):
        print(show_paired(f"  --against-records -> this run, {k} {n} players", out[k]), flush=True)
    print(f"  --against-records: unmasked in {out['base_unmasked']} of {len(old_t)}, false accusation in "
          f"{out['base_games_with_false_accusation']} of {len(old)} games", flush=True)
    return out


def part_pair(a) -> dict:
    """No games: the records of --records paired with those of --against-records."""
    out = {}
    for n in a.players:
        open_, base = load_records(Path(a.records), n)
        with_t = [r for r in base if r["stats"].get("traitor_present")]
        print(show("this run, first_game", loyal(open_)), "|", show("base game, Traitor dealt", loyal(with_t)),
              f"| unmasked {sum(1 for r in with_t if r['stats'].get('traitor_unmasked'))}, false accusation in "
              f"{sum(1 for r in base if r['stats'].get('false_accusations'))} of {len(base)} games", flush=True)
        out[str(n)] = against_records(Path(a.against_records), n, open_, base)
    return out


def save_records(folder: Path, n: int, open_, base) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, res in (("first_game", open_), ("base", base)):
        with open(folder / f"{name}.{n}.jsonl", "w") as f:
            for r in res:
                f.write(json.dumps({k: r.get(k) for k in RECORD_KEYS}) + "\n")


def load_records(folder: Path, n: int) -> tuple[list, list]:
    def read(name):
        with open(folder / f"{name}.{n}.jsonl") as f:
            return [json.loads(line) for line in f if line.strip()]
    return read("first_game"), read("base")


def part_compare(a) -> dict:
    out = {}
    for n in a.players:
        base, _ = play(["first_game"], n, ["policy"], a.games, a.seed, a.jobs)
        for v in a.variants:
            other, _ = play(["first_game", v], n, ["policy"], a.games, a.seed, a.jobs)
            c = paired(base, other)
            print(show_paired(f"first_game -> + {v}, {n} players", c), flush=True)
            out[f"{v}@{n}"] = c
    return out


def part_speed(a) -> dict:
    from interpreter.bots import Seat, make_bot
    from interpreter.game import load
    game = load(CAMELOT, [str(Path(CAMELOT) / "variants" / "first_game.yaml")])
    times, decisions = [], 0
    for i in range(a.games):
        seed = a.seed + i
        st = game.new_game(seed=seed, players=5, record=False)
        t = time.process_time()
        bots = [make_bot("policy", seed * 1000 + p, game) for p in range(5)]
        while not st.over:
            st.apply_in_place(bots[st.current_player()].choose(Seat(st)))
            decisions += 1
        times.append(time.process_time() - t)
    med = statistics.median(times)
    print(f"5-player first_game, policy bots: median {med * 1000:.1f} ms CPU a game "
          f"(mean {statistics.mean(times) * 1000:.1f}, {decisions / sum(times):.0f} decisions/s, {a.games} games)")
    out = {"policy_game_ms_median": med * 1000, "policy_game_ms_mean": statistics.mean(times) * 1000,
           "policy_decisions_per_s": decisions / sum(times), "games": a.games}
    # the base game as simulate plays it: the Traitor dealt, every seat's beliefs kept from the public choices
    res, secs = play([], 5, ["policy"], a.games, a.seed, 1)
    out["base_game_with_beliefs_ms_mean"] = secs / a.games * 1000
    print(f"5-player base game with beliefs (run_batch, 1 job): mean {secs / a.games * 1000:.1f} ms CPU a game")
    for n in a.players:
        st = game.new_game(seed=a.seed, players=n, record=False)
        bot = make_bot("mcts", 1, game, iterations=a.budget)
        pol = make_bot("policy", 2, game)
        searched, spent = 0, 0.0
        while not st.over and searched < a.mcts_decisions:
            seat = Seat(st)
            if len(seat.options) > 1 and st.current_player() == 0:
                t = time.process_time()
                oid = bot.choose(seat)
                spent += time.process_time() - t
                searched += 1
            else:
                oid = pol.choose(seat)
            st.apply_in_place(oid)
        rate = searched / spent if spent else 0.0
        print(f"MCTS budget {a.budget}, {n} players: {rate:.1f} decisions per CPU second ({searched} decisions)")
        out[f"mcts_decisions_per_s@{n}"] = rate
    return out


PARTS = {"pair": part_pair, "policy": part_policy, "search": part_search, "rollout": part_rollout,
         "traitor": part_traitor,
         "compare": part_compare, "speed": part_speed}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=sorted(PARTS))
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", default="3,5")
    ap.add_argument("--seed", type=int, default=30_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("--horizon", default=None, help="MCTS horizon in turns, or 'round' (default: the bot's)")
    ap.add_argument("--worlds", type=int, help="rollout bot: worlds per searched decision (default: the bot's)")
    ap.add_argument("--width", type=int, help="rollout bot: the policy's best options played out")
    ap.add_argument("--horizon-rounds", type=float, help="rollout bot: playout length in rounds")
    ap.add_argument("--delta", type=float, help="rollout bot: standard errors a better option must clear")
    ap.add_argument("--against", help="rollout: compare with a rollout bot of these options (JSON), not the policy")
    ap.add_argument("--mcts-decisions", type=int, default=40)
    ap.add_argument("--variants", default=",".join(HOUSE_RULES))
    ap.add_argument("--base-ruleset", help="traitor: also play this copy of the ruleset (e.g. main's policy) "
                    "on the same seeds, paired")
    ap.add_argument("--records", help="traitor: write every game of this run to DIR (first_game.N.jsonl, base.N.jsonl)")
    ap.add_argument("--against-records", help="traitor: pair this run with the games an earlier run wrote with "
                    "--records DIR (e.g. another checkout's engine and policy, same seeds)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "camelot-bots.jsonl"))
    a = ap.parse_args()
    a.players = [int(x) for x in a.players.split(",")]
    a.variants = [v for v in a.variants.split(",") if v]
    if a.horizon is not None and a.horizon != "round":
        a.horizon = int(a.horizon)
    t = time.time()
    data = PARTS[a.part](a)
    rec = {"part": a.part, "args": {k: v for k, v in vars(a).items() if k != "out"},
           "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "wall_s": round(time.time() - t, 1),
           "result": data}
    with open(a.out, "a") as f:
        f.write(json.dumps(rec) + "\n")


if __name__ == "__main__":
    main()
