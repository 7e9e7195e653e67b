"""Tests for interpreter.frontend.validate and the schemas: messages, positions, order, cross-file ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from interpreter.frontend.validate import (
    KINDS,
    SCHEMA_DIR,
    cross_file_problems,
    kind_sections,
    schema_path,
    validate_doc,
    validate_ruleset_docs,
    validator,
)
from interpreter.frontend.yaml_source import Doc, load_yaml

SCHEMAS = ["defs", "ruleset", *KINDS, "locale", "variant", "scenario", "save"]


def doc(text: str, name: str = "f.yaml") -> Doc:
    return load_yaml(name, text=text)


def problems(text: str, schema: str) -> list[tuple[int, int, str]]:
    return [(p.loc.line, p.loc.col, p.message) for p in validate_doc(doc(text), schema)]


# --- the schemas themselves ----------------------------------------------------------------

def test_schema_dir_and_paths():
    assert SCHEMA_DIR == Path(__file__).resolve().parent.parent / "schemas"
    for name in SCHEMAS:
        assert schema_path(name).is_file(), name


@pytest.mark.parametrize("name", SCHEMAS)
def test_schema_is_valid_draft7(name):
    schema = json.loads(schema_path(name).read_text())
    Draft7Validator.check_schema(schema)
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"


def test_validator_is_cached_and_unknown_names_refused():
    assert validator("cards") is validator("cards")
    with pytest.raises(ValueError, match="no schema named 'card'"):
        validator("card")


def _resolve(ref: str, here: str) -> dict:
    file, _, pointer = ref.partition("#")
    data = json.loads(schema_path((file or here).removesuffix(".schema.json")).read_text())
    for part in pointer.strip("/").split("/"):
        data = data[part] if part else data
    return data


def _walk_properties(schema, file: str, where: str):
    if isinstance(schema, dict):
        for key, sub in schema.get("properties", {}).items():
            yield f"{where}.{key}", sub, file
        for key, sub in schema.items():
            yield from _walk_properties(sub, file, f"{where}/{key}")
    elif isinstance(schema, list):
        for i, sub in enumerate(schema):
            yield from _walk_properties(sub, file, f"{where}/{i}")


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_property_has_a_description(name):
    file = f"{name}.schema.json"
    schema = json.loads(schema_path(name).read_text())
    missing = []
    for where, sub, _ in _walk_properties(schema, file, name):
        if "description" in sub:
            continue
        if "$ref" in sub and "description" in _resolve(sub["$ref"], file):
            continue
        missing.append(where)
    assert not missing


def test_kind_sections_match_the_format_doc():
    assert kind_sections() == {
        "components": ("params", "counters", "zones", "sides", "player_name"),
        "cards": ("cards",),
        "locations": ("locations",),
        "flow": ("setup", "turn", "turn_order", "procedures", "actions", "triggers", "modifiers"),
        "end": ("end", "side_of", "evaluate", "search", "stats"),
        "policy": ("policy",),
    }


def test_root_schema_allows_every_section():
    props = json.loads(schema_path("ruleset").read_text())["properties"]
    for sections in kind_sections().values():
        assert set(sections) <= set(props)


# --- messages and positions ----------------------------------------------------------------

def test_wrong_type_points_at_the_value():
    assert problems("kind: cards\ncards:\n  a: {count: three}\n", "cards") == [
        (3, 14, "count must be an integer, found 'three'")]


def test_unknown_key_points_at_the_key_with_a_suggestion():
    assert problems("kind: cards\ncards:\n  a:\n    cuont: 3\n", "cards") == [
        (4, 5, "unknown key 'cuont' in a (did you mean 'count'?)")]


def test_unknown_key_without_a_close_match_lists_the_choices():
    [(_, _, msg)] = problems("kind: locations\nlocations:\n  a: {zzz: 1}\n", "locations")
    assert msg == "unknown key 'zzz' in a; expected one of props, tags or effects"


def test_missing_required_key_points_at_the_mapping():
    assert problems("ruleset: x\ntitle: T\nplayers:\n  min: 2\n", "ruleset") == [
        (4, 3, "missing required key 'max' in players")]


def test_wrong_enum_suggests():
    [(line, col, msg)] = problems("kind: components\nzones:\n  d: {visibility: hiden}\n",
                                  "components")
    assert (line, col) == (3, 19)
    assert msg == ("visibility must be one of public, owner or hidden, found 'hiden' "
                   "(did you mean 'hidden'?)")


def test_bad_id_key_points_at_the_key():
    [(line, col, msg)] = problems("kind: cards\ncards:\n  Fight-3: {}\n", "cards")
    assert (line, col) == (3, 3) and msg.startswith("key 'Fight-3' in cards must be an id")


def test_any_of_picks_the_branch_the_author_meant():
    # by_players mapping: the author wrote the object form, so its own error is reported
    assert problems("kind: components\nparams:\n  n: {by_players: {3: x}, default: 1}\n",
                    "components") == [(3, 23, "3 must be an integer, found 'x'")]
    # neither an integer nor a mapping: say both
    assert problems("kind: components\nparams:\n  n: [1]\n", "components") == [
        (3, 6, "n must be an integer or a mapping, found a list")]


def test_any_of_required_alternatives():
    [(_, _, msg)] = problems("kind: flow\nmodifiers:\n  - {param: n}\n", "flow")
    assert msg == "missing required key: one of 'add' or 'set' in an entry of modifiers"


def test_non_mapping_file():
    assert problems("- 1\n", "cards") == [
        (1, 1, "the top level must be a mapping of keys to values, found a list")]
    assert problems("", "cards")[0][2].startswith("the file is empty")


def test_shallow_problems_come_first_then_file_order():
    text = "ruleset: x\ntitle: T\nplayers: {min: 0, max: 1}\nwhatever: 1\nmax_turns: no\n"
    assert [(line, col) for line, col, _ in problems(text, "ruleset")] == [
        (4, 1), (5, 12), (3, 16)]


def test_scenario_extra_decision_args_are_allowed():
    text = ("name: n\nruleset: r\nsetup: {players: 3, names: [arthur]}\n"
            "when:\n  - {player: arthur, choose: quest.play_card, card: fight_3}\n"
            "expect: ['true']\n")
    assert problems(text, "scenario") == []


def test_variant_patch_ops():
    text = ("variant: v\ntitle: V\nbase: b\npatch:\n"
            "  - {op: test, path: /params/x, value: 1}\n  - {op: move, path: /a}\n")
    assert problems(text, "variant") == [
        (6, 5, "missing required key 'from' in an entry of patch")]


def test_locale_and_save():
    assert problems("locale: pt-BR\nmessages: {card-a: A}\nsource: {card-a: abc}\n",
                    "locale") == []
    save = json.dumps({"format": "grimoire-save", "version": 1, "ruleset": "r",
                       "ruleset_hash": "h", "variants": [], "seed": 1, "players": 3,
                       "decisions": ["a", "b"], "state": {}})
    assert problems(save, "save") == []


# --- a ruleset of several files ------------------------------------------------------------

def docs_of(files: dict[str, str]) -> list[Doc]:
    return [doc(text, name) for name, text in files.items()]


ROOT = "ruleset: x\ntitle: T\nplayers: {min: 1, max: 2}\n"


def test_kind_chooses_the_schema():
    got = validate_ruleset_docs(docs_of({
        "ruleset.yaml": ROOT,
        "a.yaml": "kind: cards\nzones: {}\n",
        "b.yaml": "kind: card\n",
        "c.yaml": "cards: {}\n",
        "d.yaml": "kind: 3\n",
    }))
    assert [(p.loc.file, p.loc.line, p.loc.col) for p in got] == [
        ("a.yaml", 2, 1), ("b.yaml", 1, 7), ("c.yaml", 1, 1), ("d.yaml", 1, 7)]
    assert "belongs in a file of kind 'components'" in got[0].message
    assert "did you mean 'cards'?" in got[1].message
    assert got[2].message.startswith("missing required key 'kind'")
    assert got[3].message.startswith("unknown kind 3;")


def test_cross_file_duplicates():
    got = cross_file_problems(docs_of({
        "ruleset.yaml": ROOT + "setup: pass\nprocedures:\n  heal(p, n): pass\n",
        "a.yaml": "kind: cards\ncards:\n  merlin: {}\n",
        "b.yaml": "kind: cards\ncards:\n  picts: {}\n  merlin: {}\n",
        "c.yaml": ("kind: flow\nsetup: pass\nprocedures:\n  heal(k): pass\n"
                   "actions:\n  merlin: {effect: pass}\n"),
        "d.yaml": "kind: end\nend:\n  - {id: lost, when: 'true'}\n  - {id: lost, when: 'true'}\n",
    }))
    assert [(str(p.loc), p.message) for p in got] == [
        ("b.yaml:4:3", "card 'merlin' is already defined at a.yaml:3:3"),
        ("c.yaml:2:1", "section 'setup' is already defined at ruleset.yaml:4:1"),
        ("c.yaml:4:3", "procedure 'heal' is already defined at ruleset.yaml:6:3"),
        ("d.yaml:4:10", "end condition 'lost' is already defined at d.yaml:3:10"),
    ]


def test_cross_file_problems_are_part_of_validate_ruleset_docs():
    got = validate_ruleset_docs(docs_of({
        "ruleset.yaml": ROOT + "cards: {a: {}}\n",
        "a.yaml": "kind: cards\ncards: {a: {}}\n",
    }))
    assert [str(p.loc) for p in got] == ["a.yaml:2:9"]
