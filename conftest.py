"""pytest collects every scenario file under rulesets/*/scenarios/ as a test."""

from __future__ import annotations

import pytest


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".yaml" and file_path.parent.name == "scenarios" \
            and "rulesets" in file_path.parts:
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self):
        yield ScenarioItem.from_parent(self, name=self.path.stem)


class ScenarioItem(pytest.Item):
    def runtest(self):
        from interpreter.errors import RulesetError, format_problems
        from interpreter.scenarios.run import run_scenario
        try:
            out = run_scenario(self.path)
        except RulesetError as e:
            raise ScenarioFailure(format_problems(e.problems)) from None
        if not out.passed:
            raise ScenarioFailure("\n".join(out.failures))

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.path}:\n{excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"scenario: {self.name}"


class ScenarioFailure(Exception):
    pass
