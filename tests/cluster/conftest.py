"""The cluster tests' fixture: a Kotlík cluster on loopback (:mod:`deployment`) — three ``kotlik web``
nodes behind HAProxy, two worker nodes, a ``redis-server`` of the cluster's own (the broker and the
shared rate-limit counters) and a database of its own on the test PostgreSQL.

Nothing of the machine's is stopped: the nodes, the workers, HAProxy and Redis are the cluster's
own processes. ``KOTLIK_REQUIRE_CLUSTER=1`` (CI) turns a missing ``haproxy`` or ``redis-server``
from a skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from deployment import Cluster, running, settings  # noqa: E402
from processes import RedisServer, fresh_database  # noqa: E402

from events.database import migrate  # noqa: E402


def _missing(program: str) -> str | None:
    return None if shutil.which(program) else f"{program} is not installed (apt-get install {program})"


def require_tools() -> None:
    missing = [m for m in map(_missing, ("haproxy", "redis-server")) if m]
    if not missing:
        return
    if os.environ.get("KOTLIK_REQUIRE_CLUSTER"):
        pytest.fail("; ".join(missing))
    pytest.skip("; ".join(missing))


@pytest.fixture(scope="module")
def cluster(server_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """A cluster on a fresh database of the test server, shared by a module's tests."""
    require_tools()
    folder = tmp_path_factory.mktemp("cluster")
    redis = RedisServer(folder / "redis.log")
    redis.start()
    try:
        with fresh_database(server_url) as db:
            migrate(db)
            # The clients of these tests are one address behind the proxy; the rate-limit test
            # talks to the nodes directly with addresses of its own.
            env = settings(db, redis.url, KOTLIK_RATE_LIMITS="games=40/minute,commands=off,writes=off")
            with running(env, folder) as started:
                yield started
    finally:
        redis.kill()
