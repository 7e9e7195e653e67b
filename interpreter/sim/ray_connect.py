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
import time
from pathlib import Path

from ..errors import GrimoireError

CONNECT_TIMEOUT = 30.0  # seconds to reach the cluster's head before giving up
_ADDRESS = re.compile(r"^(?P<scheme>ray://)?(?P<host>\[[0-9a-fA-F:]+\]|[A-Za-z0-9_.-]+):(?P<port>\d{1,5})$")


class BackendError(GrimoireError):
    """A backend cannot start: one line for the user (the CLI exits with 2). `msg_id` and
    `values` name the message in interpreter/messages/LANG.yaml, for the CLI to translate."""

    def __init__(self, message: str, msg_id: str | None = None, **values):
        super().__init__(message)
        self.msg_id, self.values = msg_id, values


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


def resolve(host: str, port: int, timeout: float) -> tuple:
    """The first TCP address of host:port, looked up within `timeout` (a name lookup has no
    timeout of its own: a slow resolver would hold the connection for ~20 s)."""
    import concurrent.futures
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        infos = pool.submit(socket.getaddrinfo, host, port, 0, socket.SOCK_STREAM).result(timeout=timeout)
    except concurrent.futures.TimeoutError:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: the name {host} was not "
                           f"resolved within {timeout:g} s") from None
    except socket.gaierror:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: unknown host") from None
    finally:
        pool.shutdown(wait=False)
    family, kind, proto, _, sockaddr = infos[0]
    return family, kind, proto, sockaddr


def probe(host: str, port: int, timeout: float) -> None:
    """Open (and close) a TCP connection to host:port, or raise a BackendError within `timeout`."""
    deadline = time.monotonic() + timeout
    family, kind, proto, sockaddr = resolve(host, port, timeout)
    try:
        with socket.socket(family, kind, proto) as s:
            s.settimeout(max(0.05, deadline - time.monotonic()))
            s.connect(sockaddr)
    except TimeoutError:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: "
                           f"no answer within {timeout:g} s") from None
    except OSError as e:
        raise BackendError(f"cannot reach the Ray cluster at {host}:{port}: {e.strerror or e}") from None


GCS_METHOD = "/ray.rpc.NodeInfoGcsService/GetClusterId"  # what ray.init asks a cluster's head first
CLIENT_METHOD = "/ray.rpc.RayletDriver/ClusterInfo"     # a Ray client server (ray://) has this


def _answers(host: str, port: int, method: str, timeout: float) -> str:
    """How host:port answers one gRPC call within `timeout`: "yes" (the service is there),
    "no" (a gRPC server without it), or "silent" (no gRPC answer: another protocol, or none)."""
    import grpc
    channel = grpc.insecure_channel(f"{host}:{port}")
    call = channel.unary_unary(method, request_serializer=lambda b: b, response_deserializer=lambda b: b)
    try:
        call(b"", timeout=max(timeout, 0.05))  # an empty message is every request's default
        return "yes"
    except grpc.RpcError as e:
        code = e.code()
        if code == grpc.StatusCode.UNIMPLEMENTED:
            return "no"
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.CANCELLED):
            return "silent"
        return "yes"  # the service exists and refused this empty request
    finally:
        channel.close()


def handshake(scheme: str, host: str, port: int, timeout: float) -> None:
    """Check that host:port is what the address says (a cluster's head, or with ray:// a Ray
    client server) within `timeout` seconds in all; a BackendError saying what it is instead."""
    deadline = time.monotonic() + timeout
    probe(host, port, timeout)  # the name and the TCP connection, within the same deadline
    try:
        import grpc  # noqa: F401  (Ray's own dependency; without it only the TCP probe is made)
    except ImportError:
        return
    address = f"{host}:{port}"
    want, other = (CLIENT_METHOD, GCS_METHOD) if scheme else (GCS_METHOD, CLIENT_METHOD)
    got = _answers(host, port, want, deadline - time.monotonic())
    if got == "yes":
        return
    if got == "no" and _answers(host, port, other, deadline - time.monotonic()) == "yes":
        if scheme:
            raise BackendError(f"{address} is a Ray cluster's head, not its client server: leave out ray:// "
                               f"(--address {address}) on a node of the cluster, or give the client port "
                               f"(10001 by default)", "cli-sim-ray-not-client", address=address)
        raise BackendError(f"{address} is a Ray client server, not a cluster's head: did you mean "
                           f"ray://{address}?", "cli-sim-ray-did-you-mean", address=address)
    seconds = f"{timeout:g}"
    raise BackendError(f"cannot join the Ray cluster at {scheme}{address}: something accepts connections there "
                       f"but does not answer as Ray within {seconds} s (another service on that port? A cluster's "
                       f"head listens on 6379 by default, its client server on 10001)",
                       "cli-sim-ray-no-handshake", address=f"{scheme}{address}", seconds=seconds)


def cluster_address(address: str | None) -> str | None:
    """The cluster to join: --address, else RAY_ADDRESS, else None (start Ray here)."""
    return address or os.environ.get("RAY_ADDRESS") or None


def connect(ray, address: str | None, jobs: int | None, timeout: float = CONNECT_TIMEOUT,
            ship: list[str] = ()) -> bool:
    """Initialise Ray for this process; True if this call started it (and must shut it down).
    `ship`: more local modules (files or package directories) for the job to carry."""
    if ray.is_initialized():
        return False
    address = cluster_address(address)
    # the code goes with the job: Ray uploads local directories only at ray.init (a caller
    # that initialised Ray itself chose its own runtime_env)
    env = code_runtime_env()
    env["py_modules"] += [p for p in ship if p not in env["py_modules"]]
    common = {"log_to_driver": False, "runtime_env": env}
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
        handshake(scheme, host, port, timeout)
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


def plugin_paths(kinds) -> list[str]:
    """The local files or package directories of the plug-in bots `kinds` name (module:Class),
    to ship with the job: a node that does not share the driver's disk imports them from there.
    Modules installed in this Python (site-packages, the standard library) are left to the nodes."""
    import importlib.util
    import sys

    from ..bots.plugin import is_plugin
    installed = {Path(p).resolve() for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    out = []
    for kind in kinds:
        if not is_plugin(kind):
            continue
        top = kind.split(":", 1)[0].split(".")[0]
        if top == "interpreter":
            continue  # shipped already
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            continue  # simulate has refused it already
        if spec is None or not spec.origin or spec.origin in ("built-in", "frozen"):
            continue
        path = Path(spec.submodule_search_locations[0]) if spec.submodule_search_locations else Path(spec.origin)
        path = path.resolve()
        if "site-packages" in path.parts or any(path.is_relative_to(p) for p in installed):
            continue
        if str(path) not in out:
            out.append(str(path))
    return out
