"""Signed exports: the server's Ed25519 key, made at first start where the operator says, its JWK at
``/.well-known/kotlik-key`` and in each export's header, and the signature line that ends the file.

The signature is checked here with ``cryptography`` from ``docs/random.md``'s recipe alone; ``kotlik
verify --key`` accepts the file as served and refuses it unsigned, re-signed by another key, with its
signature changed, a seat renamed, a bot turned into a person, or a seat's entropy changed — naming
the signature first.
"""

from __future__ import annotations

import base64
import hashlib
import json
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from httpclient import Client, create, game_path, play_to_end
from processes import ROOT, environment, fresh_database, kotlik_web

from audit import signing
from audit.verify import check, parse
from events.database import migrate
from tests.games.independent_random import check as recompute

WELL_KNOWN = "/.well-known/kotlik-key"
NOWHERE = "postgresql://nobody@127.0.0.1:9/none?connect_timeout=1"


def _verify(path: Path, key: Path | None) -> subprocess.CompletedProcess[str]:
    extra = ["--key", str(key)] if key else []
    return subprocess.run(
        [sys.executable, "-m", "service.cli", "verify", str(path), *extra],
        cwd=ROOT,
        env=environment(DATABASE_URL=NOWHERE, CELERY_BROKER_URL=None, KOTLIK_SIGNING_KEY=None),
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture(scope="module")
def signed(live_url: str, worker: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    api = Client(live_url)
    game = create(
        api, "kupferkessel", [{"name": "Me", "entropy": "c3" * 32}, {"name": "Bot", "bot": "default"}]
    )
    play_to_end(api, game, seed=5)
    raw = api.get(game_path(game, "/export")).raw
    key = api.get(WELL_KNOWN)
    assert key.status == 200, key
    folder = tmp_path_factory.mktemp("signed")
    (folder / "key.jwk").write_bytes(key.raw)
    return {"raw": raw, "key": key.body, "folder": folder}


def _public(jwk: dict[str, str]) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(base64.urlsafe_b64decode(jwk["x"] + "=="))


def test_the_export_ends_in_a_signature_over_every_byte_before_it(signed: dict[str, Any]) -> None:
    raw, jwk = signed["raw"], signed["key"]
    assert jwk["kty"] == "OKP" and jwk["crv"] == "Ed25519"
    thumbprint = json.dumps({"crv": "Ed25519", "kty": "OKP", "x": jwk["x"]}, separators=(",", ":"))
    assert (
        jwk["kid"]
        == base64.urlsafe_b64encode(hashlib.sha256(thumbprint.encode()).digest()).rstrip(b"=").decode()
    )
    lines = raw.splitlines(keepends=True)
    assert json.loads(lines[0])["key"] == jwk
    last = json.loads(lines[-1])
    assert set(last) == {"signature"}
    body = b"".join(lines[:-1])
    message = b"kotlik export signature v1\x00" + hashlib.sha256(body).digest()
    _public(jwk).verify(base64.b64decode(last["signature"]), message)  # raises if it does not verify


def _rewrite(raw: bytes, change: Any, key: Ed25519PrivateKey | None = None) -> bytes:
    """The export with ``change(lines)`` applied and kept signed (re-signed by ``key`` if given)."""
    lines = [orjson.loads(line) for line in raw.splitlines()]
    signature = lines.pop()
    change(lines)
    body = b"".join(orjson.dumps(line) + b"\n" for line in lines)
    if key is not None:
        signer = signing.Signer(key)
        signer.update(body)
        return body + signer.line()
    return body + orjson.dumps(signature) + b"\n"


def _rename(lines: list[dict[str, Any]]) -> None:
    for seats in (lines[0]["seats"], lines[1]["data"]["seats"]):
        seats[0]["name"] = "Someone Else"


def _bot_to_person(lines: list[dict[str, Any]]) -> None:
    for seats in (lines[0]["seats"], lines[1]["data"]["seats"]):
        seats[1]["bot"] = None
    for event in lines[1:]:
        if event["meta"].get("bot"):
            event["meta"]["bot"] = None


def _entropy(lines: list[dict[str, Any]]) -> None:
    for seats in (lines[0]["seats"], lines[1]["data"]["seats"]):
        seats[0]["entropy"] = "d4" * 32


def test_kotlik_verify_with_the_pinned_key_refuses_every_change(signed: dict[str, Any]) -> None:
    raw, folder = signed["raw"], signed["folder"]
    key = folder / "key.jwk"
    good = folder / "good.jsonl"
    good.write_bytes(raw)
    done = _verify(good, key)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"signed by the pinned key {signed['key']['kid']}" in done.stdout
    unpinned = _verify(good, None)
    assert unpinned.returncode == 0 and "not checked against a pinned key" in unpinned.stdout

    other = Ed25519PrivateKey.generate()
    signature = json.loads(raw.splitlines()[-1])["signature"]
    flipped = base64.b64encode(bytes([base64.b64decode(signature)[0] ^ 1]) + base64.b64decode(signature)[1:])
    cases = {
        "unsigned": (b"".join(raw.splitlines(keepends=True)[:-1]), "the file is not signed"),
        "signature": (
            raw.rsplit(b"\n", 2)[0] + b"\n" + orjson.dumps({"signature": flipped.decode()}) + b"\n",
            "the signature does not match",
        ),
        "other-key": (_rewrite(raw, lambda lines: None, other), "the signature does not match"),
        "renamed": (_rewrite(raw, _rename), "the signature does not match"),
        "bot-to-person": (_rewrite(raw, _bot_to_person), "the signature does not match"),
        "entropy": (_rewrite(raw, _entropy), "the signature does not match"),
    }
    for name, (body, reason) in cases.items():
        path = folder / f"{name}.jsonl"
        path.write_bytes(body)
        refused = _verify(path, key)
        assert refused.returncode == 1, (name, refused.stdout)
        first = refused.stdout.splitlines()[1]
        assert first.strip().startswith("signature:") and reason in first, (name, refused.stdout)

    # Re-signed by another key whose JWK the header names: the signature is right, the key is not.
    def named(lines: list[dict[str, Any]]) -> None:
        lines[0]["key"] = signing.jwk(other.public_key())

    path = folder / "impostor.jsonl"
    path.write_bytes(_rewrite(raw, named, other))
    refused = _verify(path, key)
    assert refused.returncode == 1 and "not the pinned key" in refused.stdout, refused.stdout


def test_the_key_is_made_at_first_start_under_kotlik_data(
    server_url: str, broker: dict[str, str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    with fresh_database(server_url) as url:
        migrate(url)
        env = environment(**{**broker, "DATABASE_URL": url}, KOTLIK_DATA=str(data), KOTLIK_SIGNING_KEY=None)
        with kotlik_web(env, tmp_path / "web.log") as api:
            jwk = api.get(WELL_KNOWN).body
    made = data / "export-signing-key.pem"
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
    key = serialization.load_pem_private_key(made.read_bytes(), password=None)
    assert isinstance(key, Ed25519PrivateKey)
    assert signing.jwk(key.public_key()) == jwk
    assert signing.load_or_create(made).private_bytes_raw() == key.private_bytes_raw(), "kept, not remade"


def _check(lines: list[dict[str, Any]]) -> Any:
    return check(parse([orjson.dumps(line) for line in lines]))


def test_an_export_served_over_http_is_recomputed_from_the_page_alone(signed: dict[str, Any]) -> None:
    """The export as served (not as the engines' test harness writes it) holds everything the
    independent implementation of ``docs/random.md`` needs."""
    lines = [orjson.loads(line) for line in signed["raw"].splitlines()][:-1]
    report = recompute(lines)
    assert not report.wrong, report.wrong
    assert set(report.checked) == {"grid", "first cauldron card", "deck"}


def test_verify_catches_a_bot_turned_person_and_times_out_of_order(signed: dict[str, Any]) -> None:
    """Without any key: what the log itself shows (a forger who rewrites every trace of a bot
    is caught by the signature alone, above)."""
    lines = [orjson.loads(line) for line in signed["raw"].splitlines()][:-1]
    assert _check(lines).ok

    person = json.loads(json.dumps(lines))
    for seats in (person[0]["seats"], person[1]["data"]["seats"]):
        seats[1]["bot"] = None
    verdict = _check(person)
    first_bot = next(e for e in lines[1:] if e["meta"].get("bot"))
    assert [p.version for p in verdict.problems] == [first_bot["version"]], verdict.report()
    assert "seat 1 is a person's, but this command was played by the bot 'default'" in verdict.report()

    robot = json.loads(json.dumps(lines))
    for seats in (robot[0]["seats"], robot[1]["data"]["seats"]):
        seats[0]["bot"] = "default"
        seats[0].pop("entropy")
    verdict = _check(robot)
    assert not verdict.ok and "seat 0 is the bot 'default''s" in verdict.report(), verdict.report()

    late = json.loads(json.dumps(lines))
    late[3]["recorded_at"], late[6]["recorded_at"] = "2099-01-01T00:00:00+00:00", late[3]["recorded_at"]
    verdict = _check(late)
    assert [p.version for p in verdict.problems] == [late[4]["version"]], verdict.report()
    assert "recorded before the one before it" in verdict.report()

    early = json.loads(json.dumps(lines))
    early[0]["created_at"] = "2099-01-01T00:00:00+00:00"
    assert [p.version for p in _check(early).problems] == [1]

    ended = json.loads(json.dumps(lines))
    ended[0]["finished_at"] = "2000-01-01T00:00:00+00:00"
    verdict = _check(ended)
    assert not verdict.ok and "finished before its last event" in verdict.report()

    bad = json.loads(json.dumps(lines))
    bad[5]["recorded_at"] = "yesterday"
    assert "is not an RFC 3339 time" in _check(bad).report()
