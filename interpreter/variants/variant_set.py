"""`grimoire validate RULESET_DIR` checks every variant in the folder, alone and in pairs.

Pipeline position: a command-level check over stages 1-5 (load, overlay, validate, model,
program). A variant is only compiled when it is applied, so a broken one (an effect naming a
card that does not exist, a merge that changes nothing) would pass `validate` until someone
named it with `--variant`. Here each variant in `variants/` is applied and compiled on its own
(after the variants it `requires`), and so is each pair that may be combined (neither
`conflicts` with the other) and changes more than params on both sides: two house rules that are
fine alone can still break together. Two combinable variants that set one value differently are
an error too (combined, the later silently wins): they should list each other as conflicts.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from ..errors import Problem, RulesetError
from ..frontend.yaml_source import load_yaml
from .checks import NOOP
from .text_check import text_problems


def _variant_files(root: Path) -> dict[str, Path]:
    """The variants shipped in a ruleset folder, by id."""
    out = {}
    vdir = root / "variants"
    for f in sorted(vdir.glob("*.yaml")) if vdir.is_dir() else []:
        try:
            data = load_yaml(f).data
        except RulesetError:
            continue  # the schema check of the folder reports it
        vid = data.get("variant") if isinstance(data, dict) else None
        out[str(vid or f.stem)] = f
    return out


def _chain(vid: str, meta: dict, seen: tuple = ()) -> list[str] | None:
    """`vid` after everything it requires, in order; None if a requirement is missing."""
    if vid in seen:
        return None
    out: list[str] = []
    for req in meta[vid].get("requires") or []:
        if req not in meta:
            return None
        sub = _chain(req, meta, seen + (vid,))
        if sub is None:
            return None
        out += [v for v in sub if v not in out]
    return out + [vid]


def _leaves(merge, path: tuple = ()) -> dict:
    """The values a merge sets, by path (mappings merge, so their keys are separate values)."""
    if isinstance(merge, dict) and merge:
        out = {}
        for k, v in merge.items():
            out.update(_leaves(v, path + (k,)))
        return out
    return {path: merge}


def _touches_code(data: dict) -> bool:
    """Does a variant change more than numbers (which cannot break compiling another)?"""
    return bool(data.get("patch")) or any(sec != "params" for sec in (data.get("merge") or {}))


def _clashes(a: str, b: str, meta: dict, docs: dict) -> list[Problem]:
    """Values both variants set differently: combined, the later one silently wins."""
    la, lb = _leaves(meta[a].get("merge") or {}), _leaves(meta[b].get("merge") or {})
    out = []
    for path in sorted(set(la) & set(lb), key=str):
        if la[path] != lb[path]:
            name = ".".join(str(p) for p in path)
            out.append(Problem(docs[b].source.value(("merge",) + path),
                               f"variants {a!r} and {b!r} both set {name} ({la[path]!r} and {lb[path]!r}) and "
                               f"may be combined, so the later one silently wins: list the other under "
                               f"conflicts:", ("merge",) + path))
    return out


def plan(root: Path) -> tuple[list[list[str]], list[Problem]]:
    """The variant lists to compile (each variant alone, each allowed pair that changes code on
    both sides, with requirements first) and the clashes of allowed pairs."""
    files = _variant_files(root)
    docs = {vid: load_yaml(f) for vid, f in files.items()}
    meta = {vid: (d.data if isinstance(d.data, dict) else {}) for vid, d in docs.items()}
    singles, pairs, clashes = [], [], []
    for vid in files:
        c = _chain(vid, meta)
        singles.append(c if c is not None else [vid])  # a missing requirement is reported by load
    seen = {frozenset(c) for c in singles}
    for a, b in itertools.combinations(files, 2):
        ca, cb = _chain(a, meta), _chain(b, meta)
        if ca is None or cb is None:
            continue
        both = ca + [v for v in cb if v not in ca]
        if frozenset(both) in seen or any(other in both for v in both for other in meta[v].get("conflicts") or []):
            continue
        seen.add(frozenset(both))
        if a not in cb and b not in ca:
            clashes += _clashes(a, b, meta, docs)
        if _touches_code(meta[a]) and _touches_code(meta[b]):
            pairs.append(both)
    return singles + pairs, clashes


def variant_problems(root: str | Path) -> tuple[list[Problem], int]:
    """Every problem of the folder's variants, alone and combined; and how many sets were compiled."""
    from ..game import load
    root = Path(root)
    files = _variant_files(root)
    combos, problems = plan(root)
    seen: set = set()
    for combo in combos:
        try:
            game = load(root, [str(files[v]) for v in combo])
            found = text_problems(game.program)
        except RulesetError as e:
            found = e.problems
        for p in found:
            key = (p.loc, p.message)
            if key in seen or (len(combo) > 1 and NOOP in p.message):
                continue  # once, not once per pair; and a value two variants agree on is no mistake
            seen.add(key)
            note = "" if len(combo) == 1 else f" (with variants {', '.join(combo)})"
            problems.append(Problem(p.loc, p.message + note, p.path, p.severity))
    return problems, len(combos)
