"""What validate, simulate, diff, explain and test print, in the command line's language, and
`validate --strict` failing on what `i18n check` reports."""

from __future__ import annotations

import shutil

import pytest

from interpreter.cli import main
from interpreter.game import RULESETS


def _broken_polish(tmp_path):
    root = tmp_path / "castle_of_the_devil"
    shutil.copytree(RULESETS / "castle_of_the_devil", root, ignore=shutil.ignore_patterns("scenarios", "variants"))
    pl = root / "locales" / "pl.yaml"
    s = pl.read_text(encoding="utf-8")
    s = s.replace('  card-whip: "Bicz"\n', "", 1)
    s = s.replace("\nmessages:\n", '\nmessages:\n  zone-nowhere: "Nigdzie"\n', 1)
    pl.write_text(s, encoding="utf-8")
    return root


def test_validate_strict_fails_on_what_i18n_check_reports(tmp_path, capsys):
    root = _broken_polish(tmp_path)
    assert main(["i18n", "check", str(root), "--lang", "pl", "--no-engine"]) == 1
    check = capsys.readouterr().err
    assert "missing 'card-whip'" in check and "extra 'zone-nowhere'" in check
    assert main(["validate", str(root)]) == 0                       # a warning: English fills in
    out = capsys.readouterr()
    assert "missing 'card-whip'" in out.err and "extra 'zone-nowhere'" in out.err
    assert "3 warnings (an error with --strict)" in out.err and out.out.startswith("ok: castle_of_the_devil")
    assert main(["validate", str(root), "--strict"]) == 1
    err = capsys.readouterr().err
    assert ": error: missing 'card-whip'" in err and err.rstrip().endswith("3 errors")


@pytest.mark.parametrize("lang,warn,count,ok", [
    ("ru", ": предупреждение: лишнее 'zone-nowhere': в английском такого сообщения нет",
     "3 предупреждения (с --strict — ошибки)",
     "ок: castle_of_the_devil 1.0: карт: 60, видов карт: 40"),
    ("pl", ": ostrzeżenie: zbędne 'zone-nowhere': angielski nie ma takiego komunikatu",
     "3 ostrzeżenia (z --strict: błędy)",
     "ok: castle_of_the_devil 1.0: karty: 60, rodzaje kart: 40"),
    ("pt", ": aviso: 'zone-nowhere' a mais: o inglês não tem essa mensagem", "3 avisos (erros com --strict)",
     "ok: castle_of_the_devil 1.0: cartas: 60, tipos de carta: 40"),
])
def test_validate_speaks_the_command_line_language(tmp_path, capsys, lang, warn, count, ok):
    root = _broken_polish(tmp_path)
    assert main(["--lang", lang, "validate", str(root)]) == 0
    out = capsys.readouterr()
    assert warn in out.err and count in out.err and out.out.startswith(ok)


@pytest.mark.parametrize("lang,one", [("ru", "1 ошибка"), ("pl", "1 błąd"), ("pt", "1 erro")])
def test_validate_error_count_and_severity_localized(tmp_path, capsys, lang, one):
    root = tmp_path / "high_tide"
    shutil.copytree(RULESETS / "high_tide", root)
    rs = root / "ruleset.yaml"
    rs.write_text(rs.read_text(encoding="utf-8").replace("goal: 12", "goal: twelve"), encoding="utf-8")
    assert main(["--lang", lang, "validate", str(root)]) == 1
    err = capsys.readouterr().err
    word = {"ru": "ошибка", "pl": "błąd", "pt": "erro"}[lang]
    assert f": {word}: " in err and err.rstrip().endswith(one)


@pytest.mark.parametrize("lang,words", [
    ("ru", ["сторона", "доля побед", "Братство Правдивой лжи", "Орден Открытых секретов", "по местам:",
            "концовки: ", "записано: "]),
    ("pl", ["strona", "odsetek wygranych", "Bractwo Prawdziwego Kłamstwa", "Zakon Jawnych Tajemnic",
            "według miejsc:", "zakończenia: ", "zapisano: "]),
    ("pt", ["lado", "taxa de vitórias", "Irmandade da Mentira Verdadeira", "Ordem dos Segredos Revelados",
            "por lugar:", "finais: ", "escrito: "]),
])
def test_simulate_speaks_the_language_and_names_sides_and_ends(tmp_path, capsys, lang, words):
    """No raw id (`brotherhood`, `society_lost`): sides and end reasons by the ruleset's locale."""
    from interpreter.game import load
    from interpreter.i18n import Text
    assert main(["--lang", lang, "simulate", "castle_of_the_devil", "--games", "3", "--jobs", "1",
                 "--out", str(tmp_path / "sim")]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    for w in words:
        assert w in flat, (w, out)
    for raw in ("brotherhood", "society_lost", "society_won", "loge_won_alone", " order "):
        assert raw not in flat, (raw, out)
    text = Text(load(RULESETS / "castle_of_the_devil").program, lang)
    assert any(text.end_reason(r) in flat for r in ("society_lost", "society_won", "loge_won_alone"))


VARIANT = str(RULESETS / "castle_of_the_devil" / "variants" / "beginner.yaml")
OUTPUTS = {
    "ru": ("beginner для castle_of_the_devil: 1 изменение", "[база]", "[вариант]", "пройдено: 3, не пройдено: 0",
           "ок "),
    "pl": ("beginner w castle_of_the_devil: 1 zmiana", "[baza]", "[wariant]", "zaliczone: 3, niezaliczone: 0", "ok "),
    "pt": ("beginner em castle_of_the_devil: 1 mudança", "[base]", "[variante]", "passaram: 3, falharam: 0", "ok "),
    "en": ("beginner on castle_of_the_devil: 1 change", "[base]", "[variant]", "3 passed, 0 failed", "ok "),
}


@pytest.mark.parametrize("lang", sorted(OUTPUTS))
def test_diff_explain_and_test_speak_the_language(lang, capsys):
    head, base, variant, summary, ok = OUTPUTS[lang]
    assert main(["--lang", lang, "diff", "castle_of_the_devil", "--variant", VARIANT]) == 0
    assert capsys.readouterr().out.startswith(head + "\n  param full_item_set: 1 -> 0")
    assert main(["--lang", lang, "explain", "castle_of_the_devil", "params.full_item_set", "--variant", VARIANT]) == 0
    out = capsys.readouterr().out
    assert out.startswith("params.full_item_set = 0\n") and f"  {base}  full_item_set: 1" in out
    assert f"  {variant}  full_item_set: 0" in out
    assert main(["--lang", lang, "test", str(RULESETS / "high_tide" / "scenarios"), "-v"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(summary) and out.startswith(ok)


def test_simulate_compare_table_speaks_the_language(tmp_path, capsys):
    assert main(["--lang", "pl", "simulate", "castle_of_the_devil", "--games", "2", "--jobs", "1", "--compare",
                 "--variant", VARIANT, "--out", str(tmp_path / "sim")]) == 0
    flat = " ".join(capsys.readouterr().out.split())
    assert "beginner wobec castle_of_the_devil, sparowane ziarna: 2" in flat
    assert "różnica: w punktach procentowych" in flat and "długość" in flat


def test_simulate_progress_names_runs_by_their_titles_in_the_language(tmp_path):
    """The progress bar says the game's title (its locale's `title`) and each variant's title, and a
    sweep's point by its value, "the rules" in the language (a variant the locale has no
    `variant-ID` for by its file's title); never `castle_of_the_devil beginner`."""
    from interpreter.commands.simulate import _labels
    from interpreter.game import load
    from interpreter.sim.runner import SimSpec
    castle = RULESETS / "castle_of_the_devil"
    game = load(castle, ["beginner"])
    spec = SimSpec(str(castle), ("beginner",), players=4)
    assert _labels(game.program, "ru", {"beginner": spec}, None, 1) == {
        "beginner": "Путешествие к замку Диавола + Игра для новичков (только предметы с печатью)"}
    assert _labels(game.program, "en", {"beginner": spec}, None, 1)["beginner"] == \
        "Castle of the Devil + Beginner game (sealed items only)"
    swept = tmp_path / "sweep" / "x.yaml"
    swept.parent.mkdir()
    swept.write_text("variant: sweep_x\ntitle: written by the sweep\nbase: castle_of_the_devil\n", encoding="utf-8")
    specs = {"x=4 (the rules)": SimSpec(str(castle), ("beginner",), players=4),
             "x=5": SimSpec(str(castle), ("beginner", str(swept)), players=4)}
    got = _labels(game.program, "pt", specs, ("x", [(4, "x=4 (the rules)"), (5, "x=5")]), 1)
    head = "Viagem ao Castelo do Diabo + Jogo para principiantes (só objetos com selo) · "
    assert got == {"x=4 (the rules)": head + "x = 4 (segundo as regras)", "x=5": head + "x = 5"}
    own = tmp_path / "own.yaml"   # a variant the locale has no title for: the file's own title
    own.write_text("variant: own\ntitle: Our house rule\nbase: castle_of_the_devil\n"
                   "merge: {params: {full_item_set: 0}}\n", encoding="utf-8")
    spec = SimSpec(str(castle), (str(own),), players=4)
    assert _labels(load(castle, [str(own)]).program, "pl", {"b": spec}, None, 1)["b"] == \
        "Podróż do Zamku Diabła + Our house rule"


@pytest.mark.parametrize("game", ["shadows_over_camelot", "castle_of_the_devil"])
def test_every_shipped_variant_has_its_title_in_every_locale(game):
    """Each variant file of a shipped game has a `variant-ID` title in each of its locales, the
    English one equal to the file's own title, the others translated (not the English copied)."""
    import yaml
    root = RULESETS / game
    titles = {f.stem: yaml.safe_load(f.read_text(encoding="utf-8"))["title"]
              for f in sorted((root / "variants").glob("*.yaml"))}
    assert titles
    for loc in sorted((root / "locales").glob("*.yaml")):
        messages = yaml.safe_load(loc.read_text(encoding="utf-8"))["messages"]
        for vid, title in titles.items():
            got = messages.get(f"variant-{vid}")
            assert got, f"{loc.name} has no variant-{vid}"
            assert (got == title) == (loc.stem == "en"), (loc.name, vid, got)


def test_simulate_progress_names_a_camelot_variant_in_the_language():
    """`grimoire --lang pl simulate shadows_over_camelot --variant hard_siege` labels its run
    with the game's and the variant's Polish titles."""
    from interpreter.commands.simulate import _labels
    from interpreter.game import load
    from interpreter.sim.runner import SimSpec
    camelot = RULESETS / "shadows_over_camelot"
    program = load(camelot, ["hard_siege"]).program
    spec = SimSpec(str(camelot), ("hard_siege",), players=3)
    got = {lang: _labels(program, lang, {"h": spec}, None, 1)["h"] for lang in ("en", "ru", "pl", "pt")}
    assert got == {"en": "Shadows over Camelot + Harder siege (house rule)",
                   "ru": "Тени над Камелотом + Осада потяжелее (домашнее правило)",
                   "pl": "Cienie nad Camelotem + Trudniejsze oblężenie (zasada domowa)",
                   "pt": "Sombras sobre Camelot + Cerco mais duro (regra da casa)"}
