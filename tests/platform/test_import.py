"""Importing an export into another Kotlík: a real ``kotlik web`` on a database of its own.

A verified export comes back as the same finished game (summary, log, score and export byte for
byte); an import needs the admin token, and bad files (not JSON, cut short, an unknown game or
rules version, tampered, still running, already here) are refused with problem details and write
nothing. ``kotlik import`` does the same from the command line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from httpclient import Client, Reply, create, game_path, play_to_end
from processes import ROOT, environment, fresh_database, kotlik_web

from audit import signing
from events.database import migrate

ADMIN = "admin-token-for-the-import-tests"
IMPORT = "/api/v1/games/import"
JSON_LINES = {"Content-Type": "application/x-ndjson"}


@pytest.fixture(scope="module")
def source(live_url: str, worker: Any) -> dict[str, Any]:
    """A finished game on the test server: its summary, log, score and export."""
    api = Client(live_url)
    game = create(api, "kupferkessel", [{"name": "Me"}, {"name": "Bot", "bot": "default"}])
    summary = play_to_end(api, game, seed=21)
    export = api.get(game_path(game, "/export"))
    assert export.status == 200
    return {
        "summary": summary,
        "events": api.get(game_path(game, "/events")).body,
        "score": api.get(game_path(game, "/score")).body,
        "raw": export.raw,
    }


@pytest.fixture(scope="module")
def other(server_url: str, broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Another Kotlík: ``kotlik web`` with an admin token on an empty database of its own."""
    with fresh_database(server_url) as url:
        migrate(url)
        env = environment(**{**broker, "DATABASE_URL": url}, KOTLIK_ADMIN_TOKEN=ADMIN)
        with kotlik_web(env, tmp_path_factory.mktemp("other") / "web.log") as api:
            yield api, url


def _post(api: Client, body: bytes, token: str | None = ADMIN) -> Reply:
    return api.seat(token).post(IMPORT, raw=body, headers=JSON_LINES)


def _lines(raw: bytes) -> list[dict[str, Any]]:
    """The header and event lines, without the signature line that ends the file (a file
    rewritten from them is unsigned: tests/platform/test_signing.py checks the signature)."""
    return [json.loads(line) for line in raw.splitlines() if "signature" not in json.loads(line)]


def _file(lines: list[dict[str, Any]]) -> bytes:
    return "".join(json.dumps(line) + "\n" for line in lines).encode()


def _nothing_written(url: str) -> None:
    with psycopg.connect(url) as conn:
        counts = conn.execute(
            "SELECT (SELECT count(*) FROM games), (SELECT count(*) FROM events), "
            "(SELECT count(*) FROM scores)"
        ).fetchone()
    assert counts == (0, 0, 0)


def test_importing_needs_the_admin_token(source: dict[str, Any], other: Any, live_url: str) -> None:
    api, url = other
    for token in (None, "not-the-admin-token", source["summary"]["seed"]):
        reply = _post(api, source["raw"], token)
        assert reply.status == 401, reply
        assert reply.problem["type"].endswith("/unauthorized")
    unconfigured = _post(Client(live_url), source["raw"], "any-token")
    assert unconfigured.status == 404
    assert "KOTLIK_ADMIN_TOKEN" in unconfigured.problem["detail"]
    anonymous = _post(Client(live_url), source["raw"], None)  # no token is 401 everywhere, imports or none
    assert anonymous.status == 401 and anonymous.headers["WWW-Authenticate"] == "Bearer", anonymous
    _nothing_written(url)


def _forged(raw: bytes, **header: Any) -> bytes:
    head, *events = _lines(raw)
    return _file([{**head, **header}, *events])


def _tampered(raw: bytes) -> tuple[bytes, int]:
    head, *events = _lines(raw)
    event = next(e for e in events if "at" in e["meta"] and isinstance(e["data"].get("card"), str))
    event["data"]["card"] += "-forged"
    return _file([head, *events]), event["version"]


def _unknown_game(raw: bytes) -> bytes:
    head, created, *events = _lines(raw)
    return _file(
        [{**head, "game": "chess"}, {**created, "data": {**created["data"], "game": "chess"}}, *events]
    )


def test_bad_files_are_refused_with_problem_details_and_write_nothing(
    source: dict[str, Any], other: Any, live_url: str
) -> None:
    api, url = other
    raw = source["raw"]
    lines = raw.splitlines(keepends=True)
    tampered, version = _tampered(raw)
    running = Client(live_url).seat(None)
    game = create(running, "kupferkessel", [{"name": "A"}, {"name": "B"}])
    cases = [
        (b"this is not JSON\n", 400, "malformed-export", "line 1 is not JSON"),
        (b"", 400, "malformed-export", "the file is empty"),
        (raw[: len(raw) // 2], 400, "malformed-export", "is the file cut short?"),
        (b"".join(lines[: len(lines) // 2]), 400, "malformed-export", "the file is truncated"),
        (b'{"format": "something else"}\n', 400, "malformed-export", "not a Kotlík export"),
        (_unknown_game(raw), 422, "not-importable", "no game 'chess'"),
        (_forged(raw, rules_version=7), 422, "not-importable", "kupferkessel has no rules version 7"),
        (tampered, 422, "export-does-not-verify", f"version {version}:"),
        (running.get(game_path(game, "/export")).raw, 422, "not-importable", "only a finished game"),
    ]
    for body, status, slug, detail in cases:
        reply = _post(api, body)
        assert reply.status == status, (detail, reply)
        assert reply.problem["type"].endswith(f"/{slug}") and detail in reply.problem["detail"], reply
    refused = _post(api, tampered)
    assert refused.problem["problems"][0].startswith(f"version {version}: ")
    assert '    card: expected "' in refused.problem["problems"][0]
    _nothing_written(url)


def _signed(raw: bytes, key: Ed25519PrivateKey, change: Any = None) -> bytes:
    """The file's header and events (changed by ``change``), signed anew by ``key``."""
    lines = _lines(raw)
    if change:
        change(lines)
    signer = signing.Signer(key)
    return signer.update(_file(lines)) + signer.line()


def _names(key: Ed25519PrivateKey) -> Any:
    """A change that makes the header name ``key`` (as a server with that key would write it)."""

    def change(lines: list[dict[str, Any]]) -> None:
        lines[0]["key"] = signing.jwk(key.public_key())

    return change


def _renamed(raw: bytes) -> bytes:
    """A seat renamed, the server's signature kept as it was."""
    *lines, signature = raw.splitlines(keepends=True)
    head = json.loads(lines[0])
    head["seats"][0]["name"] = "Someone else"
    return json.dumps(head).encode() + b"\n" + b"".join(lines[1:]) + signature


def test_a_wrongly_signed_export_is_refused_before_it_is_verified(source: dict[str, Any], other: Any) -> None:
    api, url = other
    raw = source["raw"]
    *body, last = raw.splitlines(keepends=True)
    flipped = json.loads(last)["signature"]
    flipped = ("A" if flipped[0] != "A" else "B") + flipped[1:]
    stranger = Ed25519PrivateKey.generate()
    cases = [
        (_signed(raw, stranger), "the signature does not match"),  # the header still names the server's key
        (
            b"".join(body) + json.dumps({"signature": flipped}).encode() + b"\n",
            "the signature does not match",
        ),
        (_renamed(raw), "the signature does not match"),
        (_signed(raw, stranger, lambda lines: lines[0].update(key=None)), "its header names no key"),
    ]
    for file, detail in cases:
        reply = _post(api, file)
        assert reply.status == 422, (detail, reply)
        assert reply.problem["type"].endswith("/export-signature-refused"), reply.problem
        assert reply.problem["detail"].startswith("signature: ") and detail in reply.problem["detail"], reply
    _nothing_written(url)


def test_with_signatures_required_only_a_trusted_key_is_taken(
    source: dict[str, Any], app: Any, live_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    friend, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    (tmp_path / "friend.jwk").write_bytes(orjson.dumps(signing.jwk(friend.public_key())))
    monkeypatch.setitem(app.config, "KOTLIK_ADMIN_TOKEN", ADMIN)
    monkeypatch.setitem(app.config, "KOTLIK_IMPORT_KEYS", str(tmp_path / "friend.jwk"))
    api, raw = Client(live_url), source["raw"]
    unsigned = _file(_lines(raw))
    by_stranger = _signed(raw, stranger, _names(stranger))
    by_friend = _signed(raw, friend, _names(friend))
    # Not required: an unsigned file and one by an unknown key get as far as the game being here.
    for file in (unsigned, by_stranger, by_friend, raw):
        assert _post(api, file).problem["type"].endswith("/game-exists")
    monkeypatch.setitem(app.config, "KOTLIK_REQUIRE_SIGNED_IMPORTS", "1")
    for file, detail in [
        (unsigned, "the file is not signed, and this server imports only files signed by a key it trusts"),
        (
            by_stranger,
            f"signed by key {signing.jwk(stranger.public_key())['kid']}, which this server does not",
        ),
    ]:
        reply = _post(api, file)
        assert reply.status == 422 and reply.problem["type"].endswith("/export-signature-refused"), reply
        assert detail in reply.problem["detail"], reply.problem
    for file in (by_friend, raw):  # a configured key, and the server's own: accepted, then found here
        assert _post(api, file).problem["type"].endswith("/game-exists")


def test_a_verified_export_imports_as_the_same_finished_game(source: dict[str, Any], other: Any) -> None:
    api, url = other
    summary = source["summary"]
    reply = _post(api, source["raw"])
    assert reply.status == 201, reply
    assert reply.headers["Location"].endswith(game_path(summary))
    assert reply.body == summary
    assert api.get(game_path(summary)).body == summary
    assert api.get(game_path(summary, "/events")).body == source["events"]
    assert api.get(game_path(summary, "/score")).body == source["score"]
    assert api.get(game_path(summary, "/export")).raw == source["raw"], "the export round-trips byte for byte"

    again = _post(api, source["raw"])
    assert again.status == 409 and again.problem["type"].endswith("/game-exists")
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM events").fetchone() == (summary["version"],)


def _kotlik(args: list[str], url: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args],
        cwd=ROOT,
        env=environment(DATABASE_URL=url, **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_game_with_undos_imports_as_the_same_game(live_url: str, worker: Any, other: Any) -> None:
    """Undos (``kotlik.Undone``) travel in the export and are folded alike on the other side."""
    from test_undo import _finished_with_undos

    source = Client(live_url)
    game = _finished_with_undos(source, "kupferkessel")
    raw = source.get(game_path(game, "/export")).raw
    api, _ = other
    reply = _post(api, raw)
    assert reply.status == 201, reply
    assert api.get(game_path(game, "/export")).raw == raw, "the export round-trips byte for byte"
    assert api.get(game_path(game, "/events")).body == source.get(game_path(game, "/events")).body
    assert api.get(game_path(game, "/state")).body == source.get(game_path(game, "/state")).body


def test_kotlik_import_loads_a_verified_file_and_refuses_others(
    source: dict[str, Any], server_url: str, tmp_path: Path
) -> None:
    summary = source["summary"]
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_bytes(source["raw"])
    bad.write_bytes(_tampered(source["raw"])[0])
    with fresh_database(server_url) as url:
        migrate(url)
        refused = _kotlik(["import", str(bad)], url)
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert refused.stdout.startswith("refused, nothing imported:\nDOES NOT VERIFY")
        _nothing_written(url)

        done = _kotlik(["import", str(good)], url)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[0] == (
            f"imported kupferkessel game {summary['id']} (rules version 1), "
            f"finished at version {summary['version']}"
        )
        assert done.stdout.splitlines()[1].startswith("  the file: signed by a trusted key "), done.stdout
        audited = _kotlik(["audit", summary["id"]], url)
        assert audited.returncode == 0 and "the log follows from the seed" in audited.stdout, audited.stdout

        again = _kotlik(["import", str(good)], url)
        assert again.returncode == 1 and f"a game {summary['id']} exists here already" in again.stdout


def test_kotlik_import_checks_the_signature_and_may_require_one(
    source: dict[str, Any], server_url: str, tmp_path: Path
) -> None:
    raw = source["raw"]
    friend, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    files = {
        "resigned.jsonl": _signed(raw, stranger),
        "unsigned.jsonl": _file(_lines(raw)),
        "friend.jsonl": _signed(raw, friend, _names(friend)),
        "friend.jwk": orjson.dumps(signing.jwk(friend.public_key())),
        "stranger.jwk": orjson.dumps(signing.jwk(stranger.public_key())),
        "server.jsonl": raw,
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    path = {name: str(tmp_path / name) for name in files}
    with fresh_database(server_url) as url:
        migrate(url)
        refusals = [
            (["import", path["resigned.jsonl"]], {}, "signature: the signature does not match"),
            (["import", path["server.jsonl"], "--key", path["stranger.jwk"]], {}, "not by the given key"),
            (["import", path["unsigned.jsonl"], "--key", path["friend.jwk"]], {}, "the file is not signed"),
            (
                ["import", path["unsigned.jsonl"]],
                {"KOTLIK_REQUIRE_SIGNED_IMPORTS": "1"},
                "the file is not signed",
            ),
            (["import", path["friend.jsonl"]], {"KOTLIK_REQUIRE_SIGNED_IMPORTS": "yes"}, "does not trust"),
            (
                ["import", path["server.jsonl"], "--key", path["unsigned.jsonl"]],
                {},
                "no readable Ed25519 JWK",
            ),
        ]
        for args, env, detail in refusals:
            refused = _kotlik(args, url, **env)
            assert refused.returncode == 1, (args, refused.stdout + refused.stderr)
            assert refused.stdout.startswith("refused, nothing imported: ") and detail in refused.stdout, (
                args,
                refused.stdout,
            )
        _nothing_written(url)
        done = _kotlik(["import", path["unsigned.jsonl"]], url)
        assert done.returncode == 0, done.stdout + done.stderr
        assert (
            done.stdout.splitlines()[1]
            == "  the file: not signed (accepted: this server does not require signatures)"
        )
    with fresh_database(server_url) as url:
        migrate(url)
        required = {"KOTLIK_REQUIRE_SIGNED_IMPORTS": "1", "KOTLIK_IMPORT_KEYS": path["friend.jwk"]}
        done = _kotlik(["import", path["friend.jsonl"]], url, **required)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"signed by a trusted key {signing.jwk(friend.public_key())['kid']}" in done.stdout
    with fresh_database(server_url) as url:
        migrate(url)
        done = _kotlik(["import", path["friend.jsonl"], "--key", path["friend.jwk"]], url)
        assert done.returncode == 0 and "signed by the given key" in done.stdout, done.stdout + done.stderr


def test_an_import_is_bounded_by_its_own_limit_and_refuses_a_game_that_is_here(
    source: dict[str, Any], app: Any, live_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(app.config, "KOTLIK_ADMIN_TOKEN", ADMIN)
    monkeypatch.setitem(app.config, "KOTLIK_MAX_IMPORT", len(source["raw"]) - 1)
    api = Client(live_url)
    too_large = _post(api, source["raw"])
    assert too_large.status == 413, too_large
    monkeypatch.setitem(app.config, "KOTLIK_MAX_IMPORT", len(source["raw"]))
    here = _post(api, source["raw"])
    assert (
        here.status == 409
        and here.problem["detail"] == f"a game {source['summary']['id']} exists here already"
    )
    document = api.get("/api/v1/openapi.json").body
    assert "get" in document["paths"]["/api/v1/games/{game_id}/export"]
    assert document["paths"]["/api/v1/games/import"]["post"]["security"] == [{"admin": []}]


def test_the_verifier_needs_no_database_web_framework_or_worker() -> None:
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, audit.verify; print(sorted({m.split('.')[0] for m in sys.modules}))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert not {"psycopg", "flask", "celery", "werkzeug", "socket"} & set(
        json.loads(loaded.replace("'", '"'))
    )
