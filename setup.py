"""Build hook: a wheel carries the schemas and the shipped rulesets as package data.

They live at the top of the checkout (schemas/, rulesets/), where authors edit them and the
editable install reads them; a built package gets a copy under interpreter/_data/, which
interpreter/files.py:shipped_data looks in first. Everything else is in pyproject.toml.
"""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

DATA = ("schemas", "rulesets")


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


setup(cmdclass={"build_py": BuildPyWithData})
