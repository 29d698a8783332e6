"""Settings an operator gives the web processes: read from the environment, refused clearly when
they make no sense."""

from __future__ import annotations

from typing import Any

import pytest


def test_a_web_process_keeps_as_many_request_connections_as_kotlik_db_connections_says(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from service.app import REQUESTS_POOL, create_app

    monkeypatch.setenv("DATABASE_URL", database_url)
    sizes = {}
    for setting in (None, "3"):
        if setting is None:
            monkeypatch.delenv("KOTLIK_DB_CONNECTIONS", raising=False)
        else:
            monkeypatch.setenv("KOTLIK_DB_CONNECTIONS", setting)
        app = create_app(TESTING=True, KOTLIK_RATE_LIMITS="off")
        try:
            sizes[setting] = app.extensions["kotlik.pool"].max_size
            assert app.test_client().get("/api/v1/games").status_code == 200
        finally:
            app.extensions["kotlik.pool"].close()
            app.extensions["kotlik.watchers_pool"].close()
    assert sizes == {None: REQUESTS_POOL, "3": 3}


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("many", "KOTLIK_DB_CONNECTIONS must be a number of connections, not 'many'"),
        ("0", "KOTLIK_DB_CONNECTIONS must be positive, not 0"),
    ],
)
def test_a_pool_size_that_makes_no_sense_stops_the_start_with_its_name(
    pool: Any, value: str, problem: str
) -> None:
    from service.app import create_app

    with pytest.raises(ValueError) as refused:
        create_app(pool, TESTING=True, KOTLIK_DB_CONNECTIONS=value)
    assert str(refused.value) == problem
