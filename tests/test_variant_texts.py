"""Variants that change text: locale overlays shown by render/play's Text, checked by i18n
check, listed by diff (with changed effect code as a unified diff)."""

from __future__ import annotations

from pathlib import Path

from interpreter.cli import main
from interpreter.game import load
from interpreter.i18n import Text

ROOT = Path(__file__).resolve().parent.parent
CAMELOT = ROOT / "rulesets" / "shadows_over_camelot"
NEW = "Remove a Black card or a warrior. (Merlin cannot remove Siege Engines.)"


def _variant(tmp_path, extra: str = "") -> str:
    base = (CAMELOT / "cards_white.yaml").read_text(encoding="utf-8")
    assert '"merlin_engine", "merlin_warrior", "merlin_black"' in base
    p = tmp_path / "merlin_spares_engines.yaml"
    p.write_text("variant: merlin_spares_engines\ntitle: Merlin spares the engines\nbase: shadows_over_camelot\n"
                 "merge:\n  cards:\n    merlin:\n      params: {engines: 0}\n"
                 f"locales:\n  en:\n    card-merlin-text: \"{NEW}\"\n" + extra, encoding="utf-8")
    return str(p)


def test_the_variant_text_is_what_render_and_play_print(tmp_path):
    game = load(CAMELOT, [_variant(tmp_path, "  ru:\n    card-merlin-text: \"Мерлин не трогает осадные машины.\"\n")])
    assert Text(game.program, "en").msg("card-merlin-text") == NEW
    assert Text(game.program, "ru").msg("card-merlin-text") == "Мерлин не трогает осадные машины."
    assert NEW not in Text(load(CAMELOT).program, "en").msg("card-merlin-text")
    out = tmp_path / "gallery"
    assert main(["render", str(CAMELOT), "--variant", _variant(tmp_path), "--out", str(out)]) == 0
    import re
    page = re.sub(r"<[^>]+>", " ", (out / "index.html").read_text(encoding="utf-8"))   # the sheet wraps lines
    assert "Merlin cannot remove Siege Engines" in " ".join(page.split())


def test_i18n_check_reports_unknown_ids_bad_fluent_and_languages_left_behind(tmp_path, capsys):
    v = _variant(tmp_path, "  pl:\n    card-merln-text: \"x\"\n    card-merlin: \"{ $n\"\n")
    code = main(["i18n", "check", str(CAMELOT), "--variant", v, "--no-engine"])
    err = capsys.readouterr().err
    assert code == 1
    assert "text 'card-merln-text' is not a message of this ruleset (did you mean 'card-merlin-text'?)" in err
    assert "card-merlin:" in err and "merlin_spares_engines.yaml:12:" in err  # the Fluent error, located
    assert "changes the English 'card-merlin-text' but not the ru text" in err


def test_diff_lists_changed_texts_and_shows_changed_code(tmp_path, capsys):
    v = tmp_path / "v.yaml"
    v.write_text("variant: quiet_merlin\ntitle: t\nbase: shadows_over_camelot\nmerge:\n  cards:\n    merlin:\n"
                 "      effects:\n        play: |\n          log(merlin_removed_engine, player: me)\n"
                 "locales:\n  en:\n    card-merlin-text: Merlin only talks.\n", encoding="utf-8")
    assert main(["diff", str(CAMELOT), "--variant", str(v)]) == 0
    out = capsys.readouterr().out
    assert "card merlin: effects.play changed" in out
    assert "    --- base\n    +++ variant\n" in out
    assert "    -wars = [l for l in [quest_picts, quest_saxons] if warriors(l) > 0]" in out
    assert "    +log(merlin_removed_engine, player: me)" in out
    assert "text card-merlin-text (en): Merlin only talks." in out


def test_a_bad_language_code_in_a_variant_is_a_schema_error(tmp_path, capsys):
    v = tmp_path / "v.yaml"
    v.write_text("variant: v\ntitle: t\nbase: shadows_over_camelot\nmerge:\n  params: {start_life: 5}\n"
                 "locales:\n  English: {card-merlin-text: x}\n", encoding="utf-8")
    assert main(["validate", str(CAMELOT), "--variant", str(v)]) == 1
    assert "v.yaml:7:3: error: key 'English' in locales must be a language code like en or pt-BR" \
        in capsys.readouterr().err
