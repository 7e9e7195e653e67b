"""Golden tests: each directory under tests/golden/ is a case; its expected.txt is the exact
error output (see tests/golden/README.md). Regenerate with GRIMOIRE_UPDATE_GOLDEN=1, then
read the diff: the positions must be right by eye, not merely stable.
"""

from __future__ import annotations

import os
import runpy
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from interpreter import errors
from interpreter.errors import Problem, RulesetError, format_problems
from interpreter.frontend.includes import load_ruleset_files
from interpreter.frontend.validate import schema_path, validate_doc, validate_ruleset_docs
from interpreter.frontend.yaml_source import Doc, load_yaml, require_mapping

GOLDEN = Path(__file__).parent / "golden"
NOT_INPUT = {"expected.txt", "generate.py", "README.md", "args.txt"}

# Stages run after loading and schema validation found nothing wrong, in order; each takes the
# loaded docs and returns problems (or raises RulesetError). The first stage that finds
# problems ends the case. Later pipeline stages (model build, effect checks) go here.
def _compile_stage(docs: list[Doc]) -> list[Problem]:
    from interpreter.game import compile_problems
    return compile_problems(docs)


LATER_STAGES: list[Callable[[list[Doc]], list[Problem]]] = [_compile_stage]


def run_command(case: Path) -> str:
    """A case with args.txt: what `grimoire ARGS` prints, with its exit code."""
    import contextlib
    import io

    from interpreter.cli import main
    args = (case / "args.txt").read_text(encoding="utf-8").split()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return err.getvalue() + f"exit {code}\n"


def check_case(case: Path) -> list[Problem]:
    """Run the pipeline on one case directory (the cwd) and return the problems found."""
    try:
        if (case / "ruleset.yaml").exists():
            docs = load_ruleset_files(".")
            problems = validate_ruleset_docs(docs)
        else:
            inputs = sorted(p.name for p in case.iterdir() if p.name not in NOT_INPUT)
            assert len(inputs) == 1, f"a single-file case holds one input file, found {inputs}"
            name = inputs[0]
            docs = [load_yaml(name)]
            schema = name.split(".")[-2]  # cards.yaml -> cards, en.locale.yaml -> locale
            if schema_path(schema).is_file():
                problems = validate_doc(docs[0], schema)
            else:
                problems = require_mapping(docs[0])
        for stage in LATER_STAGES:
            if problems:
                break
            problems = stage(docs)
    except RulesetError as e:
        problems = e.problems
    return problems


def render(problems: list[Problem]) -> str:
    """The text expected.txt holds: gcc-style problems and a count, or 'ok'."""
    return format_problems(problems) + "\n" if problems else "ok\n"


CASES = sorted(p for p in GOLDEN.iterdir() if p.is_dir())


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_golden(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / case.name
    shutil.copytree(case, work)
    monkeypatch.chdir(work)
    if (work / "generate.py").exists():
        runpy.run_path("generate.py", run_name="__main__")
    errors._line_cache.clear()  # every case has its own ruleset.yaml at the same relative path
    actual = run_command(work) if (work / "args.txt").exists() else render(check_case(work))
    expected_file = case / "expected.txt"
    if os.environ.get("GRIMOIRE_UPDATE_GOLDEN"):
        expected_file.write_text(actual, encoding="utf-8")
    assert expected_file.exists(), f"no expected.txt in {case}; run with GRIMOIRE_UPDATE_GOLDEN=1"
    assert actual == expected_file.read_text(encoding="utf-8")


def test_enough_cases() -> None:
    assert len(CASES) >= 20
