"""`--connect-timeout` bounds the whole handshake with a Ray cluster, and a wrong address says
what is there instead (issue 30).

No Ray cluster is started: each case is a service on loopback that this test runs itself (an
HTTP server, a socket that accepts and never answers, a port whose backlog is full so that
nothing answers at all, and tiny gRPC servers that answer as a Ray client server or as a
cluster's head would). Each is refused in one line within the timeout plus a second.
"""

from __future__ import annotations

import http.server
import socket
import threading
import time

import pytest

pytest.importorskip("ray", reason="Ray is not installed (pip install 'grimoire[ray]')")
grpc = pytest.importorskip("grpc")

from interpreter.cli import main  # noqa: E402
from interpreter.game import RULESETS  # noqa: E402
from interpreter.sim.backends import Session  # noqa: E402
from interpreter.sim.ray_connect import CLIENT_METHOD, GCS_METHOD, BackendError  # noqa: E402

HIGH_TIDE = str(RULESETS / "high_tide")
TIMEOUT = 2.0


def refused(address: str, timeout: float = TIMEOUT) -> tuple[BackendError, float]:
    t0 = time.monotonic()
    with pytest.raises(BackendError) as e:
        Session("ray", None, address, timeout)
    return e.value, time.monotonic() - t0


@pytest.fixture
def silent_port():
    """A port that accepts connections and never says a word."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(8)
    held, stop = [], threading.Event()

    def accept():
        s.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(s.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    yield s.getsockname()[1]
    stop.set()
    t.join()
    for c in held:
        c.close()
    s.close()


@pytest.fixture
def full_port():
    """A port where nothing answers: its backlog is full and it never accepts, so a new
    connection's SYN is dropped, as on an unreachable host (on loopback only)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(0)
    port = s.getsockname()[1]
    fillers = []
    for _ in range(4):  # the kernel queues backlog + 1; the rest wait unanswered
        c = socket.socket()
        c.setblocking(False)
        c.connect_ex(("127.0.0.1", port))
        fillers.append(c)
    time.sleep(0.2)
    yield port
    for c in fillers:
        c.close()
    s.close()


@pytest.fixture
def http_port():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def grpc_server(method: str):
    """A gRPC server on loopback that answers `method` (an empty reply) and nothing else."""
    from concurrent import futures
    service, name = method.strip("/").split("/")
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    handler = grpc.unary_unary_rpc_method_handler(lambda req, ctx: b"")
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, {name: handler}),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    return server, port


def test_a_port_with_another_service_fails_within_the_timeout(silent_port):
    e, took = refused(f"127.0.0.1:{silent_port}")
    assert took < TIMEOUT + 1, took
    assert e.msg_id == "cli-sim-ray-no-handshake" and "does not answer as Ray within 2 s" in str(e)


def test_ray_scheme_to_a_silent_port_fails_within_the_timeout(silent_port):
    e, took = refused(f"ray://127.0.0.1:{silent_port}")
    assert took < TIMEOUT + 1, took
    assert e.msg_id == "cli-sim-ray-no-handshake"


def test_an_http_server_is_not_taken_for_a_cluster(http_port):
    e, took = refused(f"127.0.0.1:{http_port}")
    assert took < TIMEOUT + 1 and e.msg_id == "cli-sim-ray-no-handshake"


def test_a_host_that_never_answers_fails_within_the_timeout(full_port):
    e, took = refused(f"127.0.0.1:{full_port}", 1.0)
    assert took < 2.0, took
    assert "cannot reach the Ray cluster" in str(e) or e.msg_id == "cli-sim-ray-no-handshake"


def test_the_client_port_without_ray_scheme_asks_did_you_mean():
    server, port = grpc_server(CLIENT_METHOD)
    try:
        e, took = refused(f"127.0.0.1:{port}")
    finally:
        server.stop(0)
    assert took < TIMEOUT + 1
    assert str(e) == f"127.0.0.1:{port} is a Ray client server, not a cluster's head: did you mean ray://127.0.0.1:{port}?"


def test_ray_scheme_to_a_head_says_leave_it_out():
    server, port = grpc_server(GCS_METHOD)
    try:
        e, _ = refused(f"ray://127.0.0.1:{port}")
    finally:
        server.stop(0)
    assert e.msg_id == "cli-sim-ray-not-client" and "leave out ray://" in str(e)


def test_the_command_prints_it_in_one_line_and_in_the_users_language(tmp_path, capsys):
    server, port = grpc_server(CLIENT_METHOD)
    try:
        args = ["simulate", HIGH_TIDE, "--games", "2", "--backend", "ray", "--address", f"127.0.0.1:{port}",
                "--connect-timeout", "2", "--quiet", "--out", str(tmp_path / "o")]
        assert main(args) == 2
        assert capsys.readouterr().err.strip() == \
            f"error: 127.0.0.1:{port} is a Ray client server, not a cluster's head: did you mean ray://127.0.0.1:{port}?"
        assert main(["--lang", "pl", *args]) == 2
        err = capsys.readouterr().err.strip()
        assert err.startswith("błąd: ") and f"ray://127.0.0.1:{port}?" in err and len(err.splitlines()) == 1
    finally:
        server.stop(0)
    assert not (tmp_path / "o").exists()
