"""The VAPID key (Web Push, issue 50): made at first start where ``KOTLIK_VAPID_KEY`` says, one key
however many processes start at once, its public half the point a browser's
``applicationServerKey`` takes, and a file holding another kind of key refused."""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

from workers import vapid

ROOT = Path(__file__).resolve().parents[2]


def test_made_once_by_processes_starting_together(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "vapid.pem"
    script = "from workers import vapid; print(vapid.public_key())"
    env = {**os.environ, "KOTLIK_VAPID_KEY": str(path)}
    started = [
        subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(6)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in started}
    assert len(keys) == 1 and all(p.returncode == 0 for p in started)
    assert path.stat().st_mode & 0o777 == 0o600
    assert sorted(f.name for f in path.parent.iterdir()) == ["vapid.pem"]  # no drafts left behind
    point = base64.urlsafe_b64decode(keys.pop() + "=")
    assert len(point) == 65 and point[0] == 4
    ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    served = base64.urlsafe_b64encode(point).rstrip(b"=").decode()
    assert vapid.public_key(vapid.load_or_create(path)) == served


def test_a_file_of_another_key_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "ed25519.pem"
    path.write_bytes(
        ed25519.Ed25519PrivateKey.generate().private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    with pytest.raises(ValueError, match="P-256"):
        vapid.load_or_create(path)
