"""Stage 5 of the pipeline: checked syntax trees -> Python closures and VM instructions.

Pipeline position: compiler (effects/), above the runtime (runtime/: code units, SUSPEND,
options, primitives) and below the program (program/), which compiles every code string
of a ruleset through one Compiler. One pass does the check and the compilation: every
name is resolved against the ruleset, arity and types are checked, and each problem is
recorded at its place in the YAML file; then the code is emitted. Expressions become
closures `f(state, frame) -> value`; statements become a flat list of instructions for the
engine's small VM (engine/flow.py), so an effect that stops to ask a player a question is
just a frame `[code id, pc, locals, return var]` on the state's stack: plain data, cheap
to clone, serializable mid-effect. Play never walks a syntax tree.

The Compiler is one object made of one part per concept: names and scopes (names.py),
expressions (expressions.py), type coercion (coercion.py), statements as VM instructions
(statements.py), runs of statements as generated functions (fusion.py) and procedure
calls (procedures.py); the built-in functions are a table (builtins.py, blocking.py).
"""

from __future__ import annotations

from ..errors import Collector
from ..runtime.vm import Code, Jump, thread_jumps
from . import builtins as B
from .codegen import Namer, frag, materialize
from .coercion import CoercionMixin
from .expressions import ExpressionsMixin
from .fusion import FusionMixin, _Gen
from .names import NamesMixin
from .parse import EffectSyntaxError, parse
from .procedures import ProceduresMixin
from .recover import recover
from .scope import CheckError, Scope, Source
from .statements import StatementsMixin
from .types import accepts, show

__all__ = ["CheckError", "Code", "Compiler", "Scope", "Source"]


class Compiler(NamesMixin, ExpressionsMixin, CoercionMixin, StatementsMixin, FusionMixin, ProceduresMixin):
    """Compiles effect text for one Program, collecting located problems."""

    def __init__(self, program, errs: Collector):
        self.p = program
        self.errs = errs
        self.B = B
        self.namer = Namer()
        # procedures that never ask a player: called directly (known once the program compiled)
        self.sync_procs: set[str] = set(getattr(program, "sync_procs", ()))
        self.may_end = getattr(program, "may_end", None)  # None: any procedure may end the game
        self.late: list = []  # (globals, name, code id): direct calls, bound once all is compiled

    def mat(self, fn):
        """fn compiled into one Python function (see codegen.py)."""
        return materialize(self.namer, fn)

    def g(self, fn):
        """The source fragment of a compiled expression."""
        return frag(self.namer, fn)

    def recover(self, node, src: Source, scope: Scope) -> None:
        """After a mistake in `node`, record the other mistakes of its parts too."""
        recover(self, node, src, scope, CheckError)

    def problem(self, src: Source, node, message: str) -> None:
        line = getattr(node, "line", 1) or 1
        col = getattr(node, "col", 1) or 1
        self.errs.add(src.loc(line, col), message)

    def parse(self, text, src: Source, start="block"):
        if not isinstance(text, str):
            self.errs.add(src.doc.source.value(src.path),
                          f"expected effect code (a string), found {type(text).__name__}")
            return None
        try:
            return parse(text, start)
        except EffectSyntaxError as e:
            self.errs.add(src.loc(e.line, e.col), f"effect syntax: {e.message}")
            return None

    def expression(self, text, src: Source, scope: Scope, want: str | None = None):
        """Compile an expression string; return (fn, type) or (None, 'any') on problems."""
        if isinstance(text, bool):
            v = text
            return (lambda st, fr: v), "bool"
        if isinstance(text, int):
            v = text
            return (lambda st, fr: v), "int"
        tree = self.parse(text, src, "expression")
        if tree is None:
            return None, "any"
        try:
            fn, t = self.expr(tree, src, scope)
        except CheckError:
            self.recover(tree, src, scope)
            return None, "any"
        if want and not accepts(want, t):
            self.problem(src, tree, f"expected {show(want)} here, found {show(t)}")
            return None, "any"
        if want:
            fn = self.coerce(fn, t, want)
        return self.mat(fn), t

    def code(self, code_id: str, text, src: Source, scope: Scope, params: list | None = None,
             prelude=None, direct: bool = False) -> Code:
        """Compile a block of statements into a Code unit registered in the program. With
        `direct` (a procedure that never asks a player), also as one Python function."""
        code = Code(code_id, params=list(params or []))
        code.local_types = dict(scope.names)
        if prelude is not None:
            code.instrs.append(prelude)
            code.locs.append(src.doc.source.value(src.path))
        tree = self.parse(text, src, "block")
        saved, Jump.made = Jump.made, []
        try:
            self._code_body(code, tree, src, scope, direct)
            thread_jumps(code, Jump.made)
        finally:
            Jump.made = saved
        code.local_types.update(scope.names)
        self.p.codes[code_id] = code
        return code

    def _code_body(self, code, tree, src, scope, direct) -> None:
        if tree is not None and direct and all(self.fusible(x) for x in tree):
            out = _Gen()
            self.gen_block(tree, src, scope, out, 0)
            if out.lines:
                code.instrs.append(self.function(out, "vm"))
                code.locs.append(out.first_loc())
            code.direct = self.function(out, "direct", code.id, code.params)
        elif tree is not None:
            self.block(tree, src, scope, code)
