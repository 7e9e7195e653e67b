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


def _python_blocks(page: str) -> list[tuple[int, str]]:
    from doc_runner import blocks
    return [(start, "\n".join(lines)) for start, lang, lines in blocks(DOCS / page) if lang == "python"]


def test_the_api_pages_python_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(DOCS.parent)
    found = _python_blocks("api.md")
    assert len(found) >= 4
    for start, code in found:
        namespace: dict = {}
        try:
            exec(compile(code, f"docs/api.md:{start}", "exec"), namespace)  # noqa: S102 - the page's own example
        except Exception as e:  # noqa: BLE001 - say which example failed
            raise AssertionError(f"docs/api.md:{start}: {type(e).__name__}: {e}") from e
    bot = namespace_of(found[2][1])["HighCard"](1)
    from interpreter.game import load
    st = load("rulesets/high_tide").new_game(seed=3, players=2)
    from interpreter.bots import Seat
    assert bot.choose(Seat(st)) in {o.id for o in st.options()}


def namespace_of(code: str) -> dict:
    ns: dict = {}
    exec(code, ns)  # noqa: S102
    return ns
