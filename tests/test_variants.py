"""Variants held to the schema of what they patch, no-op variants, validate DIR over variants."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.authoring import merge_schema
from interpreter.errors import RulesetError
from interpreter.game import load
from interpreter.variants.variant_set import plan, variant_problems

ROOT = Path(__file__).resolve().parent.parent


def test_the_merge_schema_file_is_derived_from_the_ruleset_schema():
    assert merge_schema.OUT.read_text(encoding="utf-8") == merge_schema.text(), \
        "schemas/merge.schema.json is stale: run python -m interpreter.authoring.merge_schema"


def _variant(tmp_path, text: str) -> str:
    p = tmp_path / "v.yaml"
    p.write_text("variant: v\ntitle: V\nbase: high_tide\n" + text, encoding="utf-8")
    return str(p)


def _problems(tmp_path, text):
    with pytest.raises(RulesetError) as e:
        load(ROOT / "rulesets" / "high_tide", [_variant(tmp_path, text)])
    return e.value.problems


def test_merge_is_typed_like_the_section_it_patches(tmp_path):
    found = _problems(tmp_path, "merge:\n  zones:\n    deck: {visiblity: public}\n  params:\n    goal: many\n")
    msgs = [p.message for p in found]
    assert any("unknown key 'visiblity' in deck (did you mean 'visibility'?)" in m for m in msgs), msgs
    assert any("goal" in m and "'many'" in m for m in msgs), msgs


def test_a_partial_entry_and_a_deletion_are_allowed(tmp_path):
    game = load(ROOT / "rulesets" / "high_tide",
                [_variant(tmp_path, "merge:\n  cards:\n    pearl: {count: 3}\n  params:\n    goal: 15\n")])
    assert sum(1 for k in game.program.card_def if game.program.card_ids[k] == "pearl") == 3


def test_an_unchanged_value_and_an_empty_mapping_are_errors(tmp_path):
    found = _problems(tmp_path, "merge:\n  params:\n    goal: 12\n  cards:\n    pearl: {params: {}}\n")
    assert [(p.loc.line, p.message.split(":")[0]) for p in found] == [
        (6, "sets params.goal to 12, which it already is"),
        (8, "cards.pearl.params is an empty mapping, and a merge adds or replaces only the keys it names (set a key "
            "to null to delete it, or write the whole value to replace it)")]


def test_a_patch_that_changes_nothing_is_an_error(tmp_path):
    found = _problems(tmp_path, "patch:\n  - {op: test, path: /zones/deck/visibility, value: hidden}\n")
    assert [p.message.split(":")[0] for p in found] == ["this variant changes nothing in the rules"]


def test_the_shipped_camelot_three_player_variant_now_changes_the_rules(tmp_path):
    from interpreter.scenarios.run import run_scenario
    sc = ROOT / "rulesets" / "shadows_over_camelot" / "scenarios" / "no_three_brave_knights.yaml"
    assert run_scenario(sc).passed
    without = tmp_path / "shadows_over_camelot" / "scenarios" / "x.yaml"
    without.parent.mkdir(parents=True)
    without.write_text(sc.read_text(encoding="utf-8").replace("variants: [no_three_brave_knights]", "variants: []"),
                       encoding="utf-8")
    out = run_scenario(without)
    assert not out.passed and any("knows(kay, top(loyalty(kay)))" in f for f in out.failures)


def test_validate_dir_plans_every_variant_and_the_pairs_that_change_code():
    combos, clashes = plan(ROOT / "rulesets" / "shadows_over_camelot")
    singles = [c for c in combos if len(c) == 1 or c[-1] not in c[:-1]]
    names = {c[-1] for c in combos}
    shipped = {p.stem for p in (ROOT / "rulesets" / "shadows_over_camelot" / "variants").glob("*.yaml")}
    assert shipped <= names and len(singles) >= len(shipped)
    assert ["squires_challenge", "squires_challenge_hard"] in combos  # requirements come first
    assert not any("first_game" in c and "traitor_among_us" in c for c in combos)  # they conflict
    assert clashes == []


def test_two_combinable_variants_setting_one_value_differently_clash(tmp_path):
    rs = tmp_path / "rs"
    (rs / "variants").mkdir(parents=True)
    for f in (ROOT / "rulesets" / "high_tide").glob("*.yaml"):
        (rs / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    for name, goal in (("short", 8), ("long", 20)):
        (rs / "variants" / f"{name}.yaml").write_text(
            f"variant: {name}\ntitle: {name}\nbase: high_tide\nmerge:\n  params:\n    goal: {goal}\n", encoding="utf-8")
    found, checked = variant_problems(rs)
    assert checked == 2
    assert [p.message.split(" and may")[0] for p in found] == [
        "variants 'long' and 'short' both set params.goal (20 and 8)"]
    (rs / "variants" / "short.yaml").write_text((rs / "variants" / "short.yaml").read_text() + "conflicts: [long]\n")
    assert variant_problems(rs)[0] == []
