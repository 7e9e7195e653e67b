"""Runs of statements that never ask a player, as one generated Python function.

Pipeline position: compiler (effects/), mixed into the Compiler (compile.py). A run of
statements with no blocking call anywhere inside (bodies of if, for, while and repeat
included) is written as Python source and compiled once (codegen.py): one VM instruction
instead of one per statement and jump. A run stops where the game or the turn may end, as
the VM would; a procedure that may ask, last in a run, is pushed as a frame.
"""

from __future__ import annotations

import re

from ..runtime.vm import MAX_LOOP
from . import ast as A
from .ast import walk_nodes
from .codegen import _compile, hoist
from .procedures import ENDS
from .scope import CheckError
from .types import elem, is_list, join, show


class FusionMixin:
    """Generating one Python function per run of non-blocking statements (a part of Compiler)."""

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

    def function(self, out, mode: str, code_id: str = "", params=()):
        """The generated function of a run of statements: `vm` is a VM instruction (st, fr);
        `direct` a procedure called from generated code (st, caller's locals, *args)."""
        if mode == "vm":
            head = ["def _b(st, fr):", "    L = fr[2]"]
        else:
            args = [f"a{i}" for i in range(len(params))]
            head = [f"def _d(st, cl{''.join(', ' + a for a in args)}):"]
            uses_fr = any(_USES_FR.search(t) for _, t, _, _ in out.lines if t)
            read = None if uses_fr else _keys_read([t for _, t, _, _ in out.lines if t])
            if read is not None and all(k in params for k in read[0]) and not read[1]:
                # it only reads its parameters: they are its arguments, no locals are made
                sub = dict(zip(params, args))
                out.lines = [(i, _L_GET.sub(lambda m: sub[m.group(1)], t) if t else t, c, r)
                             for i, t, c, r in out.lines]
            else:
                head.append("    L = {" + ", ".join(f"{n!r}: {a}" for n, a in zip(params, args)) + "}")
                for k in ("me", "this", "here"):  # the caller's, when the body may read them
                    if k not in params and (read is None or k in read[0] or k in read[1]):
                        head.append(f"    if {k!r} in cl:")
                        head.append(f"        L[{k!r}] = cl[{k!r}]")
            if uses_fr:
                head.append(f"    fr = [{code_id!r}, 0, L, None]")
        lines, locs = [], []
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
            locs.append(None)
        held, lines = hoist(lines)
        locs = [None] * (len(head) + len(held) + 1) + locs
        text = "\n".join(head + held + lines) + "\n"
        ns = dict(out.env)
        ns["__locs__"] = locs  # read back from a traceback's frame (the code is shared by text)
        exec(_compile(text), ns)  # noqa: S102 - text built by the compiler from checked trees
        for name, cid in out.late.items():
            self.late.append((ns, name, cid))
        return ns["_b" if mode == "vm" else "_d"]


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
        if _calls_any(expr, ENDS):
            self.add(ind, "if st.over or not st.stack:", src, node)
            self.add(ind + 1, "return", src, node)


def _calls_any(node, names) -> bool:
    return any(isinstance(n, A.Call) and n.func in names for n in walk_nodes(node))


_USES_FR = re.compile(r"\bfr\b")
_L_NAME = re.compile(r"\bL\b")
_L_GET = re.compile(r"(?<![\w.])L\.get\('(\w+)'\)")
_L_OTHER = re.compile(r"(?<![\w.])L\['(\w+)'\]|'(\w+)' in L\b")


def _keys_read(texts):
    """The locals a direct procedure's body touches, when it names its locals only as
    `L.get('x')` (first set), `L['x']` or `'x' in L` (second set); None when it names them
    any other way (passes L on, to a procedure that reads the caller's `me`)."""
    got, other, named = set(), set(), 0
    for t in texts:
        named += len(_L_NAME.findall(t))
        for m in _L_GET.finditer(t):
            got.add(m.group(1))
            named -= 1
        for m in _L_OTHER.finditer(t):
            other.add(m.group(1) or m.group(2))
            named -= 1
    return None if named else (got, other)
