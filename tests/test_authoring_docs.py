"""The author's pages of docs/ are run as written: the tutorial step by step (write the variant,
validate, diff, explain, a scenario, compare), the variant and scenario references' examples."""

from __future__ import annotations

from pathlib import Path

import pytest
from doc_runner import run_page

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("page", ["tutorial.md", "variants.md", "scenarios.md"])
def test_the_page_runs_as_written(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")  # the width the pages' tables were printed at
    failures = run_page(DOCS / page, tmp_path)
    assert not failures, "\n\n".join(failures)


def test_the_tutorial_takes_every_step_of_the_loop():
    text = (DOCS / "tutorial.md").read_text(encoding="utf-8")
    for step in ("$ grimoire validate", "$ grimoire diff", "$ grimoire explain", "$ grimoire test",
                 "$ grimoire simulate"):
        assert step in text, step
    assert "# file: house_rules/pearl_waits.yaml" in text
