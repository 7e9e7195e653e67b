"""The schema of a variant's `merge:` sections, derived from the ruleset schema.

Pipeline position: beside `validate` (stage 3), for variant files (stage 2's input). A merge is
a JSON Merge Patch over the ruleset's sections, so the schema of `merge.S` is the schema of
section S made partial: inside mappings that merge, no key is required and any key may be
`null` (deletes it); values that are replaced whole (lists, scalars) keep the full schema. The
result is written to `schemas/merge.schema.json`, which `variant.schema.json` refers to, so
that `grimoire validate` and an editor running yaml-language-server both flag `wehn:` inside
`merge:` and complete the keys of what is patched. `python -m interpreter.authoring.merge_schema`
rewrites the file; a test fails when it is out of date with `defs.schema.json`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

SCHEMA_DIR = Path(__file__).resolve().parent.parent.parent / "schemas"
OUT = SCHEMA_DIR / "merge.schema.json"
_DEFS = "defs.schema.json"
# sections of a ruleset a variant merges (ruleset.schema.json's properties less the file's own)
_NOT_MERGED = ("ruleset", "version", "title", "include")
_SCHEMA_KEYS = ("anyOf", "oneOf", "allOf")


def _full(s):
    """The schema `s` unchanged, its local refs pointed at defs.schema.json."""
    if isinstance(s, dict):
        out = {}
        for k, v in s.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/definitions/"):
                out[k] = _DEFS + v
            else:
                out[k] = _full(v)
        return out
    if isinstance(s, list):
        return [_full(x) for x in s]
    return s


def _nullable(s: dict) -> dict:
    """`s`, or null (a merge patch deletes with null)."""
    t = s.get("type")
    if isinstance(t, str) and not ({"enum", "const"} & set(s)):
        return {**s, "type": [t, "null"]}
    desc = {"description": s["description"]} if "description" in s else {}
    return {**desc, "anyOf": [{"type": "null", "description": "null deletes it"}, s]}


class _Deriver:
    def __init__(self, defs: dict):
        self.defs = defs
        self.out: dict = {}

    def ref(self, name: str) -> str:
        """A ref to the partial form of definition `name`, derived on first use."""
        if name not in self.out:
            self.out[name] = {}  # placeholder: the definitions refer to one another
            self.out[name] = self.patch(self.defs[name])
        return f"#/definitions/{name}"

    def patch(self, s):
        """The partial form of schema `s`: what a merge patch over a value of `s` may be."""
        if not isinstance(s, dict):
            return s
        out = {}
        for k, v in s.items():
            if k == "$ref" and isinstance(v, str) and v.startswith("#/definitions/"):
                out[k] = self.ref(v.removeprefix("#/definitions/"))
            elif k in ("required", "minProperties"):
                continue  # a patch names only what it changes
            elif k == "properties":
                out[k] = {p: _nullable(self.patch(sub)) for p, sub in v.items()}
            elif k == "additionalProperties" and isinstance(v, dict):
                out[k] = _nullable(self.patch(v))
            elif k in _SCHEMA_KEYS:
                out[k] = [self.patch(b) for b in v]
            elif k in ("then", "else"):
                out[k] = self.patch(v)
            else:  # items (lists are replaced whole), if, propertyNames, words
                out[k] = _full(v)
        return out


def derive() -> dict:
    """The merge schema: one definition per section a variant may merge."""
    defs = json.loads((SCHEMA_DIR / _DEFS).read_text(encoding="utf-8"))["definitions"]
    ruleset = json.loads((SCHEMA_DIR / "ruleset.schema.json").read_text(encoding="utf-8"))
    d = _Deriver(defs)
    sections = {}
    for sec, s in ruleset["properties"].items():
        if sec in _NOT_MERGED:
            continue
        ref = s.get("$ref", "")
        if ref.startswith(_DEFS + "#/definitions/"):
            sections[sec] = _nullable({"description": s.get("description", defs[ref.split("/")[-1]].get(
                "description", "")), "allOf": [{"$ref": d.ref(ref.split("/")[-1])}]})
        else:
            sections[sec] = _nullable(d.patch({k: v for k, v in s.items()}))
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Grimoire variant merge",
        "description": "What a variant's merge: may say, section by section: the ruleset's schema made "
                       "partial (no key required, null deletes). Derived from defs.schema.json by "
                       "interpreter/authoring/merge_schema.py; do not edit by hand.",
        "type": "object",
        "properties": sections,  # which sections may be merged at all: variant.schema.json says
        "definitions": dict(sorted(d.out.items())),
    }


def text() -> str:
    """The merge schema as the file holds it."""
    return json.dumps(derive(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    """Rewrite schemas/merge.schema.json."""
    OUT.write_text(text(), encoding="utf-8")
    print(f"wrote {OUT.relative_to(SCHEMA_DIR.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
