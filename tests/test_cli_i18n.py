"""The command line in the user's language: `grimoire --lang ru --help`, `LANG=pl_PL.UTF-8`, argparse's
own words and errors, and every help string of the parser held in the engine's messages."""

from __future__ import annotations

import pytest

from interpreter.cli import build_parser, main
from interpreter.commands.cli_text import catalog, cli_language, untranslated
from interpreter.i18n.locales import _engine_messages


def test_the_language_comes_from_lang_or_the_command_line():
    assert cli_language(["play", "x"], {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert cli_language(["--lang", "pt", "play"], {"LANG": "ru_RU.UTF-8"}) == "pt"
    assert cli_language(["--lang=pl", "play"], {}) == "pl"
    assert cli_language(["i18n", "stamp", "x", "--lang", "ru"], {"LANG": "C.UTF-8"}) == "en"   # stamp's own --lang
    assert cli_language([], {"LC_ALL": "pl_PL.UTF-8", "LANG": "ru_RU.UTF-8"}) == "pl"
    assert cli_language([], {"LANG": "de_DE.UTF-8"}) == "en" and cli_language([], {"LANG": "C"}) == "en"
    assert cli_language([], {}) == "en"


@pytest.mark.parametrize("lang,words", [
    ("ru", ["использование: grimoire", "сыграть партию", "параметры", "показать эту справку и выйти"]),
    ("pl", ["użycie: grimoire", "rozegrać partię", "opcje", "pokazać tę pomoc i zakończyć"]),
    ("pt", ["utilização: grimoire", "jogar uma partida", "opções", "mostrar esta ajuda e sair"]),
])
def test_help_in_every_language(lang, words, capsys):
    with pytest.raises(SystemExit):
        main(["--lang", lang, "--help"])
    out = capsys.readouterr().out
    for w in words:
        assert w in out, (w, out[:600])


def test_lang_is_the_default(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "pl_PL.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    with pytest.raises(SystemExit):
        main(["i18n", "check", "--help"])
    out = capsys.readouterr().out
    assert "porównać każde tłumaczenie z angielskim" in out and "pominąć własne komunikaty silnika" in out
    with pytest.raises(SystemExit):
        main(["--lang", "en", "--help"])
    assert "usage: grimoire" in capsys.readouterr().out          # and back to English


def test_argparse_errors_are_translated(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "pt", "simulate", "high_tide", "--games", "many"])
    err = capsys.readouterr().err
    assert "grimoire simulate: erro: argumento --games: valor int inválido: 'many'" in err
    with pytest.raises(SystemExit):
        main(["--lang", "ru", "render"])
    assert "ошибка: нужны аргументы: ruleset, --out" in capsys.readouterr().err


def test_every_help_string_is_in_the_messages_and_translated():
    """en.yaml holds each help string of the parser exactly; ru, pl and pt translate them all."""
    parser = build_parser()
    cat = catalog(parser)
    en = _engine_messages("en")[0]
    stale = {k: (v, en.get(k)) for k, v in cat.items() if k in en and str(en[k]) != v}
    assert not stale, stale
    for lang in ("ru", "pl", "pt"):
        missing = [k for k in untranslated(parser, lang) if k in en]
        assert not missing, (lang, missing)
    assert len(cat) > 30


def test_global_lang_accepts_any_locale_the_ruleset_has(tmp_path, capsys):
    """`grimoire --lang de play RULESET` plays in German when the ruleset has locales/de.yaml (the
    command line itself, with no German of its own, speaks English); an unknown code is refused."""
    import shutil

    from interpreter.game import RULESETS
    root = tmp_path / "high_tide"
    shutil.copytree(RULESETS / "high_tide", root)
    (root / "locales" / "de.yaml").write_text(
        'locale: de\nmessages:\n  end-tide_turned: "Die Flut hat sich gewendet"\n', encoding="utf-8")
    log = tmp_path / "game.log"
    assert main(["--lang", "de", "play", str(root), "--seats", "random", "--players", "2", "--seed", "1",
                 "--quiet", "--log", str(log)]) == 0
    assert "Die Flut hat sich gewendet" in capsys.readouterr().out
    assert main(["--lang", "de", "play", "shadows_over_camelot", "--seats", "random", "--quiet"]) == 1
    assert "has no de text" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--lang", "x!", "play", str(root)])
    assert "is not a language code" in capsys.readouterr().err
