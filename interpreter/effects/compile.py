"""Stage 5 of the pipeline: checked syntax trees -> Python closures and VM instructions.

One pass does the check and the compilation: every name is resolved against the ruleset
(locals, params, counters, zones, cards, locations, procedures, built-ins), arity and types
are checked, and each problem is recorded at its place in the YAML file; then the code is
emitted. Expressions become closures `f(state, frame) -> value`. Statements become a flat
list of instructions for the engine's small VM (engine/flow.py), so an effect that stops to
ask a player a question is just a frame `[code id, pc, locals, return var]` on the state's
stack: plain data, cheap to clone, serializable mid-effect. Play never walks a syntax tree.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from ..errors import Collector, Loc
from . import ast as A
from .codegen import EMPTY, Namer, _compile, combine, define, frag, materialize, tag, tagged
from .parse import EffectSyntaxError, parse
from .recover import recover
from .types import accepts, elem, is_list, join, list_of, show

SUSPEND = object()  # returned by an instruction that waits for a decision
MAX_LOOP = 10_000


class CheckError(Exception):
    """Raised inside the compiler to abandon one expression after recording a problem."""


@dataclass
class Code:
    """One compiled code unit: VM instructions, their source locations, local types."""

    id: str
    instrs: list = field(default_factory=list)
    locs: list = field(default_factory=list)  # per instruction: Loc, or (Source, line, col) resolved lazily
    local_types: dict = field(default_factory=dict)
    params: list = field(default_factory=list)
    direct: object = None  # a procedure that never asks: a Python function (st, caller locals, *args)

    def loc(self, pc: int, exc: BaseException | None = None) -> Loc:
        """The file position of instruction pc (mapped into the YAML file on demand)."""
        x = self.locs[pc] if 0 <= pc < len(self.locs) else None
        if exc is not None:  # the line of the generated function that failed, if one did
            x = _failed_line(exc) or x
        if isinstance(x, tuple):
            src, line, col = x
            x = src.loc(line, col)
            if exc is None:
                self.locs[pc] = x
        return x if x is not None else Loc()


@dataclass
class Source:
    """Where a code string was written: enough to map effect positions into the file."""

    doc: object
    path: tuple

    def loc(self, line: int, col: int) -> Loc:
        return self.doc.source.text(self.path, line, col)


class Scope:
    """Names visible while compiling one code unit, with their types."""

    def __init__(self, names: dict[str, str], kind: str = "effect", this_card=None, here_loc=None,
                 card_params: dict | None = None):
        self.names = dict(names)
        self.kind = kind
        self.this_card = this_card
        self.here_loc = here_loc
        self.card_params = card_params or {}
        self.counter = 0
        self.pyvars: frozenset = EMPTY  # comprehension variables bound as Python variables

    def hidden(self, base: str) -> str:
        self.counter += 1
        return f"_{base}{self.counter}"


class Compiler:
    """Compiles effect text for one Program, collecting located problems."""

    def __init__(self, program, errs: Collector):
        self.p = program
        self.errs = errs
        from . import builtins as B
        self.B = B
        self.namer = Namer()
        # procedures that never ask a player: called directly (known once the program compiled)
        self.sync_procs: set[str] = set(getattr(program, "sync_procs", ()))
        self.late: list = []  # (globals, name, code id): direct calls, bound once all is compiled

    def mat(self, fn):
        """fn compiled into one Python function (see codegen.py)."""
        return materialize(self.namer, fn)

    def g(self, fn):
        """The source fragment of a compiled expression."""
        return frag(self.namer, fn)

    # ---- entry points ---------------------------------------------------------------------

    def problem(self, src: Source, node, message: str) -> None:
        line = getattr(node, "line", 1) or 1
        col = getattr(node, "col", 1) or 1
        self.errs.add(src.loc(line, col), message)

    def recover(self, node, src: Source, scope: Scope) -> None:
        """After a mistake in `node`, record the other mistakes of its parts too."""
        recover(self, node, src, scope, CheckError)

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
        saved, _Jump.made = _Jump.made, []
        try:
            self._code_body(code, tree, src, scope, direct)
            _thread_jumps(code, _Jump.made)
        finally:
            _Jump.made = saved
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

    def find_sync_procs(self, bodies: dict) -> None:
        """The procedures that can never ask a player (no choose, act, window, run or emit,
        and no call of a procedure that may) and are not recursive: their calls run as
        direct Python calls inside generated code, not as VM frames."""
        calls: dict[str, set] = {}
        blocking: set[str] = set()
        for name, text in bodies.items():
            try:
                tree = parse(text, "block") if isinstance(text, str) else None
            except EffectSyntaxError:
                tree = None
            if tree is None:
                blocking.add(name)
                continue
            found: set = set()
            for n in walk_nodes(tree):
                if isinstance(n, A.Call):
                    if n.func in bodies:
                        found.add(n.func)
                    else:
                        b = self.B.TABLE.get(n.func)
                        if b is not None and b.blocking:
                            blocking.add(name)
            calls[name] = found

        def reaches(a, b) -> bool:
            seen, todo = set(), list(calls.get(a, ()))
            while todo:
                x = todo.pop()
                if x == b:
                    return True
                if x not in seen:
                    seen.add(x)
                    todo.extend(calls.get(x, ()))
            return False
        blocking |= {name for name in bodies if reaches(name, name)}  # recursion stays on the VM
        changed = True
        while changed:
            changed = False
            for name, found in calls.items():
                if name not in blocking and found & blocking:
                    blocking.add(name)
                    changed = True
        self.sync_procs = set(bodies) - blocking

    def link(self) -> None:
        """Bind direct procedure calls to the functions compiled for them."""
        for ns, name, code_id in self.late:
            code = self.p.codes.get(code_id)
            ns[name] = code.direct if code is not None else None
        self.late = []

    def function(self, out, mode: str, code_id: str = "", params=()):
        """The generated function of a run of statements: `vm` is a VM instruction (st, fr);
        `direct` a procedure called from generated code (st, caller's locals, *args)."""
        if mode == "vm":
            head = ["def _b(st, fr):", "    L = fr[2]"]
        else:
            args = [f"a{i}" for i in range(len(params))]
            head = [f"def _d(st, cl{''.join(', ' + a for a in args)}):",
                    "    L = {" + ", ".join(f"{n!r}: {a}" for n, a in zip(params, args)) + "}"]
            for k in ("me", "this", "here"):
                if k not in params:
                    head.append(f"    if {k!r} in cl:")
                    head.append(f"        L[{k!r}] = cl[{k!r}]")
            if any(_USES_FR.search(t) for _, t, _, _ in out.lines if t):
                head.append(f"    fr = [{code_id!r}, 0, L, None]")
        lines, locs = list(head), [None] * (len(head) + 1)
        for ind, text, loc, ret in out.lines:
            pad = "    " * (ind + 1)
            if ret is None:
                lines.append(pad + text)
                locs.append(loc)
            elif mode == "vm":  # as the VM's return: pop the frame, give the caller the value
                for t in ("st.stack.pop()", "if fr[3] is not None and st.stack:",
                          f"    st.stack[-1][2][fr[3]] = {ret}", "return"):
                    lines.append(pad + t)
                    locs.append(loc)
            else:
                lines.append(pad + f"return {ret}")
                locs.append(loc)
        if mode != "vm" and not out.lines:
            lines.append("    return None")
        text = "\n".join(lines) + "\n"
        ns = dict(out.env)
        ns["__locs__"] = locs  # read back from a traceback's frame (the code is shared by text)
        exec(_compile(text), ns)  # noqa: S102 - text built by the compiler from checked trees
        for name, cid in out.late.items():
            self.late.append((ns, name, cid))
        return ns["_b" if mode == "vm" else "_d"]

    # ---- statements -----------------------------------------------------------------------

    def emit(self, code: Code, ins, src: Source, node) -> int:
        code.instrs.append(ins)
        code.locs.append((src, getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1))
        return len(code.instrs) - 1

    def block(self, stmts, src, scope, code):
        """Compile statements into instructions. A run of statements that never ask a player
        (no blocking call anywhere inside, `if`/`for`/`while` bodies included) becomes one
        generated Python function: one VM instruction instead of one per statement and jump."""
        run: list = []
        for s in stmts:
            if self.fusible(s):
                run.append(s)
                continue
            if self.vm_call(s) is not None:  # the run ends by pushing the procedure's frame
                run.append(s)
                self.fused(run, src, scope, code)
                run = []
                continue
            if run:
                self.fused(run, src, scope, code)
                run = []
            try:
                self.stmt(s, src, scope, code)
            except CheckError:
                self.recover(s, src, scope)
        if run:
            self.fused(run, src, scope, code)

    # ---- runs of statements as one generated function ---------------------------------------

    def fusible(self, s) -> bool:
        """Can statement s run as plain Python (nothing inside it may ask a player)?"""
        if isinstance(s, (A.Pass, A.Return)):
            return True
        if isinstance(s, A.ExprStmt):
            return not (isinstance(s.expr, A.Call) and self.is_blocking(s.expr))
        if isinstance(s, A.Assign):
            return not (isinstance(s.value, A.Call) and self.is_blocking(s.value))
        if isinstance(s, A.If):
            return (all(self.fusible(x) for _, body in s.branches for x in body)
                    and all(self.fusible(x) for x in s.orelse or []))
        if isinstance(s, (A.For, A.Repeat, A.While)):
            return all(self.fusible(x) for x in s.body)
        return False

    def vm_call(self, s):
        """The call of a statement calling a procedure that may ask (`f(...)`, `x = f(...)`)."""
        e = s.expr if isinstance(s, A.ExprStmt) else s.value if isinstance(s, A.Assign) else None
        if (isinstance(e, A.Call) and e.func in self.p.proc_sigs and e.func not in self.sync_procs
                and (isinstance(s, A.ExprStmt)
                     or (isinstance(s.target, A.Name) and s.op == "="
                         and not self.resolves_globally(s.target.id)))):
            return e
        return None

    def fused(self, stmts, src, scope, code) -> None:
        out = _Gen()
        self.gen_block(stmts, src, scope, out, 0)
        if not out.lines:
            return
        code.instrs.append(self.function(out, "vm"))
        code.locs.append(out.first_loc())

    def gen_block(self, stmts, src, scope, out, ind) -> None:
        n = len(out.lines)
        for s in stmts:
            try:
                self.gen_stmt(s, src, scope, out, ind)
            except CheckError:
                self.recover(s, src, scope)
        if len(out.lines) == n and ind:
            out.add(ind, "pass", src, None)

    def gen_stmt(self, s, src, scope, out, ind) -> None:
        if isinstance(s, A.Pass):
            return
        call = self.vm_call(s)
        if call is not None:
            var = s.target.id if isinstance(s, A.Assign) else None
            t = self.gen_push(call, var, src, scope, out, ind)
            if var is not None:
                scope.names[var] = join(scope.names.get(var, t), t) if var in scope.names else t
            return
        if isinstance(s, A.ExprStmt):
            if isinstance(s.expr, A.Call) and s.expr.func in self.sync_procs:
                self.gen_proc_call(s.expr, None, src, scope, out, ind)
                return
            fn, _ = self.expr(s.expr, src, scope)
            out.add(ind, out.use(self.g(fn)), src, s)
            out.check_end(ind, s.expr, src, s)
            return
        if isinstance(s, A.Assign):
            return self.gen_assign(s, src, scope, out, ind)
        if isinstance(s, A.If):
            for k, (cond, body) in enumerate(s.branches):
                cfn, _ = self.expr(cond, src, scope)
                out.add(ind, ("if " if k == 0 else "elif ") + out.use(self.g(cfn)) + ":", src, cond)
                self.gen_block(body, src, scope, out, ind + 1)
            if s.orelse:
                out.add(ind, "else:", src, s)
                self.gen_block(s.orelse, src, scope, out, ind + 1)
            return
        if isinstance(s, A.For):
            fn, t = self.expr(s.iterable, src, scope)
            if not is_list(t):
                self.problem(src, s.iterable, f"'for' needs a list, found {show(t)}")
                raise CheckError
            scope.hidden("it"), scope.hidden("ix")  # as the VM's loop: later hidden names stay the same
            scope.names[s.var] = elem(t)
            x = self.namer.fresh("_x")
            out.add(ind, f"for {x} in list({out.use(self.g(fn))} or []):", src, s)
            out.add(ind + 1, f"L[{s.var!r}] = {x}", src, s)
            self.gen_block(s.body, src, scope, out, ind + 1)
            return
        if isinstance(s, A.Repeat):
            fn, t = self.expr(s.count, src, scope)
            self.need(src, s.count, "int", t)
            cnt, n = scope.hidden("n"), self.namer.fresh("_x")
            out.add(ind, f"{n} = {out.use(self.g(fn))}", src, s)
            out.add(ind, f"while {n} is not None and {n} > 0:", src, s)
            out.add(ind + 1, f"{n} -= 1", src, s)
            self.gen_block(s.body, src, scope, out, ind + 1)
            out.add(ind, f"L[{cnt!r}] = {n}", src, s)  # the VM leaves its counter in the frame
            return
        if isinstance(s, A.While):
            fn, _ = self.expr(s.cond, src, scope)
            guard, n = scope.hidden("w"), self.namer.fresh("_x")
            out.add(ind, f"{n} = 0", src, s)
            out.add(ind, "while True:", src, s)
            out.add(ind + 1, f"{n} += 1", src, s)
            out.add(ind + 1, f"if {n} > {MAX_LOOP}:", src, s)
            out.add(ind + 2, f"raise RuntimeError(\"'while' ran more than {MAX_LOOP} times\")", src, s)
            out.add(ind + 1, f"if not {out.use(self.g(fn))}:", src, s)
            out.add(ind + 2, "break", src, s)
            self.gen_block(s.body, src, scope, out, ind + 1)
            out.add(ind, f"L[{guard!r}] = {n}", src, s)  # the VM leaves its guard in the frame
            return
        if isinstance(s, A.Return):
            v = "None"
            if s.value is not None:
                fn, _ = self.expr(s.value, src, scope)
                v = out.use(self.g(fn))
            t = self.namer.fresh("_x")
            out.add(ind, f"{t} = {v}", src, s)
            out.add(ind, None, src, s, ret=t)
            return
        self.problem(src, s, "unsupported statement")

    def gen_assign(self, s: A.Assign, src, scope, out, ind) -> None:
        tgt = s.target
        if isinstance(tgt, A.Name):
            name = tgt.id
            if name in self.p.counter_defs and self.p.counter_defs[name].per == "none":
                return self.gen_counter_assign(s, tgt, src, scope, out, ind)
            self.check_local_target(s, tgt, src, scope)
            if s.op != "=":
                fn, t = self.expr(s.value, src, scope)
                self.need(src, s.value, "int", t)
                sign = "+" if s.op == "+=" else "-"
                out.add(ind, f"L[{name!r}] = (L.get({name!r}) or 0) {sign} {out.use(self.g(fn))}", src, s)
                out.check_end(ind, s.value, src, s)
                return
            if isinstance(s.value, A.Call) and s.value.func in self.sync_procs:
                t = self.gen_proc_call(s.value, name, src, scope, out, ind)
                scope.names[name] = join(scope.names.get(name, t), t) if name in scope.names else t
                return
            fn, t = self.expr(s.value, src, scope)
            scope.names[name] = join(scope.names[name], t) if name in scope.names else t
            out.add(ind, f"L[{name!r}] = {out.use(self.g(fn))}", src, s)
            out.check_end(ind, s.value, src, s)
            return
        if isinstance(tgt, A.Call):
            if tgt.func in self.p.counter_defs:
                return self.gen_counter_assign(s, tgt, src, scope, out, ind)
            self.problem(src, tgt, f"cannot assign to {tgt.func}(...): only counters and local "
                         "variables can be assigned")
            raise CheckError
        self.problem(src, tgt, "cannot assign to this")
        raise CheckError

    def gen_proc_call(self, call, var, src, scope, out, ind) -> str:
        """A call of a procedure that never asks: a direct call of its generated function
        (bound by link() once every procedure is compiled), then a look at whether it ended
        the game or the turn."""
        from .blocking import proc_args  # blocking imports this module
        fns, code_id, _ = proc_args(self, call, src, scope)
        name = self.namer.fresh("_p")
        done = self.p.codes.get(code_id)
        if done is not None and done.direct is not None:
            out.env[name] = done.direct  # compiled already (a snippet compiled after the program)
        else:
            out.late[name] = code_id
        text = f"{name}(st, L" + "".join(", " + out.use(self.g(f)) for f in fns) + ")"
        out.add(ind, (f"L[{var!r}] = " if var else "") + text, src, call)
        out.add(ind, "if st.over or not st.stack:", src, call)
        out.add(ind + 1, "return", src, call)
        return self.p.proc_ret.get(call.func, "any")

    def gen_push(self, call, var, src, scope, out, ind) -> str:
        """A call of a procedure that may ask, last in its run: push its frame (the VM runs it
        next, then comes back after this instruction)."""
        from .blocking import proc_args  # blocking imports this module
        fns, code_id, names = proc_args(self, call, src, scope)
        d = self.namer.fresh("_x")
        items = ", ".join(f"{n!r}: {out.use(self.g(f))}" for n, f in zip(names, fns))
        out.add(ind, f"{d} = {{{items}}}", src, call)
        for k in ("me", "this", "here"):
            if k not in names:
                out.add(ind, f"if {k!r} in L:", src, call)
                out.add(ind + 1, f"{d}[{k!r}] = L[{k!r}]", src, call)
        out.add(ind, f"st.stack.append([{code_id!r}, 0, {d}, {var!r}])", src, call)
        return self.p.proc_ret.get(call.func, "any")

    def gen_counter_assign(self, s, tgt, src, scope, out, ind) -> None:
        name = tgt.id if isinstance(tgt, A.Name) else tgt.func
        index_fn = self.counter_index(name, tgt, src, scope)
        fn, t = self.expr(s.value, src, scope)
        self.need(src, s.value, "int", t)
        cdef = self.p.counter_defs[name]
        lo, hi = cdef.min, cdef.max
        i, v = self.namer.fresh("_x"), self.namer.fresh("_x")
        ix, val = out.use(self.g(index_fn)), out.use(self.g(fn))
        if s.op == "=":  # the value first, then the index (as the VM instruction does)
            out.add(ind, f"{v} = {val}", src, s)
            out.add(ind, f"st.ctr[{ix}] = {lo} if {v} < {lo} else {hi} if {v} > {hi} else {v}", src, s)
        else:
            sign = "+" if s.op == "+=" else "-"
            out.add(ind, f"{i} = {ix}", src, s)
            out.add(ind, f"{v} = st.ctr[{i}] {sign} {val}", src, s)
            out.add(ind, f"st.ctr[{i}] = {lo} if {v} < {lo} else {hi} if {v} > {hi} else {v}", src, s)
        out.check_end(ind, s.value, src, s)

    def stmt(self, s, src, scope, code):
        if isinstance(s, A.Pass):
            return
        if isinstance(s, A.ExprStmt):
            e = s.expr
            if isinstance(e, A.Call) and self.is_blocking(e):
                self.blocking_call(e, None, src, scope, code)
                return
            fn, _ = self.expr(e, src, scope)
            self.emit(code, define(self.g(fn), "{e}"), src, s)
            return
        if isinstance(s, A.Assign):
            return self.assign(s, src, scope, code)
        if isinstance(s, A.If):
            return self.if_stmt(s, src, scope, code)
        if isinstance(s, A.For):
            return self.for_stmt(s, src, scope, code)
        if isinstance(s, A.Repeat):
            return self.repeat_stmt(s, src, scope, code)
        if isinstance(s, A.While):
            return self.while_stmt(s, src, scope, code)
        if isinstance(s, A.Return):
            fn = None
            if s.value is not None:
                fn, _ = self.expr(s.value, src, scope)
            self.emit(code, _return(self.mat(fn)), src, s)
            return
        self.problem(src, s, "unsupported statement")

    def check_local_target(self, s: A.Assign, tgt: A.Name, src, scope) -> None:
        """A name assigned to is a local variable: not a global name, and defined already
        when it is `+=` or `-=`."""
        name = tgt.id
        if self.resolves_globally(name):
            self.problem(src, tgt, f"cannot assign to {name!r}: it names a "
                         f"{self.global_kind(name)}, not a local variable")
            raise CheckError
        if s.op != "=" and name not in scope.names:
            self.problem(src, tgt, f"undefined variable {name!r}")
            raise CheckError

    def assign(self, s: A.Assign, src, scope, code):
        tgt = s.target
        if isinstance(tgt, A.Name):
            name = tgt.id
            if name in self.p.counter_defs and self.p.counter_defs[name].per == "none":
                return self.counter_assign(s, tgt, src, scope, code)
            self.check_local_target(s, tgt, src, scope)
            if s.op != "=":
                fn, t = self.expr(s.value, src, scope)
                self.need(src, s.value, "int", t)
                op = s.op
                self.emit(code, _aug_local(name, self.mat(fn), op), src, s)
                return
            if isinstance(s.value, A.Call) and self.is_blocking(s.value):
                t = self.blocking_call(s.value, name, src, scope, code)
                scope.names[name] = join(scope.names.get(name, t), t) if name in scope.names else t
                return
            fn, t = self.expr(s.value, src, scope)
            scope.names[name] = join(scope.names[name], t) if name in scope.names else t
            self.emit(code, define(self.g(fn), f"L[{name!r}] = {{e}}"), src, s)
            return
        if isinstance(tgt, A.Call):
            if tgt.func in self.p.counter_defs:
                return self.counter_assign(s, tgt, src, scope, code)
            self.problem(src, tgt, f"cannot assign to {tgt.func}(...): only counters and local "
                         "variables can be assigned")
            raise CheckError
        self.problem(src, tgt, "cannot assign to this")
        raise CheckError

    def counter_assign(self, s, tgt, src, scope, code):
        name = tgt.id if isinstance(tgt, A.Name) else tgt.func
        index_fn = self.counter_index(name, tgt, src, scope)
        fn, t = self.expr(s.value, src, scope)
        self.need(src, s.value, "int", t)
        cdef = self.p.counter_defs[name]
        self.emit(code, _set_counter(self.mat(index_fn), self.mat(fn), s.op, cdef.min, cdef.max), src, s)

    def if_stmt(self, s: A.If, src, scope, code):
        ends = []
        for cond, body in s.branches:
            cfn, ct = self.expr(cond, src, scope)
            jf = _Jump()
            self.emit(code, _jump_if_false(self.mat(cfn), jf), src, cond)
            self.block(body, src, scope, code)
            je = _Jump()
            ends.append(je)
            self.emit(code, _jump(je), src, cond)
            jf.target = len(code.instrs)
        if s.orelse:
            self.block(s.orelse, src, scope, code)
        for je in ends:
            je.target = len(code.instrs)

    def for_stmt(self, s: A.For, src, scope, code):
        fn, t = self.expr(s.iterable, src, scope)
        if not is_list(t):
            self.problem(src, s.iterable, f"'for' needs a list, found {show(t)}")
            raise CheckError
        it, ix = scope.hidden("it"), scope.hidden("ix")
        scope.names[s.var] = elem(t)
        end = _Jump()
        nxt = _for_next(it, ix, s.var, end)
        self.emit(code, _entering(_for_init(self.mat(fn), it, ix), nxt), src, s)
        head = self.emit(code, nxt, src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(_Jump(head)), src, s)
        end.target = len(code.instrs)

    def repeat_stmt(self, s: A.Repeat, src, scope, code):
        fn, t = self.expr(s.count, src, scope)
        self.need(src, s.count, "int", t)
        cnt = scope.hidden("n")
        self.emit(code, _set_local(cnt, self.mat(fn)), src, s)
        end = _Jump()
        head = self.emit(code, _countdown(cnt, end), src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(_Jump(head)), src, s)
        end.target = len(code.instrs)

    def while_stmt(self, s: A.While, src, scope, code):
        fn, t = self.expr(s.cond, src, scope)
        guard = scope.hidden("w")
        end = _Jump()
        test = _while_head(self.mat(fn), guard, end)
        self.emit(code, _entering(_set_local(guard, lambda st, fr: 0), test), src, s)
        head = self.emit(code, test, src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(_Jump(head)), src, s)
        end.target = len(code.instrs)

    # ---- blocking calls -------------------------------------------------------------------

    def is_blocking(self, call: A.Call) -> bool:
        if call.func in self.p.proc_sigs:
            return call.func not in self.sync_procs
        b = self.B.TABLE.get(call.func)
        return bool(b and b.blocking)

    def blocking_call(self, call: A.Call, var, src, scope, code) -> str:
        if call.func in self.p.proc_sigs:
            from .blocking import compile_proc_call  # blocking imports this module
            return compile_proc_call(self, call, var, src, scope, code)
        b = self.B.TABLE[call.func]
        return b.make_stmt(self, call, var, src, scope, code)

    # ---- expressions ----------------------------------------------------------------------

    def need(self, src, node, want: str, got: str) -> None:
        if not accepts(want, got):
            self.problem(src, node, f"expected {show(want)}, found {show(got)}")
            raise CheckError

    def coerce(self, fn, got: str, want: str):
        """Wrap fn so its value has type `want` (card id -> the player it names)."""
        if want == "player" and got == "kind":
            to_player = self.B.kind_to_player
            return lambda st, fr: to_player(st, fn(st, fr))
        if want.startswith("list:player") and got == "list:kind":
            to_player = self.B.kind_to_player
            return lambda st, fr: [to_player(st, k) for k in fn(st, fr)]
        return fn

    def resolves_globally(self, name: str) -> bool:
        p = self.p
        return (name in p.params or name in p.counter_defs or name in p.zone_defs
                or name in p.card_index or name in p.loc_index or name in p.sides)

    def global_kind(self, name: str) -> str:
        p = self.p
        for what, table in (("param", p.params), ("counter", p.counter_defs), ("zone", p.zone_defs),
                            ("card", p.card_index), ("location", p.loc_index), ("side", p.sides)):
            if name in table:
                return what
        return "name"

    def all_names(self, scope: Scope) -> list[str]:
        p = self.p
        return (list(scope.names) + list(scope.card_params) + list(p.params) + list(p.counter_defs)
                + list(p.zone_defs) + list(p.card_index) + list(p.loc_index) + list(p.sides)
                + list(self.B.NAMES) + list(self.B.TABLE) + list(p.proc_sigs))

    def suggest(self, name: str, scope: Scope) -> str:
        close = difflib.get_close_matches(name, self.all_names(scope), n=1, cutoff=0.75)
        return f" (did you mean {close[0]!r}?)" if close else ""

    def expr(self, e, src: Source, scope: Scope):
        """Compile an expression node: return (closure, type)."""
        m = getattr(self, "x_" + type(e).__name__, None)
        if m is None:
            self.problem(src, e, "unsupported expression")
            raise CheckError
        fn, t = m(e, src, scope)
        if getattr(fn, "_g", None) is None:
            # no source known: call the closure; it reads the locals its tree names
            from ..program import _names_in
            g = self.namer.embed(fn, frozenset(_names_in(e)))
            try:
                fn._g = g
            except AttributeError:
                fn = tagged(lambda st, fr, f=fn: f(st, fr), g)
        return fn, t

    def x_Num(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), "int"

    def x_Str(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), "str"

    def x_Const(self, e, src, scope):
        v = e.value
        return tag(lambda st, fr: v, repr(v)), ("bool" if isinstance(v, bool) else "none")

    def x_Name(self, e, src, scope):
        name = e.id
        if name in scope.names:
            t = scope.names[name]
            # inside a generated comprehension its variable is a Python variable
            s = "v_" + name if name in scope.pyvars else f"L.get({name!r})"
            return tag(lambda st, fr: fr[2].get(name), s), t
        if name in scope.card_params:
            v = scope.card_params[name]
            return (tagged(lambda st, fr: v, self.namer.const(v)),
                    ("int" if isinstance(v, int) and not isinstance(v, bool) else "any"))
        special = self.B.NAMES.get(name)
        if special is not None:
            return special(self, e, src, scope)
        p = self.p
        if name in p.params:
            return self.B.param_ref(self, name, e, src, scope), "int"
        if name in p.counter_defs:
            cd = p.counter_defs[name]
            if cd.per != "none":
                self.problem(src, e, f"counter {name!r} is per {cd.per}: write {name}(...)")
                raise CheckError
            i = cd.j
            return tag(lambda st, fr: st.ctr[i], f"st.ctr[{i}]"), "int"
        if name in p.zone_defs:
            zd = p.zone_defs[name]
            if zd.per != "none":
                self.problem(src, e, f"zone {name!r} is per {zd.per}: write {name}(...)")
                raise CheckError
            z = zd.j
            return tag(lambda st, fr: z, repr(z)), "zone"
        if name in p.card_index:
            k = p.card_index[name]
            return tag(lambda st, fr: k, repr(k)), "kind"
        if name in p.loc_index:
            li = p.loc_index[name]
            return tag(lambda st, fr: li, repr(li)), "loc"
        if name in p.sides:
            return tag(lambda st, fr: name, repr(name)), "str"
        if name in p.proc_sigs or name in self.B.TABLE:
            self.problem(src, e, f"{name!r} is a function: call it as {name}(...)")
            raise CheckError
        self.problem(src, e, f"undefined name {name!r}{self.suggest(name, scope)}")
        raise CheckError

    def x_Call(self, e: A.Call, src, scope):
        name = e.func
        p = self.p
        if name in p.proc_sigs or (name in self.B.TABLE and self.B.TABLE[name].blocking):
            self.problem(src, e, f"{name}(...) may ask a player to decide, so it must stand alone "
                         f"as a statement or as 'x = {name}(...)'")
            raise CheckError
        if name in p.counter_defs:
            idx = self.counter_index(name, e, src, scope)
            return tagged(lambda st, fr: st.ctr[idx(st, fr)], combine("st.ctr[{0}]", self.g(idx))), "int"
        if name in p.zone_defs:
            return self.B.zone_ref(self, name, e, src, scope), "zone"
        b = self.B.TABLE.get(name)
        if b is None:
            self.problem(src, e, f"unknown function {name!r}{self.suggest(name, scope)}")
            raise CheckError
        return b.make_expr(self, e, src, scope)

    def counter_index(self, name, node, src, scope):
        """A closure giving the flat index of a counter (global, per player or per location)."""
        cd = self.p.counter_defs[name]
        args = node.args if isinstance(node, A.Call) else []
        if cd.per == "none":
            if args:
                self.problem(src, node, f"counter {name!r} is global: write {name} without (...)")
                raise CheckError
            i = cd.j
            return tag(lambda st, fr: i, repr(i))
        if len(args) != 1:
            self.problem(src, node, f"counter {name!r} is per {cd.per}: it takes 1 argument, "
                         f"found {len(args)}")
            raise CheckError
        p = self.p
        return self.slot_index(args[0], cd.per, (p.CB, p.NPC), (p.NGC, p.NLC), cd.j, src, scope)

    def slot_index(self, node, per: str, player_layout, loc_layout, j: int, src, scope):
        """The flat index of a per-player or per-location zone or counter: the owner's block
        starts at base + owner * stride (see program.py's layouts), and this one is the j-th."""
        want = "player" if per == "player" else "loc"
        fn, t = self.expr(node, src, scope)
        self.need(src, node, want, t)
        fn = self.coerce(fn, t, want)
        base, stride = player_layout if per == "player" else loc_layout
        return tagged(lambda st, fr: base + fn(st, fr) * stride + j,
                      combine(f"({{0}} * {stride} + {base + j})", self.g(fn)))

    def x_Attr(self, e: A.Attr, src, scope):
        ofn, t = self.expr(e.obj, src, scope)
        return self.B.attribute(self, ofn, t, e, src, scope)

    def x_Index(self, e: A.Index, src, scope):
        ofn, t = self.expr(e.obj, src, scope)
        ifn, it = self.expr(e.index, src, scope)
        if not is_list(t):
            self.problem(src, e, f"only lists can be indexed, found {show(t)}")
            raise CheckError
        self.need(src, e.index, "int", it)

        def index(st, fr):
            xs = ofn(st, fr)
            i = ifn(st, fr)
            return xs[i] if -len(xs) <= i < len(xs) else None
        h = self.namer.const(_index)
        return tagged(index, combine(h[0] + "({0}, {1})", self.g(ofn), self.g(ifn), h)), elem(t)

    def x_ListExpr(self, e: A.ListExpr, src, scope):
        parts = [self.expr(x, src, scope) for x in e.items]
        fns = [f for f, _ in parts]
        t = "any"
        for i, (_, pt) in enumerate(parts):
            t = pt if i == 0 else join(t, pt)
        if t == "player" and any(pt == "kind" for _, pt in parts):
            fns = [self.coerce(f, pt, "player") for f, pt in parts]
        g = combine("[" + ", ".join("{%d}" % i for i in range(len(fns))) + "]", *[self.g(f) for f in fns])
        return tagged(lambda st, fr: [f(st, fr) for f in fns], g), list_of(t if parts else "any")

    def x_Comprehension(self, e: A.Comprehension, src, scope):
        ifn, it = self.expr(e.iterable, src, scope)
        if not is_list(it):
            self.problem(src, e.iterable, f"'for' needs a list, found {show(it)}")
            raise CheckError
        var = e.var
        prev = scope.names.get(var)
        scope.names[var] = elem(it)
        saved_py = scope.pyvars
        scope.pyvars = saved_py | {var}
        try:
            efn, et = self.expr(e.elt, src, scope)
            cfn = self.expr(e.cond, src, scope)[0] if e.cond is not None else None
        finally:
            scope.pyvars = saved_py
        if prev is None:
            scope.names.pop(var, None)
        else:
            scope.names[var] = prev

        def comp(st, fr):
            loc = fr[2]
            saved = loc.get(var, _MISSING)
            out = []
            for x in ifn(st, fr):
                loc[var] = x
                if cfn is None or cfn(st, fr):
                    out.append(efn(st, fr))
            if saved is _MISSING:
                loc.pop(var, None)
            else:
                loc[var] = saved
            return out
        # a native Python comprehension, unless an embedded closure reads the variable
        ge, gi = self.g(efn), self.g(ifn)
        gc = self.g(cfn) if cfn is not None else None
        if (var not in ge[2] and "*" not in ge[2] and ":=" not in gi[0]
                and (gc is None or (var not in gc[2] and "*" not in gc[2]))):
            v = "v_" + var
            if gi[0] == "list(range(st.n))":  # `players`: a range needs no copy
                gi = ("range(st.n)", gi[1], gi[2])
            if gi[0].startswith("list(st.zones[") and "(st" not in ge[0] and (gc is None or "(st" not in gc[0]):
                # cards(z) copies the zone in case the body moves cards; a body that calls
                # nothing with the state cannot, so the zone is iterated directly
                gi = ("st.zones[" + gi[0][len("list(st.zones["):-1], gi[1], gi[2])
            if gc is None:
                g = combine(f"[{{0}} for {v} in {{1}}]", ge, gi)
            else:
                g = combine(f"[{{0}} for {v} in {{1}} if {{2}}]", ge, gi, gc)
            g = (g[0], g[1], g[2] - {var})
            tag(comp, *g)
        return comp, list_of(et)

    def x_BinOp(self, e: A.BinOp, src, scope):
        lf, lt = self.expr(e.left, src, scope)
        rf, rt = self.expr(e.right, src, scope)
        op = e.op
        gl, gr = self.g(lf), self.g(rf)
        if op == "+" and is_list(lt) and is_list(rt) and (lt != "any" or rt != "any"):
            return tagged(lambda st, fr: lf(st, fr) + rf(st, fr), combine("({0} + {1})", gl, gr)), join(lt, rt)
        self.need(src, e.left, "int", lt)
        self.need(src, e.right, "int", rt)
        f = _ARITH[op]
        if op in ("+", "-", "*"):
            g = combine("({0} %s {1})" % op, gl, gr)
        else:  # division by zero gives 0
            h = self.namer.const(f)
            g = combine(h[0] + "({0}, {1})", gl, gr, h)
        return tagged(lambda st, fr: f(lf(st, fr), rf(st, fr)), g), "int"

    def x_Neg(self, e: A.Neg, src, scope):
        f, t = self.expr(e.operand, src, scope)
        self.need(src, e.operand, "int", t)
        return tagged(lambda st, fr: -f(st, fr), combine("(-{0})", self.g(f))), "int"

    def x_Not(self, e: A.Not, src, scope):
        f, _ = self.expr(e.operand, src, scope)
        return tagged(lambda st, fr: not f(st, fr), combine("(not {0})", self.g(f))), "bool"

    def x_BoolOp(self, e: A.BoolOp, src, scope):
        fns = [self.expr(v, src, scope)[0] for v in e.values]
        g = combine("bool(" + f" {e.op} ".join("{%d}" % i for i in range(len(fns))) + ")",
                    *[self.g(f) for f in fns])
        fn, t = self._boolop(e, fns)
        return tagged(fn, g), t

    def _boolop(self, e, fns):
        if len(fns) == 2:
            a, b = fns
            if e.op == "and":
                return (lambda st, fr: bool(a(st, fr) and b(st, fr))), "bool"
            return (lambda st, fr: bool(a(st, fr) or b(st, fr))), "bool"
        if e.op == "and":
            def f_and(st, fr):
                for f in fns:
                    if not f(st, fr):
                        return False
                return True
            return f_and, "bool"

        def f_or(st, fr):
            for f in fns:
                if f(st, fr):
                    return True
            return False
        return f_or, "bool"

    def x_IfExpr(self, e: A.IfExpr, src, scope):
        cf, _ = self.expr(e.cond, src, scope)
        tf, tt = self.expr(e.then, src, scope)
        of, ot = self.expr(e.other, src, scope)
        t = join(tt, ot)
        tf, of = self.coerce(tf, tt, t), self.coerce(of, ot, t)
        g = combine("({1} if {0} else {2})", self.g(cf), self.g(tf), self.g(of))
        return tagged(lambda st, fr: tf(st, fr) if cf(st, fr) else of(st, fr), g), t

    def x_Compare(self, e: A.Compare, src, scope):
        return self.B.compare(self, e, src, scope)


# built-ins after which a run of generated statements looks whether the game ended or the turn
# was cut short (end_turn clears the stack); `draw` may refill a zone, which runs its code
_ENDS = frozenset({"end", "check_end", "end_turn", "draw"})


class _Gen:
    """The lines of one generated function, the constants they name, and where each line's
    statement was written."""

    def __init__(self):
        self.lines: list = []  # (indent, text, (Source, line, col) or None, returned temporary)
        self.env: dict = {}
        self.late: dict = {}  # constant name -> code id of a procedure called directly

    def use(self, g) -> str:
        if g[1]:
            self.env.update(g[1])
        return g[0]

    def add(self, ind: int, text, src, node, ret=None) -> None:
        loc = (src, getattr(node, "line", 1) or 1, getattr(node, "col", 1) or 1) if node else None
        self.lines.append((ind, text, loc, ret))

    def first_loc(self):
        return self.lines[0][2] if self.lines else None

    def check_end(self, ind, expr, src, node) -> None:
        """After a statement that may end the game or the turn, stop as the VM would."""
        if _calls_any(expr, _ENDS):
            self.add(ind, "if st.over or not st.stack:", src, node)
            self.add(ind + 1, "return", src, node)


def walk_nodes(node):
    """Every node of a syntax tree (statements, expressions, their lists)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Node):
            yield n
            stack.extend(v for v in vars(n).values() if isinstance(v, (A.Node, list, tuple, dict)))
        elif isinstance(n, (list, tuple)):
            stack.extend(n)
        elif isinstance(n, dict):
            stack.extend(n.values())


def _calls_any(node, names) -> bool:
    return any(isinstance(n, A.Call) and n.func in names for n in walk_nodes(node))


_USES_FR = re.compile(r"\bfr\b")


def _failed_line(exc: BaseException):
    """Where in the ruleset the innermost generated statement that raised exc was written."""
    found = None
    tb = exc.__traceback__
    while tb is not None:
        locs = tb.tb_frame.f_globals.get("__locs__")
        if locs is not None and 0 <= tb.tb_lineno < len(locs) and locs[tb.tb_lineno] is not None:
            found = locs[tb.tb_lineno]
        tb = tb.tb_next
    return found


class _Jump:
    """A jump target filled in once the compiler knows where a block ends."""

    __slots__ = ("target",)
    made: list | None = None  # while a code unit compiles: every jump made for it

    def __init__(self, target: int | None = None):
        self.target = target
        if _Jump.made is not None:
            _Jump.made.append(self)


def _thread_jumps(code: Code, jumps: list) -> None:
    """A jump whose target is an unconditional jump goes straight to where that one goes
    (the end of an `if` branch or of an inner loop, in a loop body, is its back edge)."""
    instrs = code.instrs
    for j in jumps:
        t, seen = j.target, set()
        while t is not None and 0 <= t < len(instrs) and t not in seen:
            nxt = getattr(instrs[t], "_goto", None)
            if nxt is None or nxt.target is None:
                break
            seen.add(t)
            t = nxt.target
        j.target = t


_MISSING = object()


def _index(xs, i):
    return xs[i] if -len(xs) <= i < len(xs) else None

_ARITH = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else 0,
    "//": lambda a, b: a // b if b else 0,
    "%": lambda a, b: a % b if b else 0,
}


def _exec(fn):
    def ins(st, fr):
        fn(st, fr)
    return ins


def _set_local(name, fn):
    def ins(st, fr):
        fr[2][name] = fn(st, fr)
    return ins


def _aug_local(name, fn, op):
    sign = 1 if op == "+=" else -1

    def ins(st, fr):
        fr[2][name] = (fr[2].get(name) or 0) + sign * fn(st, fr)
    return ins


def _set_counter(index_fn, fn, op, lo, hi):
    if op == "=":
        def ins(st, fr):
            v = fn(st, fr)
            st.ctr[index_fn(st, fr)] = lo if v < lo else hi if v > hi else v
        return ins
    sign = 1 if op == "+=" else -1

    def ins_aug(st, fr):
        i = index_fn(st, fr)
        v = st.ctr[i] + sign * fn(st, fr)
        st.ctr[i] = lo if v < lo else hi if v > hi else v
    return ins_aug


def _jump(j: _Jump):
    def ins(st, fr):
        fr[1] = j.target
    ins._goto = j
    return ins


def _jump_if_false(cond, j: _Jump):
    def ins(st, fr):
        if not cond(st, fr):
            fr[1] = j.target
    return ins


def _entering(init, head):
    """A loop's first instruction: set it up, then run its head (the next instruction) at
    once, as the VM would next, so entering a loop costs one dispatch, not two."""
    def ins(st, fr):
        init(st, fr)
        fr[1] += 1
        return head(st, fr)
    return ins


def _for_init(fn, it, ix):
    def ins(st, fr):
        fr[2][it] = list(fn(st, fr) or [])
        fr[2][ix] = 0
    return ins


def _for_next(it, ix, var, end: _Jump):
    def ins(st, fr):
        loc = fr[2]
        i = loc[ix]
        xs = loc[it]
        if i >= len(xs):
            fr[1] = end.target
            del loc[it], loc[ix]
        else:
            loc[var] = xs[i]
            loc[ix] = i + 1
    return ins


def _countdown(cnt, end: _Jump):
    def ins(st, fr):
        n = fr[2][cnt]
        if n is None or n <= 0:
            fr[1] = end.target
        else:
            fr[2][cnt] = n - 1
    return ins


def _while_head(cond, guard, end: _Jump):
    def ins(st, fr):
        g = fr[2][guard] + 1
        if g > MAX_LOOP:
            raise RuntimeError(f"'while' ran more than {MAX_LOOP} times")
        fr[2][guard] = g
        if not cond(st, fr):
            fr[1] = end.target
    return ins


def _return(fn):
    def ins(st, fr):
        v = fn(st, fr) if fn is not None else None
        st.stack.pop()
        if fr[3] is not None and st.stack:
            st.stack[-1][2][fr[3]] = v
    return ins
