"""Scenario files: rules tests an author can read (setup, given, when, expect).

Pipeline position: after the engine. A scenario starts a game (players, seed, seat names,
variants), lets a seeded random player answer the setup's own questions, runs the `given`
statements (effect language) on the fresh game, after those of the `fixtures` it names (shared
`given` blocks kept in `scenarios/fixtures/NAME.yaml`), plays the `when` decisions by option id,
and checks every `expect` expression. A failure says which expectation failed, where it is
written, and the actual values of both sides of a comparison.
"""

from __future__ import annotations

import difflib
import random
from dataclasses import dataclass, field
from pathlib import Path

from ..effects import ast as A
from ..effects.compile import Compiler, Scope, Source
from ..engine.flow import EffectRuntimeError, run_sync
from ..errors import Collector, Loc, Problem, RulesetError
from ..frontend.validate import validate_doc
from ..frontend.yaml_source import Doc, load_yaml
from ..game import Game, load, resolve_ruleset
from .checks import check as check_seen
from .checks import load_dice, quote_hints, rule_strings


@dataclass
class Outcome:
    """What running one scenario found."""

    name: str
    file: str
    passed: bool
    failures: list[str] = field(default_factory=list)
    cites: str = ""


_games: dict = {}


def _game_for(doc: Doc, data: dict, extra_variants: tuple = ()) -> Game:
    rs = data.get("ruleset")
    here = Path(doc.path).resolve()
    root = None
    for parent in here.parents:
        if (parent / "ruleset.yaml").is_file():
            root = parent
            break
    if rs and (root is None or root.name != rs):
        root = resolve_ruleset(rs)
    if root is None:
        raise RulesetError(Problem(doc.source.value(("ruleset",)), "cannot tell which ruleset this scenario is for"))
    variants = []
    for i, v in enumerate((data.get("setup") or {}).get("variants") or []):
        p = Path(v)
        if not p.is_absolute():
            cand = [Path(doc.path).parent / p, root / p, root / "variants" / p, root / "variants" / f"{p}.yaml"]
            p = next((c for c in cand if c.is_file()), cand[0])
        variants.append(str(p))
    variants += [str(v) for v in extra_variants]
    key = (str(root), tuple(variants))
    if key not in _games:
        _games[key] = load(root, variants)
    return _games[key]


def _compile(game: Game, doc: Doc, path: tuple, text: str, kind: str, tag: str, errs: Collector):
    comp = Compiler(game.program, errs)
    src = Source(doc, path)
    scope = Scope({"me": "player"})
    if kind == "block":
        code_id = f"scenario:{doc.path}:{tag}"
        comp.code(code_id, text, src, scope)
        return code_id
    tree = comp.parse(text, src, "expression")
    if tree is None:
        return None
    from ..effects.compile import CheckError
    seen = len(errs.problems)
    try:
        fn, t = comp.expr(tree, src, scope)
    except CheckError:
        errs.problems[seen:] = quote_hints(errs.problems[seen:], game, text)
        return None
    parts = None
    if isinstance(tree, A.Compare):
        try:
            lf, lt = comp.expr(tree.left, src, scope)
            rf, rt = comp.expr(tree.right, src, scope)
            parts = ((lf, lt), (rf, rt))
        except CheckError:
            parts = None
    return fn, parts


@dataclass
class Position:
    """A scenario's starting position, compiled once, to be started with any seed: the game,
    the `given` statements and the `when` decisions (simulations play on from there)."""

    game: Game
    doc: Doc
    data: dict
    given_ids: list       # (code id, where the statement is written): fixtures' first
    players: int          # setup: players (the schema requires it)
    names: list | None

    @property
    def seed(self) -> int:
        return int((self.data.get("setup") or {}).get("seed", 0))

    def start(self, seed: int, record: bool = True):
        """A new game with this seed: a seeded random player answers the setup's questions,
        then the `given` statements run. Raises EffectRuntimeError (with the file's line) if
        a statement fails."""
        st = self.game.new_game(seed=seed, players=self.players, names=self.names, record=record)
        bot = random.Random(seed)
        guard = 0
        while not st.over and st.phase != "turns" and st.pending is not None:
            st = st.apply(bot.choice(st.options()).id)
            guard += 1
            if guard > 10_000:
                break
        st = st.clone()
        for code_id, loc in self.given_ids:
            try:
                run_sync(st, code_id, {"me": st.current})
            except EffectRuntimeError as e:
                e.message = f"{loc}: given statement failed: {e.message}"
                raise
        st._opts = None
        load_dice(st, (self.data.get("setup") or {}).get("dice"))
        return st

    def steps(self):
        """The `when` decisions, in order."""
        for i, step in enumerate(self.data.get("when") or []):
            step = dict(step) if isinstance(step, dict) else {"choose": step}
            who = step.pop("player", None)
            refused = step.pop("refused", None)
            choice = str(step.pop("choose", ""))
            extra = [str(v) for v in step.values()]
            if extra:
                choice = choice + ":" + ",".join(extra)
            yield Step(self.doc.source.value(("when", i)), None if who is None else str(who), choice, refused)


@dataclass
class Step:
    """One `when` decision: who must decide, the exact option id, and whether (with what text)
    it must be refused; a refused step leaves the game as it was and the file goes on."""

    loc: Loc
    who: str | None
    choice: str
    refused: bool | str | None = None

    def attempt(self, st):
        """Apply the step's exact option id: (next state, None) or (st, refusal message)."""
        ids = [o.id for o in st.options()]
        if self.choice not in ids:
            close = difflib.get_close_matches(self.choice, ids, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            shown = ", ".join(ids[:12]) + (" ..." if len(ids) > 12 else "")
            return st, f"{self.choice!r} is not a legal option now{hint} (legal: {shown})"
        nxt = st.apply(self.choice)
        return (st, nxt.message) if not nxt else (nxt, None)

    def unknown_action(self, st) -> bool:
        """Is the id's action part no action, no option and nothing this ruleset names?"""
        head = self.choice.split(":", 1)[0]
        prog = st.g
        return not (head in prog.actions or any(o.id.split(":", 1)[0] == head for o in st.options())
                    or head in prog.card_ids or head in prog.loc_ids
                    # an answer a question can give, but not now
                    or self.choice in rule_strings(getattr(prog, "prog", prog)))


def _given(game: Game, doc: Doc, errs: Collector) -> list:
    """Compile a scenario's or fixture's `given` statements: (code id, location) each."""
    items = (doc.data or {}).get("given") or []
    return [(_compile(game, doc, ("given", i), text, "block", f"given{i}", errs), doc.source.value(("given", i)))
            for i, text in enumerate(items)]


def fixture_candidates(scenario: Path, root: Path, name: str) -> list[Path]:
    """Where fixture `name` of a scenario may be: beside it, then in the ruleset's scenarios."""
    if name.endswith((".yaml", ".yml")):
        return [scenario.parent / name]
    return [scenario.parent / "fixtures" / f"{name}.yaml", root / "scenarios" / "fixtures" / f"{name}.yaml"]


def _fixture_docs(doc: Doc, data: dict, root: Path, errs: Collector) -> list[Doc]:
    """The fixture files a scenario names, loaded and checked; a missing one is a located error."""
    out = []
    for i, name in enumerate(data.get("fixtures") or []):
        cands = fixture_candidates(Path(doc.path), root, str(name))
        found = next((c for c in cands if c.is_file()), None)
        if found is None:
            errs.add(doc.source.value(("fixtures", i)), f"no fixture {name!r} (looked for "
                     + " and ".join(str(c) for c in cands) + ")")
            continue
        try:
            fdoc = load_yaml(found)
        except RulesetError as e:
            errs.extend(e.problems)
            continue
        problems = validate_doc(fdoc, "fixture")
        if problems:
            errs.extend(problems)
            continue
        out.append(fdoc)
    return out


def position(path: str | Path, variants=()) -> Position:
    """Read and compile a scenario file's position (not its `expect`); `variants` are added to
    the scenario's own. Located problems in the file raise RulesetError."""
    doc = load_yaml(path)
    data = doc.data if isinstance(doc.data, dict) else {}
    problems = validate_doc(doc, "scenario")
    if problems:
        raise RulesetError(problems)
    game = _game_for(doc, data, tuple(variants))
    errs = Collector()
    given_ids = []
    for fdoc in _fixture_docs(doc, data, Path(game.path), errs):
        given_ids += _given(game, fdoc, errs)
    given_ids += _given(game, doc, errs)
    errs.raise_if_any()
    setup = data.get("setup") or {}
    return Position(game, doc, data, given_ids, setup.get("players"), setup.get("names"))


def play_position(pos: Position, seed: int, record: bool = False):
    """The position started with `seed`, its `when` decisions played: the state a simulation
    plays on from. A failing statement or a refused decision raises GrimoireError."""
    from ..engine.decisions import player_id
    from ..errors import GrimoireError
    try:
        st = pos.start(seed, record=record)
    except EffectRuntimeError as e:
        raise GrimoireError(e.message) from None
    for step in pos.steps():
        loc, who = step.loc, step.who
        if st.over:
            raise GrimoireError(f"{loc}: the game is already over ({st.result}) before this decision")
        if who is not None and player_id(st, st.current_player()) != who:
            raise GrimoireError(f"{loc}: expected {who} to decide, but "
                                f"{player_id(st, st.current_player())} is deciding")
        st, refusal = step.attempt(st)
        if (refusal is None) != (step.refused in (None, False)):
            raise GrimoireError(f"{loc}: {refusal or 'accepted, but the scenario expects a refusal'}")
    return st


def run_scenario(path: str | Path) -> Outcome:
    """Run one scenario file; located problems in the file raise RulesetError."""
    pos = position(path)
    doc, data, game = pos.doc, pos.data, pos.game
    name = str(data.get("name", Path(path).stem))
    errs = Collector()
    expects = []
    for i, text in enumerate(data.get("expect") or []):
        compiled = None if isinstance(text, dict) else _compile(game, doc, ("expect", i), text, "expr",
                                                                f"expect{i}", errs)
        expects.append((i, text, compiled))
    errs.raise_if_any()
    out = Outcome(name, doc.path, True, cites=str(data.get("cites", "")))
    try:
        st = pos.start(pos.seed)
    except EffectRuntimeError as e:
        out.passed = False
        out.failures.append(e.message)
        return out
    want_error = data.get("expect_error")
    refused = None
    for step in pos.steps():
        loc, who = step.loc, step.who
        if st.over:
            out.passed = False
            out.failures.append(f"{loc}: the game is already over ({st.result}) before this decision")
            return out
        if who is not None:
            from ..engine.decisions import player_id
            actual = player_id(st, st.current_player())
            if actual != who:
                out.passed = False
                out.failures.append(f"{loc}: expected {who} to decide, but {actual} is deciding "
                                    f"(options: {', '.join(o.id for o in st.options())})")
                return out
        try:
            nxt, refusal = step.attempt(st)
        except EffectRuntimeError as e:
            out.passed = False
            out.failures.append(f"{loc}: the rules failed while playing {step.choice!r}: {e}")
            return out
        if step.refused not in (None, False):
            want = step.refused if isinstance(step.refused, str) else ""
            if refusal is None:
                out.failures.append(f"{loc}: expected {step.choice!r} to be refused, but it was accepted")
            elif step.unknown_action(st):
                out.failures.append(f"{loc}: {step.choice!r} names no action or option of this ruleset "
                                    f"(a misspelling?), so its refusal shows nothing: {refusal}")
            elif want not in refusal:
                out.failures.append(f"{loc}: refused, but not with {want!r}: {refusal}")
            if out.failures:
                out.passed = False
                return out
            continue  # refused as expected: the state is unchanged and the file goes on
        if refusal is not None:
            if want_error is not None and str(want_error) in refusal:
                refused = refusal  # refused as expected; the state is unchanged
                break
            out.passed = False
            if want_error is not None:
                out.failures.append(f"{loc}: refused, but not with {want_error!r}: {refusal}")
            else:
                out.failures.append(f"{loc}: {refusal}")
            return out
        st = nxt
    if want_error is not None and refused is None:
        out.passed = False
        out.failures.append(f"{doc.source.value(('expect_error',))}: expected a decision to be refused "
                            f"with a message containing {want_error!r}, but every decision was accepted")
    fr = [None, 0, {"me": st.current}, None]
    for i, text, compiled in expects:
        if compiled is None:  # a log or view expectation
            try:
                failed = check_seen(st, text, lambda st: _text(game))
            except ValueError as e:
                failed = str(e)
            if failed:
                out.passed = False
                out.failures.append(f"{doc.source.value(('expect', i))}: {failed}")
            continue
        fn, parts = compiled
        try:
            ok = fn(st, fr)
        except Exception as e:  # noqa: BLE001 - report, don't crash the runner
            ok, parts = False, None
            out.failures.append(f"{doc.source.value(('expect', i))}: error evaluating {text!r}: {e}")
            out.passed = False
            continue
        if not ok:
            out.passed = False
            detail = ""
            if parts is not None:
                (lf, lt), (rf, rt) = parts
                detail = f" (left is {_show(st, lf(st, fr), lt)}, right is {_show(st, rf(st, fr), rt)})"
            out.failures.append(f"{doc.source.value(('expect', i))}: expected {text.strip()}{detail}")
    return out


def _text(game):
    from ..i18n import Text
    return Text(game.program, "en")


def _show(st, v, t):
    from ..engine.decisions import value_id
    if isinstance(v, list):
        return "[" + ", ".join(_show(st, x, t[5:] if t.startswith("list:") else "any") for x in v) + "]"
    if t in ("card", "kind", "player", "loc"):
        return value_id(st, v, t)
    return repr(v)


def scenario_files(paths) -> list[Path]:
    """Every scenario YAML under the given files or directories, sorted."""
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir():  # fixtures are parts of scenarios, not scenarios
            out.extend(f for f in sorted(p.rglob("*.yaml")) if "fixtures" not in f.relative_to(p).parts[:-1])
        else:
            out.append(p)
    return out


__all__ = ["run_scenario", "scenario_files", "Outcome", "Loc"]
