"""Writing files so that nothing is ever half-written or left behind.

Pipeline position: foundation (beside errors.py); any layer that writes a save, a log, a
report or a rendered page uses it. A file is
written to a temporary file beside it and renamed over it, so a reader sees the old content or
the whole new one. The temporary file is removed if the write fails or is interrupted; one
left by a process that was killed outright (SIGKILL, power loss) is removed by the next write
of the same file, once its writer is known to be gone. It also says where the shipped data
(schemas, rulesets) lives.
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import GrimoireError


class OutputError(GrimoireError):
    """A file the user asked for cannot be written (no such directory, no permission, ...)."""


def _tmp_name(path: Path, pid: int) -> Path:
    return path.with_name(f".{path.name}.{pid}.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: it may still be writing
    return True


def remove_stale(path: str | Path) -> int:
    """Remove temporary files of `path` left by writers that no longer run; return how many."""
    path = Path(path)
    removed = 0
    try:
        cands = list(path.parent.glob(f".{path.name}.*.tmp"))
    except OSError:
        return 0
    for tmp in cands:
        pid = tmp.name[len(path.name) + 2:-len(".tmp")]
        if not pid.isdigit() or (int(pid) != os.getpid() and _alive(int(pid))):
            continue
        try:
            tmp.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write a file so that it is either the old or the whole new content, never half.

    An OSError (no such directory, no permission, disk full) becomes an OutputError naming the
    file in plain words; the temporary file never stays behind."""
    path = Path(path)
    remove_stale(path)
    tmp = _tmp_name(path, os.getpid())
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        try:
            with open(tmp, "wb") as f:
                f.write(raw)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                tmp.unlink()
            except OSError:
                pass
            raise
    except IsADirectoryError:
        raise OutputError(f"cannot write {path}: it is a directory") from None
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None


def check_writable(path: str | Path) -> None:
    """Refuse, before any work is done, an output path that cannot be written."""
    path = Path(path)
    if path.is_dir():
        raise OutputError(f"cannot write {path}: it is a directory")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise OutputError(f"cannot write {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"cannot write {path}: permission denied")


def shipped_data(name: str) -> Path:
    """The directory of shipped data `name` (schemas, rulesets): inside the installed package
    (a wheel carries it as interpreter/_data/NAME, see setup.py), else the checkout's NAME/."""
    here = Path(__file__).resolve().parent
    packaged = here / "_data" / name
    return packaged if packaged.is_dir() else here.parent / name
