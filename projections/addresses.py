"""Which addresses a webhook delivery may connect to: public unicast ones, judged as the connection
will use them.

An IPv6 address may carry an IPv4 one, and what it reaches is then that IPv4 address's: an
IPv4-mapped address (``::ffff:127.0.0.1``) is a connection over IPv4 to it, and a NAT64 address
(``64:ff9b::7f00:1``, RFC 6052) is one a NAT64 gateway makes to it. Those are judged by the IPv4
address inside. The other forms that embed one are refused whatever it is: IPv4-compatible
addresses (``::127.0.0.1``, deprecated by RFC 4291) and 6to4 (``2002::/16``, deprecated by
RFC 7526), whose relays would forward to the address inside.

Python's ``ipaddress`` knows most special-purpose blocks (private, loopback, link-local, reserved,
documentation, ...; ``is_global``), but as of Python 3.11 it calls these global, so they are listed
here (:data:`NOT_PUBLIC`): multicast (IPv4 and IPv6), IPv6 site-local (``fec0::/10``), the
local-use NAT64 prefix (``64:ff9b:1::/48``, RFC 8215), 6to4's relay anycast (``192.88.99.0/24``),
IPv6 documentation's second block (``3fff::/20``, RFC 9637) and SRv6 segment identifiers
(``5f00::/16``, RFC 9602).
"""

from __future__ import annotations

from collections.abc import Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_network

Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network

#: The well-known NAT64 prefix: the last 32 bits are the IPv4 address reached.
NAT64 = IPv6Network("64:ff9b::/96")
#: IPv4-compatible IPv6 addresses (``::a.b.c.d``), deprecated.
IPV4_COMPATIBLE = IPv6Network("::/96")
#: Blocks that are not public, which ``ipaddress`` (Python 3.11) calls global: name by block.
NOT_PUBLIC: dict[Network, str] = {
    ip_network("224.0.0.0/4"): "multicast",
    ip_network("ff00::/8"): "multicast",
    ip_network("fec0::/10"): "site-local",
    ip_network("64:ff9b:1::/48"): "local-use NAT64",
    ip_network("192.88.99.0/24"): "6to4 relay anycast",
    ip_network("3fff::/20"): "documentation",
    ip_network("5f00::/16"): "SRv6 segment identifier",
}


def refusal(address: Address, allowed: Sequence[Network] = ()) -> str | None:
    """Why a delivery may not connect to ``address`` (what kind of address it is), or None if it
    may: a public unicast address, or one in the operator's ``allowed`` networks."""
    if isinstance(address, IPv6Address):
        mapped = address.ipv4_mapped
        if mapped is not None:
            inner = refusal(mapped, allowed)
            return inner and f"IPv4-mapped, so {mapped}: {inner}"
        if any(address in network for network in allowed):
            return None
        if address in NAT64:
            reached = IPv4Address(int(address) & 0xFFFFFFFF)
            inner = refusal(reached, allowed)
            return inner and f"NAT64, so {reached}: {inner}"
        if address.sixtofour is not None:
            return f"6to4 (deprecated), carrying {address.sixtofour}"
        if address in IPV4_COMPATIBLE and int(address) > 1:
            return f"IPv4-compatible (deprecated), carrying {IPv4Address(int(address))}"
    elif any(address in network for network in allowed):
        return None
    for network, kind in NOT_PUBLIC.items():
        if address.version == network.version and address in network:
            return kind
    if address.is_global:
        return None
    for kind in ("loopback", "unspecified", "link_local", "private", "reserved"):
        if getattr(address, f"is_{kind}"):
            return kind.replace("_", "-")
    return "special-purpose"
