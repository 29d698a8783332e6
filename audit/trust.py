"""Which signatures an import accepts: the keys it trusts, and whether it demands one of them.

An import verifies the log (:func:`audit.verify.check`) whoever signed it; the signature says
whose file it is. The rules, in order (the first that applies decides):

- a signed file whose signature does not match its bytes under the key its header names is refused:
  it was changed after signing, or signed by a key other than the one it names;
- a key given for this import (``kotlik import FILE --key KEYFILE``) is pinned, as by ``kotlik verify
  --key``: the file must be signed by that key, or it is refused;
- with signatures required (``KOTLIK_REQUIRE_SIGNED_IMPORTS``), the file must be signed by a trusted
  key: the server's own, one of ``KOTLIK_IMPORT_KEYS``, or the given one; an unsigned file, or one
  signed by a key the server does not know, is refused;
- otherwise an unsigned file is accepted as before signatures existed, and so is one signed by a
  key the server does not know (its signature matches, but proves only that its signer made it).

Nothing here touches the database: :mod:`audit.imports` and the service call :func:`vouch` before
anything is written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from audit import signing
from audit.verify import Export


class SignatureRefused(Exception):
    """An export whose signature this import does not accept; nothing was written."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Trust:
    """The public keys (JWKs) an import trusts, the one it pins, and whether one is required."""

    keys: tuple[dict[str, Any], ...] = ()
    #: A key given for this import alone: the file must be signed by it.
    pinned: dict[str, Any] | None = None
    required: bool = False


def vouch(data: bytes, export: Export, trust: Trust) -> str:
    """What the signature of ``data`` (the file ``export`` was parsed from) is, in words; raises
    :class:`SignatureRefused` when the rules of the module's doc refuse it."""
    named = export.header.get("key")
    kid = named.get("kid") if isinstance(named, dict) else None
    if export.signature is not None:
        if named is None:
            raise SignatureRefused("signature: the file is signed, but its header names no key")
        try:
            signing.check(data, signing.public_key(named))
        except signing.BadSignature as e:
            raise SignatureRefused(f"signature: {e}") from None
    if trust.pinned is not None:
        try:
            pinned = signing.public_key(trust.pinned)
        except signing.BadSignature as e:
            raise SignatureRefused(f"the given key: {e}") from None
        if export.signature is None:
            raise SignatureRefused(
                f"signature: the file is not signed, but key {_kid(trust.pinned)} was given"
            )
        if not _same(named, pinned):
            raise SignatureRefused(
                f"signature: the file is signed by key {kid}, not by the given key {_kid(trust.pinned)}"
            )
        return f"signed by the given key {_kid(trust.pinned)}"
    trusted = export.signature is not None and any(_same(named, signing.public_key(k)) for k in trust.keys)
    if trusted:
        return f"signed by a trusted key {kid}"
    if trust.required:
        what = (
            "not signed"
            if export.signature is None
            else f"signed by key {kid}, which this server does not trust"
        )
        raise SignatureRefused(
            f"signature: the file is {what}, and this server imports only files signed by a key it trusts "
            "(its own or one of KOTLIK_IMPORT_KEYS)"
        )
    if export.signature is None:
        return "not signed (accepted: this server does not require signatures)"
    return f"signed by key {kid}, which this server does not know (accepted: signatures are not required)"


def _same(named: Any, key: Any) -> bool:
    """Whether the header's JWK ``named`` is the public key ``key``."""
    try:
        return bool(signing.public_key(named).public_bytes_raw() == key.public_bytes_raw())
    except signing.BadSignature:
        return False


def _kid(jwk: dict[str, Any]) -> str:
    return str(jwk.get("kid") or signing.jwk(signing.public_key(jwk))["kid"])


def read_key(path: Path) -> dict[str, Any]:
    """A JWK file (as ``GET /.well-known/kotlik-key`` serves it); a clear error if it is none."""
    try:
        value = orjson.loads(path.read_bytes())
        signing.public_key(value)
    except (OSError, orjson.JSONDecodeError, signing.BadSignature) as e:
        raise ValueError(f"{path} is no readable Ed25519 JWK: {getattr(e, 'strerror', None) or e}") from None
    return dict(value)


def read_keys(paths: str | None) -> tuple[dict[str, Any], ...]:
    """The JWKs of ``KOTLIK_IMPORT_KEYS``: JWK files separated by the path separator (``:``)."""
    return tuple(read_key(Path(p)) for p in _split(paths))


def _split(paths: str | None) -> Iterable[str]:
    return [p for p in (paths or "").split(os.pathsep) if p.strip()]
