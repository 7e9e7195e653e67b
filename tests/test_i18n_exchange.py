"""`grimoire i18n export / import`: .ftl and .po round-trip the locale files without loss."""

from __future__ import annotations

import shutil

import pytest

from interpreter.cli import main
from interpreter.game import RULESETS
from interpreter.i18n import locale_messages, locale_sources, pattern_hash
from interpreter.i18n_commands import parse_ftl_file, parse_po, to_ftl_file, to_po

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
    po = po.replace('#, fuzzy\nmsgctxt "counter-life"', 'msgctxt "counter-life"').replace(
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
