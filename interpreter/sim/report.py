"""Simulation reports on disk: results.json, games.csv, chart.png, and the live games.jsonl.

Pipeline position: after stats. Every report file is written atomically (a temporary file,
then a rename), so an interrupted run never leaves half a file; games.jsonl instead grows
one line per finished game, so a killed run still keeps every game it finished.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

CSV_FIELDS = ["run", "index", "seed", "players", "bots", "winners", "sides", "reason",
              "decisions", "turns", "seconds", "error"]


def write_atomic_bytes(path: Path, data: bytes) -> None:
    """Write a file so that it holds either its old content or all the new content."""
    from ..files import write_atomic
    write_atomic(path, data)


class GameLog:
    """games.jsonl: one JSON line per finished game, flushed as it comes."""

    def __init__(self, path: Path, kept: list[tuple[str, dict]] = ()):
        """Start the file with the `kept` (run, result) lines of a resumed run, written whole."""
        self.path = path
        write_atomic_bytes(path, "".join(_line(run, r) for run, r in kept).encode())
        self.f = open(path, "a", encoding="utf-8")  # noqa: SIM115 -- open for the whole run

    def add(self, run: str, result: dict) -> None:
        """Append one game's result."""
        self.f.write(_line(run, result))
        self.f.flush()

    def close(self) -> None:
        self.f.close()


def _line(run: str, result: dict) -> str:
    return json.dumps({"run": run, **result}, ensure_ascii=False) + "\n"


def games_csv(runs: dict[str, list[dict]]) -> str:
    """One row per game; lists are joined with '|' (seats numbered from 0, as in results);
    the ruleset's end-of-game stats follow as `stat:NAME` columns."""
    buf = io.StringIO()
    names = sorted({k for results in runs.values() for r in results for k in r.get("stats") or {}})
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS + [f"stat:{k}" for k in names], extrasaction="ignore",
                       lineterminator="\n")
    w.writeheader()
    for run, results in runs.items():
        for r in results:
            row = dict(r, run=run)
            for k, v in (r.get("stats") or {}).items():
                row[f"stat:{k}"] = v
            for k in ("bots", "winners", "sides"):
                row[k] = "|".join(str(x) for x in r.get(k) or [])
            row.setdefault("error", "")
            w.writerow(row)
    return buf.getvalue()


def chart_png(summaries: dict[str, dict], runs: dict[str, list[dict]], title: str) -> bytes:
    """A PNG: win rate per side with 95% intervals (one bar per run), and game lengths."""
    import matplotlib
    matplotlib.use("Agg")  # no display: a file is all we want
    import matplotlib.pyplot as plt
    fig, (ax1, ax3, ax2) = plt.subplots(1, 3, figsize=(14, 4.2))
    _rate_bars(ax1, summaries, "by_side", "wins by side")
    _rate_bars(ax3, summaries, "by_seat", "wins by seat")
    for run, results in runs.items():
        lengths = [r["decisions"] for r in results if r.get("reason") != "error"]
        if lengths:
            ax2.hist(lengths, bins=min(40, max(5, len(set(lengths)))), alpha=0.6, label=run)
    ax2.set_xlabel("decisions per game")
    ax2.set_ylabel("games")
    ax2.set_title("game length")
    if ax2.get_legend_handles_labels()[0]:  # no game played: no legend
        ax2.legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def _rate_bars(ax, summaries: dict[str, dict], key: str, title: str) -> None:
    """Grouped bars of win rates with their 95% intervals, one group per side (or seat)."""
    names: list[str] = []
    for s in summaries.values():
        names += [k for k in s[key] if k not in names]
    width = 0.8 / max(1, len(summaries))
    for j, (run, s) in enumerate(summaries.items()):
        xs = [i + (j - (len(summaries) - 1) / 2) * width for i in range(len(names))]
        cells = [s[key].get(k, {"rate": 0.0, "ci95": [0.0, 0.0]}) for k in names]
        rates = [c["rate"] for c in cells]
        lo = [max(0.0, c["rate"] - c["ci95"][0]) for c in cells]
        hi = [max(0.0, c["ci95"][1] - c["rate"]) for c in cells]
        ax.bar(xs, rates, width, yerr=[lo, hi], capsize=4, label=f"{run} ({s['played']} games)")
    ax.set_xticks(range(len(names)), names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(title)
    if summaries and names:
        ax.legend(fontsize=8)


def write_reports(out: Path, report: dict, runs: dict[str, list[dict]], title: str) -> list[Path]:
    """Write results.json, games.csv and chart.png into out; return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "games.csv", out / "chart.png"]
    # per-game seconds stay in games.csv and games.jsonl: results.json depends on the seeds only
    doc = dict(report, games={run: [{k: v for k, v in r.items() if k != "seconds"}
                                    for r in sorted(rs, key=lambda r: r["index"])]
                              for run, rs in runs.items()})
    execution = doc.pop("execution", None)
    if execution is not None:  # last, so that everything above it compares byte for byte
        doc["execution"] = execution
    write_atomic_bytes(paths[0], (json.dumps(doc, indent=1, ensure_ascii=False) + "\n").encode())
    write_atomic_bytes(paths[1], games_csv({k: sorted(rs, key=lambda r: r["index"])
                                            for k, rs in runs.items()}).encode())
    write_atomic_bytes(paths[2], chart_png(report["summary"], runs, title))
    return paths
