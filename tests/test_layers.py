"""The interpreter's layers import downward only, and no module imports itself round a cycle.

The import graph is read from the source with `ast` (every `import` and `from ... import`,
at module level and inside functions alike), so an import hidden in a function to get
round a cycle counts like any other. LAYERS, bottom first, is the one place the order is
declared; docs/design.md draws it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# bottom first: a module may import its own layer and the layers below it, never above.
# A module belongs to the layer of the longest prefix naming it.
LAYERS: list[tuple[str, list[str]]] = [
    ("foundation", ["interpreter.errors", "interpreter.files"]),
    ("front end", ["interpreter.frontend", "interpreter.variants"]),  # files -> checked data -> model
    ("runtime", ["interpreter.runtime"]),
    ("compiler", ["interpreter.effects"]),
    ("program", ["interpreter.program"]),  # compiled rules, their lint, effect errors beside schema errors
    ("engine", ["interpreter.engine"]),
    ("table", ["interpreter.tabletop"]),  # what a seat sees: the table section, the model from a view
    ("game", ["interpreter.game"]),
    ("around the game", ["interpreter.bots", "interpreter.i18n", "interpreter.render", "interpreter.saves",
                         "interpreter.variants.text_check", "interpreter.tabletop.terminal"]),
    ("scenarios", ["interpreter.scenarios"]),
    ("simulation", ["interpreter.sim"]),
    ("commands", ["interpreter.commands", "interpreter.authoring", "interpreter.variants.variant_set",
                  "interpreter.tabletop.web"]),
    ("cli", ["interpreter.cli"]),
    ("package", ["interpreter"]),  # interpreter/__init__.py: the public names, re-exported
]


def modules(pkg_dir: Path, pkg: str) -> dict[str, Path]:
    """Every module of a package directory: dotted name -> file (a package is its __init__)."""
    out = {}
    for f in sorted(pkg_dir.rglob("*.py")):
        parts = [pkg, *f.relative_to(pkg_dir).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = f
    return out


def import_graph(pkg_dir: Path, pkg: str) -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its text (functions included)."""
    mods = modules(pkg_dir, pkg)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, f in mods.items():
        here = name if f.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")
                    up = up[:len(up) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                # `from X import m` of a module m imports m; of a name, X itself
                subs = [f"{base}.{a.name}" for a in node.names]
                targets = [s for s in subs if s in mods]
                if len(targets) < len(subs):
                    targets.append(base)
            for t in targets:
                # the deepest module of the package that the dotted name reaches
                while t and t not in mods:
                    t = t.rpartition(".")[0]
                if t and t != name:
                    graph[name].add(t)
    return graph


def layer_of(module: str, layers) -> int | None:
    best, where = -1, None
    for i, (_, prefixes) in enumerate(layers):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best:
                best, where = len(p), i
    return where


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def layer_problems(graph: dict[str, set[str]], layers) -> list[str]:
    """Every module outside the layers, every upward import and every cycle, as messages."""
    out = []
    for m in sorted(graph):
        if layer_of(m, layers) is None:
            out.append(f"{m} is in no layer (add it to LAYERS)")
    for m in sorted(graph):
        lm = layer_of(m, layers)
        for t in sorted(graph[m]):
            lt = layer_of(t, layers)
            if lm is not None and lt is not None and lt > lm:
                out.append(f"{m} ({layers[lm][0]}) imports {t} ({layers[lt][0]}), a layer above it")
    for c in cycles(graph):
        out.append("import cycle: " + " <-> ".join(c))
    return out


def test_interpreter_imports_downward_only_without_cycles():
    graph = import_graph(ROOT / "interpreter", "interpreter")
    assert len(graph) > 30  # the graph was read (every module of the package)
    assert "interpreter.runtime.vm" in graph["interpreter.engine.flow"]  # edges were found
    problems = layer_problems(graph, LAYERS)
    assert problems == [], "\n".join(problems)


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for rel, text in files.items():
        f = root / rel
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return root


SYNTHETIC = [("low", ["pkg.low"]), ("mid", ["pkg.mid"]), ("top", ["pkg.top", "pkg"])]


def test_a_clean_synthetic_package_passes(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "from .top import main\n",
        "low.py": "X = 1\n",
        "mid/__init__.py": "",
        "mid/a.py": "from ..low import X\n",
        "top.py": "from .mid import a\n\ndef main():\n    from . import low\n",
    })
    graph = import_graph(root, "pkg")
    assert graph["pkg.top"] == {"pkg.mid.a", "pkg.low"}
    assert layer_problems(graph, SYNTHETIC) == []


BAD = {
    "an upward import inside a function": ({
        "low.py": "def f():\n    from .mid.a import Y  # hidden in a function\n    return Y\n",
        "mid/a.py": "Y = 2\n",
        "top.py": "import pkg.low\n",
    }, ["pkg.low (low) imports pkg.mid.a (mid), a layer above it"]),
    "a cycle inside one layer": ({
        "low.py": "",
        "mid/a.py": "from . import b\n",
        "mid/b.py": "def g():\n    from .a import Z\n",
    }, ["import cycle: pkg.mid.a <-> pkg.mid.b"]),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_import_fails(tmp_path, case):
    files, expected = BAD[case]
    root = _package(tmp_path, {"__init__.py": "", "mid/__init__.py": "", "top.py": "", **files})
    assert layer_problems(import_graph(root, "pkg"), SYNTHETIC) == expected


def test_a_module_in_no_layer_fails(tmp_path):
    root = _package(tmp_path, {"__init__.py": "", "low.py": "", "stray.py": "from . import low\n"})
    problems = layer_problems(import_graph(root, "pkg"), [("low", ["pkg.low"]), ("top", ["pkg.top"])])
    assert problems == ["pkg is in no layer (add it to LAYERS)", "pkg.stray is in no layer (add it to LAYERS)"]
