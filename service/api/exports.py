"""``/games/{id}/export`` and ``/games/import``: a game's log as a file, and back into a server.

An export is JSON Lines (:mod:`audit.verify` describes it), streamed a page of events at a
time. A finished game's export holds everything, the revealed seed too, so ``kotlik verify`` can
check it with no server; a running game's export is exactly what the caller sees through
``/events`` (the same redaction), with no seed. Importing is for operators: it needs the admin
token configured as ``KOTLIK_ADMIN_TOKEN``, and without one the endpoint does not exist (404, once
a token is sent: without one it is 401, as everywhere).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any
from uuid import UUID

import orjson
from flask import Response, current_app, request, stream_with_context, url_for
from flask.views import MethodView
from flask_smorest import Blueprint

from audit import export, signing
from audit.imports import GameExists, ImportRefused, NotImportable, NotVerified, restore
from audit.trust import SignatureRefused, Trust, read_keys, vouch
from audit.verify import BadExport, parse
from projections import lobby, seen
from projections.lobby import GameRow
from service.api.games import summary
from service.context import caches, connection, signing_key
from service.contract import schemas
from service.contract.problems import NotFound, Unauthorized, problem
from service.guard.auth import bearer, caller_seat
from service.server import settings

blp = Blueprint(
    "exports",
    __name__,
    url_prefix="/api/v1/games",
    description="Export a game's log as a file to verify offline; import one (operators)",
)

#: Bytes of an import read at most, unless ``KOTLIK_MAX_IMPORT`` says otherwise: a long game's
#: export is far larger than any command, so it has a bound of its own.
MAX_IMPORT = 16 * 1024 * 1024
#: The media type of an export (JSON Lines).
JSON_LINES = "application/x-ndjson"
#: The same file as bytes, also accepted: generators that know no JSON Lines (openapi-python-client
#: skips an operation whose only body is one) send a file as ``application/octet-stream``.
OCTETS = "application/octet-stream"
#: An import's body, for the document: the export file, as JSON Lines or as bytes.
IMPORT_BODY = {
    "required": True,
    "content": {
        JSON_LINES: {"schema": {"type": "string"}},
        OCTETS: {"schema": {"type": "string", "format": "binary"}},
    },
}
#: An export, for the document: lines of JSON (``audit.verify`` reads them).
EXPORT = {
    "type": "string",
    "description": "One JSON object a line: the header (game, seats, options, and once finished the seed), "
    "then each event with the seat and command that caused it",
}


@blp.route("/<uuid:game_id>/export")
class Export(MethodView):
    @blp.response(200, content_type=JSON_LINES, description="JSON Lines: a header, then one event a line")
    @blp.doc(responses={200: {"content": {JSON_LINES: {"schema": EXPORT}}}})
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(404, schema=schemas.ProblemSchema)
    @blp.doc(security=[{"seat": []}, {}])
    def get(self, game_id: UUID) -> Response:
        """The game as a file: everything with the revealed seed once finished, else what the
        caller may see (as ``/events`` shows it) without the seed.

        Each event line names the seat and the command that caused it. Check a finished game's
        file with ``kotlik verify FILE``; load it into another server with ``kotlik import FILE``.
        """
        with connection() as conn:
            row = lobby.get(conn, game_id)
            seat = caller_seat(conn, game_id, required=False)
            state = (
                caches().states.load(conn, row.id, row.rules, row.version).state
                if row.status == "active"
                else None
            )
        name = f"kotlik-{row.kind}-{row.id}-v{row.version}.jsonl"
        return Response(
            stream_with_context(_lines(row, seat, state)),
            mimetype=JSON_LINES,
            headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"},
        )


def _lines(row: GameRow, seat: int | None, state: Any) -> Iterator[bytes]:
    """The file a page at a time, then the signature over every byte before it."""
    finished = row.status == "finished"
    key = signing_key()
    signer = signing.Signer(key)
    head = export.header(
        row,
        options=seen.options(row),
        seat=seat,
        seed=row.seed if finished else None,
        key=signing.jwk(key.public_key()),
    )
    yield signer.update(_json(head))
    for page in export.pages(connection, row.id, row.version):
        if finished:
            lines = [export.line(e) for e in page]
        else:
            lines = [
                {**e, "meta": seen.meta(stored, seat, row.rules, state)}
                for e, stored in zip(seen.events(row, state, page, seat), page, strict=True)
            ]
        yield signer.update(b"".join(_json(line) for line in lines))
    yield signer.line()


def _json(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS) + b"\n"


#: ``GET /.well-known/kotlik-key``: the export signing key, for auditors to fetch and pin.
keys = Blueprint(
    "keys", __name__, url_prefix="/.well-known", description="The key this server signs its exports with"
)


@keys.route("/kotlik-key")
class Key(MethodView):
    @keys.response(200, schemas.SigningKeySchema)
    def get(self) -> dict[str, str]:
        """The public key every export of this server is signed with, as a JWK (RFC 8037).

        Fetch it once and keep it: `kotlik verify FILE --key KEYFILE` then refuses a file this key
        did not sign. The same key is in each export's header (`key`).
        """
        return signing.jwk(signing_key().public_key())


@blp.route("/import")
class Import(MethodView):
    @blp.response(201, schemas.GameSummarySchema)
    @blp.alt_response(
        400, schema=schemas.ProblemSchema, description="not a whole export: not JSON, cut short"
    )
    @blp.alt_response(401, schema=schemas.ProblemSchema)
    @blp.alt_response(
        404,
        schema=schemas.ProblemSchema,
        description="a token is sent, but no KOTLIK_ADMIN_TOKEN is configured",
    )
    @blp.alt_response(409, schema=schemas.ProblemSchema, description="the game exists here already")
    @blp.alt_response(
        422,
        schema=schemas.ProblemSchema,
        description="it does not verify, its signature is refused, or its game is unknown here",
    )
    @blp.doc(
        security=[{"admin": []}],
        requestBody=IMPORT_BODY,
    )
    def post(self) -> Any:
        """Load an exported finished game (the body: the file, ``Content-Type: application/x-ndjson``
        or ``application/octet-stream``)
        with its id, events and seed, after verifying it; operators only (the admin token).

        Nothing is written if it does not verify, exists already, is cut short, is not JSON, or is
        of a game or rules version this server does not have; nor if its signature is wrong
        (changed bytes, or signed by another key than its header names) or, with
        `KOTLIK_REQUIRE_SIGNED_IMPORTS`, if it is not signed by this server's key or one of
        `KOTLIK_IMPORT_KEYS` (422 `export-signature-refused`). An unsigned file is taken as before
        unless signatures are required.
        """
        _require_admin()
        request.max_content_length = _max_import()
        data = request.get_data()
        parsed = parse(data.splitlines())
        vouch(data, parsed, _trust())
        game = _restore(parsed)
        return summary(game), 201, {"Location": url_for("games.Game", game_id=game.id)}


def import_keys(config: Mapping[str, Any]) -> tuple[dict[str, Any], ...]:
    """The keys of ``KOTLIK_IMPORT_KEYS`` (the app's config, else the environment): JWK files of
    other servers whose exports this one trusts, separated by ``:``."""
    return _read_keys(config.get("KOTLIK_IMPORT_KEYS", os.environ.get("KOTLIK_IMPORT_KEYS")))


@cache
def _read_keys(paths: str | None) -> tuple[dict[str, Any], ...]:
    return read_keys(paths)


def _trust() -> Trust:
    """This server's own key, the configured ones, and whether a trusted signature is required."""
    own = signing.jwk(signing_key().public_key())
    config = current_app.config
    return Trust((own, *import_keys(config)), required=settings.flag(config, "KOTLIK_REQUIRE_SIGNED_IMPORTS"))


def _restore(parsed: Any) -> GameRow:
    with connection() as conn:
        return restore(conn, parsed)


def admin_token() -> str | None:
    """``KOTLIK_ADMIN_TOKEN`` from the app's config, else the environment; empty is none."""
    token = current_app.config.get("KOTLIK_ADMIN_TOKEN", os.environ.get("KOTLIK_ADMIN_TOKEN"))
    return token or None


def _require_admin() -> None:
    # A missing token is 401 whether or not the server takes imports, as on every operation.
    given = bearer()
    if given is None:
        raise Unauthorized("importing needs the admin token: Authorization: Bearer <KOTLIK_ADMIN_TOKEN>")
    configured = admin_token()
    if configured is None:
        raise NotFound("this server takes no imports: no KOTLIK_ADMIN_TOKEN is configured")
    # Compare digests of equal length in constant time: the token's length leaks nothing either.
    if not hmac.compare_digest(_digest(given), _digest(configured)):
        raise Unauthorized("that is not the admin token")


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def _max_import() -> int:
    value = current_app.config.get("KOTLIK_MAX_IMPORT", os.environ.get("KOTLIK_MAX_IMPORT", MAX_IMPORT))
    return int(value)


#: Refused imports → (status, problem type slug, title); found in the import, answered here.
_REFUSED: dict[type[Exception], tuple[int, str, str]] = {
    BadExport: (400, "malformed-export", "Not a whole Kotlík export"),
    GameExists: (409, "game-exists", "The game exists already"),
    NotImportable: (422, "not-importable", "This server cannot hold that game"),
    NotVerified: (422, "export-does-not-verify", "The export does not verify"),
    SignatureRefused: (422, "export-signature-refused", "The export's signature is refused"),
    ImportRefused: (422, "import-refused", "Import refused"),
}


def _refused(error: Exception) -> Response:
    status, slug, title = next(v for cls, v in _REFUSED.items() if isinstance(error, cls))
    reason = getattr(error, "reason", str(error))
    problems = [str(p) for p in error.verdict.problems] if isinstance(error, NotVerified) else None
    return problem(status, title, reason, slug, problems=problems)


for _cls in (BadExport, ImportRefused, SignatureRefused):
    blp.register_error_handler(_cls, _refused)
