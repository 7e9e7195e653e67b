"""Any language: a locale file of any BCP-47 code is picked up; i18n init writes a skeleton;
the checks apply to the languages that exist."""

from __future__ import annotations

import shutil
from pathlib import Path

from interpreter.cli import main
from interpreter.frontend.yaml_source import load_yaml
from interpreter.game import load
from interpreter.i18n import Text
from interpreter.i18n.languages import languages_of

ROOT = Path(__file__).resolve().parent.parent
# how many messages High Tide's English has (the count the checks report)
N_EN = len(load_yaml(ROOT / "rulesets" / "high_tide" / "locales" / "en.yaml").data["messages"])


def _tide(tmp_path) -> Path:
    dst = tmp_path / "high_tide"
    shutil.copytree(ROOT / "rulesets" / "high_tide", dst)
    return dst


def test_an_english_only_ruleset_checks_clean(capsys):
    assert main(["i18n", "check", str(ROOT / "rulesets" / "high_tide"), "--no-engine"]) == 0
    out = capsys.readouterr().out
    assert f"high_tide en: {N_EN}/{N_EN} messages: ok" in out and "0 errors" in out


def test_init_writes_a_skeleton_that_a_translation_completes(tmp_path, capsys):
    rs = _tide(tmp_path)
    assert main(["i18n", "init", str(rs), "--lang", "de"]) == 0
    de = rs / "locales" / "de.yaml"
    text = de.read_text(encoding="utf-8")
    assert "locale: de" in text and "  # card-pearl: Pearl" in text and "Plural categories in de: one, other" in text
    assert languages_of(rs) == ["en", "de"]
    assert main(["i18n", "check", str(rs), "--no-engine"]) == 1
    assert f"high_tide de: 0/{N_EN} messages, 0 stamped: {N_EN} missing ids" in capsys.readouterr().out
    assert main(["i18n", "init", str(rs), "--lang", "de"]) == 1  # never over an existing file
    # a translator fills it in: the game speaks German
    en = (rs / "locales" / "en.yaml").read_text(encoding="utf-8")
    de.write_text(en.replace("locale: en", "locale: de").replace('"Pearl"', '"Perle"'), encoding="utf-8")
    text = Text(load(rs).program, "de")
    assert text.msg("card-pearl") == "Perle"


def test_play_speaks_any_language_it_has_and_names_what_it_lacks(tmp_path, capsys):
    rs = _tide(tmp_path)
    (rs / "locales" / "pt-BR.yaml").write_text(
        "locale: pt-BR\nmessages:\n  card-pearl: Pérola\n  end-tide_turned: A maré virou\n", encoding="utf-8")
    assert main(["play", str(rs), "--lang", "pt-BR", "--seed", "2", "--quiet"]) == 0
    assert "A maré virou" in capsys.readouterr().out
    assert main(["play", str(rs), "--lang", "fr"]) == 1
    assert "has no fr text (it has: en, pt-BR); start one with: grimoire i18n init" in capsys.readouterr().err
