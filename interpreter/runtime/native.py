"""Which of the interpreter's hot modules run compiled, and the switch back to pure Python.

Pipeline position: the first thing `interpreter/__init__.py` runs, before any other module of
the package is imported. It imports only the standard library (setup.py loads this file on
its own to learn COMPILED).

The build (setup.py) compiles the modules named in COMPILED with Cython into extension modules
beside their source, unchanged: the `.py` file is the only text of each module, and the
extension is that text compiled. It writes MANIFEST (`interpreter/compiled.json`): each module
built, and the sha256 of the source it was built from. An extension is used only when its
module's source is byte for byte what it was built from. Otherwise (a source edited since the
build, a build without a C compiler, `GRIMOIRE_PURE=1` in the environment) the module is
imported from its `.py` file, so an edit takes effect at once and never runs stale code. Both
give the same games (tests/test_native.py replays games both ways).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# the modules a game's every step runs through (profiled on random, policy and rollout games)
COMPILED = (
    "interpreter.engine.flow", "interpreter.engine.state", "interpreter.engine.decisions",
    "interpreter.engine.rng", "interpreter.engine.table", "interpreter.engine.views",
    "interpreter.runtime.ops", "interpreter.runtime.primitives", "interpreter.runtime.options",
    "interpreter.runtime.vm", "interpreter.runtime.patterns",
    "interpreter.effects.statements", "interpreter.effects.blocking", "interpreter.effects.expressions",
    "interpreter.program.policy",
    "interpreter.bots.base", "interpreter.bots.random_bot", "interpreter.bots.policy",
    "interpreter.bots.rollout", "interpreter.bots.beliefs",
)
MANIFEST = "compiled.json"
PURE_ENV = "GRIMOIRE_PURE"
PACKAGE = Path(__file__).resolve().parent.parent  # interpreter/

_status: dict[str, str] = {}


def source_file(module: str, root: Path = PACKAGE) -> Path:
    """interpreter.engine.flow -> <root>/engine/flow.py"""
    return root.joinpath(*module.split(".")[1:]).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _extension(src: Path) -> Path | None:
    for suffix in EXTENSION_SUFFIXES:
        p = src.with_suffix(suffix)
        if p.is_file():
            return p
    return None


def status() -> dict[str, str]:
    """Each module of COMPILED -> "compiled", or why it runs as Python."""
    return dict(_status)


class _SourceFirst:
    """A meta-path finder: the modules named here are imported from their `.py` file, even
    where an extension module of the same name lies beside it (Python would take that first)."""

    def __init__(self, modules: set[str]):
        self.modules = modules

    def find_spec(self, name, path=None, target=None):
        if name not in self.modules:
            return None
        return importlib.util.spec_from_file_location(name, source_file(name))


def install() -> None:
    """Decide, once, which modules of COMPILED load compiled; the rest load from source."""
    if _status:
        return
    try:
        built = json.loads((PACKAGE / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        built = {}
    pure = os.environ.get(PURE_ENV, "") not in ("", "0")
    source_only = set()
    for module in COMPILED:
        src = source_file(module)
        ext = _extension(src)
        if ext is None:
            _status[module] = "python (not built)"
            continue
        if pure:
            _status[module] = f"python ({PURE_ENV}=1)"
        elif not isinstance(built, dict) or built.get(module) != digest(src):
            _status[module] = "python (source changed since the build)"
        else:
            _status[module] = "compiled"
            continue
        source_only.add(module)
    if source_only:
        sys.meta_path.insert(0, _SourceFirst(source_only))
