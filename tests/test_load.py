"""Tests for interpreter.frontend: plain data, positions, and located refusals of bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.errors import Loc, RulesetError
from interpreter.frontend.includes import load_ruleset_files
from interpreter.frontend.yaml_source import MAX_DEPTH, MAX_FILE_BYTES, load_yaml


def load(text: str):
    return load_yaml("f.yaml", text=text)


def refusal(text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(RulesetError) as info:
        load(text)
    return [(p.loc.line, p.loc.col, p.message) for p in info.value.problems]


# --- plain data ----------------------------------------------------------------------------

def test_plain_data_types():
    doc = load("a: 1\nb: [x, 2.5, true, null]\nc: {d: 'e'}\n3: three\ntrue: yes\non: x\n")
    assert doc.data == {"a": 1, "b": ["x", 2.5, True, None], "c": {"d": "e"},
                        "3": "three", "true": "yes", "on": "x"}
    assert type(doc.data["c"]) is dict and type(doc.data["c"]["d"]) is str


def test_empty_file_is_none():
    assert load("# only a comment\n").data is None


def test_merge_keys_are_followed():
    assert load("a: &a {x: 1}\nb:\n  <<: *a\n  y: 2\n").data["b"] == {"y": 2, "x": 1}


def test_bom_is_dropped(tmp_path: Path):
    f = tmp_path / "f.yaml"
    f.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert load_yaml(f).data == {"a": 1}


# --- positions -----------------------------------------------------------------------------

def test_key_and_value_positions():
    doc = load("cards:\n  fight_3: {set: white, count: 10}\n  list:\n    - a\n    - b\n")
    assert doc.source.key(("cards", "fight_3")) == Loc("f.yaml", 2, 3)
    assert doc.source.value(("cards", "fight_3", "count")) == Loc("f.yaml", 2, 32)
    assert doc.source.key(("cards", "fight_3", "count")) == Loc("f.yaml", 2, 25)
    assert doc.source.value(("cards", "list", 1)) == Loc("f.yaml", 5, 7)
    # an unknown path falls back to its nearest known ancestor
    assert doc.source.value(("cards", "fight_3", "nope", 3)) == Loc("f.yaml", 2, 12)


TEXT = """\
a: |
  x = 1
    y(2)

  z
b: >
  foo bar
  baz
c: "q\\"uo\\tx"
d: 'it''s'
e: plain text
f:
  - |-
    one
    two
g: plain
  continued here
h: &anc
  value
i: |2
    indented
j: >-
  one

  two
"""


@pytest.mark.parametrize("path, line, col, want, text_at", [
    (("a",), 1, 1, (2, 3), "x = 1"),
    (("a",), 2, 5, (3, 7), "2)"),
    (("a",), 3, 1, (4, 3), ""),          # an empty line of a literal block
    (("a",), 4, 1, (5, 3), "z"),
    (("a",), 2, 1, (3, 3), "  y(2)"),    # leading spaces inside a literal block
    (("b",), 1, 5, (7, 7), "bar"),       # folded: line 1 of the string spans two file lines
    (("b",), 1, 9, (8, 3), "baz"),
    (("c",), 1, 1, (9, 5), 'q\\"uo'),
    (("c",), 1, 3, (9, 8), "uo"),        # after an escape the columns shift
    (("c",), 1, 6, (9, 12), 'x"'),
    (("d",), 1, 4, (10, 9), "s'"),       # '' is one quote
    (("e",), 1, 7, (11, 10), "text"),
    (("f", 0), 2, 2, (15, 6), "wo"),     # |- inside a list
    (("g",), 1, 7, (17, 3), "continued"),  # multi-line plain scalar
    (("h",), 1, 2, (19, 4), "alue"),     # anchored value on the next line
    (("i",), 1, 1, (21, 3), "  indented"),  # explicit indentation indicator
    (("j",), 3, 1, (25, 3), "two"),      # folded with an empty line: a real line break
])
def test_text_positions(path, line, col, want, text_at):
    doc = load(TEXT)
    loc = doc.source.text(path, line, col)
    assert (loc.line, loc.col) == want
    src = TEXT.splitlines()[loc.line - 1]
    assert src[loc.col - 1:].startswith(text_at)


def test_text_past_end_of_line_extrapolates():
    doc = load('e: "abc"\n')
    assert doc.source.text(("e",), 1, 4) == Loc("f.yaml", 1, 8)  # the closing quote


def test_text_on_non_string_falls_back_to_value():
    doc = load("n: 12\n")
    assert doc.source.text(("n",), 1, 2) == Loc("f.yaml", 1, 5)


# --- refusals ------------------------------------------------------------------------------

def test_syntax_error_is_located():
    [(line, col, msg)] = refusal("a: [1, 2\nb: 3\n")
    assert (line, col) == (2, 2) and msg.startswith("YAML syntax:")
    assert "began at line 1" in msg


def test_every_duplicate_key_points_at_the_duplicate():
    problems = refusal("a: 1\nb:\n  c: 2\n  c: 3\na: 4\n")
    assert problems == [
        (4, 3, "duplicate key 'c' (first defined at line 3, column 3)"),
        (5, 1, "duplicate key 'a' (first defined at line 1, column 1)"),
    ]


@pytest.mark.parametrize("text, where, word", [
    ("a:\n\tb: 1\n", (2, 1), "indentation"),
    ("a:\n  b: 1\n\tc: 2\n", (3, 1), "indentation"),
    ("- a\n\t- b\n", (2, 1), "indentation"),
    ("a: \tb\n", (1, 4), "tab character"),
])
def test_tabs_are_refused(text, where, word):
    [(line, col, msg)] = refusal(text)
    assert (line, col) == where and word in msg


def test_tab_inside_a_block_scalar_is_text():
    assert load("a: |\n  \tx\n").data == {"a": "\tx\n"}


@pytest.mark.parametrize("text, tag", [
    ("a: !!python/object/apply:os.system ['echo hi']\n", "!!python/object/apply:os.system"),
    ("a: !!python/name:os.system\n", "!!python/name:os.system"),
    ("a: !foo bar\n", "!foo"),
    ("a: !!str 3\n", "!!str"),
    ("a: !!set {x, y}\n", "!!set"),
    ("a: !!binary aGVsbG8=\n", "!!binary"),
    ("- !!omap [x: 1]\n", "!!omap"),
])
def test_every_tag_is_refused(text, tag):
    problems = refusal(text)
    assert problems[0][2].startswith(f"YAML tag '{tag}' is not allowed")


def test_alias_bomb_is_refused_before_expansion():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    [(line, col, msg)] = refusal("\n".join(lines) + "\n")
    assert (line, col) == (6, 11) and "alias bomb" in msg


def test_recursive_alias_is_refused():
    [(line, col, msg)] = refusal("a: &a\n  b: *a\n")
    assert (line, col) == (2, 6) and "recursive alias" in msg


def test_deep_nesting_is_refused():
    [(line, col, msg)] = refusal("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5) + "\n")
    assert (line, col) == (1, MAX_DEPTH + 1) and "nested" in msg


def test_second_document_is_refused():
    assert refusal("a: 1\n---\nb: 2\n")[0][:2] == (2, 1)


def test_date_and_complex_keys_are_refused():
    assert refusal("a: 2020-01-01\n")[0][:2] == (1, 4)
    assert "keys must be" in refusal("? [a, b]\n: 1\n")[0][2]


def test_undefined_alias_is_located():
    assert refusal("a: *x\n")[0][:2] == (1, 4)


def test_oversized_file_is_refused(tmp_path: Path):
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * MAX_FILE_BYTES + "\n")
    with pytest.raises(RulesetError) as info:
        load_yaml(f, display="big.yaml")
    [p] = info.value.problems
    assert (p.loc.file, p.loc.line, p.loc.col) == ("big.yaml", 1, 1) and "limit" in p.message


def test_invalid_utf8_is_located_at_the_bad_byte(tmp_path: Path):
    f = tmp_path / "bad.yaml"
    f.write_bytes(b"a: 1\nb\xc3\xa9: ok \xff\n")  # the column counts the two-byte \xe9 as one
    with pytest.raises(RulesetError) as info:
        load_yaml(f, display="bad.yaml")
    [p] = info.value.problems
    assert (p.loc.line, p.loc.col) == (2, 8) and "0xff" in p.message


def test_missing_file_is_located():
    with pytest.raises(RulesetError) as info:
        load_yaml("/nonexistent/x.yaml", display="x.yaml")
    assert info.value.problems[0].message == "file not found"


# --- includes ------------------------------------------------------------------------------

def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_includes_load_in_order(tmp_path: Path):
    write(tmp_path, {
        "ruleset.yaml": "ruleset: x\ninclude: [a.yaml, sub/b.yaml]\n",
        "a.yaml": "kind: cards\n",
        "sub/b.yaml": "kind: flow\ninclude: [c.yaml]\n",
        "sub/c.yaml": "kind: end\n",
    })
    docs = load_ruleset_files(tmp_path)
    assert [Path(d.path).name for d in docs] == ["ruleset.yaml", "a.yaml", "b.yaml", "c.yaml"]


def include_problems(tmp_path: Path, files: dict[str, str], root: str = ".") -> list[tuple]:
    write(tmp_path, files)
    with pytest.raises(RulesetError) as info:
        load_ruleset_files(tmp_path / root)
    return [(Path(p.loc.file).name, p.loc.line, p.loc.col, p.message) for p in info.value.problems]


def test_circular_include_is_located_at_the_entry(tmp_path: Path):
    problems = include_problems(tmp_path, {
        "ruleset.yaml": "ruleset: x\ninclude: [a.yaml]\n",
        "a.yaml": "kind: cards\ninclude:\n  - b.yaml\n",
        "b.yaml": "kind: cards\ninclude:\n  - a.yaml\n",
    })
    [(file, line, col, msg)] = problems
    assert (file, line, col) == ("b.yaml", 3, 5) and msg.startswith("circular include")


def test_self_include(tmp_path: Path):
    [(file, line, col, msg)] = include_problems(tmp_path, {
        "ruleset.yaml": "ruleset: x\ninclude: [ruleset.yaml]\n"})
    assert (file, line, col) == ("ruleset.yaml", 2, 11) and "circular" in msg


def test_missing_and_outside_includes(tmp_path: Path):
    problems = include_problems(tmp_path, {
        "x.yaml": "kind: cards\n",
        "r/ruleset.yaml": "ruleset: x\ninclude: [nope.yaml, ../x.yaml, 5]\n"}, root="r")
    assert [(line, col) for _, line, col, _ in problems] == [(2, 11), (2, 22), (2, 33)]
    assert "not found" in problems[0][3] and "outside" in problems[1][3]


def test_included_file_must_be_a_mapping(tmp_path: Path):
    problems = include_problems(tmp_path, {
        "ruleset.yaml": "ruleset: x\ninclude: [a.yaml, b.yaml]\n",
        "a.yaml": "- 1\n", "b.yaml": ""})
    assert [(f, line, col) for f, line, col, _ in problems] == [("a.yaml", 1, 1), ("b.yaml", 1, 1)]


def test_problems_in_several_files_are_all_reported(tmp_path: Path):
    problems = include_problems(tmp_path, {
        "ruleset.yaml": "ruleset: x\ninclude: [a.yaml, b.yaml]\n",
        "a.yaml": "a: [\n", "b.yaml": "b: 1\nb: 2\n"})
    assert [f for f, *_ in problems] == ["a.yaml", "b.yaml"]


def test_no_ruleset_yaml(tmp_path: Path):
    with pytest.raises(RulesetError, match="no ruleset.yaml"):
        load_ruleset_files(tmp_path)
