"""A small harness for the effect language: compile and run snippets against a real ruleset."""

from __future__ import annotations

from interpreter.effects.compile import CheckError, Compiler, Scope, Source
from interpreter.engine.flow import run_sync
from interpreter.errors import Collector
from interpreter.frontend.yaml_source import Doc, load_yaml
from interpreter.game import RULESETS, load

_game = None


def game():
    global _game
    if _game is None:
        _game = load(RULESETS / "high_tide")
    return _game


def _doc(text: str) -> Doc:
    """A real one-key YAML document holding the snippet as a block scalar (real positions:
    line 1 of the snippet is line 2 of this document, column 3)."""
    body = "".join("  " + ln + "\n" for ln in text.split("\n"))
    return load_yaml("<snippet>", display="<snippet>", text="code: |\n" + body)


def state(seed: int = 1, players: int = 3):
    return game().new_game(seed=seed, players=players)


def evaluate(src: str, st=None):
    """Evaluate an expression; return its value, or raise ValueError with the problems."""
    g = game()
    st = st or state()
    errs = Collector()
    comp = Compiler(g.program, errs)
    doc = _doc(src)
    fn, _ = comp.expression(src, Source(doc, ("code",)), Scope({"me": "player"}))
    if errs.problems or fn is None:
        raise ValueError("; ".join(p.message for p in errs.problems))
    return fn(st, [None, 0, {"me": st.current}, None])


_n = [0]


def execute(src: str, st=None):
    """Run statements on a state (synchronously); return the state."""
    g = game()
    st = st or state()
    errs = Collector()
    comp = Compiler(g.program, errs)
    _n[0] += 1
    code_id = f"test:{_n[0]}"
    comp.code(code_id, src, Source(_doc(src), ("code",)), Scope({"me": "player"}))
    if errs.problems:
        raise ValueError("; ".join(p.message for p in errs.problems))
    run_sync(st, code_id, {"me": st.current})
    return st


def problems(src: str, expression: bool = False):
    """The (line, col, message) problems of a snippet (positions inside the snippet)."""
    g = game()
    errs = Collector()
    comp = Compiler(g.program, errs)
    doc = _doc(src)
    if expression:
        comp.expression(src, Source(doc, ("code",)), Scope({"me": "player"}))
    else:
        comp.code(f"probe:{id(src)}", src, Source(doc, ("code",)), Scope({"me": "player"}))
    # back to positions inside the snippet (the document adds one line and two columns)
    return [(p.loc.line - 1, p.loc.col - 2, p.message) for p in errs.problems]


__all__ = ["CheckError", "evaluate", "execute", "game", "problems", "state"]


def raw_problems(src: str):
    """Like problems(), for any text at all (no YAML wrapping: positions are approximate)."""
    from interpreter.frontend.source_map import SourceMap
    g = game()
    errs = Collector()
    comp = Compiler(g.program, errs)
    doc = Doc("<snippet>", {"code": src}, SourceMap("<snippet>"))
    comp.code(f"fuzz:{id(src)}", src, Source(doc, ("code",)), Scope({"me": "player"}))
    comp.expression(src, Source(doc, ("code",)), Scope({"me": "player"}))
    return [(p.loc.line, p.loc.col, p.message) for p in errs.problems]
