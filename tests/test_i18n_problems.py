"""Problems in the reader's language (interpreter/i18n/problems.py): `grimoire --lang ru validate`
prints the problem's message in Russian, located as in English, with its source line unchanged.

The broken-ruleset corpus (tests/broken/*/expected.txt, the English a user meets) is the measure:
every problem there must match a `problem-*` message whose English gives back the very same text
(so a check that rewords its English is caught here), and most of them must be localized.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
from pathlib import Path

import pytest
import yaml

from interpreter import cli, errors
from interpreter.i18n.problems import HINT, PREFIX, WORD, _text, localize, localized_share, match

BROKEN = Path(__file__).parent / "broken"
MESSAGES = Path(__file__).parent.parent / "interpreter" / "messages"
LINE = re.compile(r"^\S+:\d+:\d+: (?:error|warning): (.*)$")


def _corpus() -> list[str]:
    out = []
    for f in sorted(BROKEN.glob("*/expected.txt")):
        out += [m.group(1) for line in f.read_text(encoding="utf-8").splitlines()
                if (m := LINE.match(line))]
    return out


def _catalogue(lang: str) -> dict:
    return yaml.safe_load((MESSAGES / f"{lang}.yaml").read_text(encoding="utf-8"))["messages"]


def test_corpus_is_read():
    assert len(_corpus()) > 80


def test_every_corpus_problem_is_a_catalogue_message_with_its_english():
    """Each message matches one problem-* message, and that message's English, given the
    arguments read off the text, is the text again (with its did-you-mean hint)."""
    hint = re.compile(r" \(did you mean '([^']*)'\?\)")
    for text in _corpus():
        head = hint.sub("", text)
        found = match(head)
        assert found is not None, f"no problem-* message matches: {text}"
        key, args = found
        assert _text("en", key, args) == head, (key, text)


@pytest.mark.parametrize("lang", ["ru", "pl", "pt"])
def test_most_of_the_corpus_is_localized(lang):
    done, total = localized_share(_corpus(), lang)
    print(f"{lang}: {done}/{total} problems of the broken corpus localized")
    assert done / total >= 0.8


def test_every_problem_message_has_all_four_languages():
    en = {k for k in _catalogue("en") if k.startswith(PREFIX)}
    assert len(en) > 100 and HINT in en and any(k.startswith(WORD) for k in en)
    for lang in ("ru", "pl", "pt"):
        cat = _catalogue(lang)
        assert not sorted(en - set(cat)), lang
        assert all(str(cat[k]).strip() for k in en), lang


def test_a_message_the_catalogue_lacks_stays_english():
    assert localize("a brand new problem nobody has translated", "ru") == \
        "a brand new problem nobody has translated"
    assert localize("undefined name 'x'", "en") == "undefined name 'x'"
    assert localize("undefined name 'x'", "de") == "undefined name 'x'"     # no engine text in de


def test_arguments_that_are_words_are_translated_and_others_kept():
    assert localize("expected a list of anythings here, found a number", "ru") == \
        "здесь ожидается список значений, а не число"
    assert localize("goal must be an integer or a mapping, found 'ten'", "pl") == \
        "goal: oczekiwano: liczba całkowita lub mapa (klucz: wartość), jest: 'ten'"
    assert localize("visibility must be one of public, owner or hidden, found 'pubic' "
                    "(did you mean 'public'?)", "pt") == \
        "visibility tem de ser um de public, owner ou hidden, mas é 'pubic' (querias dizer 'public'?)"
    assert localize("cannot compute a number + a string", "ru") == "нельзя вычислить число + строка"


def _validate(case: str, lang: str, tmp_path: Path, monkeypatch) -> tuple[int, str]:
    work = tmp_path / case
    shutil.copytree(BROKEN / case, work, symlinks=True)
    monkeypatch.chdir(work)
    errors._line_cache.clear()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(["--lang", lang, "validate", "."])
    return code, out.getvalue()


CASES = [
    ("unknown_card_key", "ru", "ruleset.yaml:24:26: ошибка: неизвестный ключ 'cuont' в shell_2 "
     "(может быть, 'count'?)\n      shell_2: {set: shells, cuont: 5, props: {value: 2}}\n"
     "                             ^\n1 ошибка\n"),
    ("unknown_card_key", "pl", "ruleset.yaml:24:26: błąd: nieznany klucz 'cuont' w shell_2 "
     "(czy chodziło o 'count'?)\n      shell_2: {set: shells, cuont: 5, props: {value: 2}}\n"
     "                             ^\n1 błąd\n"),
    ("unknown_card_key", "pt", "ruleset.yaml:24:26: erro: chave desconhecida 'cuont' em shell_2 "
     "(querias dizer 'count'?)\n      shell_2: {set: shells, cuont: 5, props: {value: 2}}\n"
     "                             ^\n1 erro\n"),
    ("counter_min_above_max", "ru", "ruleset.yaml:14:17: ошибка: счётчик 'washed': min (2) больше "
     "max (1), ни одно значение не подходит\n      washed: {min: 2, max: 1, reset: turn}\n"
     "                    ^\n1 ошибка\n"),
    ("counter_min_above_max", "pl", "ruleset.yaml:14:17: błąd: licznik 'washed': min (2) jest większe "
     "niż max (1), więc żadna wartość nie pasuje\n      washed: {min: 2, max: 1, reset: turn}\n"
     "                    ^\n1 błąd\n"),
    ("counter_min_above_max", "pt", "ruleset.yaml:14:17: erro: contador 'washed': min (2) é maior do "
     "que max (1), por isso nenhum valor serve\n      washed: {min: 2, max: 1, reset: turn}\n"
     "                    ^\n1 erro\n"),
    ("undefined_variable", "ru", "ruleset.yaml:62:22: ошибка: неизвестное имя 'd'\n"
     "            score(me) += d.value\n                         ^\n1 ошибка\n"),
    ("undefined_variable", "pl", "ruleset.yaml:62:22: błąd: nieznana nazwa 'd'\n"
     "            score(me) += d.value\n                         ^\n1 błąd\n"),
    ("undefined_variable", "pt", "ruleset.yaml:62:22: erro: nome desconhecido 'd'\n"
     "            score(me) += d.value\n                         ^\n1 erro\n"),
]


@pytest.mark.parametrize("case,lang,expected", CASES, ids=[f"{c}-{lang}" for c, lang, _ in CASES])
def test_validate_prints_the_problem_in_the_language(case, lang, expected, tmp_path, monkeypatch):
    code, out = _validate(case, lang, tmp_path, monkeypatch)
    assert code == 1
    assert out == expected


def test_json_output_keeps_the_english(tmp_path, monkeypatch, capsys):
    work = tmp_path / "undefined_variable"
    shutil.copytree(BROKEN / "undefined_variable", work)
    monkeypatch.chdir(work)
    assert cli.main(["--lang", "ru", "validate", ".", "--format", "json"]) == 1
    assert "undefined name 'd'" in capsys.readouterr().out


def _schema_problem(schema: dict, value) -> str:
    """The problem validate writes for `value` against a one-keyword JSON Schema."""
    import jsonschema

    from interpreter.frontend.validate import _message
    (e,) = jsonschema.Draft202012Validator(schema).iter_errors(value)
    return _message(e, "'count'")


SCHEMA_CASES = [  # (schema, value, ru, pl, pt)
    ({"exclusiveMinimum": 0}, 0, "'count': нужно больше 0, а здесь 0", "'count': musi wynosić więcej niż 0, jest: 0",
     "'count' tem de ser maior do que 0, mas é 0"),
    ({"exclusiveMaximum": 5}, 7, "'count': нужно меньше 5, а здесь 7", "'count': musi wynosić mniej niż 5, jest: 7",
     "'count' tem de ser menor do que 5, mas é 7"),
    ({"minLength": 3}, "ab", "'count': длина должна быть не меньше 3 (в символах), а здесь 'ab'",
     "'count': długość musi wynosić co najmniej 3 (w znakach), jest: 'ab'",
     "'count' tem de ter pelo menos 3 caracteres, mas é 'ab'"),
    ({"maxLength": 2}, "abc", "'count': длина должна быть не больше 2 (в символах)",
     "'count': długość musi wynosić co najwyżej 2 (w znakach)",
     "'count' é demasiado longo: o máximo é 2 (em caracteres)"),
    ({"minItems": 1}, [], "'count': нужна хотя бы 1 запись", "'count': musi mieć co najmniej 1 wpis",
     "'count' tem de ter pelo menos 1 entrada"),
    ({"minItems": 2}, [1], "'count': записей должно быть не меньше 2",
     "'count': liczba wpisów musi wynosić co najmniej 2",
     "'count' tem de ter pelo menos 2 entradas"),
    ({"maxItems": 1}, [1, 2], "'count': может быть не больше 1 записи", "'count': może mieć co najwyżej 1 wpis",
     "'count' pode ter no máximo 1 entrada"),
    ({"maxItems": 2}, [1, 2, 3], "'count': записей должно быть не больше 2",
     "'count': liczba wpisów musi wynosić co najwyżej 2", "'count' pode ter no máximo 2 entradas"),
]


@pytest.mark.parametrize("schema, value, ru, pl, pt", SCHEMA_CASES)
def test_the_json_schema_bounds_are_localized(schema, value, ru, pl, pt):
    """exclusiveMinimum/Maximum, minLength N, maxLength, minItems, maxItems: the validator's real
    English matches its catalogue message (given back exactly) and prints in each language."""
    english = _schema_problem(schema, value)
    key, args = match(english)
    assert _text("en", key, args) == english
    assert (localize(english, "ru"), localize(english, "pl"), localize(english, "pt")) == (ru, pl, pt)


def test_lint_warnings_outside_the_corpus_are_localized():
    """i18n/lint.py's missing event text in a variant and an action text's unknown variables."""
    ev = ("event 'tide' has no text: add 'event-tide' to the variant's locales: en: (or to locales/en.yaml) "
          "(the log would show its id)")
    assert localize(ev, "ru") == ("у события 'tide' нет текста: добавьте 'event-tide' в locales: en: варианта "
                                  "(или в locales/en.yaml) (иначе журнал покажет его id)")
    args = "'action-go' uses $n, but action 'go' has args $k"
    assert localize(args, "pl") == "'action-go' używa $n, ale akcja 'go' ma argumenty $k"
    assert localize(args, "pt") == "'action-go' usa $n, mas a ação 'go' tem os argumentos $k"
