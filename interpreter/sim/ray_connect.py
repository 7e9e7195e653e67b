"""Joining a Ray cluster, or starting one here: checked addresses, a timeout, one-line errors.

Pipeline position: under the Ray backend (`ray_pool.py`). Every way a connection can fail
(no Ray, a malformed address, nobody listening, a `ray://` address without the client extra)
is a `BackendError` with one line for the user, raised before Ray itself gets to hang or print
its C++ warnings. `RAY_ADDRESS` is honoured as Ray does. The code the workers run reaches them
through the job's `runtime_env` (`py_modules`), so a node needs only the dependencies.
"""

from __future__ import annotations

import atexit
import copy
import os
import re
import shutil
import socket
import tempfile
from pathlib import Path

from ..errors import GrimoireError

CONNECT_TIMEOUT = 30.0  # seconds to reach the cluster's head before giving up
_ADDRESS = re.compile(r"^(?P<scheme>ray://)?(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")


class BackendError(GrimoireError):
    """A backend cannot start: one line for the user (the CLI exits with 2)."""


def import_ray():
    """Ray, or a BackendError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise BackendError("the Ray backend needs Ray: pip install 'grimoire[ray]'") from None
    return ray


def parse_address(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of HOST:PORT or ray://HOST:PORT; a BackendError if malformed."""
    m = _ADDRESS.match(address.strip())
    port = int(m["port"]) if m else 0
    if not m or not 0 < port < 65536:
        raise BackendError(f"malformed Ray address {address!r}: expected HOST:PORT or ray://HOST:PORT "
                           f"(or 'auto' for a cluster started on this machine)")
    return m["scheme"] or "", m["host"].strip("[]"), port


def probe(host: str, port: int, timeout: float) -> None:
    """Open (and close) a TCP connection to host:port, or raise a BackendError within `timeout`."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except socket.gaierror:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: unknown host") from None
    except TimeoutError:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: "
                           f"no answer within {timeout:g} s") from None
    except OSError as e:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: {e.strerror or e}") from None


def cluster_address(address: str | None) -> str | None:
    """The cluster to join: --address, else RAY_ADDRESS, else None (start Ray here)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def connect(ray, address: str | None, jobs: int | None, timeout: float = CONNECT_TIMEOUT) -> bool:
    """Initialise Ray for this process; True if this call started it (and must shut it down)."""
    if ray.is_initialized():
        return False
    address = cluster_address(address)
    # the code goes with the job: Ray uploads local directories only at ray.init (a caller
    # that initialised Ray itself chose its own runtime_env)
    common = {"log_to_driver": False, "runtime_env": code_runtime_env()}
    if address in (None, "local"):
        # RAY_ADDRESS would make ray.init join a cluster and refuse num_cpus: it is unset here
        # by taking address="local" explicitly
        ray.init(address="local", num_cpus=jobs, include_dashboard=False, **common)
        return True
    if address != "auto":
        scheme, host, port = parse_address(address)
        if scheme:
            try:
                import grpc  # noqa: F401
                import ray.util.client  # noqa: F401
            except ImportError:
                raise BackendError("ray:// addresses need the Ray client: pip install 'grimoire[ray]' "
                                   "(it includes ray[client])") from None
        probe(host, port, timeout)
    try:
        ray.init(address=address, **common)
    except (ConnectionError, TimeoutError, RuntimeError, ValueError) as e:
        raise BackendError(f"cannot join the Ray cluster at {address}: {str(e).strip().splitlines()[0]}") from None
    return True


_STAGED: dict = {}


def code_runtime_env() -> dict:
    """A runtime_env carrying this process's `interpreter` package (with its schemas) to every
    worker, so that nodes need the dependencies but not Grimoire, and run the driver's code."""
    if "env" not in _STAGED:
        from ..files import shipped_data
        src = Path(__file__).resolve().parent.parent  # the interpreter package
        stage = Path(tempfile.mkdtemp(prefix="grimoire-code-")) / "interpreter"
        shutil.copytree(src, stage, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "_data"))
        shutil.copytree(shipped_data("schemas"), stage / "_data" / "schemas")
        atexit.register(shutil.rmtree, stage.parent, ignore_errors=True)
        _STAGED["env"] = {"py_modules": [str(stage)]}
    return copy.deepcopy(_STAGED["env"])  # ray.init rewrites it in place (paths to gcs:// URIs)
