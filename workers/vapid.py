"""The server's VAPID key (RFC 8292): what every Web Push message is signed with, so a push service
delivers to a browser only what the server it subscribed with sent.

A P-256 key kept in a PEM file, ``KOTLIK_VAPID_KEY``, else ``$KOTLIK_DATA/vapid-key.pem``, made at
first start like the export signing key (:func:`audit.signing.load_or_create`): mode 0600, and
linked into place whole, so two processes starting at once make one key and read it whole. Web
processes serve its public half (``GET /api/v1/push/key``), which a browser passes as
``applicationServerKey`` when it subscribes; workers sign with it. Every process of one server must
read the same file (or the same key in their own copies): a subscription made with one key is
refused by the push service for another. ``KOTLIK_VAPID_SUBJECT`` is the contact the push services
see (``mailto:`` or ``https:``).
"""

from __future__ import annotations

import base64
import os
import secrets
from functools import cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from events.database import data_dir

#: The key's file under ``$KOTLIK_DATA`` unless ``KOTLIK_VAPID_KEY`` names another.
KEY_FILE = "vapid-key.pem"
#: The contact sent in each message's signed claims when ``KOTLIK_VAPID_SUBJECT`` is not set.
SUBJECT = "mailto:operator@kotlik.invalid"


def key_path() -> Path:
    configured = os.environ.get("KOTLIK_VAPID_KEY")
    return Path(configured) if configured else data_dir() / KEY_FILE


def subject() -> str:
    return os.environ.get("KOTLIK_VAPID_SUBJECT") or SUBJECT


@cache
def load_or_create(path: Path) -> ec.EllipticCurvePrivateKey:
    """The VAPID key kept at ``path`` (PKCS#8 PEM, P-256), made there if there is none."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        # Written whole under a name of its own, then linked into place: a process that loses the
        # race never reads a file the winner has not finished writing.
        draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(pem)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
        raise ValueError(f"{path} holds no P-256 private key (a VAPID key is one)")
    return key


def key() -> ec.EllipticCurvePrivateKey:
    return load_or_create(key_path())


def public_key(private: ec.EllipticCurvePrivateKey | None = None) -> str:
    """The public half as a browser's ``applicationServerKey`` takes it: the uncompressed point,
    base64url without padding."""
    raw = (
        (private or key())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
