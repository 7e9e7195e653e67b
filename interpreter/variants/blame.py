"""Errors a variant causes in the base files, headed by one error at the variant's own line.

Pipeline position: stage 2 (overlay) records what a variant set or deleted; after the merged
rules compiled (stage 5), `headlines` looks at the errors located in the base ruleset's files:
the variant changed something those lines use. Deleting a card or a counter the rules still
name gives an error at every use, in files the author never touched; so before them comes one
error at the variant line that deleted it (how many uses, and where the first ones are), and
one at the variant's id for base errors no deletion explains.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..errors import Problem, source_line
from ..frontend.model import SECTIONS_BY_ID

_WHAT = {"params": "param", "counters": "counter", "zones": "zone", "cards": "card",
         "locations": "location", "procedures": "procedure", "actions": "action"}


def _deletions(doc) -> list[tuple[str, str, object]]:
    """(section, id, where) of each entry the variant deletes (`merge: {sec: {id: null}}`; a patch
    cannot remove a whole entry)."""
    data = doc.data if isinstance(doc.data, dict) else {}
    out = []
    for sec, patch in (data.get("merge") or {}).items():
        if sec in SECTIONS_BY_ID and isinstance(patch, dict):
            for key, val in patch.items():
                if val is None:
                    out.append((sec, str(key).split("(")[0].strip(), doc.source.key(("merge", sec, key))))
    return out


def _uses(p: Problem, ident: str) -> bool:
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(ident)}(?![A-Za-z0-9_])")
    return bool(word.search(p.message) or word.search(source_line(p.loc.file, p.loc.line) or ""))


def _places(found: list[Problem], root) -> str:
    shown = []
    for p in found:
        try:
            f = Path(p.loc.file).resolve().relative_to(Path(root).resolve()).as_posix()
        except ValueError:
            f = Path(p.loc.file).name
        here = f"{f}:{p.loc.line}"
        if here not in shown:
            shown.append(here)
    more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
    return ", ".join(shown[:3]) + more


def headlines(problems: list[Problem], variant_docs: list, root) -> list[Problem]:
    """One error at the variant's line for the errors it caused in the base files (under root)."""
    if not variant_docs:
        return []
    mine = {str(d.path) for d in variant_docs}
    base = [p for p in problems if p.severity == "error" and str(p.loc.file) not in mine]
    if not base:
        return []
    out, explained = [], set()
    for doc in variant_docs:
        for sec, ident, where in _deletions(doc):
            found = [p for p in base if _uses(p, ident)]
            if not found:
                continue
            explained.update(id(p) for p in found)
            n = len(found)
            out.append(Problem(where, f"deleting {_WHAT[sec]} {ident!r} breaks the rules that still use it: "
                               f"{n} error{'s' if n != 1 else ''} below, in the base files ({_places(found, root)}); "
                               f"change those rules too (merge or patch), or keep the {_WHAT[sec]}"))
    rest = [p for p in base if id(p) not in explained]
    if rest:
        doc = variant_docs[-1]
        n = len(rest)
        names = ", ".join(str((d.data or {}).get("variant", Path(d.path).stem)) if isinstance(d.data, dict)
                          else Path(d.path).stem for d in variant_docs)
        out.append(Problem(doc.source.value(("variant",)),
                           f"with variant{'s' if len(variant_docs) > 1 else ''} {names} applied, {n} "
                           f"error{'s' if n != 1 else ''} below {'are' if n != 1 else 'is'} in the base files "
                           f"({_places(rest, root)}): the base rules there use what the variant changed"))
    return out
