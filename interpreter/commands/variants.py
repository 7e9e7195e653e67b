"""`grimoire explain` and `grimoire diff`: what house rules change, and who set a value.

Pipeline position: the outermost layer, over stages 1-4 only (load, overlay, validate,
build): nothing is compiled, so a variant whose merged rules do not compile can still be
explained. `explain` follows one value's provenance (`Item.chain`): the base file and line,
then each variant that set it. `diff` compares the plain data of the base and the merged
ruleset and says what changed in rule terms ("param goal: 12 -> 15", "card pearl: count
2 -> 3", "action play: effect changed", "end condition tide_turned removed").
"""

from __future__ import annotations

import difflib
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import Collector, Loc, RulesetError, source_line
from ..frontend.model import SECTIONS_BY_ID, SECTIONS_LIST, Item, Ruleset
from ..variants.overlay import SINGLE, rebuild_data

NOUN = {"params": "param", "counters": "counter", "zones": "zone", "cards": "card",
        "locations": "location", "procedures": "procedure", "actions": "action",
        "triggers": "trigger", "modifiers": "modifier", "end": "end condition",
        "setup": "setup", "turn": "turn", "side_of": "side_of", "turn_order": "turn_order",
        "evaluate": "evaluate", "search": "search", "stats": "stat", "policy": "policy"}
SHORT = 40  # strings up to this long, on one line, are shown; longer ones are "changed"


def register(sub) -> None:
    """Add the `explain` and `diff` subcommands."""
    e = sub.add_parser("explain", help="show the files and lines that set one value of the rules")
    e.add_argument("ruleset", help="the ruleset folder")
    e.add_argument("path", help="a value, like params.goal or cards.pearl.count")
    e.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    e.set_defaults(fn=cmd_explain)
    d = sub.add_parser("diff", help="list what the variants change, in rule terms")
    d.add_argument("ruleset", help="the ruleset folder")
    d.add_argument("--variant", action="append", default=[], help="a variant file (repeatable)")
    d.set_defaults(fn=cmd_diff)


# ---- loading: base and merged, without compiling --------------------------------------------------

def load_pair(path: str, variants: list[str]) -> tuple[Ruleset, Ruleset, list]:
    """The base ruleset, the ruleset with the variants applied, and the variant documents."""
    from ..frontend.includes import load_ruleset_files
    from ..frontend.model import build_ruleset
    from ..game import resolve_ruleset
    from ..variants.overlay import apply_variants, load_variant
    root = resolve_ruleset(path)
    docs = load_ruleset_files(root)
    errs = Collector()
    vdocs = []
    for v in variants:
        try:
            vdocs.append(load_variant(v, root))
        except RulesetError as e:
            errs.extend(e.problems)
    try:
        from ..frontend.validate import validate_ruleset_docs
        errs.extend(validate_ruleset_docs(docs))
    except ImportError:  # no schema stage installed: build reports what it can
        pass
    errs.raise_if_any()
    base, problems = build_ruleset(docs, str(root))
    errs.extend(problems)
    errs.raise_if_any()
    merged, _ = build_ruleset(docs, str(root))
    if vdocs:
        errs.extend(apply_variants(merged, vdocs))
    errs.raise_if_any()
    return base, merged, vdocs


# ---- explain ----------------------------------------------------------------------------------------

_ABSENT = object()


def resolve_path(rs: Ruleset, dotted: str) -> tuple[Item, tuple, object]:
    """The item a dotted path names, the sub-path inside it, and the value there."""
    parts = [p for p in dotted.split(".") if p]
    if not parts:
        raise LookupError("name a value, like params.goal or cards.pearl.count")
    sec, rest = parts[0], parts[1:]
    if sec in SECTIONS_BY_ID:
        table = getattr(rs, sec)
        if not rest:
            raise LookupError(f"name one {NOUN[sec]}: {sec}.ID (ids: {_some(table)})")
        item = table.get(rest[0])
        if item is None:
            raise LookupError(f"no {NOUN[sec]} {rest[0]!r}" + _did_you_mean(rest[0], table))
        rest = rest[1:]
    elif sec in SECTIONS_LIST:
        items = getattr(rs, sec)
        if not rest:
            raise LookupError(f"name one {NOUN[sec]}: {sec}.ID or {sec}.INDEX")
        key = rest[0]
        item = next((it for it in items if it.id == key), None)
        if item is None and key.isdigit() and int(key) < len(items):
            item = items[int(key)]
        if item is None:
            raise LookupError(f"no {NOUN[sec]} {key!r}" + _did_you_mean(key, [it.id for it in items]))
        rest = rest[1:]
    elif sec in SINGLE:
        item = getattr(rs, sec)
        if item is None:
            raise LookupError(f"this ruleset has no {sec}")
    else:
        known = list(SECTIONS_BY_ID) + list(SECTIONS_LIST) + list(SINGLE)
        raise LookupError(f"no section {sec!r}" + _did_you_mean(sec, known))
    sub = tuple(int(p) if p.isdigit() else p for p in rest)
    value = item.value
    for k in sub:
        if isinstance(value, dict) and k in value or isinstance(value, list) and isinstance(k, int) and k < len(value):
            value = value[k]
        else:
            return item, sub, _ABSENT
    return item, sub, value


def _some(names) -> str:
    names = list(names)
    return ", ".join(names[:8]) + (" ..." if len(names) > 8 else "")


def _did_you_mean(word: str, names) -> str:
    close = difflib.get_close_matches(word, list(names), n=1)
    return f"; did you mean {close[0]!r}?" if close else ""


def explain(base: Ruleset, merged: Ruleset, vdocs: list, dotted: str) -> list[str]:
    """Lines saying the value at a dotted path and every place that set it, base first."""
    try:
        item, sub, value = resolve_path(merged, dotted)
    except LookupError as e:
        try:
            b_item, b_sub, b_value = resolve_path(base, dotted)
        except LookupError:
            raise e from None
        lines = [_w("cli-explain-removed", path=dotted, value=_full(b_value))]
        lines.append(_loc_line(b_item.loc(*b_sub), "base"))
        lines += [_loc_line(loc, "variant") for loc in _removals(vdocs, dotted)]
        return lines
    if value is _ABSENT:
        raise LookupError(f"{dotted}: no such value in {item.id!r}"
                          + (f" (it has: {_some(item.value)})" if isinstance(item.value, dict) else ""))
    lines = [f"{dotted} = {_full(value)}"]
    chain = item.chain(sub)
    if not chain:
        chain = [item.loc(*sub)]
    variant_files = {str(d.path) for d in vdocs}
    for loc in chain:  # a value a variant added has no base: every line of its chain is a variant's
        lines.append(_loc_line(loc, "variant" if str(loc.file) in variant_files else "base"))
    return lines


def _full(v) -> str:
    """A value in full: a multi-line string as an indented block."""
    if isinstance(v, str) and "\n" in v:
        return "|\n" + "\n".join("    " + line for line in v.rstrip("\n").split("\n"))
    if isinstance(v, str):
        return v
    return _show(v)


def _w(msg_id: str, **args) -> str:
    """A message of the command line in its language (`grimoire --lang`, LANG)."""
    from .cli_text import cli_text
    from .output import language
    return cli_text(language(), msg_id, args)


def _loc_line(loc: Loc, what: str) -> str:
    text = source_line(loc.file, loc.line)
    return f"  {_rel(loc)}  [{_w('cli-explain-' + what)}]" + (f"  {text.strip()}" if text else "")


def _rel(loc: Loc) -> str:
    try:
        f = str(Path(loc.file).resolve().relative_to(Path.cwd()))
    except ValueError:
        f = loc.file
    return f"{f}:{loc.line}:{loc.col}"


def _removals(vdocs: list, dotted: str) -> list[Loc]:
    """Where variants delete the entry a dotted path names (merge: null, or patch remove)."""
    parts = dotted.split(".")
    out = []
    for doc in vdocs:
        data = doc.data if isinstance(doc.data, dict) else {}
        merge = data.get("merge") or {}
        if parts[0] in merge and (merge[parts[0]] is None or parts[0] in SECTIONS_LIST):
            out.append(doc.source.key(("merge", parts[0])))  # the whole section deleted or replaced
        elif len(parts) >= 2 and isinstance(merge.get(parts[0]), dict):
            for key, val in merge[parts[0]].items():
                if key.split("(")[0].strip() == parts[1] and val is None:
                    out.append(doc.source.key(("merge", parts[0], key)))
        for i, op in enumerate(data.get("patch") or []):
            if isinstance(op, dict) and op.get("op") == "remove":
                path = str(op.get("path", "")).strip("/").split("/")
                if path[:len(parts)] == parts[:len(path)]:
                    out.append(doc.source.value(("patch", i)))
    return out


def cmd_explain(args) -> int:
    base, merged, vdocs = load_pair(args.ruleset, args.variant)
    try:
        lines = explain(base, merged, vdocs, args.path)
    except LookupError as e:
        print(_w("cli-error", message=str(e)), file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


# ---- diff ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Change:
    """One difference between two rulesets, in rule terms."""

    section: str
    ident: str | None
    sub: tuple
    text: str
    kind: str  # added, removed, changed
    detail: tuple = ()  # a unified diff of changed code, line by line


def _show(v) -> str:
    if v is _ABSENT:
        return "nothing"
    if isinstance(v, str):
        return v if "\n" not in v and len(v) <= SHORT else "..."
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_show(x)}" for k, x in v.items()) + "}"
    return str(v)


def _showable(v) -> bool:
    """Short enough to print in a diff line (a small table like {by_players: ...} too)."""
    if isinstance(v, str):
        return "\n" not in v and len(v) <= SHORT
    if isinstance(v, list):
        return all(_showable(x) for x in v) and len(_show(v)) <= 2 * SHORT
    if isinstance(v, dict):
        return all(_showable(x) for x in v.values()) and len(_show(v)) <= 2 * SHORT
    return True


def _value_changes(section: str, ident: str | None, head: str, sub: tuple, a, b, out: list) -> None:
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            _value_changes(section, ident, head, sub + (k,), a.get(k, _ABSENT), b.get(k, _ABSENT), out)
        return
    label = ".".join(str(s) for s in sub)
    where = f"{head}: {label}" if label else head
    if b is _ABSENT:
        out.append(Change(section, ident, sub, f"{where} removed", "removed"))
    elif a is _ABSENT:
        shown = f": {_show(b)}" if _showable(b) else ""
        out.append(Change(section, ident, sub, f"{where} added{shown}", "added"))
    elif _showable(a) and _showable(b):
        out.append(Change(section, ident, sub, f"{where} {_show(a)} -> {_show(b)}" if label
                          else f"{where}: {_show(a)} -> {_show(b)}", "changed"))
    else:
        out.append(Change(section, ident, sub, f"{where} changed", "changed", _code_diff(a, b)))


def _code_diff(a, b) -> tuple:
    """The lines of a unified diff between two texts (effect code), or () for other values."""
    if not (isinstance(a, str) and isinstance(b, str)):
        return ()
    lines = difflib.unified_diff(a.rstrip("\n").splitlines(), b.rstrip("\n").splitlines(),
                                 "base", "variant", lineterm="", n=2)
    return tuple(lines)


def _by_id(section: str, data: dict) -> dict:
    raw = data.get(section) or {}
    if section in SECTIONS_LIST:
        out = {}
        for i, v in enumerate(raw):
            out[str(v.get("id", f"{section}{i}")) if isinstance(v, dict) else str(i)] = v
        return out
    if section == "procedures":
        return {k.split("(")[0].strip(): v for k, v in raw.items()}
    return dict(raw)


def rule_diff(a: dict, b: dict) -> list[Change]:
    """What changes from ruleset data a to ruleset data b, in rule terms, in section order."""
    out: list[Change] = []
    pa, pb = a.get("players") or {}, b.get("players") or {}
    if pa != pb:
        out.append(Change("players", None, (), f"players: {pa.get('min')}-{pa.get('max')} -> "
                          f"{pb.get('min')}-{pb.get('max')}", "changed"))
    for key in ("max_turns", "sides", "player_name"):
        if a.get(key) != b.get(key):
            out.append(Change(key, None, (), f"{key}: {_show(a.get(key))} -> {_show(b.get(key))}",
                              "changed"))
    for sec in SECTIONS_BY_ID + SECTIONS_LIST:
        ta, tb = _by_id(sec, a), _by_id(sec, b)
        for ident in list(ta) + [k for k in tb if k not in ta]:
            head = f"{NOUN[sec]} {ident}"
            if ident not in tb:
                out.append(Change(sec, ident, (), f"{head} removed", "removed"))
            elif ident not in ta:
                v = tb[ident]
                out.append(Change(sec, ident, (), f"{head} added" + (f": {_show(v)}" if _showable(v) else ""),
                                  "added"))
            else:
                _value_changes(sec, ident, head, (), ta[ident], tb[ident], out)
    for sec in SINGLE:
        va, vb = a.get(sec, _ABSENT), b.get(sec, _ABSENT)
        if va == vb:
            continue
        if vb is _ABSENT:
            out.append(Change(sec, None, (), f"{sec} removed", "removed"))
        elif va is _ABSENT:
            out.append(Change(sec, None, (), f"{sec} added", "added"))
        elif isinstance(va, dict) and isinstance(vb, dict):
            _value_changes(sec, None, sec, (), va, vb, out)
        else:
            out.append(Change(sec, None, (), f"{sec} changed", "changed", _code_diff(va, vb)))
    return out


def locate(merged: Ruleset, vdocs: list, ch: Change) -> Loc | None:
    """Where the variant that made a change wrote it (None if unknown)."""
    if ch.kind == "removed":
        locs = _removals(vdocs, ".".join([ch.section] + ([ch.ident] if ch.ident else [])
                                         + [str(s) for s in ch.sub]))
        return locs[-1] if locs else None
    item = None
    if ch.section in SECTIONS_BY_ID:
        item = getattr(merged, ch.section).get(ch.ident)
    elif ch.section in SECTIONS_LIST:
        item = next((it for it in getattr(merged, ch.section) if it.id == ch.ident), None)
    elif ch.section in SINGLE:
        item = getattr(merged, ch.section)
    if item is None:
        return None
    return item.loc(*ch.sub)


def cmd_diff(args) -> int:
    base, merged, vdocs = load_pair(args.ruleset, args.variant)
    if not args.variant:
        print(_w("cli-diff-no-variants"), file=sys.stderr)
        return 2
    from ..variants.texts import text_changes
    changes = rule_diff(rebuild_data(base), merged.data)
    texts = text_changes(merged)
    names = ", ".join(merged.variants)
    if not changes and not texts:
        print(_w("cli-diff-none", names=names, ruleset=base.id))
        return 0
    n = len(changes) + len(texts)
    print(_w("cli-diff-head", names=names, ruleset=base.id, n=n))
    for ch in changes:
        loc = locate(merged, vdocs, ch)
        print(f"  {ch.text}" + (f"  ({_rel(loc)})" if loc is not None else ""))
        for line in ch.detail:
            print(f"    {line}")
    for line in texts:
        print(f"  {line}")
    return 0


__all__ = ["Change", "explain", "load_pair", "register", "resolve_path", "rule_diff"]
