"""Localization: `grimoire i18n check` on the shipped rulesets, plural forms from CLDR (Babel),
card numbers taken from the cards' params (so variants change the text), complete logs of
all-bot games in every language, and the checker's own findings on broken files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.game import RULESETS, load
from interpreter.i18n import LANGS, Text, check_locales, pattern_hash, plural_categories

RULESETS_I18N = ["shadows_over_camelot", "castle_of_the_devil"]
NUMBERS = [0, 1, 2, 3, 5, 11, 21, 22, 25]


# ---- the check passes on what we ship -----------------------------------------------------------

@pytest.mark.parametrize("name", RULESETS_I18N)
def test_i18n_check_passes(name, capsys):
    code = main(["i18n", "check", name])
    out = capsys.readouterr()
    assert code == 0, out.err + out.out
    for lang in LANGS:
        assert f"{name} {lang}: " in out.out and "0 errors" in out.out


def test_plural_categories_from_babel():
    assert plural_categories("ru") == ("one", "few", "many", "other")
    assert plural_categories("pl") == ("one", "few", "many", "other")
    assert plural_categories("pt") == ("one", "other")
    assert plural_categories("en") == ("one", "other")


# ---- numbers in card text: exact Russian and Polish strings ---------------------------------------

def _card_text_with(lang: str, card: str, **params) -> str:
    game = load(RULESETS / "shadows_over_camelot")
    prog = game.program
    k = prog.card_index[card]
    saved = prog.kind_params[k]
    try:
        prog.kind_params[k] = {**saved, **params}
        text = Text(prog, lang)
        out = text.card_text(k)
        assert not text.missing and not text.fallbacks and not text.errors
        return out
    finally:
        prog.kind_params[k] = saved


RU_WHITE = {0: "0 белых карт", 1: "1 белую карту", 2: "2 белые карты", 3: "3 белые карты",
            5: "5 белых карт", 11: "11 белых карт", 21: "21 белую карту", 22: "22 белые карты",
            25: "25 белых карт"}
RU_EACH = {0: "по 0 карт", 1: "по 1 карте", 2: "по 2 карты", 3: "по 3 карты", 5: "по 5 карт",
           11: "по 11 карт", 21: "по 21 карте", 22: "по 22 карты", 25: "по 25 карт"}
PL_WHITE = {0: "0 Białych kart", 1: "1 Białą kartę", 2: "2 Białe karty", 3: "3 Białe karty",
            5: "5 Białych kart", 11: "11 Białych kart", 21: "21 Białych kart", 22: "22 Białe karty",
            25: "25 Białych kart"}
PL_EACH = {0: "0 kart", 1: "1 kartę", 2: "2 karty", 3: "3 karty", 5: "5 kart", 11: "11 kart",
           21: "21 kart", 22: "22 karty", 25: "25 kart"}


@pytest.mark.parametrize("n", NUMBERS)
def test_russian_card_numbers(n):
    assert _card_text_with("ru", "reinforcements", self_draw=n, others_draw=n) == (
        f"Возьмите {RU_WHITE[n]}, сколько бы карт у вас ни было, "
        f"или каждый другой Рыцарь берёт {RU_EACH[n]}.")
    engines = {0: "0 катапульт", 1: "1 катапульту", 2: "2 катапульты", 3: "3 катапульты",
               5: "5 катапульт", 11: "11 катапульт", 21: "21 катапульту", 22: "22 катапульты",
               25: "25 катапульт"}
    assert _card_text_with("ru", "morgan_4", engines=n) == f"Добавьте {engines[n]}."
    life = {0: "0 очков здоровья", 1: "1 очко здоровья", 2: "2 очка здоровья", 3: "3 очка здоровья",
            5: "5 очков здоровья", 11: "11 очков здоровья", 21: "21 очко здоровья",
            22: "22 очка здоровья", 25: "25 очков здоровья"}
    assert _card_text_with("ru", "morgan_1", loss=n) == f"Каждый Рыцарь теряет {life[n]}."


@pytest.mark.parametrize("n", NUMBERS)
def test_polish_card_numbers(n):
    assert _card_text_with("pl", "reinforcements", self_draw=n, others_draw=n) == (
        f"Dobierz {PL_WHITE[n]} bez względu na liczbę kart w ręce, "
        f"albo każdy inny Rycerz dobiera {PL_EACH[n]}.")
    engines = {0: "0 Machin Oblężniczych", 1: "1 Machinę Oblężniczą", 2: "2 Machiny Oblężnicze",
               3: "3 Machiny Oblężnicze", 5: "5 Machin Oblężniczych", 11: "11 Machin Oblężniczych",
               21: "21 Machin Oblężniczych", 22: "22 Machiny Oblężnicze", 25: "25 Machin Oblężniczych"}
    assert _card_text_with("pl", "morgan_4", engines=n) == f"Dodaj {engines[n]}."
    life = {0: "0 Punktów Życia", 1: "1 Punkt Życia", 2: "2 Punkty Życia", 3: "3 Punkty Życia",
            5: "5 Punktów Życia", 11: "11 Punktów Życia", 21: "21 Punktów Życia",
            22: "22 Punkty Życia", 25: "25 Punktów Życia"}
    assert _card_text_with("pl", "morgan_1", loss=n) == f"Każdy Rycerz traci {life[n]}."


@pytest.mark.parametrize("n", NUMBERS)
def test_portuguese_and_english_card_numbers(n):
    pt = "1 carta Branca" if n == 1 else f"{n} cartas Brancas"
    assert _card_text_with("pt", "reinforcements", self_draw=n).startswith(f"Tira {pt}, ")
    en = "card" if n == 1 else "cards"
    assert _card_text_with("en", "reinforcements", self_draw=n).startswith(f"Draw {n} White {en}, ")


def test_a_variant_changes_the_card_text_in_every_language(tmp_path):
    """The number comes from the compiled card (its params), not from the text."""
    v = tmp_path / "more_reinforcements.yaml"
    v.write_text("variant: more_reinforcements\ntitle: More reinforcements\nbase: shadows_over_camelot\n"
                 "merge:\n  cards:\n    reinforcements:\n      params: {self_draw: 22}\n", encoding="utf-8")
    game = load(RULESETS / "shadows_over_camelot", [str(v)])
    k = game.program.card_index["reinforcements"]
    texts = {lang: Text(game.program, lang).card_text(k) for lang in LANGS}
    assert texts["en"].startswith("Draw 22 White cards")
    assert texts["ru"].startswith("Возьмите 22 белые карты")
    assert texts["pl"].startswith("Dobierz 22 Białe karty")
    assert texts["pt"].startswith("Tira 22 cartas Brancas")


# ---- full games: every log line translated ------------------------------------------------------------

class _Recorder:
    texts: list = []


@pytest.fixture
def recorded_text(monkeypatch):
    from interpreter import i18n

    class RecordingText(i18n.Text):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            _Recorder.texts.append(self)

    _Recorder.texts = []
    monkeypatch.setattr(i18n, "Text", RecordingText)
    return _Recorder.texts


GAMES = [("shadows_over_camelot", 4, 3), ("shadows_over_camelot", 5, 11),
         ("castle_of_the_devil", 5, 3), ("castle_of_the_devil", 6, 8)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name,players,seed", GAMES)
def test_all_bot_game_is_fully_translated(name, players, seed, lang, tmp_path, recorded_text, capsys):
    log = tmp_path / "game.log"
    assert main(["play", name, "--players", str(players), "--seed", str(seed), "--lang", lang,
                 "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    (text,) = recorded_text
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) > 20
    assert not text.missing, f"untranslated ids: {sorted(text.missing)}"
    assert not text.errors, text.errors
    if lang != "en":
        assert not text.fallbacks, f"English fallbacks in {lang}: {sorted(text.fallbacks)}"
        _assert_no_english_source_text(name, lines, lang)
    prog = text.prog
    raw_ids = set(prog.card_ids) | set(prog.loc_ids) | set(prog.actions)
    if lang == "en":        # English words such as "attack" are also ids; look for snake_case ones
        raw_ids = {i for i in raw_ids if "_" in i}
    for line in lines:
        words = {w.strip(".,:;!?()«»„”\"'") for w in line.split()}
        assert not (words & raw_ids), f"raw id in log line: {line!r}"


def _assert_no_english_source_text(name, lines, lang):
    """No log line equals (or contains a sentence of) the English rendering of a message."""
    from interpreter.i18n import locale_messages
    en, _, _ = locale_messages(RULESETS / name, "en")
    names = {str(v) for k, v in en.items() if k.startswith("card-") and not k.endswith("-text")}
    english = {str(v) for v in en.values()
               if "{" not in str(v) and len(str(v).split()) >= 3 and str(v) not in names}
    for line in lines:
        for s in english:
            assert s not in line, f"English text {s!r} in the {lang} log: {line!r}"


@pytest.mark.parametrize("lang", ["ru", "pl", "pt"])
@pytest.mark.parametrize("name,players", [("shadows_over_camelot", 3), ("castle_of_the_devil", 4)])
def test_human_seats_see_only_translated_text(name, players, lang, monkeypatch, recorded_text, capsys):
    """Drive every seat as a 'human' (answers from a seeded RNG): the views, prompts and option
    labels printed to the players go through Text and are all in the chosen language."""
    import builtins
    import random
    rng = random.Random(5)
    answers = {"n": 0}

    def fake_input(prompt=""):
        answers["n"] += 1
        if answers["n"] > 4000:
            return "q"
        return "1" if rng.random() < 0.3 else str(rng.randint(1, 3))

    monkeypatch.setattr(builtins, "input", fake_input)
    monkeypatch.chdir(Path(__file__).parent.parent)
    save = Path("/tmp") / f"grimoire-test-{name}-{lang}.save.json"
    main(["play", name, "--players", str(players), "--seed", "2", "--lang", lang, "--seats", "human",
          "--save", str(save)])
    save.unlink(missing_ok=True)
    out = capsys.readouterr().out
    (text,) = recorded_text
    assert not text.missing, sorted(text.missing)
    assert not text.fallbacks, sorted(text.fallbacks)
    assert not text.generic, sorted(text.generic)
    assert not text.errors, text.errors
    assert out.count("\n") > 50


# ---- the checker finds what is wrong, at file:line ------------------------------------------------------

def _copy_ruleset(tmp_path, name="shadows_over_camelot") -> Path:
    dst = tmp_path / name
    shutil.copytree(RULESETS / name, dst, ignore=shutil.ignore_patterns("scenarios", "variants"))
    return dst


def _line_of(path: Path, needle: str) -> int:
    for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in ln:
            return i
    raise AssertionError(needle)


def test_check_reports_every_kind_of_problem_with_file_and_line(tmp_path, capsys):
    root = _copy_ruleset(tmp_path)
    ru = root / "locales" / "ru.yaml"
    s = ru.read_text(encoding="utf-8")
    s = s.replace('  card-fight_2: "Боевая карта 2"\n', "")                                  # missing
    s = s.replace('  zone-box: "Коробка"\n', '  zone-box: "Коробка"\n  zone-nowhere: "Нигде"\n')  # extra
    s = s.replace('action-attack-x', 'x')
    s = s.replace('action-travel: "Отправиться { $l_to }"', 'action-travel: "Отправиться { $place }"')  # variables
    s = s.replace("        [few] { $loss } очка здоровья\n", "")                                  # plural
    s = s.replace('card-grail: "Грааль"', 'card-grail: "Грааль { $n ->"')                      # syntax
    s = s.replace("card-vivien-text: 1", "card-vivien-text: 1")
    ru.write_text(s, encoding="utf-8")
    en = root / "locales" / "en.yaml"
    e = en.read_text(encoding="utf-8")
    en.write_text(e.replace("card-guinevere-text: Every Knight returns to Camelot.",
                            "card-guinevere-text: Every Knight of any loyalty returns to Camelot."),
                  encoding="utf-8")                                                            # stale
    code = main(["i18n", "check", str(root), "--lang", "ru", "--lang", "en"])
    err = capsys.readouterr().err
    assert code == 1
    f = str(ru)
    assert f"{f}:{_line_of(ru, 'messages:')}:" in err and "missing 'card-fight_2'" in err
    assert f"{f}:{_line_of(ru, 'zone-nowhere')}:" in err and "extra 'zone-nowhere'" in err
    assert f"{f}:{_line_of(ru, 'action-travel')}:" in err and "lacks $l; has unknown $place" in err
    assert f"{f}:{_line_of(ru, 'card-morgan_1-text')}:" in err and "lacks the ru plural category [few]" in err
    grail = _line_of(ru, 'card-grail: "Грааль {')     # (its forms: line comes first)
    assert f"{f}:{grail}:" in err and "Fluent syntax in 'card-grail'" in err
    assert f"{f}:{_line_of(ru, 'card-guinevere-text:')}:" in err and "'card-guinevere-text' is stale" in err


def test_check_reports_a_missing_portuguese_plural_and_a_foreign_category(tmp_path, capsys):
    root = _copy_ruleset(tmp_path)
    pt = root / "locales" / "pt.yaml"
    s = pt.read_text(encoding="utf-8")
    s = s.replace("        [one] { $loss } ponto de Vida\n", "        [few] { $loss } pontos de Vida\n")
    pt.write_text(s, encoding="utf-8")
    assert main(["i18n", "check", str(root), "--lang", "pt"]) == 1
    err = capsys.readouterr().err
    assert "lacks the pt plural category [one]" in err
    assert "[few] is not a plural category of pt" in err


def test_stamp_clears_staleness(tmp_path, capsys):
    root = _copy_ruleset(tmp_path)
    en = root / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("counter-life: Life", "counter-life: Life points"),
                  encoding="utf-8")
    assert main(["i18n", "check", str(root), "--lang", "pl"]) == 1
    assert main(["i18n", "stamp", str(root), "--lang", "pl", "--id", "counter-life"]) == 0
    assert main(["i18n", "check", str(root), "--lang", "pl"]) == 0
    capsys.readouterr()


def test_pattern_hash_ignores_select_layout():
    one_line = "Draw { $n -> [one] a card *[other] { $n } cards }."
    multi = "Draw { $n ->\n    [one] a card\n   *[other] { $n } cards\n}."
    assert pattern_hash(one_line) == pattern_hash(multi)
    assert pattern_hash(multi) != pattern_hash(multi.replace("Draw", "Take"))


def test_string_selectors_get_the_raw_value():
    """`{ $side -> [order] ... }` selects on the side id, not on its translated name."""
    game = load(RULESETS / "castle_of_the_devil")
    st = game.new_game(seed=1, players=4)
    for lang, want in (("en", "Order of Open Secrets"), ("ru", "Ордена Открытых секретов"),
                       ("pl", "Zakonu Jawnych Tajemnic"), ("pt", "da Ordem dos Segredos Revelados")):
        t = Text(game.program, lang)
        line = t.event(st, ["victory_declared", [0, "order"], ["player", "str"], -1, ["player", "side"]])
        assert want in line, line
        line = t.event(st, ["victory_declared", [0, "brotherhood"], ["player", "str"], -1, ["player", "side"]])
        assert want not in line, line


def test_engine_messages_complete_in_every_language():
    assert check_locales(None, LANGS) == []
