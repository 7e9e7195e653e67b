"""Grammar in the translations: a female and a male character named in the same log lines,
exact strings in Russian, Polish and Portuguese; names in their cases; numbers a variant can change;
and the patterns a native reader found (no repeated frame word, no imperative after «wybiera:»,
one register per language, European Portuguese only), checked over every message we ship."""

from __future__ import annotations

import functools
import re

import pytest

import interpreter
from interpreter.game import RULESETS
from interpreter.i18n import Text, check_locale_set, locale_messages, parse_pattern
from interpreter.i18n.gender import gendered_words
from interpreter.i18n.locales import ENGINE_MESSAGES

GAMES = ("shadows_over_camelot", "castle_of_the_devil")


@functools.cache
def _load(name: str):
    return interpreter.load(str(RULESETS / name))


def _castle(first: str, second: str, third: str = "michel"):
    """A Castle of the Devil game whose seats 1, 2, 3 chose the named characters."""
    game = _load("castle_of_the_devil")
    st = game.new_game(seed=1, players=3)
    for cid in (first, second, third):
        st = st.apply(cid)
    return game, st


def _event(lang, st, game, ev, args, types, names):
    text = Text(game.program, lang)
    line = text.event(st, (ev, args, types, None, names))
    assert not text.errors and not text.missing and not text.fallbacks, (text.errors, text.missing)
    return line


# who attacks whom, hypnotizes whom, names whom as an ally: seat 0 acts on seat 1
CASES = {
    ("ru", "female"): {
        "attacked": "Хуан Тирадор атакует Гундлу фон Хохберг!",
        "hypnotized_player": "Хуан Тирадор гипнотизирует Гундлу фон Хохберг: в этой схватке она должна воздержаться.",
        "ally_named": "Хуан Тирадор называет Гундлу фон Хохберг своей союзницей.",
    },
    ("ru", "male"): {
        "attacked": "Гундла фон Хохберг атакует Хуана Тирадора!",
        "hypnotized_player": "Гундла фон Хохберг гипнотизирует Хуана Тирадора: в этой схватке он должен воздержаться.",
        "ally_named": "Гундла фон Хохберг называет Хуана Тирадора своим союзником.",
    },
    ("pl", "female"): {
        "attacked": "Juan Tirador atakuje Gundlę von Hochberg!",
        "hypnotized_player": "Juan Tirador hipnotyzuje Gundlę von Hochberg: w tej walce musi się ona wstrzymać.",
        "ally_named": "Juan Tirador wskazuje Gundlę von Hochberg jako sojuszniczkę.",
    },
    ("pl", "male"): {
        "attacked": "Gundla von Hochberg atakuje Juana Tiradora!",
        "hypnotized_player": "Gundla von Hochberg hipnotyzuje Juana Tiradora: w tej walce musi się on wstrzymać.",
        "ally_named": "Gundla von Hochberg wskazuje Juana Tiradora jako sojusznika.",
    },
    ("pt", "female"): {
        "attacked": "Juan Tirador ataca Gundla von Hochberg!",
        "hypnotized_player": "Juan Tirador hipnotiza Gundla von Hochberg, que tem de se abster.",
        "ally_named": "Juan Tirador nomeia Gundla von Hochberg como aliada.",
    },
    ("pt", "male"): {
        "attacked": "Gundla von Hochberg ataca Juan Tirador!",
        "hypnotized_player": "Gundla von Hochberg hipnotiza Juan Tirador, que tem de se abster.",
        "ally_named": "Gundla von Hochberg nomeia Juan Tirador como aliado.",
    },
}


@pytest.mark.parametrize("lang,target", sorted(CASES))
def test_a_woman_and_a_man_in_the_log(lang, target):
    """The same events read right whether the player named is a woman or a man."""
    game, st = _castle("juan", "gundla") if target == "female" else _castle("gundla", "juan")
    for ev, want in CASES[(lang, target)].items():
        got = _event(lang, st, game, ev, [0, 1], ["player", "player"], ["player", "target"])
        assert got == want


LOGE = {
    ("ru", "female"): "Гундла фон Хохберг показывает Кольцо Всевластия и объявляет победу в одиночку!",
    ("pl", "female"): "Gundla von Hochberg pokazuje Herb Loży i ogłasza zwycięstwo w pojedynkę!",
    ("pt", "female"): "Gundla von Hochberg mostra o Brasão da Loja e declara vitória sem aliados!",
    ("pt", "male"): "Juan Tirador mostra o Brasão da Loja e declara vitória sem aliados!",
}


@pytest.mark.parametrize("lang,who", sorted(LOGE))
def test_the_lone_victory_fits_either_gender(lang, who):
    game, st = _castle("gundla", "juan") if who == "female" else _castle("juan", "gundla")
    assert _event(lang, st, game, "loge_declared", [0], ["player"], ["player"]) == LOGE[(lang, who)]


def test_the_engine_passes_gender_and_forms():
    game, st = _castle("romana", "basilius")
    text = Text(game.program, "pl")
    assert text.gender(st, 0, "player") == "feminine" and text.gender(st, 1, "player") == "masculine"
    assert text.player(st, 0) == "Romana Baranowa"
    line = text.event(st, ("took_item", [1, 0], ["player", "player"], None, ["player", "target"]))
    assert line == "Bazyli Kartow zabiera przedmiot Romanie Baranowej."
    ru = Text(game.program, "ru")
    assert ru.event(st, ("fight_won", [0, 1], ["player", "player"], None, ["player", "target"])) == \
        "Романа Баранова побеждает Базилиуса Картова."
    assert Text(game.program, "pt").player(st, 0) == "Romana Baranova"


def test_the_check_flags_a_gendered_form_without_a_select(tmp_path):
    """«тот должен» names the target as a man: the check says so, and a select makes it pass."""
    game, _ = _castle("gundla", "juan")
    en, _, en_doc = locale_messages(RULESETS / "castle_of_the_devil", "en")
    ru, _, ru_doc = locale_messages(RULESETS / "castle_of_the_devil", "ru")
    from interpreter.i18n.gender import named_vars
    named = named_vars(game.program)
    bad = dict(ru, **{"event-hypnotized_player": "{ $player } гипнотизирует { $target_acc }: тот должен воздержаться."})
    probs = [p for p in check_locale_set(en, en_doc, bad, ru_doc, "ru", "ru.yaml", None, named)
             if "gender" in (p.path or ())]
    assert len(probs) == 1 and "«тот», «должен»" in probs[0].message and "$target_gender" in probs[0].message
    ok = [p for p in check_locale_set(en, en_doc, ru, ru_doc, "ru", "ru.yaml", None, named)
          if "gender" in (p.path or ())]
    assert ok == []
    msg, _ = parse_pattern("x", "{ $player } { $player_gender -> [feminine] не смогла *[other] не смог } её разрушить.")
    assert gendered_words("ru", msg) == []
    msg, _ = parse_pattern("x", "{ $player } не смог её разрушить.")
    assert gendered_words("ru", msg) == ["смог"]


def test_polish_card_texts_do_not_assume_the_reader_is_a_man():
    en, _, en_doc = locale_messages(RULESETS / "castle_of_the_devil", "en")
    pl, _, pl_doc = locale_messages(RULESETS / "castle_of_the_devil", "pl")
    bad = dict(pl, **{"card-poison_mixer-text": "Jednorazowo. Nie wolno, jeśli sam atakujesz."})
    probs = [p for p in check_locale_set(en, en_doc, bad, pl_doc, "pl", "pl.yaml", None, {})
             if "gender" in (p.path or ())]
    assert [p.message.split(":")[0] for p in probs] == [
        "'card-poison_mixer-text' speaks to the player, but «sam» fits one gender only"]


# ---- Camelot: names in their cases, no frame word, numbers from the ruleset --------------------------

def _camelot():
    game = _load("shadows_over_camelot")
    st = game.new_game(seed=7, players=3)          # seats Sir Kay, Sir Percival, Sir Gawain
    return game, st


QUEST_LINES = {
    "ru": "{who} играет «Мерлина» в Поиске Экскалибура.",
    "pl": "{who} zagrywa „Merlina” w Wyprawie po Excalibur.",
    "pt": "{who} joga «Merlin» na Missão da Excalibur.",
}


@pytest.mark.parametrize("lang", sorted(QUEST_LINES))
def test_a_quest_is_named_once(lang):
    """«w Wyprawie „Wyprawa po Excalibur”» repeated the frame word: the quest's own form is used."""
    game, st = _camelot()
    prog = game.program
    card = prog.kind_instances[prog.card_index["merlin"]][0]
    line = _event(lang, st, game, "played_card", [0, card, prog.loc_ids.index("quest_excalibur")],
                  ["player", "card", "loc"], ["player", "card", "quest"])
    assert line == QUEST_LINES[lang].format(who=Text(prog, lang).player(st, 0))


ACCUSED = {"ru": "{who} обвиняет в измене Сира Кея.", "pl": "{who} oskarża o zdradę Sir Kaya.",
           "pt": "{who} acusa Sir Kay de traição."}


@pytest.mark.parametrize("lang", sorted(ACCUSED))
def test_a_knight_is_named_in_his_case(lang):
    """«обвиняет в измене: Сир Кей» was a frame with a colon: the name takes its case."""
    game, st = _camelot()
    kay = next((p for p in range(3) if st.player_id(p) == "kay"), None)
    names = [st.player_id(p) for p in range(3)]
    assert kay is not None, f"seed 7 seats {names}: choose a seed that seats Sir Kay"
    other = (kay + 1) % 3
    line = _event(lang, st, game, "accused", [other, kay], ["player", "player"], ["player", "target"])
    assert line == ACCUSED[lang].format(who=Text(game.program, lang).player(st, other))


def test_end_reasons_and_excalibur_take_the_rulesets_numbers():
    game, st = _camelot()
    for lang, want in {"en": "12 Siege Engines surround Camelot", "ru": "Камелот окружён: 12 катапульт у стен",
                       "pl": "pod murami Camelotu stoi 12 Machin Oblężniczych",
                       "pt": "12 Máquinas de Cerco cercam Camelot"}.items():
        text = Text(game.program, lang)
        assert text.end_reason("siege_fallen") == want
        text.rule_params["siege_limit"] = 13                       # as the variant thirteen_engines sets
        assert "13" in text.end_reason("siege_fallen")
    line = _event("ru", st, game, "excalibur_moved", [-1, 6, 4], ["int", "int", "int"],
                  ["position", "to_knights", "to_evil"])
    assert line == "Экскалибуру 6 клеток до Рыцарей и 4 до Зла."
    assert "-1" not in _event("pl", st, game, "excalibur_moved", [-1, 6, 4], ["int"] * 3,
                              ["position", "to_knights", "to_evil"])


def test_a_face_down_card_is_not_quoted_as_a_title():
    game, st = _camelot()
    for lang, want in {"ru": "Три Мерлина отменяют карту рубашкой вверх.",
                       "pl": "Trzy Merliny anulują zakrytą kartę.",
                       "pt": "Três Merlins cancelam uma carta virada para baixo."}.items():
        assert _event(lang, st, game, "merlin_cancelled", [None], ["card"], ["card"]) == want


# ---- patterns over every message we ship ------------------------------------------------------------

def _messages(lang: str):
    out = []
    for g in GAMES:
        msgs, _, _ = locale_messages(RULESETS / g, lang)
        out += [(f"{g}/{lang}", k, str(v)) for k, v in msgs.items()]
    from interpreter.i18n.locales import _engine_messages
    out += [(f"engine/{lang}", k, str(v)) for k, v in _engine_messages(lang)[0].items()]
    return out


FRAMES = {"pl": ("Wyprawa", "Wyprawie", "Wyprawy", "Wyprawę", "Wojna", "Wojnie", "Turniej", "Turnieju"),
          "ru": ("Задание", "Задании", "Задания", "Поиск", "Поиске", "Войне", "Поединке"),
          "pt": ("Missão", "Guerra", "Torneio")}


@pytest.mark.parametrize("lang", sorted(FRAMES))
def test_no_frame_word_before_a_quest_name(lang):
    """No «Wyprawa „{ $quest }”»: a frame word before a placeable that names a location."""
    bad = [(f, k) for f, k, v in _messages(lang)
           if re.search(r"\b(" + "|".join(FRAMES[lang]) + r")\s*[«„“\"]?\s*\{ \$(quest|l)\b", v)]
    assert not bad, bad


# the imperative (2nd person singular) of the verbs our options and actions use
PL_IMPERATIVE = re.compile(r"^(\w+(j|ij|yj|rz|ź|ń)|strać|odrzuć|wróć|zwróć|poświęć|połóż|weź|walcz|"
                           r"dobierz|wybierz|zabierz|odmów|pokaż|zagraj|atakuj|ogłoś|użyj|wesprzyj|"
                           r"wstrzymaj|ujawnij|zaoferuj|zakończ|wyrusz|wyjedź|przejdź|oskarż|wymień|usuń)$", re.I)


def test_no_imperative_after_wybiera():
    """The log writes «wybiera: OPTION» and «GRACZ: ACTION»: Polish labels are infinitives or nouns."""
    bad = []
    for f, k, v in _messages("pl"):
        if k.startswith(("option-", "action-")) and not k.endswith("-text"):  # (-text: rules on request)
            first = re.split(r"[\s:,(]", v.strip().strip("„”\""), maxsplit=1)[0]
            if PL_IMPERATIVE.match(first) and first.lower() not in ("pas", "klucz", "bicz", "płaszcz"):
                bad.append(f"{f}:{k}: {v}")
    assert not bad, "\n".join(bad)


REGISTER = {
    # Russian speaks to the player as «вы»: no «ты», no familiar imperative
    "ru": re.compile(r"\b(ты|тебя|тебе|тобой|твой|твоя|твоё|твои|твоих|выбери|возьми|сбрось|сыграй|"
                     r"введи|положи|посмотри)\b", re.I),
    # Polish speaks as «ty»: no «Pan/Pani», no «proszę» + infinitive
    "pl": re.compile(r"\b(Pan|Pani|Państwo|Pana|Panu|proszę)\b"),
    # Portuguese speaks as «tu»: no «você», no 3rd-person imperative, no «si» for the reader
    "pt": re.compile(r"\b(você|vocês|escolha|escreva|digite|jogue|coloque|ponha|olhe|pegue|selecione|"
                     r"clique|para si|a si próprio|a si própria)\b", re.I),
}


def _noun_use(lang: str, text: str, m) -> bool:
    """«à tua escolha» (the choice) and «Pani Jeziora» (the Lady of the Lake) are no forms of address."""
    before = text[:m.start()]
    if lang == "pt" and m.group(0).lower() == "escolha":
        return bool(re.search(r"\b(à|a|uma|tua|sua)\s+$", before))
    return lang == "pl" and text[m.start():].startswith("Pani Jeziora")


@pytest.mark.parametrize("lang", sorted(REGISTER))
def test_one_register_per_language(lang):
    bad = [f"{f}:{k}: {v}" for f, k, v in _messages(lang) for m in REGISTER[lang].finditer(v)
           if not _noun_use(lang, v, m)]
    assert not bad, "\n".join(bad)


# Brazilian words and forms, with the European Portuguese the project writes instead
PT_BR = re.compile(r"\b(rodadas?|equipe|tela|registro|usuári[oa]s?|arquivos?|trem|ônibus|celular|fato|contato|"
                   r"pegar|deletar|salvar|gerenciar|time|esporte|ganhador|embaralh\w*|"
                   r"(?:está|estão|estou|estava|estavam)\s+\w+(?:ando|endo|indo))\b", re.I)


def test_portuguese_is_european():
    bad = [f"{f}:{k}: {v}" for f, k, v in _messages("pt") if PT_BR.search(v)]
    assert not bad, "\n".join(bad)


def test_the_pattern_tests_catch_what_they_look_for():
    assert PL_IMPERATIVE.match("Strać") and PL_IMPERATIVE.match("Przyjmij") and not PL_IMPERATIVE.match("Stracić")
    assert REGISTER["pt"].search("Jogador, escolha uma ação")
    assert all(_noun_use("pt", "à tua escolha", m) for m in REGISTER["pt"].finditer("à tua escolha"))
    assert REGISTER["ru"].search("выбери карту") and not REGISTER["ru"].search("выберите карту")
    assert PT_BR.search("3 rodadas") and PT_BR.search("está jogando") and not PT_BR.search("está a jogar")
    assert re.search(r"\b(Wyprawie)\s*[«„“\"]?\s*\{ \$(quest|l)\b", "w Wyprawie „{ $quest }”")
    assert ENGINE_MESSAGES.is_dir()
