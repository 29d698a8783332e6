"""A webhook delivery goes to the address its host was checked at (DNS rebinding).

A name whose owner controls its DNS can answer the check with an address that may be reached and,
a moment later, the connection's own lookup with one that may not (a loopback service, a cloud's
metadata address). The resolver here is such a name server: it answers ``hooks.rebinding.test``
with 127.0.0.1, which the operator allows, twice (the webhook's registration and the delivery's
check), then with 127.0.0.2, which nobody allowed. A real receiver listens on each address.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from moves import new_game

from projections import webhooks
from workers import deliveries

HOST = "hooks.rebinding.test"
ALLOWED, INTERNAL = "127.0.0.1", "127.0.0.2"


class Listener:
    """An HTTP server on ``address`` that records the ``Host`` of every POST it answers."""

    def __init__(self, address: str, port: int = 0, tls: ssl.SSLContext | None = None) -> None:
        self.hosts: list[str] = []
        hosts = self.hosts

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers["Content-Length"]))
                hosts.append(self.headers["Host"])
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer((address, port), Handler)
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_port
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def listeners() -> Iterator[tuple[Listener, Listener]]:
    """The receiver the check allowed, and a service on another loopback address at its port."""
    allowed = Listener(ALLOWED)
    internal = Listener(INTERNAL, allowed.port)
    yield allowed, internal
    for listener in (allowed, internal):
        listener.server.shutdown()
        listener.server.server_close()


@pytest.fixture
def rebinding(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Resolve :data:`HOST` to 127.0.0.1 twice, then to 127.0.0.2; every other name as before.
    The answers given, in order."""
    resolve = socket.getaddrinfo
    answers: list[str] = []

    def getaddrinfo(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host != HOST:
            return resolve(host, port, *args, **kwargs)
        answers.append(ALLOWED if len(answers) < 2 else INTERNAL)
        return resolve(answers[-1], port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setenv("KOTLIK_WEBHOOK_ALLOW", f"{ALLOWED}/32")
    return answers


def deliver(pool: Any, url: str, *, between: Callable[[], Any] = lambda: None) -> dict[str, Any]:
    """Register a webhook for ``url`` on a new game, make it a delivery and send it, once, with
    ``between`` done between the registration and the sending; the delivery's row after."""
    with pool.connection() as conn:
        game_id, _ = new_game(conn)
        hook = webhooks.register(conn, url, ["your_turn"], game=game_id)
        between()
        delivery = conn.execute(
            "INSERT INTO deliveries (webhook_id, kind, body) VALUES (%s, 'your_turn', '{}') RETURNING id",
            (hook["id"],),
        ).fetchone()["id"]
        deliveries.send(conn, delivery)
        return dict(
            conn.execute("SELECT status, attempts FROM deliveries WHERE id = %s", (delivery,)).fetchone()
        )


def test_a_delivery_connects_where_its_host_was_checked(
    pool: Any, listeners: tuple[Listener, Listener], rebinding: list[str]
) -> None:
    allowed, internal = listeners
    sent = deliver(pool, f"http://{HOST}:{allowed.port}/hook")
    assert internal.hosts == [], "the delivery went where a second lookup of the name sent it"
    assert rebinding == [ALLOWED, ALLOWED]
    assert allowed.hosts == [f"{HOST}:{allowed.port}"]
    assert sent["status"] == "delivered", sent["attempts"]


def test_a_host_that_now_resolves_to_a_refused_address_gets_no_delivery(
    pool: Any, listeners: tuple[Listener, Listener], rebinding: list[str]
) -> None:
    """Registered while its name resolved to an allowed address; checked again at delivery."""
    allowed, internal = listeners
    # one allowed answer more now: the delivery's check is answered with the refused address
    sent = deliver(pool, f"http://{HOST}:{allowed.port}/hook", between=lambda: rebinding.append(ALLOWED))
    assert allowed.hosts == internal.hosts == []
    assert sent["status"] == "pending" and "not a public address (loopback)" in sent["attempts"][0]["error"]


def test_tls_still_checks_the_certificate_against_the_name(
    pool: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rebinding: list[str]
) -> None:
    """Connecting to an address, the delivery still asks TLS for the URL's name: a receiver whose
    certificate is for that name is reached, and the same receiver under another name is not."""
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make the receiver's certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subject = ["-subj", f"/CN={HOST}", "-addext", f"subjectAltName=DNS:{HOST}"]
    request = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run([*request, "-keyout", key, "-out", cert, *subject], check=True, capture_output=True)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    receiver = Listener(ALLOWED, tls=tls)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))  # the one authority the client trusts
    try:
        sent = deliver(pool, f"https://{HOST}:{receiver.port}/hook")
        assert sent["status"] == "delivered", sent["attempts"]
        assert receiver.hosts == [f"{HOST}:{receiver.port}"]
        refused = deliver(pool, f"https://{ALLOWED}:{receiver.port}/hook")
        assert "certificate verify failed" in refused["attempts"][0]["error"]
        assert len(receiver.hosts) == 1
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()
