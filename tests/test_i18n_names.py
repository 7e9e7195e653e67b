"""A player is always shown by name: the load-time check that no log argument meaning a player
carries a number, and whole games in four languages where every such argument is rendered as
the player's name (never a seat index)."""

from __future__ import annotations

import pytest

from interpreter.bots import Seat, make_bot
from interpreter.errors import GrimoireError
from interpreter.game import RULESETS, load
from interpreter.i18n import LANGS, Text

HIGH_TIDE = RULESETS / "high_tide"


def _play(name: str, players: int, seed: int, kind: str = "policy"):
    game = load(RULESETS / name)
    st = game.new_game(seed=seed, players=players, record=True)
    bots = [make_bot(kind, seed * 1000 + p, game) for p in range(players)]
    for _ in range(5000):
        if st.over:
            break
        assert st.apply_in_place(bots[st.current_player()].choose(Seat(st))) is None
    return game, st


def _player_arg_names(prog) -> set[str]:
    return {"player"} | {n for ts in prog.event_types.values() for n, t in ts.items() if t == "player"}


def _name_forms(text: Text, st, p) -> set[str]:
    """The player's name and every grammatical form of it the language gives."""
    vals = text._with_grammar(st, {"x": text.player(st, p)}, [("x", p, "player")])
    return {v for k, v in vals.items() if isinstance(v, str) and not k.endswith("_gender")}


GAMES = [("shadows_over_camelot", 4, 1), ("shadows_over_camelot", 5, 2),
         ("castle_of_the_devil", 5, 1), ("castle_of_the_devil", 6, 3)]


@pytest.mark.parametrize("name,players,seed", GAMES)
def test_no_player_is_rendered_as_a_number(name, players, seed):
    """Every event argument that means a player is a player (not a number) and every language
    writes that player's name (or a case form of it) in the sentence."""
    game, st = _play(name, players, seed)
    prog = game.program
    who = _player_arg_names(prog)
    texts = {lang: Text(prog, lang) for lang in LANGS}
    forms = {lang: {p: _name_forms(t, st, p) for p in range(players)} for lang, t in texts.items()}
    checked = 0
    events = set()
    for e in st.log:
        ev, args, types = e[0], e[1], e[2]
        names = e[4] if len(e) > 4 else []
        for i, (n, v) in enumerate(zip(names, args)):
            if n not in who:
                continue
            t = types[i] if i < len(types) else "any"
            assert t == "player", f"{ev}: ${n} passed as {t} ({v!r})"
            if v is None:
                continue
            for lang, text in texts.items():
                line = text.event(st, e)
                assert any(f in line for f in forms[lang][v]), (lang, ev, line, forms[lang][v])
                checked += 1
            events.add(ev)
    assert checked > 100
    if name == "shadows_over_camelot":
        assert "relic_won" in events       # the event that printed "3 wins the relic of ..."


def test_relic_winner_is_named_in_every_language():
    game, st = _play("shadows_over_camelot", 4, 1)
    (e,) = [e for e in st.log if e[0] == "relic_won"]
    p = e[1][0]
    got = {lang: Text(game.program, lang).event(st, e) for lang in LANGS}
    for lang, line in got.items():
        assert line.startswith(Text(game.program, lang).player(st, p) + " "), line
        assert not line[0].isdigit(), line


BAD = """
ruleset: t
version: "1"
title: T
players: {min: 2, max: 2}
sides: [a]
side_of: "a"
procedures:
  "note(who)": |
    log(noted, player: who)
turn: |
  note(me)
  end_turn()
"""


def test_log_of_a_number_as_player_is_refused_at_load(tmp_path):
    (tmp_path / "ruleset.yaml").write_text(BAD, encoding="utf-8")
    with pytest.raises(GrimoireError) as ei:
        load(tmp_path)
    msg = str(ei.value)
    assert len(ei.value.problems) == 1, msg
    assert "ruleset.yaml:10:" in msg and "$player, which names a player" in msg, msg


def test_a_name_that_is_a_player_elsewhere_must_be_one_everywhere(tmp_path):
    text = BAD.replace("log(noted, player: who)", "log(noted, target: who)\n    log(other, target: me)")
    (tmp_path / "ruleset.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(GrimoireError) as ei:
        load(tmp_path)
    assert "$target, which names a player (it is one in other log calls)" in str(ei.value)


def test_typed_player_parameter_is_accepted(tmp_path):
    text = BAD.replace('"note(who)"', '"note(who: player)"')
    (tmp_path / "ruleset.yaml").write_text(text, encoding="utf-8")
    assert load(tmp_path).program.event_types["noted"] == {"player": "player"}
