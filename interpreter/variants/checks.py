"""Stage 2 checks: a variant that changes nothing is a mistake, said with the reason.

Pipeline position: inside the overlay stage (`overlay.apply_variants`), just before a variant's
`merge:` is applied to the ruleset as the earlier variants left it. A JSON Merge Patch merges
mappings and replaces everything else, so a house rule can look right and do nothing: an empty
mapping (`by_players: {}` does not clear the entries, it merges none), a value set to what it
already is, a `null` deleting a key that is not there. Each is a located error, and so is a
variant whose merge and patch together leave the rules exactly as they were.
"""

from __future__ import annotations

from ..errors import Problem
from ..frontend.model import SECTIONS_BY_ID, SECTIONS_LIST, Ruleset
from ..frontend.yaml_source import Doc

_MISSING = object()
NOOP = "this changes nothing"  # ends every message of this module
_SINGLE = ("setup", "turn", "side_of", "turn_order", "evaluate", "search", "stats")
_EMPTY = ("is an empty mapping, and a merge adds or replaces only the keys it names (set a key "
          "to null to delete it, or write the whole value to replace it)")


def _show(v) -> str:
    if isinstance(v, str):
        return repr(v) if "\n" not in v else repr(v.split("\n", 1)[0] + "...")
    if isinstance(v, (dict, list)):
        return "the same " + ("mapping" if isinstance(v, dict) else "list")
    return str(v).lower() if isinstance(v, bool) else str(v)


def _current(rs: Ruleset, sec: str, key=None):
    """The value a merge of `sec` (entry `key`) patches, as the earlier variants left it."""
    if sec in SECTIONS_BY_ID:
        table = getattr(rs, sec)
        ident = key.split("(")[0].strip() if sec == "procedures" else key
        it = table.get(ident)
        return _MISSING if it is None else it.value
    if sec in SECTIONS_LIST:
        return [it.value for it in getattr(rs, sec)]
    if sec in _SINGLE:
        it = getattr(rs, sec)
        return _MISSING if it is None else it.value
    if sec == "players":
        return {"min": rs.min_players, "max": rs.max_players}
    if sec == "max_turns":
        return rs.max_turns
    if sec == "sides":
        return list(rs.sides)
    if sec == "player_name":
        return rs.player_name
    return _MISSING


def _walk(cur, patch, path: tuple, name: str, doc: Doc, out: list) -> None:
    if isinstance(patch, dict):
        if not patch:
            out.append(Problem(doc.source.value(path), f"{name} {_EMPTY}: {NOOP}", path))
            return
        for k, v in patch.items():
            here = path + (k,)
            inner = cur.get(k, _MISSING) if isinstance(cur, dict) else _MISSING
            if v is None:
                if isinstance(cur, dict) and inner is _MISSING:
                    out.append(Problem(doc.source.key(here), f"{name}.{k} is null, which deletes it, "
                                       f"but it is not there: {NOOP}", here))
                continue
            _walk(inner, v, here, f"{name}.{k}", doc, out)
        return
    if cur is not _MISSING and cur == patch:
        out.append(Problem(doc.source.value(path), f"sets {name} to {_show(patch)}, which it already is: "
                           f"{NOOP}", path))


def unchanged_merges(rs: Ruleset, doc: Doc) -> list[Problem]:
    """Every part of a variant's merge that would leave `rs` as it is, located."""
    data = doc.data if isinstance(doc.data, dict) else {}
    out: list[Problem] = []
    if "merge" in data and not data["merge"]:
        out.append(Problem(doc.source.value(("merge",)), f"merge {_EMPTY}: {NOOP}", ("merge",)))
        return out
    for sec, patch in (data.get("merge") or {}).items():
        path = ("merge", sec)
        if sec in SECTIONS_BY_ID and isinstance(patch, dict):
            if not patch:
                out.append(Problem(doc.source.value(path), f"{sec} {_EMPTY}: {NOOP}", path))
            for key, val in patch.items():
                here = path + (key,)
                cur = _current(rs, sec, key)
                if val is None:
                    continue  # overlay reports deleting what the base lacks
                _walk(cur, val, here, f"{sec}.{key}", doc, out)
            continue
        _walk(_current(rs, sec), patch, path, sec, doc, out)
    return out


def comparable(data: dict) -> dict:
    """Merged rule data without the record of which variants were applied."""
    return {k: v for k, v in data.items() if k != "variants"}


def changes_nothing(doc: Doc) -> Problem:
    """The problem of a variant whose merge and patch leave the rules as they were."""
    return Problem(doc.source.value(("variant",)), "this variant changes nothing in the rules: "
                   f"its merge and patch leave every section as it was; {NOOP}", ("variant",))
