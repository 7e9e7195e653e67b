"""Writing files so that nothing is lost: a file is the old or the whole new content.

Pipeline position: foundation (beside errors.py); any layer that writes a save, a log or
a report uses it.
"""

from __future__ import annotations

import os
from pathlib import Path


def write_atomic(path: str | Path, text: str) -> None:
    """Write a file so that it is either the old or the whole new content, never half."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
