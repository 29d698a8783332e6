"""Signed exports: the server's Ed25519 key, its public half as a JWK, and the export's last line.

An export is signed so that a file can be shown to be one this server wrote, not merely a log
consistent with its seed (a made-up game with a fresh seed verifies too). The signature line is
the file's last line, ``{"signature": "<base64>"}``; it signs every byte before it, through a
digest so that an export streamed a page at a time needs no more memory than a page::

    message   = UTF-8("kotlik export signature v1") || 0x00 || SHA-256(every byte before the line)
    signature = Ed25519(server key, message)              (RFC 8032, 64 bytes, standard base64)

The public key is in the export's header (``"key"``, a JWK: RFC 8037 ``OKP``/``Ed25519``, with its
RFC 7638 thumbprint as ``kid``) and at ``GET /.well-known/kotlik-key``; ``kotlik verify FILE --key
KEYFILE`` checks a file against a key the auditor fetched and pinned. Nothing here touches the
database or the network, so the offline verifier uses it as it is.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path
from typing import Any

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

#: The domain label the signed message starts with.
LABEL = b"kotlik export signature v1"
#: The signature line's one field.
FIELD = "signature"


class BadSignature(ValueError):
    """A signature that is missing, malformed, by another key, or not over these bytes."""


def message(body: bytes) -> bytes:
    """What is signed for ``body`` (every byte before the signature line)."""
    return LABEL + b"\x00" + hashlib.sha256(body).digest()


class Signer:
    """The signature of an export written a piece at a time: feed each piece, then take the line."""

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self._digest = hashlib.sha256()

    def update(self, piece: bytes) -> bytes:
        """Count ``piece`` in and hand it back, so a stream can pass through."""
        self._digest.update(piece)
        return piece

    def line(self) -> bytes:
        """The signature line (with its newline) over everything fed so far."""
        signed = self._key.sign(LABEL + b"\x00" + self._digest.digest())
        return orjson.dumps({FIELD: base64.b64encode(signed).decode()}) + b"\n"


def load_or_create(path: Path) -> Ed25519PrivateKey:
    """The server's signing key kept at ``path`` (PKCS#8 PEM), made there at first start.

    Made with mode 0600 and ``O_EXCL``, so two processes starting at once make one key: the loser
    of the race reads the winner's.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "wb") as file:
                file.write(pem)
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path} holds no Ed25519 private key")
    return key


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def jwk(key: Ed25519PublicKey) -> dict[str, str]:
    """The public key as a JWK (RFC 8037), ``kid`` its RFC 7638 thumbprint."""
    x = _b64url(key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw))
    members = {"crv": "Ed25519", "kty": "OKP", "x": x}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True).encode()
    return {"kty": "OKP", "crv": "Ed25519", "x": x, "kid": _b64url(hashlib.sha256(canonical).digest())}


def public_key(value: Any) -> Ed25519PublicKey:
    """The key of a JWK (as :func:`jwk` gives it); :class:`BadSignature` for anything else."""
    if not isinstance(value, dict) or value.get("kty") != "OKP" or value.get("crv") != "Ed25519":
        raise BadSignature('the key is not an Ed25519 JWK ({"kty": "OKP", "crv": "Ed25519", "x": ...})')
    try:
        raw = base64.urlsafe_b64decode(str(value.get("x")) + "==")
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise BadSignature("the key's x is not 32 bytes of base64url") from None


def split(data: bytes) -> tuple[bytes, str | None]:
    """``data`` cut into what is signed and the signature; ``None`` when its last line is none."""
    end = data.rstrip(b"\n")
    start = end.rfind(b"\n") + 1
    try:
        last = orjson.loads(end[start:])
    except orjson.JSONDecodeError:
        return data, None
    if not (isinstance(last, dict) and set(last) == {FIELD}):
        return data, None
    return data[:start], last[FIELD] if isinstance(last[FIELD], str) else ""


def check(data: bytes, key: Ed25519PublicKey) -> None:
    """Raise :class:`BadSignature` unless ``data`` ends in a signature by ``key`` over the rest."""
    body, signature = split(data)
    if signature is None:
        raise BadSignature('the file is not signed: its last line is no {"signature": ...}')
    try:
        raw = base64.b64decode(signature, validate=True)
    except ValueError:
        raise BadSignature("the signature is not base64") from None
    try:
        key.verify(raw, message(body))
    except InvalidSignature:
        raise BadSignature(
            "the signature does not match: the file was changed or signed by another key"
        ) from None
