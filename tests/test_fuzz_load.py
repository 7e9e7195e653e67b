"""Property test: mutated YAML never makes load + validate fail with anything but a
located RulesetError (no tracebacks, no silent foreign exceptions)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.errors import RulesetError
from interpreter.frontend.includes import load_ruleset_files
from interpreter.frontend.validate import KINDS, validate_doc, validate_ruleset_docs
from interpreter.frontend.yaml_source import load_yaml

VALID = Path(__file__).parent / "golden" / "valid_ruleset"
SEEDS = {p.name: p.read_bytes() for p in sorted(VALID.glob("*.yaml"))}
SEEDS["locale.yaml"] = (
    b"locale: en\nmessages:\n  card-fight_3: Fight 3\n"
    b"  event-drew: \"{ $player } draws { $n -> [one] a card *[other] { $n } cards }.\"\n"
)
SEEDS["variant.yaml"] = (
    b"variant: v\ntitle: V\nbase: demo\nrequires: [a]\nmerge:\n  params: {hand_limit: 10}\n"
    b"patch:\n  - {op: test, path: /params/x, value: 1}\nprovisional: true\n"
)
SEEDS["scenario.yaml"] = (
    b"name: n\nruleset: demo\nsetup: {players: 3, seed: 1, names: [a, b, c]}\n"
    b"given:\n  - \"move(a, camelot)\"\nwhen:\n  - {player: a, choose: x, card: y}\n"
    b"expect:\n  - |\n    life(a) == 3\n"
)
SEEDS["anchors.yaml"] = b"a: &a {x: 1, y: [1, 2]}\nb: *a\nc:\n  <<: *a\n  z: 'q''s'\n"

CHARS = st.sampled_from(list(":-[]{}&*!|>'\"#%@`,?\t \n\\") + ["\xff", "\x00", "é", "---"])

mutation = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, 200)),
    st.tuples(st.just("duplicate"), st.integers(0, 200)),
    st.tuples(st.just("swap"), st.integers(0, 200), st.integers(0, 200)),
    st.tuples(st.just("insert"), st.integers(0, 5000), CHARS),
    st.tuples(st.just("bytes"), st.integers(0, 5000), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("indent"), st.integers(0, 200), st.integers(-3, 3)),
)


def mutate(data: bytes, ops: list[tuple]) -> bytes:
    for op in ops:
        lines = data.split(b"\n")
        n = len(lines)
        if op[0] == "delete":
            del lines[op[1] % n]
        elif op[0] == "duplicate":
            i = op[1] % n
            lines.insert(i, lines[i])
        elif op[0] == "swap":
            i, j = op[1] % n, op[2] % n
            lines[i], lines[j] = lines[j], lines[i]
        elif op[0] == "indent":
            i = op[1] % n
            lines[i] = b" " * op[2] + lines[i] if op[2] > 0 else lines[i][-op[2]:]
        else:
            pos = op[1] % (len(data) + 1)
            extra = op[2].encode("utf-8", errors="surrogatepass") if op[0] == "insert" else op[2]
            if op[2] == "\xff":
                extra = b"\xff"
            data = data[:pos] + extra + data[pos:]
            continue
        data = b"\n".join(lines)
    return data


def schema_for(name: str, data) -> str | None:
    stem = name.removesuffix(".yaml")
    if stem in ("locale", "variant", "scenario", "ruleset"):
        return stem
    if isinstance(data, dict) and data.get("kind") in KINDS:
        return data["kind"]
    return None


def assert_located(e: RulesetError) -> None:
    assert e.problems
    for p in e.problems:
        assert p.loc.line >= 0 and p.loc.col >= 0
        assert isinstance(p.message, str) and p.message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SEEDS)), ops=st.lists(mutation, min_size=1, max_size=4))
def test_mutated_file_fails_only_with_located_errors(name, ops):
    data = mutate(SEEDS[name], ops)
    with tempfile.TemporaryDirectory() as tmp:
        f = Path(tmp) / name
        f.write_bytes(data)
        try:
            doc = load_yaml(f, display=name)
            schema = schema_for(name, doc.data)
            if schema:
                problems = validate_doc(doc, schema)
                for p in problems:
                    assert p.loc.line >= 0 and p.message
            for path in doc.source.texts:  # every string value maps into the file
                loc = doc.source.text(path, 1, 1)
                assert loc.line >= 1 and loc.col >= 1
        except RulesetError as e:
            assert_located(e)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(p.name for p in VALID.glob("*.yaml"))),
       ops=st.lists(mutation, min_size=1, max_size=3))
def test_mutated_ruleset_dir_fails_only_with_located_errors(name, ops):
    with tempfile.TemporaryDirectory() as tmp:
        for p in VALID.glob("*.yaml"):
            data = p.read_bytes()
            (Path(tmp) / p.name).write_bytes(mutate(data, ops) if p.name == name else data)
        try:
            problems = validate_ruleset_docs(load_ruleset_files(tmp))
            for p in problems:
                assert p.loc.line >= 0 and p.message
        except RulesetError as e:
            assert_located(e)


# issue 25: a number in a ruleset, however large, is refused in a located line, in bounded time
HUGE = st.sampled_from([10 ** 5, 10 ** 8, 10 ** 11, 2 ** 63, 10 ** 30])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(p.name for p in VALID.glob("*.yaml"))), which=st.integers(0, 50), value=HUGE)
def test_a_huge_number_anywhere_is_located_in_bounded_time(name, which, value):
    import contextlib
    import io
    import re
    import signal
    import time

    from interpreter.cli import main
    with tempfile.TemporaryDirectory() as tmp:
        for p in VALID.glob("*.yaml"):
            data = p.read_text(encoding="utf-8")
            if p.name == name:
                numbers = list(re.finditer(r"(?<![\w.])\d+(?![\w.])", data))
                if numbers:
                    m = numbers[which % len(numbers)]
                    data = data[:m.start()] + str(value) + data[m.end():]
            (Path(tmp) / p.name).write_text(data, encoding="utf-8")

        def late(signum, frame):
            raise TimeoutError("validate ran past 30 s")
        old = signal.signal(signal.SIGALRM, late)
        signal.alarm(30)
        out = io.StringIO()
        t0 = time.process_time()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
                code = main(["validate", tmp])
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)
        assert "Traceback" not in out.getvalue()
        assert code == 0 or re.search(r"\S+:\d+:\d+: error: ", out.getvalue()), out.getvalue()[:300]
        assert time.process_time() - t0 < 20
