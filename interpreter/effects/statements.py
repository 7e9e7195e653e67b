"""Statements as VM instructions: blocks, assignments, if, for, repeat, while, return.

Pipeline position: compiler (effects/), mixed into the Compiler (compile.py); the
instructions run on the engine's loop (engine/flow.py) and use the runtime's jump targets
(runtime/vm.py). Only statements that may ask a player need instructions of their own; a
run of statements that never ask becomes one generated function (fusion.py). Blocking
calls (choose, act, window, run, emit, procedures that may ask) are compiled by
blocking.py and procedures.py.
"""

from __future__ import annotations

from ..runtime.vm import MAX_LOOP, Code, Jump
from . import ast as A
from .codegen import define
from .procedures import compile_proc_call
from .scope import CheckError, Source
from .types import elem, is_list, join, show


class StatementsMixin:
    """Compiling statements into VM instructions (a part of Compiler)."""

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
            jf = Jump()
            self.emit(code, _jump_if_false(self.mat(cfn), jf), src, cond)
            self.block(body, src, scope, code)
            je = Jump()
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
        end = Jump()
        nxt = _for_next(it, ix, s.var, end)
        self.emit(code, _entering(_for_init(self.mat(fn), it, ix), nxt), src, s)
        head = self.emit(code, nxt, src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(Jump(head)), src, s)
        end.target = len(code.instrs)

    def repeat_stmt(self, s: A.Repeat, src, scope, code):
        fn, t = self.expr(s.count, src, scope)
        self.need(src, s.count, "int", t)
        cnt = scope.hidden("n")
        self.emit(code, _set_local(cnt, self.mat(fn)), src, s)
        end = Jump()
        head = self.emit(code, _countdown(cnt, end), src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(Jump(head)), src, s)
        end.target = len(code.instrs)

    def while_stmt(self, s: A.While, src, scope, code):
        fn, t = self.expr(s.cond, src, scope)
        guard = scope.hidden("w")
        end = Jump()
        test = _while_head(self.mat(fn), guard, end)
        self.emit(code, _entering(_set_local(guard, lambda st, fr: 0), test), src, s)
        head = self.emit(code, test, src, s)
        self.block(s.body, src, scope, code)
        self.emit(code, _jump(Jump(head)), src, s)
        end.target = len(code.instrs)

    def is_blocking(self, call: A.Call) -> bool:
        if call.func in self.p.proc_sigs:
            return call.func not in self.sync_procs
        b = self.B.TABLE.get(call.func)
        return bool(b and b.blocking)

    def blocking_call(self, call: A.Call, var, src, scope, code) -> str:
        if call.func in self.p.proc_sigs:
            return compile_proc_call(self, call, var, src, scope, code)
        b = self.B.TABLE[call.func]
        return b.make_stmt(self, call, var, src, scope, code)


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


def _jump(j: Jump):
    def ins(st, fr):
        fr[1] = j.target
    ins._goto = j
    return ins


def _jump_if_false(cond, j: Jump):
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


def _for_next(it, ix, var, end: Jump):
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


def _countdown(cnt, end: Jump):
    def ins(st, fr):
        n = fr[2][cnt]
        if n is None or n <= 0:
            fr[1] = end.target
        else:
            fr[2][cnt] = n - 1
    return ins


def _while_head(cond, guard, end: Jump):
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
