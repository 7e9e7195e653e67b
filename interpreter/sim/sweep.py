"""`simulate --sweep PARAM=A..B[:STEP]`: one run per value of a param, and a chart of the curve.

Pipeline position: beside `commands` (the simulate command), above the runner. Each value
of the param becomes a run of its own on the same seeds: a small variant file written into
the output folder (`sweep/PARAM=V.yaml`, so the run can be repeated by hand with --variant),
or no variant at all for the value the rules already have (a variant that changes nothing is
an error). The chart puts each side's win rate against the value, with its 95% Wilson band.
Run names are what an author reads in the tables and the chart: the variant names, or the
ruleset's id for the base rules, never "base"/"variant".
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

from ..errors import GrimoireError
from ..frontend.validate import SCHEMA_DIR


def parse_sweep(text: str) -> tuple[str, list[int]]:
    """'start_life=3..6', 'start_life=2..10:2' or 'start_life=3,5,8' -> (param, values)."""
    m = re.fullmatch(r"\s*([a-z][a-z0-9_]*)\s*=\s*(.+?)\s*", text or "")
    if not m:
        raise GrimoireError(f"--sweep {text!r}: write PARAM=A..B[:STEP] or PARAM=A,B,C (e.g. start_life=3..6)")
    name, spec = m.groups()
    r = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?::(\d+))?", spec)
    if r:
        a, b, step = int(r.group(1)), int(r.group(2)), int(r.group(3) or 1)
        if step < 1 or b < a:
            raise GrimoireError(f"--sweep {text!r}: the range must go up (A <= B) by a step of at least 1")
        values = list(range(a, b + 1, step))
    elif re.fullmatch(r"-?\d+(\s*,\s*-?\d+)*", spec):
        values = [int(x) for x in spec.split(",")]
    else:
        raise GrimoireError(f"--sweep {text!r}: {spec!r} is neither A..B[:STEP] nor a list A,B,C of whole numbers")
    if len(set(values)) != len(values):
        raise GrimoireError(f"--sweep {text!r}: a value is listed twice")
    return name, values


def base_value(rs, name: str, players: int):
    """The value the rules give param `name` at this player count; GrimoireError if none."""
    item = rs.params.get(name)
    if item is None:
        known = ", ".join(sorted(rs.params))
        raise GrimoireError(f"--sweep: {rs.id} has no param {name!r} (its params: {known})")
    v = item.value
    if isinstance(v, dict):
        by = {str(k): x for k, x in (v.get("by_players") or {}).items()}
        return by.get(str(players), v.get("default"))
    return v


def run_name(ruleset_id: str, variants) -> str:
    """How tables and charts name a run: its variants, or the ruleset for the base rules."""
    names = [Path(v).stem for v in variants]
    return " + ".join(names) if names else ruleset_id


def sweep_variants(out: Path, rs, name: str, values: list[int], players: int) -> dict[int, str | None]:
    """The variant file of each value (None for the rules' own value), written under out/sweep/."""
    base = base_value(rs, name, players)
    folder = out / "sweep"
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[int, str | None] = {}
    for v in values:
        if v == base:
            files[v] = None
            continue
        vid = f"sweep_{name}_{v}".replace("-", "m")
        path = folder / f"{name}={v}.yaml"
        schema = os.path.relpath(SCHEMA_DIR / "variant.schema.json", folder.resolve())
        path.write_text(f"# yaml-language-server: $schema={schema}\n"
                        f"# written by grimoire simulate --sweep {name}=...\n"
                        f"variant: {vid}\ntitle: {name} = {v}\nbase: {rs.id}\n"
                        f"merge:\n  params:\n    {name}: {v}\n", encoding="utf-8")
        files[v] = str(path)
    return files


def point_name(name: str, v: int, base) -> str:
    """The run name of one value of a sweep."""
    return f"{name}={v}" + (" (the rules)" if v == base else "")


def curve(summaries: dict[str, dict], points: list[tuple[int, str]]) -> dict[str, list[dict]]:
    """Each side's win rate and 95% interval at each value: {side: [{value, rate, ci95, games}]}."""
    sides: list[str] = []
    for _, run in points:
        sides += [s for s in summaries[run]["by_side"] if s not in sides]
    out: dict[str, list[dict]] = {s: [] for s in sides}
    for v, run in points:
        for s in sides:
            r = summaries[run]["by_side"].get(s, {"rate": 0.0, "ci95": [0.0, 1.0], "games": 0})
            out[s].append({"value": v, "rate": r["rate"], "ci95": r["ci95"], "games": summaries[run]["played"]})
    return out


def sweep_png(name: str, data: dict[str, list[dict]], title: str) -> bytes:
    """A PNG: each side's win rate against the param's value, with its 95% band."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for side, pts in data.items():
        xs = [p["value"] for p in pts]
        ax.plot(xs, [p["rate"] for p in pts], marker="o", label=side)
        ax.fill_between(xs, [p["ci95"][0] for p in pts], [p["ci95"][1] for p in pts], alpha=0.2)
    ax.set_xlabel(name)
    ax.set_ylabel("win rate (95% Wilson band)")
    ax.set_ylim(0, 1)
    if data:
        ax.set_xticks([p["value"] for p in next(iter(data.values()))])
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100)
    plt.close(fig)
    return buf.getvalue()


def fresh_out(default: str) -> Path:
    """A new output folder for this run: `default`, or `default-2`, `default-3`, ... if taken."""
    p = Path(default)
    if not p.exists():
        return p
    i = 2
    while Path(f"{default}-{i}").exists():
        i += 1
    return Path(f"{default}-{i}")


