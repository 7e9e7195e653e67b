"""Calls of the ruleset's procedures: pushed frames, or direct calls of generated code.

Pipeline position: compiler (effects/), mixed into the Compiler (compile.py). A procedure
that can never ask a player and does not recurse (`find_sync_procs`) is compiled once more
as a plain Python function and called directly from generated code (bound by `link` once
every procedure is compiled); any other call pushes a frame on the state's stack.
"""

from __future__ import annotations

from . import ast as A
from .ast import walk_nodes
from .parse import EffectSyntaxError, parse
from .scope import CheckError
from .types import accepts, show

# the built-ins that may end the game (`end`, `check_end`, `draw` through a zone's on_empty
# routine) or the turn (`end_turn`): after a call that may reach one, generated code stops
ENDS = frozenset({"end", "check_end", "end_turn", "draw"})


class ProceduresMixin:
    """Compiling calls of ruleset procedures (a part of Compiler)."""

    def find_sync_procs(self, bodies: dict) -> None:
        """The procedures that can never ask a player (no choose, act, window, run or emit,
        and no call of a procedure that may) and are not recursive: their calls run as
        direct Python calls inside generated code, not as VM frames."""
        calls: dict[str, set] = {}
        blocking: set[str] = set()
        ends: set[str] = set()  # procedures that call a built-in that may end the game or turn
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
                        if n.func in ENDS:
                            ends.add(name)
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
        self.may_end = {name for name in bodies if name in ends or any(reaches(name, e) for e in ends)}

    def link(self) -> None:
        """Bind direct procedure calls to the functions compiled for them."""
        for ns, name, code_id in self.late:
            code = self.p.codes.get(code_id)
            ns[name] = code.direct if code is not None else None
        self.late = []

    def gen_proc_call(self, call, var, src, scope, out, ind) -> str:
        """A call of a procedure that never asks: a direct call of its generated function
        (bound by link() once every procedure is compiled), then a look at whether it ended
        the game or the turn."""
        fns, code_id, _ = proc_args(self, call, src, scope)
        name = self.namer.fresh("_p")
        done = self.p.codes.get(code_id)
        if done is not None and done.direct is not None:
            out.env[name] = done.direct  # compiled already (a snippet compiled after the program)
        else:
            out.late[name] = code_id
        text = f"{name}(st, L" + "".join(", " + out.use(self.g(f)) for f in fns) + ")"
        out.add(ind, (f"L[{var!r}] = " if var else "") + text, src, call)
        if self.may_end is None or call.func in self.may_end:  # else it cannot end game or turn
            out.add(ind, "if st.over or not st.stack:", src, call)
            out.add(ind + 1, "return", src, call)
        return self.p.proc_ret.get(call.func, "any")

    def gen_push(self, call, var, src, scope, out, ind) -> str:
        """A call of a procedure that may ask, last in its run: push its frame (the VM runs it
        next, then comes back after this instruction)."""
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


def proc_args(comp, call, src, scope):
    """Check a call of a ruleset procedure; return its argument functions, its code id and
    its parameter names."""
    p = comp.p
    params = p.proc_sigs[call.func]
    if call.kwargs:
        k = next(iter(call.kwargs))
        comp.problem(src, call, f"procedure {call.func}() takes positional arguments only, found {k}:")
        raise CheckError
    if len(call.args) != len(params):
        comp.problem(src, call, f"{call.func}() takes {len(params)} argument"
                     f"{'s' if len(params) != 1 else ''} ({', '.join(params)}), found {len(call.args)}")
        raise CheckError
    types = p.proc_types.get(call.func) or ["any"] * len(params)
    fns, seen_types = [], []
    for a, want in zip(call.args, types):
        f, t = comp.expr(a, src, scope)
        seen_types.append(t)
        if want != "any" and not accepts(want, t):
            comp.problem(src, a, f"{call.func}() expects {show(want)} for {params[len(fns)]!r}, found {show(t)}")
            raise CheckError
        fns.append(comp.mat(comp.coerce(f, t, want)))
    note_call_types(p, ("proc", call.func), seen_types)
    return fns, "proc:" + call.func, list(params)


def note_call_types(program, callee, types) -> None:
    """Record the static types passed to an untyped parameter at one call site, so that
    `determinize` knows which suspended locals hold cards (engine/views.py)."""
    seen = program.__dict__.setdefault("call_arg_types", {}).setdefault(callee, [])
    for i, t in enumerate(types):
        if i == len(seen):
            seen.append(set())
        seen[i].add(t)


def compile_proc_call(comp, call, var, src, scope, code):
    fns, code_id, names = proc_args(comp, call, src, scope)

    def ins(st, fr):
        loc = dict(zip(names, [f(st, fr) for f in fns]))
        cur = fr[2]
        for k in ("me", "this", "here"):
            if k in cur and k not in loc:
                loc[k] = cur[k]
        st.stack.append([code_id, 0, loc, var])
        return None
    comp.emit(code, ins, src, call)
    return comp.p.proc_ret.get(call.func, "any")
