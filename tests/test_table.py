"""The ruleset's `table:` section, the table model drawn from a view, and the terminal screen."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from interpreter.cli import main
from interpreter.errors import RulesetError
from interpreter.frontend.yaml_source import load_yaml
from interpreter.game import RULESETS, load
from interpreter.i18n import LANGS, Text
from interpreter.tabletop import decision_model, rules_of, table_model, table_spec
from interpreter.tabletop.auto import lone_pass
from interpreter.tabletop.spec import default_spec
from interpreter.tabletop.terminal import HEIGHT, WIDTH, screen_lines, seat_screen

SHIPPED = ["high_tide", "shadows_over_camelot", "castle_of_the_devil"]


def _play(game, players, seed, moves):
    st = game.new_game(seed=seed, players=players)
    rnd = random.Random(seed)
    for _ in range(moves):
        if st.is_over():
            break
        yield st
        st = st.apply(rnd.choice(st.options()).id)
    yield st


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_ruleset_declares_its_table(name):
    game = load(RULESETS / name)
    spec = table_spec(game.program)
    assert spec.declared and spec.board and spec.private.zones
    shown = {c for g in spec.board for c in g.counters + g.tracks + g.flags}
    shown |= {c for g in spec.board for x in g.extra.values() for c in x.counters + x.tracks + x.flags}
    shown |= set(spec.players.counters + spec.players.tracks + spec.players.flags)
    # bookkeeping (counters reset every turn) is never shown
    assert not {c for c in shown if game.program.counter_defs[c].reset == "turn"}


@pytest.mark.parametrize("name", ["shadows_over_camelot", "castle_of_the_devil"])
def test_every_locale_names_the_table_groups(name):
    game = load(RULESETS / name)
    groups = [g.id for g in table_spec(game.program).board]
    for lang in LANGS:
        msgs = load_yaml(RULESETS / name / "locales" / f"{lang}.yaml").data["messages"]
        assert all(f"table-{g}" in msgs for g in groups), lang
        text = Text(game.program, lang)
        for g in groups:
            assert text.msg(f"table-{g}") and f"table-{g}" not in text.fallbacks


def test_a_ruleset_without_the_section_gets_a_default_from_visibility(tmp_path):
    root = tmp_path / "ht"
    shutil.copytree(RULESETS / "high_tide", root)
    src = (root / "ruleset.yaml").read_text()
    (root / "ruleset.yaml").write_text(src[:src.index("# what a seat sees")])
    game = load(root)
    spec = table_spec(game.program)
    assert not spec.declared
    assert spec == default_spec(game.program)
    board = spec.board[0]
    assert board.zones == ["discard"] and board.sizes == ["deck"]  # public cards shown, the hidden deck counted
    assert spec.players.zones == ["shore"] and spec.players.sizes == ["hand"] and spec.players.counters == ["score"]
    assert spec.private.zones == ["hand"]
    # `washed` is reset every turn: bookkeeping, not on the table
    assert "washed" not in board.counters + spec.players.counters


def test_mistakes_in_the_section_are_located_all_at_once(tmp_path):
    root = tmp_path / "ht"
    shutil.copytree(RULESETS / "high_tide", root)
    src = (root / "ruleset.yaml").read_text()
    src = src.replace("- {id: sea, zones: [discard], sizes: [deck]}",
                      "- {id: sea, zones: [discard, deck, nowhere], counters: [score]}")
    (root / "ruleset.yaml").write_text(src)
    with pytest.raises(RulesetError) as e:
        load(root)
    msgs = [(p.loc.line, p.message) for p in e.value.problems]
    line = src.splitlines().index("    - {id: sea, zones: [discard, deck, nowhere], counters: [score]}") + 1
    assert [m for ln, m in msgs if ln == line] == [
        "zone 'deck' is hidden: its cards would all be face down; list it under sizes: to show how many "
        "cards it holds",
        "no zone 'nowhere' in this ruleset (its zones: deck, discard, hand, shore)",
        "counter 'score' is per player; the board shows global counters here"]
    assert main(["validate", str(root)]) == 1


def test_a_variant_can_change_the_table(tmp_path, capsys):
    v = tmp_path / "bare.yaml"
    v.write_text("variant: bare\ntitle: Bare table\nbase: high_tide\nmerge:\n  table:\n"
                 "    board: [{id: sea, sizes: [deck, discard]}]\n")
    game = load(RULESETS / "high_tide", [str(v)])
    spec = table_spec(game.program)
    assert spec.board[0].sizes == ["deck", "discard"] and spec.board[0].zones == []
    assert spec.players.zones == ["shore"]  # the rest of the section is kept (a merge patch)
    assert main(["diff", "high_tide", "--variant", str(v)]) == 0
    assert "table: board" in capsys.readouterr().out
    assert main(["explain", "high_tide", "--variant", str(v), "table.board"]) == 0
    assert "[variant]  board: [{id: sea, sizes: [deck, discard]}]" in capsys.readouterr().out


@pytest.mark.parametrize("name,players", [("shadows_over_camelot", 5), ("castle_of_the_devil", 5), ("high_tide", 3)])
def test_the_model_holds_exactly_what_the_view_holds(name, players):
    game = load(RULESETS / name)
    text = Text(game.program, "en")
    for k, st in enumerate(_play(game, players, 3, 120)):
        if k % 7:
            continue
        for p in list(range(st.n)) + [None]:
            v = st.view(p)
            m = table_model(game.program, v, text)
            for g in m["board"]:
                for box in g["boxes"]:
                    for z in box["zones"]:
                        per = game.program.zone_defs[z["id"]].per
                        key = z["id"] if per == "none" else f"{z['id']}@{box['location']}"
                        assert [c["id"] for c in z["cards"]] == v["zones"][key]
            for pl in m["players"]:
                for z in pl["zones"]:
                    assert [c["id"] for c in z["cards"]] == v["zones"][f"{z['id']}@{pl['id']}"]
                for c in pl["counters"] + pl["tracks"]:
                    assert c["value"] == v["counters"][f"{c['id']}@{pl['id']}"]
            if p is None:
                assert m["private"] is None
            else:
                for z in m["private"]["zones"]:
                    assert [c["id"] for c in z["cards"]] == v["zones"][f"{z['id']}@{v['you']}"]


@pytest.mark.parametrize("name,players,lang", [("shadows_over_camelot", 7, "ru"), ("shadows_over_camelot", 5, "en"),
                                               ("castle_of_the_devil", 6, "pl"), ("high_tide", 4, "pt")])
def test_the_terminal_screen_fits_100_by_40(name, players, lang):
    game = load(RULESETS / name)
    text = Text(game.program, lang)
    seen = 0
    for k, st in enumerate(_play(game, players, 11, 200)):
        if k % 5 or st.is_over():
            continue
        model, decision = seat_screen(st, st.current_player(), text)
        lines = screen_lines(model, decision)
        assert len(lines) <= HEIGHT and max(map(len, lines)) <= WIDTH
        assert decision["prompt"] in "\n".join(lines).replace("─", " ") or len(decision["prompt"]) > WIDTH - 10
        for i, o in enumerate(decision["options"], 1):
            assert f"{i:2d}. " in "\n".join(lines)  # every option is numbered on screen
        seen += 1
    assert seen >= 5


def test_the_same_information_in_every_language():
    game = load(RULESETS / "shadows_over_camelot")
    st = list(_play(game, 5, 4, 60))[-1]

    def skeleton(m):  # everything but the words: ids, numbers, cards, who is where
        if isinstance(m, dict):
            return {k: skeleton(v) for k, v in m.items() if k not in ("label", "name", "prompt", "labels", "lang",
                                                                       "result", "log", "at_label", "here",
                                                                       "you_label", "current_label", "waiting_label")}
        if isinstance(m, list):
            return [skeleton(x) for x in m]
        return m

    models = {lang: table_model(game.program, st.view(0), Text(game.program, lang)) for lang in LANGS}
    assert all(skeleton(models[lang]) == skeleton(models["en"]) for lang in LANGS)
    assert all(len(models[lang]["log"]) == len(models["en"]["log"]) for lang in LANGS)
    assert models["ru"]["board"][0]["label"] != models["en"]["board"][0]["label"]


def test_play_draws_the_table_for_a_human_seat(tmp_path, monkeypatch, capsys):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n2\nq\n"))
    save = tmp_path / "g.json"
    assert main(["play", "high_tide", "--seats", "human,random", "--seed", "2", "--save", str(save)]) == 0
    out = capsys.readouterr().out
    assert "The sea" in out and "Your cards" in out and " 1. Draw a card" in out
    assert "Washed away" not in out  # bookkeeping stays off the table
    assert Path(save).is_file()


@pytest.mark.parametrize("name,players", [("shadows_over_camelot", 5), ("castle_of_the_devil", 4), ("high_tide", 3)])
def test_every_item_a_seat_sees_has_its_rules_text_in_every_language(name, players):
    game = load(RULESETS / name)
    langs = [p.stem for p in sorted((RULESETS / name / "locales").glob("*.yaml"))]
    texts = {lang: Text(game.program, lang) for lang in langs}
    st, rnd, missing, seen = game.new_game(seed=2, players=players), random.Random(2), set(), set()
    for _ in range(250):
        if st.is_over():
            break
        p = st.current_player()
        for lang, t in texts.items():
            model = table_model(game.program, st.view(p), t)
            for k, r in rules_of(t, model, decision_model(st, p, t)).items():
                seen.add(k)
                if not r["text"].strip():
                    missing.add((lang, k))
        st = st.apply(lone_pass(st, p) or rnd.choice(st.options()).id)
    assert missing == set()
    assert {k.split(":")[0] for k in seen} >= {"card", "zone", "counter", "action"}


def test_a_flag_says_which_of_two_things_it_means():
    game = load(RULESETS / "castle_of_the_devil")
    st, rnd = game.new_game(seed=1, players=4), random.Random(1)
    t = Text(game.program, "en")
    labels = set()
    for _ in range(600):
        if st.is_over():
            break
        m = table_model(game.program, st.view(None), t)
        labels |= {f["label"] for pl in m["players"] for f in pl["flags"] if f["id"] == "fighter"}
        st = st.apply(rnd.choice(st.options()).id)
    assert labels == {"Attacker", "Defender"}


def test_the_terminal_answers_rules_history_and_notes_between_two_choices(monkeypatch, capsys):
    import io

    from rich.console import Console

    from interpreter.tabletop.terminal import ask
    game = load(RULESETS / "shadows_over_camelot")
    st = game.new_game(seed=3, players=3)
    for _ in range(8):
        st = st.apply(st.options()[-1].id)
    p = st.current_player()
    t = Text(game.program, "ru")
    hand = st.view(p)["zones"][f"hand@{st.player_id(p)}"]
    card = game.program.card_index[hand[0]]
    monkeypatch.setattr("sys.stdin", io.StringIO(f"?\n? {t.card_name(card)}\n? zzz\nh\nn\n1\n"))
    out = io.StringIO()
    got = ask(st, p, t, RuntimeError, Console(file=out, width=100))
    assert got == decision_model(st, p, t)["options"][0]["id"]
    text = out.getvalue()
    assert t.msg("location-round_table-text", t.rule_params) in text.replace("\n", " ") or \
        t.msg("location-round_table-text", t.rule_params)[:30] in text
    assert t.card_name(card) + ": " + t.card_text(card).split("\n")[0][:20] in text
    assert t.msg("cli-table-nothing", {"word": "zzz"}) in text
    assert t.msg("table-ui-since") in text  # the whole history, its line where this seat last decided
    assert t.msg("table-ui-keys") in text
