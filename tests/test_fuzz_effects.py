"""Property test: any effect text, however broken, gives located problems or compiles; never a
Python exception. Inputs are random strings over the language's alphabet and mutations of the
real effects of the shipped rulesets."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langkit import raw_problems as problems

from interpreter.frontend.includes import load_ruleset_files
from interpreter.game import RULESETS

SNIPPETS = []
for d in sorted(RULESETS.iterdir()):
    if (d / "ruleset.yaml").is_file():
        for doc in load_ruleset_files(d):
            for sec in ("procedures", "actions"):
                for v in ((doc.data or {}).get(sec) or {}).values():
                    text = v.get("effect") if isinstance(v, dict) else v
                    if isinstance(text, str):
                        SNIPPETS.append(text)
SNIPPETS = SNIPPETS[:200] or ["draw(deck, hand(me), 2)"]

ALPHABET = st.sampled_from(list("abcdehmnorstuwxyz_0123456789()[]:,.=+-*/<>!\"' \n#") +
                           ["if ", "for ", " in ", "else:", "while ", "repeat ", "return", "pass",
                            "me", "deck", "hand(", "draw(", "choose(", "act(", "size(", "  ", "\n  "])


def check(text: str) -> None:
    for line, col, msg in problems(text):
        assert isinstance(msg, str) and msg
        assert line >= 0 and col >= 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ALPHABET, max_size=40).map("".join))
def test_random_effect_text_gives_only_located_problems(text):
    check(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SNIPPETS), st.integers(0, 10_000), st.integers(0, 10_000),
       st.sampled_from(["", ")", "(", ":", "\n", "  ", "x", "==", "[", "none.", "1/0", "\"", "#"]))
def test_mutated_real_effects_give_only_located_problems(text, cut, insert_at, extra):
    i = cut % (len(text) + 1)
    j = insert_at % (len(text) + 1)
    mutated = text[:i] + text[i + 1:]
    mutated = mutated[:j] + extra + mutated[j:]
    check(mutated)


# issue 25: text nested past any stack (RecursionError before) is one located problem naming the limit
NESTINGS = {
    "parentheses": lambda k: "(" * k + "1" + ")" * k,
    "chained +": lambda k: "+".join(["1"] * k),
    "chained -": lambda k: "-".join(["1"] * k),
    "not": lambda k: "not " * k + "true",
    "negation": lambda k: "-" * k + "1",
    "lists": lambda k: "[" * k + "]" * k,
    "calls": lambda k: "abs(" * k + "1" + ")" * k,
    "attributes": lambda k: "me" + ".x" * k,
    "indexes": lambda k: "me" + "[0]" * k,
    "conditional expressions": lambda k: "1 if true else " * k + "2",
    "if blocks": lambda k: "".join(" " * i + "if true:\n" for i in range(k)) + " " * k + "pass",
}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(NESTINGS)), st.integers(101, 5000))
def test_text_nested_past_the_bound_is_one_located_problem(kind, depth):
    if kind == "parentheses":  # a pair of parentheses is no level of the tree: Lark's bound holds them
        depth += 100
    found = problems(NESTINGS[kind](depth))
    assert found
    assert any("(the limit)" in msg or "over the limit" in msg for _, _, msg in found), found[:2]
    for line, col, msg in found:
        assert line >= 1 and col >= 0


@given(st.sampled_from(sorted(NESTINGS)), st.integers(1, 60))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_text_within_the_bound_is_not_called_too_deep(kind, depth):
    assert not any("nested too deeply" in msg for _, _, msg in problems(NESTINGS[kind](depth)))
