"""Save refusals in the reader's language: the damaged saves of tests/savefuzz.py (the named
attacks and random mutants of High Tide games) are refused with located problems whose
messages the problem catalogue matches and prints in ru/pl/pt."""

from __future__ import annotations

import json
import random

import pytest
from savefuzz import mid_game_states, named_attacks, random_mutants

from interpreter.errors import RulesetError
from interpreter.game import RULESETS, load
from interpreter.i18n.problems import _HINT, _text, localize, match
from interpreter.saves import parse_save, save_text


@pytest.fixture(scope="module")
def refusals() -> list[str]:
    game = load(RULESETS / "high_tide")
    cache = {}

    def loader(src, variants):
        return cache.setdefault((str(src), tuple(variants)), load(src, list(variants)))
    out, rng = [], random.Random(2026)
    for st in mid_game_states(game, 2, seed=11):
        text = save_text(game, st, ["random", "random"], "en")
        docs = [json.dumps(d).encode() for d in named_attacks(json.loads(text), st.g).values()]
        docs += [raw for _, raw in random_mutants(text, rng, 40)]
        for raw in docs:
            try:
                parse_save(raw, "game.save.json", loader)
            except RulesetError as e:
                out += [p.message for p in e.problems]
    return out


def test_most_save_refusals_are_localized(refusals):
    """The share matched is printed (-s) and kept: every matched one gives its English back."""
    matched = 0
    for m in refusals:
        found = match(_HINT.sub("", m))
        if found:
            matched += 1
            assert _text("en", found[0], found[1]) == _HINT.sub("", m)
    distinct = {m for m in refusals}
    print(f"\nsave refusals matched: {matched}/{len(refusals)} ({len(distinct)} distinct texts)")
    for lang in ("ru", "pl", "pt"):
        said = sum(localize(m, lang) != m for m in refusals)
        print(f"  {lang}: {said}/{len(refusals)} localized")
        assert said == matched
    assert len(refusals) > 50 and matched >= 0.8 * len(refusals)


@pytest.mark.parametrize("lang,expected", [
    ("ru", "решение 3 ('nope') в этот момент игры недопустимо; сохранение изменено или повреждено"),
    ("pl", "decyzja 3 ('nope') nie jest dozwolona w tym momencie gry; zapis zmieniono lub jest uszkodzony"),
    ("pt", "a decisão 3 ('nope') não é uma opção permitida nesse ponto do jogo; a gravação foi editada ou está "
           "danificada"),
])
def test_a_damaged_decision_is_refused_in_the_language(lang, expected):
    english = ("decision 3 ('nope') is not a legal option at that point of the game; the save was edited or is "
               "damaged")
    assert localize(english, lang) == expected
    assert localize("the save file is not UTF-8 text", lang) != "the save file is not UTF-8 text"


@pytest.mark.parametrize("lang,seat,players", [
    ("ru", "ошибка: место 2: неизвестный вид места 'wizard' (human или бот: ", "1 ошибка"),
    ("pl", "błąd: miejsce 2: nieznany rodzaj miejsca 'wizard' (human albo bot: ", "1 błąd"),
    ("pt", "erro: lugar 2: tipo de lugar desconhecido 'wizard' (human ou um bot: ", "1 erro"),
])
def test_serve_says_its_startup_errors_in_the_language(lang, seat, players, capsys):
    from interpreter.cli import main
    assert main(["--lang", lang, "serve", "high_tide", "--seats", "human,wizard"]) == 2
    assert capsys.readouterr().err.startswith(seat)
    assert main(["--lang", lang, "serve", "high_tide", "--seats", "human,random,random,random,random"]) == 1
    err = capsys.readouterr().err
    assert err.rstrip().endswith(players) and "high_tide is for" not in err and " 2 " in err and " 5" in err
