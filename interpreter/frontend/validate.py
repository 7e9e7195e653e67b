"""Stage 3 of the pipeline: loaded documents -> JSON Schema (Draft 7) check -> located problems.

Input: `Doc`s from `load` (plain data + a SourceMap). Output: a list of `Problem`s, each at
the file:line:col a rules author must edit, in plain words ("count must be an integer, found
'three'"), most relevant first (jsonschema's relevance: problems higher up in a file first).

Where a problem points:
  - an unknown key: the key itself, with "did you mean ...?" from the allowed names;
  - a missing required key: the mapping that lacks it;
  - anything else: the offending value.

Schemas live in `<repo>/schemas/*.schema.json` and refer to each other with relative
`$ref`s ("defs.schema.json#/definitions/card"), exactly as an editor reading them from disk
would; here a `referencing.Registry` holds every schema under its file name, so the relative
refs resolve without network or file-URI tricks. One Draft7Validator per schema is cached.

`cross_file_problems` adds what one schema cannot see: an id defined in two files.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator
from jsonschema.exceptions import WEAK_MATCHES, ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from ..errors import Loc, Problem, dedupe
from ..files import shipped_data
from .yaml_source import Doc, require_mapping

SCHEMA_DIR = shipped_data("schemas")
KINDS = ("components", "cards", "locations", "flow", "end", "policy")

# what a pattern asks for, in words (keyed by the pattern string used in the schemas)
PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "an id (lowercase letters, digits and _, starting with a letter)",
    "\\.ya?ml$": "a path to a .yaml file",
    "^[0-9]+$": "a number of players",
    "^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})*$": "a language code like en or pt-BR",
    "^[a-zA-Z][a-zA-Z0-9_-]*$": "a message id (letters, digits, - and _)",
    "^(/[^/]*)*$": "a JSON Pointer like /cards/fight_3/count",
}
PROCEDURE_WORDS = "a name, optionally with its arguments, like heal(p, n)"

TYPE_WORDS = {
    "object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
    "number": "a number", "boolean": "true or false", "null": "empty",
}

# sections whose entries are ids (duplicates across files are errors) and their singular
ID_SECTIONS = {
    "params": "param", "counters": "counter", "zones": "zone", "cards": "card",
    "locations": "location", "procedures": "procedure", "actions": "action",
    "evaluate": "evaluation of side",
}
# sections that may be written once in the whole ruleset
SINGLE_SECTIONS = ("sides", "player_name", "side_of", "setup", "turn", "turn_order")


# --- schemas -------------------------------------------------------------------------------

def schema_path(name: str) -> Path:
    """Return the file of schema `name` ("cards" -> <repo>/schemas/cards.schema.json)."""
    return SCHEMA_DIR / f"{name}.schema.json"


@functools.cache
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.name, Resource.from_contents(contents, default_specification=DRAFT7)))
    return Registry().with_resources(resources)


@functools.cache
def validator(name: str) -> Draft7Validator:
    """Return the (cached) Draft 7 validator of schema `name`."""
    path = schema_path(name)
    if not path.is_file():
        known = ", ".join(sorted(p.name.removesuffix(".schema.json")
                                 for p in SCHEMA_DIR.glob("*.schema.json")))
        raise ValueError(f"no schema named {name!r} (known: {known})")
    schema = _registry().contents(path.name)
    Draft7Validator.check_schema(schema)
    return Draft7Validator(schema, registry=_registry())


@functools.cache
def kind_sections() -> dict[str, tuple[str, ...]]:
    """Return the sections each kind of included file may hold, read from its schema."""
    out = {}
    for kind in KINDS:
        props = _registry().contents(schema_path(kind).name)["properties"]
        out[kind] = tuple(k for k in props if k not in ("kind", "include"))
    return out


# --- validation ----------------------------------------------------------------------------

def validate_doc(doc: Doc, schema_name: str) -> list[Problem]:
    """Check one document against schema `schema_name`; return every problem, located.

    Loaded documents are cached and read-only, so the answer is remembered on the document."""
    memo = doc.__dict__.setdefault("_validated", {})
    if schema_name not in memo:
        memo[schema_name] = _validate_doc(doc, schema_name)
    return list(memo[schema_name])


def _validate_doc(doc: Doc, schema_name: str) -> list[Problem]:
    if doc.data is None:
        return require_mapping(doc)
    v = validator(schema_name)
    errors = sorted(v.iter_errors(doc.data), key=lambda e: _error_loc(e, doc))
    errors.sort(key=_relevance, reverse=True)  # stable: equal relevance stays in file order
    problems: list[Problem] = []
    for e in errors:
        problems.extend(_problems(e, doc, schema_name))
    return dedupe(problems)


def validate_ruleset_docs(docs: list[Doc]) -> list[Problem]:
    """Check a loaded ruleset: the root file, each included file by its kind, cross-file ids."""
    problems: list[Problem] = []
    for i, doc in enumerate(docs):
        if i == 0:
            problems.extend(validate_doc(doc, "ruleset"))
            continue
        if not isinstance(doc.data, dict):
            problems.extend(require_mapping(doc))
            continue
        kind = doc.data.get("kind")
        kinds = ", ".join(KINDS)
        if "kind" not in doc.data:
            problems.append(Problem(doc.source.value(()),
                                    f"missing required key 'kind'; an included file says which "
                                    f"kind it is: {kinds}"))
        elif kind not in KINDS:
            hint = _suggest(kind, KINDS) if isinstance(kind, str) else ""
            problems.append(Problem(doc.source.value(("kind",)),
                                    f"unknown kind {_found(kind)}{hint}; expected one of {kinds}",
                                    ("kind",)))
        else:
            problems.extend(validate_doc(doc, kind))
    problems.extend(cross_file_problems(docs))
    return problems


def cross_file_problems(docs: list[Doc]) -> list[Problem]:
    """Report ids (and once-only sections) defined in more than one place, at the second."""
    problems: list[Problem] = []
    first: dict[tuple, Loc] = {}
    for doc in docs:
        if not isinstance(doc.data, dict):
            continue
        for section, value in doc.data.items():
            if section in SINGLE_SECTIONS:
                here = doc.source.key((section,))
                if (section,) in first:
                    problems.append(Problem(here, f"section '{section}' is already defined at "
                                                  f"{first[(section,)]}", (section,)))
                else:
                    first[(section,)] = here
            elif section in ID_SECTIONS and isinstance(value, dict):
                for key in value:
                    ident = key.split("(", 1)[0].strip() if section == "procedures" else key
                    here = doc.source.key((section, key))
                    if (section, ident) in first:
                        problems.append(Problem(
                            here, f"{ID_SECTIONS[section]} '{ident}' is already defined at "
                                  f"{first[(section, ident)]}", (section, key)))
                    else:
                        first[(section, ident)] = here
            elif section == "end" and isinstance(value, list):
                for i, cond in enumerate(value):
                    if isinstance(cond, dict) and isinstance(cond.get("id"), str):
                        here = doc.source.value((section, i, "id"))
                        if ("end", cond["id"]) in first:
                            problems.append(Problem(
                                here, f"end condition '{cond['id']}' is already defined at "
                                      f"{first[('end', cond['id'])]}", (section, i, "id")))
                        else:
                            first[("end", cond["id"])] = here
    return problems


# --- one jsonschema error -> problems -------------------------------------------------------

def _relevance(e: ValidationError) -> tuple:
    # jsonschema.exceptions.relevance's first criteria: shallow errors first, anyOf/oneOf
    # last; ties keep file order (the caller sorts by position first)
    return (-len(e.path), e.validator not in WEAK_MATCHES)


def _error_loc(e: ValidationError, doc: Doc) -> Loc:
    path = tuple(e.absolute_path)
    if e.validator == "additionalProperties" and isinstance(e.instance, dict):
        extra = _extra_keys(e)
        if extra:
            return doc.source.key(path + (extra[0],))
    if "propertyNames" in e.absolute_schema_path and isinstance(e.instance, str):
        return doc.source.key(path + (e.instance,))
    return doc.source.value(path)


def _problems(e: ValidationError, doc: Doc, schema_name: str) -> list[Problem]:
    path = tuple(e.absolute_path)
    src = doc.source
    name = _name(path)
    kw = e.validator
    if kw in ("anyOf", "oneOf"):
        return _alternatives(e, doc, schema_name)
    if kw == "additionalProperties" and isinstance(e.instance, dict):
        allowed = list(e.schema.get("properties", {}))
        return [Problem(src.key(path + (k,)), _unknown_key(k, path, allowed, schema_name),
                        path + (k,)) for k in _extra_keys(e)]
    if "propertyNames" in e.absolute_schema_path and isinstance(e.instance, str):
        words = _pattern_words(e.validator_value) if kw == "pattern" else "valid"
        return [Problem(src.key(path + (e.instance,)),
                        f"key {_found(e.instance)} in {name} must be {words}",
                        path + (e.instance,))]
    if kw == "required":
        missing = [k for k in e.validator_value if k not in e.instance]
        where = "" if not path else f" in {name}"
        return [Problem(src.value(path), f"missing required key '{k}'{where}", path)
                for k in missing]
    if kw == "uniqueItems" and isinstance(e.instance, list):
        seen: list = []
        for i, item in enumerate(e.instance):
            if item in seen:
                return [Problem(src.value(path + (i,)), f"{name} lists {_found(item)} twice",
                                path + (i,))]
            seen.append(item)
    if kw == "type":
        if not path and not isinstance(e.instance, dict):
            return require_mapping(doc)
        return [Problem(src.value(path), f"{name} must be {_types(e.validator_value)}, "
                                         f"found {_found(e.instance)}", path)]
    return [Problem(src.value(path), _message(e, name), path)]


def _message(e: ValidationError, name: str) -> str:
    kw, want, inst = e.validator, e.validator_value, e.instance
    found = _found(inst)
    if kw == "enum":
        hint = _suggest(inst, [str(x) for x in want]) if isinstance(inst, str) else ""
        if len(want) == 1:
            return f"{name} must be {_found(want[0])}, found {found}"
        return f"{name} must be one of {_or([str(x) for x in want])}, found {found}{hint}"
    if kw == "minLength" and want == 1:
        return f"{name} must not be empty"
    template = _KEYWORD_MESSAGES.get(kw)
    if template is not None:
        plural = "y" if want == 1 else "ies"
        return template.format(name=name, want=want, found=found, want_found=_found(want),
                               pattern=_pattern_words(want) if kw == "pattern" else "", ies=plural)
    return f"{name}: {e.message}"


# one message per JSON Schema keyword: what was expected, against what was found
_KEYWORD_MESSAGES = {
    "const": "{name} must be {want_found}, found {found}",
    "minimum": "{name} must be at least {want}, found {found}",
    "maximum": "{name} must be at most {want}, found {found}",
    "exclusiveMinimum": "{name} must be more than {want}, found {found}",
    "exclusiveMaximum": "{name} must be less than {want}, found {found}",
    "minLength": "{name} must be at least {want} characters long, found {found}",
    "maxLength": "{name} must be at most {want} characters long",
    "pattern": "{name} must be {pattern}, found {found}",
    "minItems": "{name} must have at least {want} entr{ies}",
    "maxItems": "{name} must have at most {want} entr{ies}",
    "minProperties": "{name} must not be empty",
}


def _alternatives(e: ValidationError, doc: Doc, schema_name: str) -> list[Problem]:
    """anyOf/oneOf: report the branch the author evidently meant, or what was expected."""
    path = tuple(e.absolute_path)
    name = _name(path)
    branches: dict[int, list[ValidationError]] = {}
    for sub in e.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    if branches and all(s.validator == "required" and not s.relative_path
                        for subs in branches.values() for s in subs):
        keys = [k for subs in branches.values() for s in subs for k in s.validator_value]
        where = "" if not path else f" in {name}"
        return [Problem(doc.source.value(path),
                        f"missing required key: one of {_or([repr(k) for k in keys])}{where}",
                        path)]
    # a branch "fits" if its errors are not only about the value's type at this very place
    fitting = {i: subs for i, subs in branches.items()
               if not all(s.validator == "type" and not s.relative_path for s in subs)}
    if len(fitting) == 1:
        (subs,) = fitting.values()
        out: list[Problem] = []
        for s in sorted(subs, key=_relevance, reverse=True):
            out.extend(_problems(s, doc, schema_name))
        return out
    if not fitting:
        wanted = []
        for subs in branches.values():
            for s in subs:
                wanted.append(_types(s.validator_value))
        return [Problem(doc.source.value(path),
                        f"{name} must be {_or(list(dict.fromkeys(wanted)))}, "
                        f"found {_found(e.instance)}", path)]
    return [Problem(doc.source.value(path), f"{name} is not valid: {e.message}", path)]


def _extra_keys(e: ValidationError) -> list[str]:
    props = e.schema.get("properties", {})
    patterns = e.schema.get("patternProperties", {})
    return [k for k in e.instance
            if k not in props and not any(re.search(p, k) for p in patterns)]


def _unknown_key(key: str, path: tuple, allowed: list[str], schema_name: str) -> str:
    if not path and schema_name in KINDS:
        homes = [k for k, secs in kind_sections().items() if key in secs]
        if homes:
            return (f"section '{key}' is not allowed in a file of kind '{schema_name}'; it "
                    f"belongs in a file of kind '{homes[0]}' (or in ruleset.yaml)")
    where = "at the top of the file" if not path else f"in {_name(path)}"
    hint = _suggest(key, allowed)
    if not hint and 0 < len(allowed) <= 8:
        hint = f"; expected one of {_or(allowed)}"
    return f"unknown key '{key}' {where}{hint}"


# --- words ---------------------------------------------------------------------------------

def _name(path: tuple) -> str:
    """How a message names the value at `path`: its key, or 'an entry of LIST'."""
    if not path:
        return "the file"
    last = path[-1]
    if isinstance(last, int):
        return f"an entry of {_name(path[:-1])}" if len(path) > 1 else f"entry {last + 1}"
    return str(last)


def _found(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "nothing"
    if isinstance(v, str):
        text = v if len(v) <= 40 else v[:37] + "..."
        return repr(text) if "\n" not in text else repr(text.split("\n", 1)[0] + "...")
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    return str(v)


def _types(t: Any) -> str:
    if isinstance(t, list):
        return _or([TYPE_WORDS.get(x, x) for x in t])
    return TYPE_WORDS.get(t, str(t))


def _or(words: list[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def _pattern_words(pattern: str) -> str:
    if pattern.startswith("^[a-z][a-z0-9_]*(\\("):
        return PROCEDURE_WORDS
    return PATTERN_WORDS.get(pattern, f"text matching {pattern}")


def _suggest(word: str, choices) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""

