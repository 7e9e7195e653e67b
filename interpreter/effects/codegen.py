"""Closures -> Python source -> one real function per statement or test.

Why: a compiled expression is a tree of closures, one Python call per node; a legality test
like `count([x for x in cards(white_slots(q)) if x.value == c.value]) < 2` costs ~10 calls
per card and dominated random playouts (profile in benchmarks/results/). Every closure the
compiler emits also carries its meaning as a Python expression (`fn._g = (src, env, emb)`):

* `src`: text in terms of `st`, `fr` and `L` (= `fr[2]`, the frame's locals);
* `env`: the constants the text names (`_k3`: a property table, a helper, ...);
* `emb`: the local names read by closures embedded as constants (`_k3(st, fr)`); "*" when
  unknown. A comprehension becomes a real Python comprehension only if no embedded closure
  reads its variable (those read it from `L`, which the generated code never sets).

At the roots (a VM instruction, a legality test, an end condition) `materialize` compiles
the composed text once into a function; code objects are cached by text, so a warm load
only `exec`s them. A closure without source is embedded as a constant, so anything the
generator does not know still runs, exactly as before.
"""

from __future__ import annotations

import re

EMPTY: frozenset = frozenset()
UNKNOWN: frozenset = frozenset({"*"})
_CODE: dict[str, object] = {}  # source text -> code object (warm loads compile nothing)
SOURCES: dict[str, str] = {}  # "<effect N>" -> its text: profiles name each generated function apart
_USES_L = re.compile(r"\bL\b")
_USES_FRAME = re.compile(r"\b(L|fr)\b")


def frame_free(g) -> bool:
    """Does a fragment's text read nothing of the frame (no locals, no embedded closure)?"""
    return _USES_FRAME.search(g[0]) is None


class Namer:
    """Constant and temporary names of one Program (numbered in compile order, so a warm
    load of the same ruleset produces the same texts and hits the code cache)."""

    def __init__(self):
        self.n = 0

    def fresh(self, base: str = "_k") -> str:
        self.n += 1
        return f"{base}{self.n}"

    def const(self, v):
        """A fragment naming value v (literals are written inline)."""
        if v is None or isinstance(v, (bool, int, str)):
            return (repr(v), None, EMPTY)
        name = self.fresh()
        return (name, {name: v}, EMPTY)

    def embed(self, fn, emb=UNKNOWN):
        """A fragment calling closure fn as a constant."""
        name = self.fresh()
        return (f"{name}(st, fr)", {name: fn}, emb)


_SIMPLE = re.compile(r"v_\w+|L\.get\('\w+'\)")


def simple(src: str) -> bool:
    """A text cheap to evaluate twice and free of effects (a variable): it can be
    repeated instead of held in a `:=` temporary, which a comprehension's iterable forbids.
    (Not a literal: `3 is None` draws a SyntaxWarning.)"""
    return _SIMPLE.fullmatch(src) is not None


def tag(fn, src: str, env=None, emb=EMPTY):
    """Attach source to closure fn; return fn."""
    fn._g = (src, env, emb)
    return fn


def frag(namer: Namer, fn):
    """The fragment of fn, embedding it when it carries none."""
    g = getattr(fn, "_g", None)
    if g is None:
        g = namer.embed(fn)
        try:
            fn._g = g
        except AttributeError:  # a builtin function: cannot carry attributes
            pass
    return g


def combine(template: str, *frags):
    """Fill `template` ({0}, {1}, ...) with fragments' texts; merge their constants."""
    env: dict = {}
    emb = EMPTY
    for _, e, m in frags:
        if e:
            env.update(e)
        if m:
            emb = emb | m
    return (template.format(*[f[0] for f in frags]), env or None, emb)


def tagged(fn, g):
    fn._g = g
    return fn


def _compile(text: str):
    code = _CODE.get(text)
    if code is None:
        name = f"<effect {len(_CODE)}>"
        SOURCES[name] = text
        code = _CODE[text] = compile(text, name, "exec")
    return code


_HOISTED = re.compile(r"""'[^'\\\n]*(?:\\.[^'\\\n]*)*'|"[^"\\\n]*(?:\\.[^"\\\n]*)*"|L\.get\('(\w+)'\)""")
_L_SET = re.compile(r"L\['(\w+)'\] = (?!=)")  # a statement assigning one local (at a line's start)
_L_OTHER = re.compile(r"(?<![\w.])L\['(\w+)'\](?! *=(?!=))|'(\w+)' in L\b")  # L['x'] read, 'x' in L
_L_WRITE = re.compile(r"L\[('\w+')\] *=(?!=)|L\.pop\(('\w+')")
_L_ANY_WRITE = ("L.update", "L.clear", "L.setdefault", "L.popitem", "del L")
_WORD = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")


def _read(m):
    """The local a match of _HOISTED reads (None: a string literal, or a longer name)."""
    if m.group(1) is None:
        return None
    i = m.start()
    return None if i and m.string[i - 1] in _WORD else m.group(1)


def hoist(lines: list[str], ind: str = "    ") -> tuple[list[str], list[str]]:
    """Lines of a generated function's body with the frame's locals it reads more than once
    (a read on a line with a comprehension counts twice) held in Python locals (`_lv_me`).
    Nothing else writes them while the function runs (an embedded closure restores what it
    sets; a procedure called directly gets locals of its own), so a local the body never
    assigns is read once at the start, and one it assigns only by statements `L['x'] = ...`
    (never popped, tested with `in` or read as `L['x']`) is written to both: `L['x'] =
    _lv_x = ...`. Such a local is read at the start only when the body may read it before
    its first assignment (that is not a statement of the body's top level). Returns (the
    lines that read them, to put before the body; the body using them). Text inside string
    literals is left alone."""
    counts: dict = {}
    for ln in lines:
        if "L.get(" in ln:
            w = 2 if " for v_" in ln else 1  # in a comprehension: read once per element
            for m in _HOISTED.finditer(ln):
                k = _read(m)
                if k is not None:
                    counts[k] = counts.get(k, 0) + w
    if not counts:
        return [], lines
    written, bad, first = set(), set(), {}
    for i, ln in enumerate(lines):
        if "L" not in ln:
            continue
        if any(w in ln for w in _L_ANY_WRITE) or ln.lstrip().startswith(("L =", "L=")):
            return [], lines
        body = ln.lstrip()
        own = _L_SET.match(body)
        for m in _L_WRITE.finditer(ln):
            k = (m.group(1) or m.group(2))[1:-1]
            written.add(k)
            first.setdefault(k, i)
            if own is None or m.start() != len(ln) - len(body) or m.group(1) is None:
                bad.add(k)  # popped, or assigned other than as a statement's one target
        for m in _L_OTHER.finditer(ln):
            bad.add(m.group(1) or m.group(2))
    for i, ln in enumerate(lines):  # where each written local is first read
        if "L.get(" in ln:
            for m in _HOISTED.finditer(ln):
                k = _read(m)
                if k in written and first[k] >= i:
                    first[k] = -1  # read before (or on the line of) its first assignment
    # set first at the top level: no read before it, no start value needed
    fresh = {k for k in written if first[k] >= 0 and lines[first[k]].startswith(ind)
             and not lines[first[k]][len(ind):len(ind) + 1].isspace()}
    keep = {k for k, c in counts.items()
            if (c >= 2 and k not in written) or (k in written and k not in bad and (c >= 2 or k in fresh))}
    if not keep:
        return [], lines

    def sub(m):
        k = _read(m)
        return f"_lv_{k}" if k in keep else m.group(0)
    out = []
    for ln in lines:
        if "L.get(" in ln:
            ln = _HOISTED.sub(sub, ln)
        body = ln.lstrip()
        own = _L_SET.match(body) if body.startswith("L[") else None
        if own is not None and own.group(1) in keep:
            j = len(ln) - len(body) + own.end()
            ln = f"{ln[:j]}_lv_{own.group(1)} = {ln[j:]}"
        out.append(ln)
    pre = [f"{ind}_lv_{x} = L.get({x!r})" for x in sorted(keep - fresh)]
    return pre, out


def define(g, body: str, name: str = "_f", params: str = "st, fr"):
    """A real function `name(st, fr)` whose body uses {e} for the fragment's text."""
    src, env, _ = g
    lines = body.format(e=src)
    pre = "    L = fr[2]\n" if _USES_L.search(lines) else ""
    held, body_lines = hoist(lines.split("\n"), "")
    text = f"def {name}({params}):\n{pre}" + "".join(f"    {ln}\n" for ln in held + body_lines)
    ns = dict(env) if env else {}
    exec(_compile(text), ns)  # noqa: S102 - text built by the compiler from checked trees
    f = ns[name]
    f._g = g
    return f


def materialize(namer: Namer, fn):
    """fn as one compiled function (itself when it is only an embedded closure)."""
    if fn is None:
        return None
    g = getattr(fn, "_g", None)
    if g is None or (g[1] and g[0] == next(iter(g[1])) + "(st, fr)"):
        return fn
    return define(g, "return {e}")
