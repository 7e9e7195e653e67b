"""The examples of docs/effect-language.md (`>>> expr` then the expected value) are run here."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from langkit import evaluate, state

DOC = Path(__file__).resolve().parent.parent / "docs" / "effect-language.md"


def examples():
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^>>> (.*)$", line)
        if m:
            out.append((i + 1, m.group(1), lines[i + 1].strip()))
    return out


EXAMPLES = examples()


def test_the_reference_has_examples():
    assert len(EXAMPLES) >= 15


@pytest.mark.parametrize("line,src,expected", EXAMPLES, ids=[f"line{x[0]}" for x in EXAMPLES])
def test_reference_example(line, src, expected):
    st = state(seed=1, players=3)
    assert evaluate(src, st) == ast.literal_eval(expected), f"docs/effect-language.md:{line}: {src}"
