"""Every form of an address a webhook could use to reach what is not public, refused with a 422
that says what it is when the webhook is registered, and again before each delivery (a name may
resolve elsewhere by then). Public addresses, and those only seen through a public form (a NAT64
or IPv4-mapped form of a public IPv4 address), are let through."""

from __future__ import annotations

from ipaddress import ip_address, ip_network
from typing import Any

import pytest
from httpclient import Client

from projections.addresses import refusal
from workers import deliveries

#: Each literal form the campaign found accepted, and every other not-public kind: what it is.
REFUSED = {
    "[64:ff9b::7f00:1]": "NAT64, so 127.0.0.1: loopback",
    "[64:ff9b::a00:1]": "NAT64, so 10.0.0.1: private",
    "[2002:7f00:1::]": "6to4",
    "[2002:808:808::1]": "6to4",  # deprecated: its relay would forward to what it carries
    "[::127.0.0.1]": "IPv4-compatible",
    "[::ffff:127.0.0.1]": "IPv4-mapped, so 127.0.0.1: loopback",
    "[::ffff:169.254.169.254]": "IPv4-mapped, so 169.254.169.254: link-local",
    "224.0.0.1": "multicast",
    "239.255.255.250": "multicast",
    "[ff02::1]": "multicast",
    "[ff0e::1]": "multicast",
    "[fec0::1]": "site-local",
    "[64:ff9b:1::a00:1]": "local-use NAT64",
    "192.88.99.1": "6to4 relay anycast",
    "[3fff::1]": "documentation",
    "[5f00::1]": "SRv6 segment identifier",
    "127.0.0.1": "loopback",
    "[::1]": "loopback",
    "0.0.0.0": "unspecified",
    "[::]": "unspecified",
    "169.254.169.254": "link-local",
    "[fe80::1]": "link-local",
    "10.1.2.3": "private",
    "[fc00::1]": "private",
    "100.64.0.1": "special-purpose",
    "240.0.0.1": "private",
    "255.255.255.255": "private",
}
PUBLIC = ["8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"]


def test_each_form_is_named_and_public_ones_pass() -> None:
    for host, kind in REFUSED.items():
        reason = refusal(ip_address(host.strip("[]")))
        assert reason is not None and reason.startswith(kind), (host, reason)
    for address in PUBLIC:
        assert refusal(ip_address(address)) is None, address
    # What the operator allows is judged as the connection uses it: the IPv4 inside a mapped form.
    allowed = [ip_network("127.0.0.1/32")]
    assert refusal(ip_address("::ffff:127.0.0.1"), allowed) is None
    assert refusal(ip_address("127.0.0.2"), allowed) == "loopback"


@pytest.fixture(autouse=True)
def nothing_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """No operator's allowance: the tests that receive webhooks on loopback allow 127.0.0.1 for
    the whole run (``KOTLIK_WEBHOOK_ALLOW``, read at each registration and delivery)."""
    monkeypatch.delenv("KOTLIK_WEBHOOK_ALLOW", raising=False)


@pytest.fixture(scope="module")
def hooked(live_url: str) -> Client:
    reply = Client(live_url).post("/api/v1/players", {"name": "Hooked"})
    assert reply.status == 201, reply
    return Client(live_url).seat(reply.body["key"])


@pytest.mark.parametrize("host", list(REFUSED))
def test_refused_at_registration_and_before_delivery(hooked: Client, host: str, monkeypatch: Any) -> None:
    url = f"http://{host}:8080/hook"
    reply = hooked.post("/api/v1/players/me/webhooks", {"url": url})
    assert reply.status == 422, (host, reply)
    problem = reply.problem
    assert problem["type"].endswith("/refused-webhook-url"), problem
    assert REFUSED[host] in problem["detail"] and "not a public address" in problem["detail"], problem
    # A delivery checks again before it connects: a refused one reaches nothing, saying why.
    monkeypatch.setattr(deliveries.urllib.request, "build_opener", _no_connection)
    status, error = deliveries._post(url, "secret", "your_turn", 1, b"{}")
    assert status is None and error is not None and REFUSED[host] in error, error


def test_nothing_refused_was_registered(hooked: Client) -> None:
    assert hooked.get("/api/v1/players/me/webhooks").body == []


def _no_connection(*args: Any) -> Any:
    raise AssertionError("a refused address was connected to")
