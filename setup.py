"""Build hooks: the hot modules compiled, and the shipped data carried by a built package.

Compiled modules: the modules named in interpreter/runtime/native.py:COMPILED are compiled with
Cython into extension modules beside their source (the `.py` files stay the modules' only
text). The build writes interpreter/compiled.json, the sha256 of each source it compiled;
an extension whose source has changed since is not used. A machine without a C compiler, or
`GRIMOIRE_BUILD_PURE=1`, builds no extension: Grimoire then runs as pure Python, the same games.

Package data: the schemas and the shipped rulesets live at the top of the checkout (schemas/,
rulesets/), where authors edit them and the editable install reads them; a built package gets
a copy under interpreter/_data/, which interpreter/files.py:shipped_data looks in first.
Everything else is in pyproject.toml.
"""

import functools
import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

DATA = ("schemas", "rulesets")
HERE = os.path.dirname(os.path.abspath(__file__))


@functools.cache
def _native():
    """interpreter/runtime/native.py, loaded on its own (the package's dependencies may not be
    installed while it builds)."""
    path = os.path.join(HERE, "interpreter", "runtime", "native.py")
    spec = importlib.util.spec_from_file_location("_grimoire_native", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class BuildPyWithData(build_py):
    """build_py that also copies schemas/ and rulesets/ into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):  # the editable install reads the checkout
            return
        for name in DATA:
            for root, dirs, files in os.walk(name):
                dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
                for f in sorted(files):
                    if f.endswith((".pyc", ".tmp")) or f.startswith("."):
                        continue
                    dst = os.path.join(self.build_lib, "interpreter", "_data", root)
                    self.mkpath(dst)
                    self.copy_file(os.path.join(root, f), os.path.join(dst, f))


def _warn(msg):
    print(f"grimoire build: {msg}; those modules run as pure Python (the same games, slower)", file=sys.stderr)


class BuildCompiled(build_ext):
    """build_ext that compiles COMPILED with Cython, never fails the install over it, and writes
    the manifest of what it compiled."""

    def finalize_options(self):
        # Cython turns each module into C first, so that setuptools sets up the extensions
        # it builds (it keeps notes on each in finalize_options). Annotations are not types
        # to Cython here: a compiled module takes what its Python source takes (None included).
        dist = self.distribution
        if dist.ext_modules:
            try:
                from Cython.Build import cythonize
                dist.ext_modules = cythonize(
                    dist.ext_modules, build_dir=os.path.join("build", "cython"), quiet=True, force=True,
                    nthreads=os.cpu_count() or 1,
                    compiler_directives={"language_level": 3, "binding": True, "annotation_typing": False})
            except Exception as e:  # no Cython, or a source it cannot compile
                _warn(f"Cython did not compile the hot modules ({e})")
                dist.ext_modules = []
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        native = _native()
        self.failed = set()
        super().run()
        built = {}
        for ext in self.extensions:
            if ext.name in self.failed:
                continue
            built[ext.name] = native.digest(native.source_file(ext.name, Path(HERE, "interpreter")))
        text = json.dumps(built, indent=1, sort_keys=True) + "\n"
        targets = [os.path.join(self.build_lib, "interpreter")]
        if self.inplace or getattr(self, "editable_mode", False):
            targets.append(os.path.join(HERE, "interpreter"))
        for d in targets:
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, native.MANIFEST), "w", encoding="utf-8") as f:
                f.write(text)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as e:  # no C compiler, no Python headers: this module stays Python
            self.failed.add(ext.name)
            _warn(f"{ext.name} was not compiled ({e})")


def _extensions():
    if os.environ.get("GRIMOIRE_BUILD_PURE", "") not in ("", "0"):
        return []
    native = _native()
    return [Extension(m, [str(native.source_file(m, Path("interpreter")))]) for m in native.COMPILED]


setup(cmdclass={"build_py": BuildPyWithData, "build_ext": BuildCompiled}, ext_modules=_extensions())
