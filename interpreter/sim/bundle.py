"""A batch's files, read once on the driver and carried to workers that have no checkout.

Pipeline position: below the Ray backend, above the runner's `SimSpec`. The driver packs the
ruleset directory (every file under it: includes, locales, variants, scenarios), the variant
files and the scenario file as bytes; a worker unpacks them into a private directory and gets
a `SimSpec` whose paths point there. Paths are resolved on the driver, so a path typed
relative to the driver's directory works wherever the worker runs. The layout keeps the
ruleset directory's own name and puts an outside scenario inside it, so that a scenario still
finds its ruleset by walking up, as it does on the driver.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from .runner import SimSpec

SKIP_DIRS = {"__pycache__", ".git"}
OUTSIDE_SCENARIO = ".simulated-scenario"


@dataclass(frozen=True)
class Bundle:
    """The files of one batch (relative path -> bytes) and its spec with bundle-relative paths."""

    files: tuple[tuple[str, bytes], ...]
    spec: SimSpec

    @property
    def key(self) -> str:
        """A digest of the contents and the spec: equal bundles are unpacked once per worker."""
        h = hashlib.sha256(repr(self.spec).encode())
        for name, data in self.files:
            h.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()[:20]

    @property
    def size(self) -> int:
        """Bytes of file content carried."""
        return sum(len(d) for _, d in self.files)


def _tree(root: Path, prefix: str) -> list[tuple[str, bytes]]:
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for f in sorted(files):
            if f.endswith((".pyc", ".tmp")):
                continue
            p = Path(dirpath) / f
            out.append((f"{prefix}/{p.relative_to(root).as_posix()}", p.read_bytes()))
    return out


def pack(spec: SimSpec) -> Bundle:
    """Read the spec's ruleset, variants and scenario; paths are taken from this process's
    directory. Raises OSError for a file that cannot be read (the CLI has loaded them already)."""
    root = Path(spec.ruleset).resolve()
    if root.name == "ruleset.yaml":
        root = root.parent
    name = root.name
    files = _tree(root, name)
    variants = []
    for i, v in enumerate(spec.variants):
        p = Path(v).resolve()
        if p.is_relative_to(root):
            variants.append(f"{name}/{p.relative_to(root).as_posix()}")
        else:
            rel = f"variants-{i}/{p.name}"
            files.append((rel, p.read_bytes()))
            variants.append(rel)
    scenario = None
    if spec.scenario:
        p = Path(spec.scenario).resolve()
        if p.is_relative_to(root):
            scenario = f"{name}/{p.relative_to(root).as_posix()}"
        else:
            scenario = f"{name}/{OUTSIDE_SCENARIO}/{p.name}"
            files.append((scenario, p.read_bytes()))
    return Bundle(tuple(files), replace(spec, ruleset=name, variants=tuple(variants), scenario=scenario))


def unpack(bundle: Bundle, into: str | Path | None = None) -> SimSpec:
    """Write the bundle's files under `into` (a new private directory by default); return the
    spec with absolute paths there."""
    base = Path(into) if into is not None else Path(tempfile.mkdtemp(prefix="grimoire-job-"))
    for rel, data in bundle.files:
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    s = bundle.spec
    return replace(s, ruleset=str(base / s.ruleset), variants=tuple(str(base / v) for v in s.variants),
                   scenario=str(base / s.scenario) if s.scenario else None)
