"""Statistics over game results: win rates with confidence intervals, lengths, comparisons.

Pipeline position: after the runner; pure functions over the result records it produces
(dicts with seed, winners, sides, reason, decisions, turns, bots, player_sides). Nothing here
plays a game, so everything can be tested on hand-made records.

- A win rate is given with its 95% Wilson score interval (good near 0 and 1, unlike the
  normal approximation).
- Two runs on the same seeds are compared per side with McNemar's test on the paired
  outcomes (exact binomial when few pairs disagree), which uses the pairing; the unpaired
  two-proportion z-test is reported beside it for runs on different seeds.
"""

from __future__ import annotations

import math
from collections import Counter

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    lo = 0.0 if k == 0 else max(0.0, min(p, centre - half))  # exact at the ends despite rounding
    hi = 1.0 if k == n else min(1.0, max(p, centre + half))
    return (lo, hi)


def mean_sd(xs: list[float]) -> tuple[float, float]:
    """The mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return (m, 0.0)
    return (m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)))


def normal_p(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def rate(k: int, n: int) -> dict:
    """A proportion with its Wilson interval, as plain data."""
    lo, hi = wilson(k, n)
    return {"wins": k, "games": n, "rate": k / n if n else 0.0, "ci95": [lo, hi]}


def played(results: list[dict]) -> list[dict]:
    """The results of games that ran to an end (not stopped by a ruleset error)."""
    return [r for r in results if r.get("reason") != "error"]


def sides_of(results: list[dict]) -> list[str]:
    """Every side seen in the results, in first-seen order."""
    out: dict[str, None] = {}
    for r in results:
        for s in list(r.get("player_sides") or []) + list(r.get("sides") or []):
            if s is not None:
                out.setdefault(s, None)
    return list(out)


def summarize(results: list[dict]) -> dict:
    """Win rates per side, per bot kind and per seat; game length; end reasons."""
    ok = played(results)
    n = len(ok)
    by_side = {s: rate(sum(1 for r in ok if s in r["sides"]), n) for s in sides_of(ok)}
    bots: Counter = Counter()
    bot_wins: Counter = Counter()
    seats: Counter = Counter()
    seat_wins: Counter = Counter()
    for r in ok:
        for p, kind in enumerate(r.get("bots") or []):
            bots[kind] += 1
            seats[p] += 1
            if p in r["winners"]:
                bot_wins[kind] += 1
                seat_wins[p] += 1
    dm, dsd = mean_sd([r["decisions"] for r in ok])
    tm, tsd = mean_sd([r["turns"] for r in ok])
    names = sorted({k for r in ok for k in r.get("stats") or {}})
    stats = {}
    for k in names:
        xs = [r["stats"][k] for r in ok if k in (r.get("stats") or {})]
        m, sd = mean_sd(xs)
        stats[k] = {"mean": m, "sd": sd, "games": len(xs)}
    out = {
        "games": len(results),
        "played": n,
        "errors": len(results) - n,
        "by_side": by_side,
        "by_bot": {k: rate(bot_wins[k], bots[k]) for k in bots},
        "by_seat": {str(p + 1): rate(seat_wins[p], seats[p]) for p in sorted(seats)},
        "no_winner": sum(1 for r in ok if not r["winners"]),
        "decisions": {"mean": dm, "sd": dsd},
        "turns": {"mean": tm, "sd": tsd},
        "stats": stats,
        "reasons": dict(Counter(r["reason"] for r in results).most_common()),
        "first_error": next((f"seed {r['seed']}: {r.get('error', '')}" for r in results
                             if r.get("reason") == "error"), None),
    }
    acts = action_counts(ok)
    if acts:
        out["actions"] = acts
    return out


def action_counts(results: list[dict]) -> dict:
    """Over the games, for each watched action (`SimSpec.watch`): the decisions it was offered
    at, how often it was taken, the games it was taken in, and the share of offers taken."""
    out: dict = {}
    for r in results:
        for a, c in (r.get("actions") or {}).items():
            t = out.setdefault(a, {"offered": 0, "taken": 0, "games_taken": 0})
            t["offered"] += c["offered"]
            t["taken"] += c["taken"]
            t["games_taken"] += c["taken"] > 0
    for t in out.values():
        t["taken_share"] = t["taken"] / t["offered"] if t["offered"] else 0.0
    return out


RARELY = 0.01  # a new action taken in fewer than this share of its offers is "almost never taken"


def rarely_taken(summaries: dict, new: dict) -> list[dict]:
    """Warnings for the new actions of a variant (`new`: run name -> its action ids) that were
    never offered, or taken in fewer than 1% of their offers, in that run's games."""
    out = []
    for run, actions in new.items():
        counts = (summaries.get(run) or {}).get("actions") or {}
        for a in actions:
            c = counts.get(a)
            if c is None or not (summaries.get(run) or {}).get("played"):
                continue
            if c["offered"] == 0:
                out.append({"id": "cli-sim-action-never-offered", "run": run, "action": a,
                            "games": summaries[run]["played"]})
            elif c["taken"] < RARELY * c["offered"]:
                out.append({"id": "cli-sim-action-rarely-taken", "run": run, "action": a,
                            "offered": c["offered"], "taken": c["taken"]})
    return out


def two_proportion(k1: int, n1: int, k2: int, n2: int) -> dict:
    """The pooled two-proportion z-test of k1/n1 against k2/n2."""
    if n1 == 0 or n2 == 0:
        return {"z": 0.0, "p": 1.0}
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return {"z": 0.0, "p": 1.0}
    z = (k2 / n2 - k1 / n1) / se
    return {"z": z, "p": normal_p(z)}


def mcnemar(b: int, c: int) -> float:
    """The two-sided p-value of McNemar's test, b and c the two kinds of disagreeing pairs."""
    m = b + c
    if m == 0:
        return 1.0
    if m <= 50:  # exact: under the null the disagreements split as a fair coin
        k = min(b, c)
        tail = sum(math.comb(m, i) for i in range(k + 1)) / 2 ** m
        return min(1.0, 2 * tail)
    chi2 = (abs(b - c) - 1) ** 2 / m  # with continuity correction, 1 degree of freedom
    return math.erfc(math.sqrt(chi2 / 2))


def compare(base: list[dict], other: list[dict], alpha: float = 0.05) -> dict:
    """Compare two runs game by game on the seeds both played: per side and game length."""
    a = {r["seed"]: r for r in played(base)}
    b = {r["seed"]: r for r in played(other)}
    seeds = sorted(set(a) & set(b))
    n = len(seeds)
    out: dict = {"paired_games": n, "by_side": {}}
    for s in sides_of([a[x] for x in seeds] + [b[x] for x in seeds]):
        wa = [s in a[x]["sides"] for x in seeds]
        wb = [s in b[x]["sides"] for x in seeds]
        ka, kb = sum(wa), sum(wb)
        only_a = sum(1 for x, y in zip(wa, wb) if x and not y)
        only_b = sum(1 for x, y in zip(wa, wb) if y and not x)
        p = mcnemar(only_a, only_b)
        diff = (kb - ka) / n if n else 0.0
        # a normal interval for the paired difference of proportions
        se = math.sqrt(max(0.0, (only_a + only_b) / n - diff * diff) / n) if n else 0.0
        out["by_side"][s] = {
            "base": rate(ka, n), "variant": rate(kb, n), "difference": diff,
            "ci95": [diff - Z95 * se, diff + Z95 * se],
            "base_only": only_a, "variant_only": only_b,
            "mcnemar_p": p, "z_test": two_proportion(ka, n, kb, n),
            "significant": p < alpha,
        }
    out["decisions"] = paired_means([a[x]["decisions"] for x in seeds], [b[x]["decisions"] for x in seeds])
    names = sorted({k for x in seeds for k in (a[x].get("stats") or {}) if k in (b[x].get("stats") or {})})
    out["stats"] = {}
    for k in names:
        both = [x for x in seeds if k in (a[x].get("stats") or {}) and k in (b[x].get("stats") or {})]
        out["stats"][k] = paired_means([a[x]["stats"][k] for x in both], [b[x]["stats"][k] for x in both])
    return out


def paired_means(da: list, db: list) -> dict:
    """The mean of two runs' values on the same seeds, their paired difference with a 95%
    interval, and the two-sided p of a paired z-test."""
    n = len(da)
    dm, dsd = mean_sd([y - x for x, y in zip(da, db)])
    se = dsd / math.sqrt(n) if n > 1 else 0.0
    return {"base": mean_sd(da)[0], "variant": mean_sd(db)[0], "difference": dm,
            "ci95": [dm - Z95 * se, dm + Z95 * se],
            "p": normal_p(dm / se) if se > 0 else (1.0 if dm == 0 else 0.0)}
