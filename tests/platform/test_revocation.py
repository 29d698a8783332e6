"""Revocation (issue 53): a seat's token reissued and a player's key rotated are refused at once on
every node, the new ones play; who may reissue; the log of credentials rebuilds its tables; and
every paged list links its pages (RFC 8288 ``Link``).

Two real ``kotlik web`` processes on one database stand for two nodes: each has its own caches and
its own listener, so a token remembered by one and reissued through the other is the case that an
in-process invalidation would miss.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from functools import partial
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from httpclient import Client, Reply, create, game_path
from processes import environment, kotlik_web
from psycopg.rows import dict_row

from projections import credentials

GAME = "kupferkessel"
HUMANS = [{"name": "Ana"}, {"name": "Ben"}]


@pytest.fixture(scope="module")
def nodes(
    broker: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Client, Client]]:
    folder = tmp_path_factory.mktemp("revocation")
    with (
        kotlik_web(environment(**broker), folder / "a.log") as a,
        kotlik_web(environment(**broker), folder / "b.log") as b,
    ):
        yield a, b


def _player(api: Client, name: str) -> tuple[str, str]:
    reply = api.post("/api/v1/players", {"name": f"{name}-{uuid4().hex[:8]}"})
    assert reply.status == 201, reply
    return reply.body["id"], reply.body["key"]


def _reissue(api: Client, game: dict[str, Any], seat: int, token: str | None) -> Reply:
    return api.seat(token).post(game_path(game, f"/seats/{seat}/token"))


def _refused(reply: Reply) -> None:
    assert reply.status == 401, reply
    assert reply.headers["WWW-Authenticate"].startswith("Bearer"), reply.headers
    assert reply.problem["type"] == "/problems/unauthorized"


def _move(api: Client, game: dict[str, Any], token: str, **headers: str) -> Reply:
    """The first legal move of the seat of ``token`` (which must be to move)."""
    seat = api.seat(token)
    actions = seat.get(game_path(game, "/actions"))
    assert actions.status == 200 and actions.body, actions
    return seat.post(game_path(game, "/commands"), actions.body[0], headers=headers)


def _mover(api: Client, game: dict[str, Any], tokens: dict[int, str]) -> int:
    state = api.get(game_path(game, "/state")).body
    return int(state["to_move"][0])


def test_a_reissued_token_is_refused_at_once_on_the_other_node_and_the_new_one_plays(
    nodes: tuple[Client, Client],
) -> None:
    a, b = nodes
    game = create(a, GAME, HUMANS)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    for round_ in range(4):
        seat = _mover(b, game, tokens)
        old = tokens[seat]
        # Node B remembers the seat's token and the game's state (its hot paths answer from memory).
        assert _move(b, game, old).status == 201
        seat = _mover(b, game, tokens)
        old = tokens[seat]
        legal = b.seat(old).get(game_path(game, "/actions"))
        assert legal.status == 200 and legal.body, legal
        reissued = _reissue(a, game, seat, old)
        assert reissued.status == 201, reissued
        assert reissued.body["seat"] == seat and reissued.body["token"] != old
        new = tokens[seat] = reissued.body["token"]
        # At once, on the node that did not reissue it: every door refuses the old token, each
        # of them first in one round or another (the first refusal makes the node read again).
        gone = b.seat(old)
        doors = [
            partial(gone.post, game_path(game, "/commands"), legal.body[0]),  # the hot write
            partial(gone.get, game_path(game, "/actions")),  # beneath Flask
            partial(gone.get, game_path(game, "/state")),
            partial(gone.get, game_path(game, "/events")),
        ]
        for door in doors[round_:] + doors[:round_]:
            _refused(door())
        _refused(a.seat(old).get(game_path(game, "/actions")))
        _refused(_reissue(b, game, seat, old))
        # ... and the new one plays there, its first use a command or a read by turns.
        if round_ % 2:
            assert b.seat(new).get(game_path(game, "/actions")).status == 200
        played = b.seat(new).post(game_path(game, "/commands"), legal.body[0])
        assert played.status == 201, played
    # Each seat's token now (reissued or never) holds its seat on both nodes.
    for node in (a, b):
        for held, token in tokens.items():
            assert node.seat(token).get(game_path(game, "/state")).body["seat"] == held


def test_a_command_retried_with_its_key_after_a_reissue_answers_the_new_token_only(
    nodes: tuple[Client, Client],
) -> None:
    a, b = nodes
    game = create(a, GAME, HUMANS)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    seat = _mover(a, game, tokens)
    body = b.seat(tokens[seat]).get(game_path(game, "/actions")).body[0]
    key = {"Idempotency-Key": "k-1"}
    first = b.seat(tokens[seat]).post(game_path(game, "/commands"), body, headers=key)
    assert first.status == 201, first
    new = _reissue(a, game, seat, tokens[seat]).body["token"]
    _refused(b.seat(tokens[seat]).post(game_path(game, "/commands"), body, headers=key))
    # The key is the seat's: the new token retrying the same body gets the first answer.
    retry = b.seat(new).post(game_path(game, "/commands"), body, headers=key)
    assert retry.status == 201, retry
    assert retry.headers.get("Idempotent-Replayed") == "true"
    assert retry.body["version"] == first.body["version"]


def test_who_may_reissue_a_seats_token(nodes: tuple[Client, Client]) -> None:
    a, b = nodes
    creator_id, creator_key = _player(a, "creator")
    bound_id, bound_key = _player(a, "bound")
    _, stranger_key = _player(a, "stranger")
    seats = [{"name": "Ana"}, {"player": bound_id}, {"name": "Bot", "bot": "default"}]
    reply = a.seat(creator_key).post("/api/v1/games", {"game": "carcassonne", "seats": seats})
    assert reply.status == 201, reply
    game = dict(reply.body)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}

    missing = _reissue(a, game, 0, None)
    assert missing.status == 401 and missing.headers["WWW-Authenticate"] == "Bearer", missing
    _refused(_reissue(a, game, 0, "no-such-token"))
    other_seat = _reissue(b, game, 0, tokens[1])
    assert other_seat.status == 403 and other_seat.problem["type"] == "/problems/not-seat-holder"
    assert _reissue(a, game, 0, stranger_key).status == 403
    assert _reissue(a, game, 1, stranger_key).status == 403
    bot = _reissue(a, game, 2, creator_key)
    assert bot.status == 409 and bot.problem["type"] == "/problems/seat-without-token", bot
    nowhere = _reissue(a, game, 7, creator_key)
    assert nowhere.status == 404 and nowhere.problem["type"] == "/problems/no-such-seat", nowhere
    assert _reissue(a, {"id": str(uuid4())}, 0, creator_key).status == 404

    # The seat's holder, the player bound to a seat, and the game's creator may.
    by_holder = _reissue(b, game, 0, tokens[0])
    assert by_holder.status == 201, by_holder
    by_bound = _reissue(a, game, 1, bound_key)
    assert by_bound.status == 201, by_bound
    by_creator = _reissue(b, game, 0, creator_key)
    assert by_creator.status == 201, by_creator
    _refused(a.seat(by_holder.body["token"]).get(game_path(game, "/actions")))
    assert a.seat(by_creator.body["token"]).get(game_path(game, "/actions")).status == 200
    # The bound player's key still plays its seat; its old token does not.
    assert b.seat(bound_key).get(game_path(game, "/actions")).status == 200
    _refused(b.seat(tokens[1]).get(game_path(game, "/actions")))


def test_a_rotated_key_is_refused_at_once_everywhere_and_the_new_one_works(
    nodes: tuple[Client, Client],
) -> None:
    a, b = nodes
    player_id, old = _player(a, "rotor")
    game = create(a, GAME, [{"player": player_id}, {"name": "Bot", "bot": "default"}])
    assert b.seat(old).get("/api/v1/players/me").status == 200
    assert b.seat(old).get(game_path(game, "/actions")).status == 200
    rotated = a.seat(old).post("/api/v1/players/me/key")
    assert rotated.status == 201, rotated
    new = rotated.body["key"]
    assert new != old and rotated.body["id"] == player_id
    for node in (b, a):
        _refused(node.seat(old).get("/api/v1/players/me"))
        _refused(node.seat(old).get(game_path(game, "/actions")))
        _refused(node.seat(old).post("/api/v1/players/me/key"))
    assert b.seat(new).get("/api/v1/players/me").body["id"] == player_id
    assert b.seat(new).get(game_path(game, "/actions")).status == 200
    assert b.seat(new).get("/api/v1/players/me/games").body[0]["id"] == game["id"]
    _refused(b.post("/api/v1/players/me/key"))


def test_the_log_of_credentials_rebuilds_its_tables_and_no_export_carries_a_token(
    nodes: tuple[Client, Client], database_url: str
) -> None:
    a, _ = nodes
    game = create(a, GAME, HUMANS)
    token = game["seats"][0]["token"]
    new = _reissue(a, game, 0, token).body["token"]
    _, key = _player(a, "logged")
    a.seat(key).post("/api/v1/players/me/key")
    with psycopg.connect(database_url, row_factory=dict_row, autocommit=True) as conn:
        assert credentials.recompute(conn) == credentials.stored(conn)
        logged = conn.execute(
            "SELECT type, hash FROM credential_events WHERE game_id = %s ORDER BY position", (game["id"],)
        ).fetchall()
        assert [r["type"] for r in logged] == ["SeatTokenIssued", "SeatTokenIssued", "SeatTokenReissued"]
        assert bytes(logged[-1]["hash"]) == hashlib.sha256(new.encode()).digest()
        # A table that has drifted from the log is rebuilt to it.
        conn.execute("UPDATE seat_tokens SET token_hash = 'x' WHERE game_id = %s AND seat = 0", (game["id"],))
        conn.execute("UPDATE games SET credentials = 0 WHERE id = %s", (game["id"],))
        assert credentials.recompute(conn) != credentials.stored(conn)
        credentials.rebuild(conn)
        assert credentials.recompute(conn) == credentials.stored(conn)
    assert a.seat(new).get(game_path(game, "/actions")).status == 200
    _refused(a.seat(token).get(game_path(game, "/actions")))
    export = a.get(game_path(game, "/export"))
    assert export.status == 200, export
    for secret in (token, new):
        assert secret.encode() not in export.raw
        assert hashlib.sha256(secret.encode()).hexdigest().encode() not in export.raw


_LINK = re.compile(r'<([^>]*)>; rel="(\w+)"')


def _links(reply: Reply) -> dict[str, str]:
    return {rel: url for url, rel in _LINK.findall(reply.headers.get("Link", ""))}


def _walk(api: Client, path: str) -> list[Any]:
    """Every item of a paged list, following ``rel="next"`` from its first page."""
    items: list[Any] = []
    reply = api.get(path)
    pages = 0
    while True:
        assert reply.status == 200, reply
        assert "X-Pagination" in reply.headers
        items += reply.body
        pages += 1
        links = _links(reply)
        meta = json.loads(reply.headers["X-Pagination"])
        assert links["first"].endswith("page=1&page_size=4") and "last" in links
        assert ("prev" in links) == (meta["page"] > 1)
        if "next" not in links:
            assert meta["page"] == meta["last_page"] == pages
            return items
        reply = api.get(links["next"])


def test_link_headers_walk_every_page_of_a_list_and_equal_it_whole(nodes: tuple[Client, Client]) -> None:
    a, _ = nodes
    player_id, key = _player(a, "pager")
    me = a.seat(key)
    for _ in range(11):
        create(a, GAME, [{"player": player_id}, {"name": "Bot", "bot": "default"}])
    whole = me.get("/api/v1/players/me/games?page_size=100").body
    assert len(whole) == 11
    walked = _walk(me, "/api/v1/players/me/games?page_size=4")
    assert [g["id"] for g in walked] == [g["id"] for g in whole]

    # the lobby of open games (shared with other tests', which wait unchanged while it is walked)
    lobby = "/api/v1/games?game=skodakouzla&open=true"
    for _ in range(9):
        opened = me.post(
            "/api/v1/games", {"game": "skodakouzla", "seats": [{"player": player_id}, {"open": True}]}
        )
        assert opened.status == 201, opened
    whole_lobby = a.get(f"{lobby}&page_size=100").body
    walked_lobby = _walk(a, f"{lobby}&page_size=4")
    assert [g["id"] for g in walked_lobby] == [g["id"] for g in whole_lobby]
    assert len(walked_lobby) >= 9
    first = a.get(f"{lobby}&page=2&page_size=4")
    assert _links(first)["prev"] == f"{lobby}&page=1&page_size=4"
    _, new_key = _player(a, "nobody")  # a player with no game yet: an empty list has no links
    empty = a.seat(new_key).get("/api/v1/players/me/games?page_size=4")
    assert empty.status == 200 and empty.body == [] and "Link" not in empty.headers

    ratings = a.get("/api/v1/ratings/kupferkessel?page_size=4")
    assert ratings.status == 200 and "X-Pagination" in ratings.headers
    if json.loads(ratings.headers["X-Pagination"])["total"]:
        assert "first" in _links(ratings)


def test_the_document_says_how_to_revoke_and_how_lists_link_their_pages(nodes: tuple[Client, Client]) -> None:
    a, _ = nodes
    document = a.get("/api/v1/openapi.json").body
    assert document["info"]["version"] == "1.2.0"
    paths = document["paths"]
    for path in ("/api/v1/games", "/api/v1/players/me/games", "/api/v1/ratings/{game}"):
        headers = paths[path]["get"]["responses"]["200"]["headers"]
        assert {"X-Pagination", "Link"} <= set(headers), path
        assert (
            headers["Link"]["schema"] == {"type": "string"} and "RFC 8288" in headers["Link"]["description"]
        )
    reissue = paths["/api/v1/games/{game_id}/seats/{seat}/token"]["post"]
    assert {"201", "401", "403", "404", "409"} <= set(reissue["responses"])
    assert "WWW-Authenticate" in reissue["responses"]["401"]["headers"]
    assert {"201", "401"} <= set(paths["/api/v1/players/me/key"]["post"]["responses"])
    kinds = document["components"]["schemas"]["Problem"]["x-problem-types"]
    assert {"/problems/not-seat-holder", "/problems/no-such-seat", "/problems/seat-without-token"} <= set(
        kinds
    )
