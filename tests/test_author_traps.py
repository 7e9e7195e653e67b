"""Traps a house-rule author hit writing real variants (issue 26): each one is found, at the
variant's own line, or no longer a trap."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import RulesetError
from interpreter.game import load

ROOT = Path(__file__).resolve().parent.parent
HIGH_TIDE = ROOT / "rulesets" / "high_tide"


def _variant(tmp_path, text: str, name: str = "v") -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(f"variant: {name}\ntitle: V\nbase: high_tide\n" + text, encoding="utf-8")
    return str(p)


def _problems(tmp_path, text, root=HIGH_TIDE):
    with pytest.raises(RulesetError) as e:
        load(root, [_variant(tmp_path, text)])
    return e.value.problems


def test_a_variant_adds_a_procedure_with_parameters(tmp_path):
    game = load(HIGH_TIDE, [_variant(tmp_path, """merge:
  procedures:
    "gain(p: player, a, b)": |
      score(p) += a + b
  actions:
    bonus:
      group: main
      effect: "gain(me, 1, 2)"
""")])
    assert game.program.proc_sigs["gain"] == ["p", "a", "b"]
    assert game.program.proc_types["gain"] == ["player", "any", "any"]
    assert "gain(p: player, a, b)" in game.ruleset.data["procedures"]


def test_a_variant_that_changes_a_procedures_signature_is_held_to_it(tmp_path):
    found = _problems(tmp_path, """merge:
  procedures:
    "refill(n)": |
      move_all(discard, deck)
      score(players[0]) += n
""")
    # the base still calls refill() with no argument: that call is now wrong
    assert [(Path(p.loc.file).name, p.loc.line, p.message) for p in found[1:]] == [
        ("ruleset.yaml", 21, "refill() takes 1 argument (n), found 0")]


def _run(capsys, *argv):
    from interpreter.cli import main
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


NEW_ACTION = """merge:
  actions:
    boast:
      group: main
      effect: "log(boasted, player: me)"
locales:
  en:
    action-boast: Boast
    event-boasted: "{ $player } boasts."
"""


def test_a_variants_own_text_for_a_new_message_is_its_text(tmp_path, capsys):
    v = _variant(tmp_path, NEW_ACTION)
    code, _, err = _run(capsys, "validate", HIGH_TIDE, "--variant", v, "--strict")
    assert "has no text" not in err and "is not a message of this ruleset" not in err, err
    code, _, err = _run(capsys, "i18n", "check", HIGH_TIDE, "--variant", v, "--no-engine")
    assert "'action-boast' but English has no text" not in err
    assert "'event-boasted' but English has no text" not in err
    assert "is not a message of this ruleset" not in err and code == 0, err


def test_explain_labels_what_a_variant_added_as_the_variants(tmp_path, capsys):
    v = _variant(tmp_path, NEW_ACTION)
    code, out, _ = _run(capsys, "explain", HIGH_TIDE, "--variant", v, "actions.boast.group")
    assert code == 0
    assert "v.yaml:7:14  [variant]  group: main" in out and "[base]" not in out, out


def test_a_placeholder_typo_in_a_variants_text_is_an_error_at_its_line(tmp_path, capsys):
    v = _variant(tmp_path, """merge:
  cards:
    pearl: {params: {bonus: 2}}
locales:
  en:
    card-pearl-text: "When it scores, +{ $bonsu }."
""")
    code, _, err = _run(capsys, "validate", HIGH_TIDE, "--variant", v)
    assert code == 1
    assert "v.yaml:9:42: error: 'card-pearl-text' uses $bonsu, but card 'pearl' has params $bonus, $n" in err
    assert "did you mean $bonus?" in err


def test_a_variants_text_in_a_language_the_ruleset_lacks_is_an_error(tmp_path, capsys):
    v = _variant(tmp_path, NEW_ACTION + "  fr:\n    action-boast: Se vanter\n")
    code, _, err = _run(capsys, "validate", HIGH_TIDE, "--variant", v)
    assert code == 1
    assert "v.yaml:13:3: error: high_tide has no fr text (it has: en)" in err


CAMELOT = ROOT / "rulesets" / "shadows_over_camelot"


def test_a_variants_text_in_one_language_is_flagged_for_the_others(tmp_path, capsys):
    p = tmp_path / "boast.yaml"
    p.write_text("""variant: boast
title: Boast
base: shadows_over_camelot
merge:
  actions:
    boast:
      group: main
      effect: "log(boasted, player: me)"
locales:
  en:
    action-boast: Boast
    event-boasted: "{ $player } boasts."
  ru:
    action-boast: Хвастаться
""", encoding="utf-8")
    code, _, err = _run(capsys, "validate", CAMELOT, "--variant", p)
    assert code == 0, err
    for lang in ("pl", "pt"):
        assert f"boast.yaml:11:5: warning: the variant adds 'action-boast' in en, ru but not in {lang}" in err
    for lang in ("ru", "pl", "pt"):
        assert f"boast.yaml:12:5: warning: the variant adds 'event-boasted' in en but not in {lang}" in err


def test_deleting_a_counter_the_rules_use_is_reported_at_the_deleting_line(tmp_path):
    found = _problems(tmp_path, "merge:\n  counters:\n    washed: null\n")
    head = found[0]
    assert (Path(head.loc.file).name, head.loc.line, head.loc.col) == ("v.yaml", 6, 5)
    assert head.message == ("deleting counter 'washed' breaks the rules that still use it: 2 errors below, in "
                            "the base files (ruleset.yaml:62, ruleset.yaml:63); change those rules too (merge "
                            "or patch), or keep the counter")
    assert [(Path(p.loc.file).name, p.loc.line) for p in found[1:]] == [("ruleset.yaml", 62), ("ruleset.yaml", 63)]


def test_deleting_a_card_and_a_counter_of_camelot_gives_one_headline_each(tmp_path):
    p = tmp_path / "v.yaml"
    p.write_text("variant: v\ntitle: V\nbase: shadows_over_camelot\n"
                 "merge:\n  cards:\n    merlin: null\n  counters:\n    siege_engines: null\n", encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        load(CAMELOT, [str(p)])
    found = e.value.problems
    heads = [q for q in found if Path(q.loc.file).name == "v.yaml"]
    assert [(q.loc.line, q.message.split(":")[0]) for q in heads] == [
        (6, "deleting card 'merlin' breaks the rules that still use it"),
        (8, "deleting counter 'siege_engines' breaks the rules that still use it"),
        (1, "with variant v applied, 14 errors below are in the base files (policy.yaml")]
    assert found[:3] == heads and len(found) > 40
    assert "flow.yaml:237, flow.yaml:238, flow.yaml:468 and 25 more" in heads[1].message


def test_a_base_error_no_deletion_explains_is_headed_at_the_variant(tmp_path):
    found = _problems(tmp_path, """merge:
  procedures:
    "refill(n)": "shuffle(deck)"
""")
    assert (Path(found[0].loc.file).name, found[0].loc.line) == ("v.yaml", 1)
    assert found[0].message == ("with variant v applied, 1 error below is in the base files (ruleset.yaml:21): "
                                "the base rules there use what the variant changed")


def test_a_free_action_that_stays_legal_for_ever_is_an_error_at_its_line(tmp_path):
    found = _problems(tmp_path, """merge:
  actions:
    boast:
      group: main
      free: true
      effect: "log(boasted, player: me)"
    count_up:
      group: main
      free: true
      when: "washed == 0"
      effect: "score(me) += 1"
    count_ok:
      group: main
      free: true
      when: "score(me) < 5"
      effect: "score(me) += 1"
""")
    assert [(Path(p.loc.file).name, p.loc.line, p.loc.col) for p in found] == [("v.yaml", 8, 13), ("v.yaml", 12, 13)]
    assert found[0].message.startswith("action 'boast' is free and stays legal after it runs (it is always legal)")
    assert "(its when: reads washed, which its effect never changes)" in found[1].message


def test_the_log_of_a_variants_new_event_without_text_points_at_the_variant(tmp_path, capsys):
    v = _variant(tmp_path, "merge:\n  actions:\n    boast:\n      group: main\n"
                           "      effect: \"log(boasted, player: me)\"\nlocales:\n  en:\n    action-boast: Boast\n")
    code, _, err = _run(capsys, "validate", HIGH_TIDE, "--variant", v)
    assert code == 0
    assert ("v.yaml:8:16: warning: event 'boasted' has no text: add 'event-boasted' to the variant's "
            "locales: en: (or to locales/en.yaml)") in err


def test_a_counter_bound_is_an_expression_of_params_and_moves_with_them(tmp_path):
    game = load(HIGH_TIDE, [_variant(tmp_path, """merge:
  params:
    goal: {by_players: {2: 10, 4: 20}, default: 15}
  counters:
    score: {max: "goal * 2 + 1", min: "-goal"}
""")])
    cd = game.program.counter_defs["score"]
    assert (cd.min, cd.max) == (-20, 41)     # the widest over 2 to 4 players


def test_a_counter_bound_naming_what_is_no_param_is_an_error_at_its_line(tmp_path):
    found = _problems(tmp_path, "merge:\n  counters:\n    score: {max: \"gaol + 1\"}\n"
                                "    washed: {max: \"size(deck)\"}\n")
    assert [(Path(p.loc.file).name, p.loc.line, p.loc.col, p.message) for p in found] == [
        ("v.yaml", 6, 18, "max must be a number or an expression of params: 'gaol' is not a param "
                          "(did you mean 'goal'?)"),
        ("v.yaml", 7, 19, "max must be a number or an expression of params: 'size(deck)' uses more than "
                          "params, whole numbers and + - * // %")]


def test_camelots_siege_limit_moves_the_siege_engines_bound():
    for variants, limit in (([], 12), (["thirteen_engines"], 13), (["hard_siege"], 10)):
        game = load(CAMELOT, variants)
        assert game.program.counter_defs["siege_engines"].max == limit
    data = (CAMELOT / "variants" / "thirteen_engines.yaml").read_text(encoding="utf-8")
    assert "counters:" not in data           # one change: the param


CASTLE = ROOT / "rulesets" / "castle_of_the_devil"


def _scenario(tmp_path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / source.name
    p.write_text(text.replace(old, new), encoding="utf-8")
    return p


def test_a_refused_answer_the_question_can_give_but_not_now_is_no_misspelling(tmp_path):
    from interpreter.scenarios.run import run_scenario
    src = CASTLE / "scenarios" / "trade_black_pearl_no_decline.yaml"
    ok = _scenario(tmp_path, src, "  - {player: gundla, choose: decline}\nexpect_error: not a legal option\n",
                   "  - {player: gundla, choose: decline, refused: not a legal option}\n"
                   "  - {player: gundla, choose: accept}\nexpect:\n  - \"not game_over\"\n")
    out = run_scenario(ok)
    assert out.passed, out.failures
    typo = _scenario(tmp_path, src, "  - {player: gundla, choose: decline}\nexpect_error: not a legal option\n",
                     "  - {player: gundla, choose: declin, refused: true}\nexpect:\n  - \"not game_over\"\n")
    out = run_scenario(typo)
    assert not out.passed and "'declin' names no action or option of this ruleset (a misspelling?)" \
        in out.failures[0]


def test_an_end_id_written_bare_in_a_scenario_is_told_to_be_quoted(tmp_path):
    from interpreter.scenarios.run import run_scenario
    p = tmp_path / "s.yaml"
    p.write_text("name: s\nruleset: shadows_over_camelot\nsetup: {players: 3, seed: 1}\nexpect:\n"
                 "  - \"end_reason == siege_fallen\"\n  - \"end_reason == round_table_wonn\"\n", encoding="utf-8")
    with pytest.raises(RulesetError) as e:
        run_scenario(p)
    assert [(q.loc.line, q.loc.col, q.message) for q in e.value.problems] == [
        (5, 20, "undefined name 'siege_fallen': the id of an end condition is a string, so quote it "
                "(end_reason == 'siege_fallen')"),
        (6, 20, "undefined name 'round_table_wonn': end_reason is a string, compared with an end condition's "
                "id in quotes; did you mean 'round_table_won'?")]


def test_i18n_check_points_at_the_variant_for_the_text_of_what_it_adds(tmp_path, capsys):
    v = _variant(tmp_path, "merge:\n  actions:\n    boast:\n      group: main\n"
                           "      effect: \"log(boasted, player: me)\"\n")
    code, _, err = _run(capsys, "i18n", "check", HIGH_TIDE, "--variant", v, "--no-engine")
    assert "v.yaml:6:5: warning: the variant adds action 'boast' with no English text: add 'action-boast' " \
           "under its locales: en:" in err
    assert "v.yaml:8:16: warning: the variant adds log(boasted, ...) with no English text" in err
    assert "renders 'action-boast'" not in err


def test_i18n_check_reports_a_variant_that_does_not_load(tmp_path, capsys):
    v = _variant(tmp_path, "merge:\n  params:\n    gaol: 3\nlocales:\n  en:\n    card-pearl-text: 1\n")
    code, _, err = _run(capsys, "i18n", "check", HIGH_TIDE, "--variant", v, "--no-engine")
    assert code == 1 and "v.yaml:9:22: error: card-pearl-text must be a string, found 1" in err, err


def test_validate_dir_checks_the_text_of_the_variants_in_its_folder(tmp_path, capsys):
    import shutil
    root = tmp_path / "high_tide"
    shutil.copytree(HIGH_TIDE, root)
    (root / "variants").mkdir()
    (root / "variants" / "rich.yaml").write_text(
        "variant: rich\ntitle: Rich\nbase: high_tide\nmerge:\n  cards:\n    pearl: {params: {n: 3}}\n"
        "locales:\n  en:\n    card-pearl-text: \"Draw { $nn } cards.\"\n", encoding="utf-8")
    code, _, err = _run(capsys, "validate", root)
    assert code == 1
    assert "rich.yaml:9:30: error: 'card-pearl-text' uses $nn, but card 'pearl' has params $n" in err
