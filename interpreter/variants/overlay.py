"""Stage 2 of the pipeline: variant files (house rules) merged onto a base ruleset.

A variant is a small YAML file: `merge` is a JSON Merge Patch over the ruleset's sections
(maps merge by id, `null` deletes), and `patch` is a list of JSON Patch operations (add,
remove, replace, test) for lists. Variants compose in order; `requires`, `conflicts` and
`base` are checked. Every value a variant sets records the variant file and line it came
from (`Item.layers`), so errors in merged rules point at the variant's own lines and
`grimoire explain` can show the chain of files that set a value.
"""

from __future__ import annotations

import copy
from pathlib import Path

from ..errors import Collector, Loc, Problem, RulesetError
from ..frontend.model import SECTIONS_BY_ID, SECTIONS_LIST, Item, Ruleset, proc_key
from ..frontend.validate import validate_doc
from ..frontend.yaml_source import Doc, load_yaml
from .checks import changes_nothing, comparable, unchanged_merges
from .texts import apply_texts

SINGLE = ("setup", "turn", "side_of", "turn_order", "evaluate", "search", "stats", "policy", "table")
_MISSING = object()


def load_variant(path: str | Path, root: Path | None = None) -> Doc:
    """Find and load one variant file (a path, or a name in the ruleset's variants/)."""
    p = Path(path)
    cands = [p]
    if root is not None and not p.is_absolute():
        cands += [root / p, root / "variants" / p, root / "variants" / f"{p}.yaml"]
    for c in cands:
        if c.is_file():
            doc = load_yaml(c)
            problems = validate_doc(doc, "variant")
            if problems:
                raise RulesetError(problems)
            return doc
    names = sorted(f.stem for f in (root / "variants").glob("*.yaml")) if root and (root / "variants").is_dir() else []
    raise RulesetError(Problem(Loc(str(path), 0, 0), "variant file not found"
                               + (f" (this ruleset ships: {', '.join(names)})" if names else "")))


def apply_variants(rs: Ruleset, docs: list[Doc]) -> list[Problem]:
    """Apply variant documents to rs in order; return the problems found."""
    errs = Collector()
    applied: list[str] = []
    base_params = set(rs.params)
    for doc in docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        vid = str(data.get("variant", Path(doc.path).stem))
        base = data.get("base")
        if base is not None and base != rs.id:
            errs.add(doc.source.value(("base",)),
                     f"variant {vid!r} is written for {base!r}, not for {rs.id!r}")
            continue
        reported = set()
        for i, other in enumerate(data.get("conflicts") or []):
            if other in applied:
                reported.add(other)
                errs.add(doc.source.value(("conflicts", i)),
                         f"variant {vid!r} conflicts with {other!r}, which is applied before it")
        for i, other in enumerate(data.get("requires") or []):
            if other not in applied:
                errs.add(doc.source.value(("requires", i)),
                         f"variant {vid!r} requires {other!r}; apply {other!r} first (earlier --variant)")
        for prev_doc in docs[:docs.index(doc)]:
            pdata = prev_doc.data if isinstance(prev_doc.data, dict) else {}
            if vid in (pdata.get("conflicts") or []) and pdata.get("variant") not in reported:
                errs.add(doc.source.value(("variant",)),
                         f"variant {pdata.get('variant')!r} ({prev_doc.path}) conflicts with {vid!r}")
        before, seen = comparable(rebuild_data(rs)), len(errs.problems)
        errs.extend(unchanged_merges(rs, doc))
        merge = data.get("merge") or {}
        for sec, patch in merge.items():
            _merge_section(rs, doc, sec, patch, errs)
        for i, op in enumerate(data.get("patch") or []):
            _patch_op(rs, doc, i, op, errs)
        apply_texts(rs, doc, errs)
        if len(errs.problems) == seen and not data.get("locales") and comparable(rebuild_data(rs)) == before:
            errs.extend([changes_nothing(doc)])
        applied.append(vid)
    rs.variants = applied
    rs.data = rebuild_data(rs)
    from .schema import variant_problems
    errs.extend(variant_problems(rs, docs, base_params))
    return errs.problems


def _merge_section(rs: Ruleset, doc: Doc, sec: str, patch, errs: Collector) -> None:
    vpath = ("merge", sec)
    if sec in SECTIONS_BY_ID:
        if not isinstance(patch, dict):
            errs.add(doc.source.value(vpath), f"merge.{sec} must be a mapping of ids")
            return
        table: dict = getattr(rs, sec)
        for key, val in patch.items():
            ident = key.split("(")[0].strip() if sec == "procedures" else key
            here = vpath + (key,)
            if val is None:
                if ident not in table:
                    errs.add(doc.source.key(here), f"cannot delete {sec[:-1]} {ident!r}: the base has none")
                else:
                    del table[ident]
                continue
            item = table.get(ident)
            if item is None:
                table[ident] = Item(ident, copy.deepcopy(val), doc, here)
                continue
            item.value = merge_patch(item.value, val)  # a scalar replaces; a mapping merges
            item.layers.append((doc, here, ()))
        return
    if sec in SECTIONS_LIST:
        if patch is None:
            setattr(rs, sec, [])
            return
        if not isinstance(patch, list):
            errs.add(doc.source.value(vpath), f"merge.{sec} replaces the whole list: write a list "
                     "(or use patch: operations to change one entry)")
            return
        setattr(rs, sec, [Item(str(v.get("id", f"{sec}{i}")) if isinstance(v, dict) else str(i),
                               copy.deepcopy(v), doc, vpath + (i,)) for i, v in enumerate(patch)])
        return
    if sec in SINGLE:
        cur = getattr(rs, sec)
        if patch is None:
            setattr(rs, sec, None)
        elif cur is not None and isinstance(cur.value, dict) and isinstance(patch, dict):
            cur.value = merge_patch(cur.value, patch)
            cur.layers.append((doc, vpath, ()))
        else:
            setattr(rs, sec, Item(sec, copy.deepcopy(patch), doc, vpath))
        return
    if sec == "sides":
        rs.sides = [str(s) for s in patch or []]
        return
    if sec == "player_name":
        rs.player_name = patch
        return
    if sec == "players" and isinstance(patch, dict):
        rs.min_players = int(patch.get("min", rs.min_players))
        rs.max_players = int(patch.get("max", rs.max_players))
        return
    if sec == "max_turns":
        rs.max_turns = int(patch)
        return
    errs.add(doc.source.key(vpath), f"a variant cannot merge into {sec!r}")


def merge_patch(target, patch):
    """RFC 7386 JSON Merge Patch: maps merge recursively, null deletes, the rest replaces."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    out = dict(target) if isinstance(target, dict) else {}
    for k, v in patch.items():
        if v is None:
            out.pop(k, None)
        else:
            out[k] = merge_patch(out.get(k), v)
    return out


def _pointer(path: str) -> list[str]:
    if path == "":
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path.lstrip("/").split("/")]


def _patch_op(rs: Ruleset, doc: Doc, i: int, op: dict, errs: Collector) -> None:
    """One JSON Patch operation on the merged ruleset (by section, then inside an entry)."""
    here = ("patch", i)
    kind = op.get("op")
    parts = _pointer(str(op.get("path", "")))
    if not parts:
        errs.add(doc.source.value(here + ("path",)), "a patch path names a section, like /end/0/when")
        return
    sec, rest = parts[0], parts[1:]
    if sec in SECTIONS_LIST:
        items: list = getattr(rs, sec)
        if not rest:
            errs.add(doc.source.value(here + ("path",)), f"name an entry of {sec}, like /{sec}/0 or /{sec}/-")
            return
        idx = rest[0]
        if idx == "-" and kind == "add" and len(rest) == 1:
            v = op.get("value")
            items.append(Item(str(v.get("id", f"{sec}{len(items)}")) if isinstance(v, dict) else "x",
                              copy.deepcopy(v), doc, here + ("value",)))
            return
        pos = _index_of(items, idx)
        if pos is None:
            errs.add(doc.source.value(here + ("path",)),
                     f"no entry {idx!r} in {sec} (it has {len(items)}; ids: "
                     f"{', '.join(it.id for it in items) or 'none'})")
            return
        if len(rest) == 1:
            if kind == "remove":
                del items[pos]
            elif kind in ("replace", "add"):
                v = op.get("value")
                new = Item(items[pos].id, copy.deepcopy(v), doc, here + ("value",))
                if kind == "add":
                    items.insert(pos, new)
                else:
                    items[pos] = new
            elif kind == "test":
                if items[pos].value != op.get("value"):
                    errs.add(doc.source.value(here), f"test failed: /{sec}/{idx} is not the expected value "
                             "(the base ruleset changed; check this variant)")
            return
        item = items[pos]
        rest = rest[1:]  # the rest of the path is inside the entry
    elif sec in SECTIONS_BY_ID:
        table = getattr(rs, sec)
        if not rest or rest[0] not in table:
            errs.add(doc.source.value(here + ("path",)), f"no {sec[:-1]} {rest[0] if rest else ''!r} to patch")
            return
        item = table[rest[0]]
        rest = rest[1:]
        if not rest:
            errs.add(doc.source.value(here + ("path",)), f"use merge: to replace a whole {sec[:-1]}")
            return
    elif sec in SINGLE and getattr(rs, sec) is not None:
        item = getattr(rs, sec)
    else:
        errs.add(doc.source.value(here + ("path",)), f"cannot patch {sec!r}")
        return
    item.value = copy.deepcopy(item.value)  # loaded documents are shared: never change them
    _patch_value(item, rest, op, doc, here, errs)


def _index_of(items: list, key: str):
    if key.isdigit():
        k = int(key)
        return k if k < len(items) else None
    for i, it in enumerate(items):
        if it.id == key:
            return i
    return None


def _patch_value(item: Item, rest: list, op: dict, doc: Doc, here: tuple, errs: Collector) -> None:
    kind = op.get("op")
    parent = item.value
    keys: list = []
    for k in rest[:-1]:
        if isinstance(parent, list) and k.isdigit() and int(k) < len(parent):
            parent = parent[int(k)]
            keys.append(int(k))
        elif isinstance(parent, dict) and k in parent:
            parent = parent[k]
            keys.append(k)
        else:
            errs.add(doc.source.value(here + ("path",)), f"path {op.get('path')!r} does not exist in the base")
            return
    last = rest[-1]
    if isinstance(parent, list):
        if last == "-":
            pos = len(parent)
        elif last.isdigit():
            pos = int(last)
        else:
            errs.add(doc.source.value(here + ("path",)), f"{last!r} is not a list index")
            return
        if kind == "add":
            parent.insert(pos, copy.deepcopy(op.get("value")))
        elif pos >= len(parent):
            errs.add(doc.source.value(here + ("path",)), f"index {pos} is past the end of the list")
            return
        elif kind == "remove":
            del parent[pos]
        elif kind == "replace":
            parent[pos] = copy.deepcopy(op.get("value"))
        elif kind == "test" and parent[pos] != op.get("value"):
            errs.add(doc.source.value(here), f"test failed: {op.get('path')} is {parent[pos]!r}, "
                     f"not {op.get('value')!r}")
        keys.append(pos)
    elif isinstance(parent, dict):
        if kind == "test":
            if parent.get(last, _MISSING) != op.get("value"):
                errs.add(doc.source.value(here), f"test failed: {op.get('path')} is "
                         f"{parent.get(last)!r}, not {op.get('value')!r}")
            return
        if kind == "remove":
            if last not in parent:
                errs.add(doc.source.value(here + ("path",)), f"nothing at {op.get('path')} to remove")
                return
            del parent[last]
            return
        if kind == "replace" and last not in parent:
            errs.add(doc.source.value(here + ("path",)), f"nothing at {op.get('path')} to replace "
                     "(use op: add)")
            return
        parent[last] = copy.deepcopy(op.get("value"))
        keys.append(last)
    else:
        errs.add(doc.source.value(here + ("path",)), f"path {op.get('path')!r} does not exist in the base")
        return
    if kind in ("add", "replace"):
        item.layers.append((doc, here + ("value",), tuple(keys)))


def rebuild_data(rs: Ruleset) -> dict:
    """The merged plain data (used for the rules hash, explain and diff)."""
    data: dict = {"ruleset": rs.id, "version": rs.version,
                  "players": {"min": rs.min_players, "max": rs.max_players}, "max_turns": rs.max_turns}
    for sec in SECTIONS_BY_ID:
        table = getattr(rs, sec)
        if table:
            data[sec] = {proc_key(it) if sec == "procedures" else k: it.value
                         for k, it in table.items()}
    for sec in SECTIONS_LIST:
        if getattr(rs, sec):
            data[sec] = [it.value for it in getattr(rs, sec)]
    for sec in SINGLE:
        it = getattr(rs, sec)
        if it is not None:
            data[sec] = it.value
    data["sides"] = list(rs.sides)
    if rs.player_name is not None:
        data["player_name"] = rs.player_name
    if getattr(rs, "variants", None):
        data["variants"] = list(rs.variants)
    return data
