"""`grimoire i18n export / import`: .ftl and .po round-trip the locale files without loss."""

from __future__ import annotations

import shutil

import pytest

from interpreter.cli import main
from interpreter.commands.i18n_cli import parse_ftl_file, parse_po, to_ftl_file, to_po
from interpreter.game import RULESETS
from interpreter.i18n import locale_messages, locale_sources, pattern_hash

NAMES = ["shadows_over_camelot", "castle_of_the_devil"]


def _copy(tmp_path, name):
    dst = tmp_path / name
    shutil.copytree(RULESETS / name, dst, ignore=shutil.ignore_patterns("scenarios", "variants"))
    return dst


def _state(root, lang):
    msgs, problems, doc = locale_messages(root, lang)
    assert not problems
    return {k: str(v) for k, v in msgs.items()}, locale_sources(doc)


@pytest.mark.parametrize("fmt", ["ftl", "po"])
@pytest.mark.parametrize("name", NAMES)
def test_export_then_import_into_empty_locales_restores_them(name, fmt, tmp_path, capsys):
    root = _copy(tmp_path, name)
    before = {lang: _state(root, lang) for lang in ("ru", "pl", "pt")}
    out = tmp_path / "exchange"
    assert main(["i18n", "export", str(root), "--format", fmt, "--out", str(out)]) == 0
    for lang in ("ru", "pl", "pt"):
        (root / "locales" / f"{lang}.yaml").unlink()
    files = [str(out / f"{lang}.{fmt}") for lang in ("ru", "pl", "pt")]
    assert main(["i18n", "import", str(root), *files]) == 0
    for lang in ("ru", "pl", "pt"):
        assert _state(root, lang) == before[lang], lang
    assert main(["i18n", "check", str(root)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("fmt", ["ftl", "po"])
def test_import_of_an_unchanged_export_leaves_the_file_byte_identical(fmt, tmp_path, capsys):
    root = _copy(tmp_path, "shadows_over_camelot")
    path = root / "locales" / "ru.yaml"
    original = path.read_bytes()
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", fmt, "--lang", "ru", "--out", str(out)]) == 0
    assert main(["i18n", "import", str(root), str(out / f"ru.{fmt}")]) == 0
    assert path.read_bytes() == original
    capsys.readouterr()


def test_po_marks_stale_entries_fuzzy_and_import_keeps_them_stale(tmp_path, capsys):
    root = _copy(tmp_path, "shadows_over_camelot")
    en = root / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("counter-life: Life", "counter-life: Life points"),
                  encoding="utf-8")
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "po", "--lang", "pl", "--out", str(out)]) == 0
    po = (out / "pl.po").read_text(encoding="utf-8")
    block = po[po.index('msgctxt "counter-life"') - 12:po.index('msgctxt "counter-life"')]
    assert "#, fuzzy" in block
    assert main(["i18n", "import", str(root), str(out / "pl.po")]) == 0
    assert main(["i18n", "check", str(root), "--lang", "pl"]) == 1        # still stale
    # the translator fixes it and clears the flag: the new English is its source
    # (with the previous English from locales/history/en.yaml: no git here)
    po = po.replace('#, fuzzy\n#| msgctxt "counter-life"\n#| msgid "Life"\nmsgctxt "counter-life"',
                    'msgctxt "counter-life"').replace(
        'msgstr "Życie"', 'msgstr "Punkty Życia"', 1)
    (out / "pl.po").write_text(po, encoding="utf-8")
    assert main(["i18n", "import", str(root), str(out / "pl.po")]) == 0
    assert main(["i18n", "check", str(root), "--lang", "pl"]) == 0
    msgs, sources = _state(root, "pl")
    assert msgs["counter-life"] == "Punkty Życia"
    assert sources["counter-life"] == pattern_hash("Life points")
    capsys.readouterr()


def test_po_escapes_and_multiline_round_trip():
    en = {"a": 'Say "hi"\\ { $n ->\n    [one] one\n   *[other] { $n } many\n}.', "b": "tab\there"}
    tr = {"a": 'Powiedz „hej” "x"\\ { $n ->\n    [one] jeden\n    [few] kilka\n    [many] wiele\n'
               '   *[other] { $n }\n}.', "b": "tab\ttu"}
    po = to_po(en, tr, {k: pattern_hash(v) for k, v in en.items()}, "pl", "t")
    entries, header, problems = parse_po(po)
    assert not problems and header["Language"] == "pl"
    got = {e["ctx"]: (e["id"], e["str"], e["fuzzy"]) for e in entries}
    assert got == {k: (en[k], tr[k], False) for k in en}


def test_ftl_one_line_select_sugar_round_trips_to_the_same_fluent():
    from fluent.syntax import FluentParser, FluentSerializer
    msgs = {"x": "Draw { $n -> [one] a card *[other] { $n } cards }.", "y": "Plain { $p }",
            "z": "Two\nlines"}
    back, sources, problems, _forms, _lines = parse_ftl_file(to_ftl_file(msgs, {"x": "abc12345"}))
    assert not problems and sources == {"x": "abc12345"}
    assert back["y"] == msgs["y"] and back["z"] == msgs["z"]
    ser = FluentSerializer()
    from interpreter.i18n import to_ftl
    assert ser.serialize(FluentParser().parse(to_ftl({"x": back["x"]}))) == \
        ser.serialize(FluentParser().parse(to_ftl({"x": msgs["x"]})))


def test_import_rejects_broken_fluent_with_a_location(tmp_path, capsys):
    root = _copy(tmp_path, "shadows_over_camelot")
    bad = tmp_path / "ru.ftl"
    bad.write_text("card-grail = Грааль { $n ->\n", encoding="utf-8")
    assert main(["i18n", "import", str(root), str(bad)]) == 1
    import re
    assert re.search(re.escape(str(bad)) + r":\d+:\d+: error: Fluent syntax", capsys.readouterr().err)


# ---- what translation tools need: standard files, located errors, the engine's messages -------------

def test_every_exported_po_passes_msgfmt_and_every_ftl_parses_without_junk(tmp_path, capsys):
    """`msgfmt --check-format -c` gives no warning on any exported .po/.pot (engine included), and
    `fluent.syntax` finds no Junk in any exported .ftl."""
    import subprocess

    from fluent.syntax import FluentParser
    from fluent.syntax import ast as FA
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt (gettext) is not installed: .ci/run installs it"
    for name in NAMES:
        for fmt in ("po", "ftl"):
            assert main(["i18n", "export", name, "--format", fmt, "--out", str(tmp_path / fmt / name)]) == 0
    pos = sorted((tmp_path / "po").rglob("*.po")) + sorted((tmp_path / "po").rglob("*.pot"))
    assert len(pos) == 2 * 8 and any("engine" in str(p) for p in pos)
    for po in pos:
        r = subprocess.run([msgfmt, "--check-format", "-c", "-o", "/dev/null", str(po)], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0 and r.stderr == "", f"{po}: {r.stderr}"
    ftls = sorted((tmp_path / "ftl").rglob("*.ftl"))
    assert len(ftls) == 2 * 8
    for ftl in ftls:
        body = FluentParser().parse(ftl.read_text(encoding="utf-8")).body
        junk = [e for e in body if isinstance(e, FA.Junk)]
        assert not junk and sum(isinstance(e, FA.Message) for e in body) >= 20, (ftl, junk[:1])
    engine_ru = (tmp_path / "ftl" / NAMES[0] / "engine" / "ru.ftl").read_text(encoding="utf-8")
    assert "cli-summary =\n" in engine_ru and "### Ruleset: engine" in engine_ru
    capsys.readouterr()


def test_a_po_syntax_error_is_reported_at_its_line(tmp_path, capsys):
    root = _copy(tmp_path, "castle_of_the_devil")
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "po", "--lang", "pl", "--out", str(out), "--no-engine"]) == 0
    po = out / "pl.po"
    lines = po.read_text(encoding="utf-8").split("\n")
    n = next(i for i, ln in enumerate(lines) if ln.startswith('msgstr "Zbir"'))
    lines[n] = 'msgstr "Zbir'                                      # the closing quote is lost
    lines[n + 4] = "garbage here"
    po.write_text("\n".join(lines), encoding="utf-8")
    before = (root / "locales" / "pl.yaml").read_bytes()
    assert main(["i18n", "import", str(root), str(po)]) == 1
    err = capsys.readouterr().err
    assert f"{po}:{n + 1}:8: error: expected a quoted string" in err
    assert f"{po}:{n + 5}:1: error: unexpected line in a .po file: 'garbage here'" in err
    assert ":0:0:" not in err
    assert (root / "locales" / "pl.yaml").read_bytes() == before     # nothing written


def test_import_refuses_a_variable_the_english_does_not_have(tmp_path, capsys):
    root = _copy(tmp_path, "castle_of_the_devil")
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "ftl", "--lang", "pl", "--out", str(out), "--no-engine"]) == 0
    ftl = out / "pl.ftl"
    text = ftl.read_text(encoding="utf-8")
    assert "{ $player } atakuje { $target_acc }!" in text             # forms and genders are allowed
    ftl.write_text(text.replace("{ $player } atakuje { $target_acc }!", "{ $palyer } atakuje { $target_acc }!"),
                   encoding="utf-8")
    before = (root / "locales" / "pl.yaml").read_bytes()
    assert main(["i18n", "import", str(root), str(ftl)]) == 1
    err = capsys.readouterr().err
    line = text[:text.index("event-attacked =")].count("\n") + 1
    assert f"{ftl}:{line}:1: error: 'event-attacked' uses $palyer, which the English does not have" in err
    assert (root / "locales" / "pl.yaml").read_bytes() == before


def test_the_ftl_locale_header_is_honoured(tmp_path, capsys):
    root = _copy(tmp_path, "castle_of_the_devil")
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "ftl", "--lang", "pt", "--out", str(out), "--no-engine"]) == 0
    text = (out / "pt.ftl").read_text(encoding="utf-8")
    assert "### Locale: pt" in text
    renamed = out / "translation.ftl"                                # a name that says nothing
    renamed.write_text(text.replace('card-whip = "Chicote"', 'card-whip = Chicote').replace(
        "card-whip = Chicote", "card-whip = Chicote de couro"), encoding="utf-8")
    assert main(["i18n", "import", str(root), str(renamed)]) == 0
    assert "pt.yaml: 1 changed, 0 added" in capsys.readouterr().out
    assert _state(root, "pt")[0]["card-whip"] == "Chicote de couro"


def test_the_engine_messages_round_trip(tmp_path, monkeypatch, capsys):
    """Engine messages are exported to OUT/engine and imported back into interpreter/messages."""
    from interpreter.i18n import exchange
    from interpreter.i18n.locales import ENGINE_MESSAGES
    engine = tmp_path / "messages"
    shutil.copytree(ENGINE_MESSAGES, engine)
    shipped = (ENGINE_MESSAGES / "ru.yaml").read_bytes()
    monkeypatch.setattr(exchange, "ENGINE_MESSAGES", engine)
    out = tmp_path / "x"
    assert main(["i18n", "export", "castle_of_the_devil", "--format", "po", "--lang", "ru", "--out", str(out)]) == 0
    po = (out / "engine" / "ru.po").read_text(encoding="utf-8")
    assert "X-Grimoire-Ruleset: engine" in po and 'msgctxt "player-seat.acc"' in po
    po = po.replace('msgstr "{ $player } пасует."', 'msgstr "{ $player } говорит «пас»."')
    (out / "engine" / "ru.po").write_text(po, encoding="utf-8")
    assert main(["i18n", "import", "castle_of_the_devil", str(out / "engine" / "ru.po")]) == 0
    assert f"{engine / 'ru.yaml'}: 1 changed, 0 added" in capsys.readouterr().out
    text = (engine / "ru.yaml").read_text(encoding="utf-8")
    assert 'event-passed: "{ $player } говорит «пас»."' in text and "grammar:" in text and "forms:" in text
    assert (ENGINE_MESSAGES / "ru.yaml").read_bytes() == shipped                # the shipped file untouched


def test_fuzzy_entries_carry_the_previous_english(tmp_path, capsys):
    """A PO editor shows what changed: `#| msgid` holds the English the translation was made from,
    found in the git history of en.yaml (for hashes stamped before the history file existed)."""
    import subprocess
    root = _copy(tmp_path, "shadows_over_camelot")
    shutil.rmtree(root / "locales" / "history")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run([*git, "-C", str(root), "add", "-A"], check=True)
    subprocess.run([*git, "-C", str(root), "commit", "-qm", "base"], check=True)
    en = root / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("counter-life: Life", "counter-life: Life points"),
                  encoding="utf-8")
    subprocess.run([*git, "-C", str(root), "commit", "-qam", "English changed"], check=True)
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "po", "--lang", "pl", "--out", str(out), "--no-engine"]) == 0
    po = (out / "pl.po").read_text(encoding="utf-8")
    block = po[po.index('#| msgctxt "counter-life"') - 40:po.index('msgctxt "counter-life"\nmsgid')]
    assert '#, fuzzy\n#| msgctxt "counter-life"\n#| msgid "Life"\n' in block
    r = subprocess.run(["msgfmt", "--check-format", "-c", "-o", "/dev/null", str(out / "pl.po")],
                       capture_output=True, text=True)
    assert r.returncode == 0 and r.stderr == ""
    capsys.readouterr()


def test_restamp_reports_what_it_changed(tmp_path, capsys):
    root = _copy(tmp_path, "castle_of_the_devil")
    assert main(["i18n", "stamp", str(root), "--lang", "ru", "--all"]) == 0
    assert "nothing to stamp" in capsys.readouterr().out
    en = root / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("card-whip: Whip", "card-whip: Horse whip"), encoding="utf-8")
    assert main(["i18n", "stamp", str(root), "--lang", "ru", "--all"]) == 0
    assert "ru.yaml: 1 re-stamped (card-whip)" in capsys.readouterr().out


def test_previous_english_without_git(tmp_path, capsys):
    """Outside a git checkout (an installed package, a tarball) `#| msgid` comes from the history
    file `stamp` keeps (locales/history/en.yaml); `stamp` adds the new English to it."""
    import subprocess
    root = _copy(tmp_path, "shadows_over_camelot")
    assert subprocess.run(["git", "-C", str(root), "rev-parse"], capture_output=True).returncode != 0
    en = root / "locales" / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("counter-life: Life", "counter-life: Life points"),
                  encoding="utf-8")
    out = tmp_path / "x"
    assert main(["i18n", "export", str(root), "--format", "po", "--lang", "pl", "--out", str(out), "--no-engine"]) == 0
    po = (out / "pl.po").read_text(encoding="utf-8")
    assert '#, fuzzy\n#| msgctxt "counter-life"\n#| msgid "Life"\nmsgctxt "counter-life"\nmsgid "Life points"' in po
    assert po.count("#, fuzzy") == 1
    assert main(["i18n", "stamp", str(root), "--lang", "pl", "--id", "counter-life"]) == 0
    assert "Life points" in (root / "locales" / "history" / "en.yaml").read_text(encoding="utf-8")
    capsys.readouterr()


def test_engine_messages_export_stamped_not_fuzzy(tmp_path, capsys):
    """The engine's locale files carry source stamps: its PO files have no fuzzy entry, and
    msgfmt keeps every translated message (none dropped as fuzzy)."""
    import subprocess
    out = tmp_path / "po"
    assert main(["i18n", "export", "high_tide", "--format", "po", "--out", str(out)]) == 0
    from interpreter.i18n.locales import _engine_messages
    n = len(_engine_messages("en")[0])
    for lang in ("ru", "pl", "pt"):
        po = out / "engine" / f"{lang}.po"
        assert "#, fuzzy" not in po.read_text(encoding="utf-8").split("\n\n", 1)[1]
        r = subprocess.run(["msgfmt", "-c", "--statistics", "-o", "/dev/null", str(po)], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        translated = int(r.stderr.split()[0])
        forms = sum(len(v) for v in _forms_of(lang).values())
        assert translated == n + forms and "fuzzy" not in r.stderr, r.stderr
    capsys.readouterr()


def _forms_of(lang):
    from interpreter.i18n.locales import _engine_messages, locale_forms
    return locale_forms(_engine_messages(lang)[2])


def test_stamp_engine_stamps_the_engine_files(tmp_path, monkeypatch, capsys):
    from interpreter.i18n import exchange
    from interpreter.i18n.locales import ENGINE_MESSAGES
    engine = tmp_path / "messages"
    shutil.copytree(ENGINE_MESSAGES, engine)
    monkeypatch.setattr(exchange, "ENGINE_MESSAGES", engine)
    ru = engine / "ru.yaml"
    en = engine / "en.yaml"
    en.write_text(en.read_text(encoding="utf-8").replace("{ $player } passes.", "{ $player } says pass."),
                  encoding="utf-8")
    ruleset = tmp_path / "high_tide"  # stamp writes the ruleset's history too: never the shipped one
    shutil.copytree(RULESETS / "high_tide", ruleset)
    assert main(["i18n", "stamp", str(ruleset), "--engine", "--lang", "ru", "--id", "event-passed"]) == 0
    assert f"{ru}: 1 re-stamped (event-passed)" in capsys.readouterr().out
    assert "says pass." in (engine / "history" / "en.yaml").read_text(encoding="utf-8")
