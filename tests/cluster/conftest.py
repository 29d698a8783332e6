"""A Kotlík cluster on loopback, started and stopped by the tests: three ``kotlik web`` nodes behind
HAProxy (``deploy/haproxy.cfg``), two worker nodes, a ``redis-server`` of the cluster's own (the
broker and the shared rate-limit counters) and a database of its own on the test PostgreSQL.

Nothing of the machine's is stopped: the nodes, the workers, HAProxy and Redis are the cluster's
own processes. ``KOTLIK_REQUIRE_CLUSTER=1`` (CI) turns a missing ``haproxy`` or ``redis-server``
from a skip into a failure.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "platform"))

from httpclient import Client  # noqa: E402
from processes import (  # noqa: E402
    RedisServer,
    Worker,
    environment,
    free_port,
    fresh_database,
    kotlik,
    stop,
    wait_until,
)

from events.database import migrate  # noqa: E402

NODES = 3
METRICS_TOKEN = "cluster-metrics"


def _missing(program: str) -> str | None:
    return None if shutil.which(program) else f"{program} is not installed (apt-get install {program})"


def require_tools() -> None:
    missing = [m for m in map(_missing, ("haproxy", "redis-server")) if m]
    if not missing:
        return
    if os.environ.get("KOTLIK_REQUIRE_CLUSTER"):
        pytest.fail("; ".join(missing))
    pytest.skip("; ".join(missing))


@dataclass
class Node:
    """One ``kotlik web`` process (one gunicorn worker: one process's caches, one LISTEN)."""

    name: str
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def api(self) -> Client:
        return Client(f"http://127.0.0.1:{self.port}")

    def start(self, env: dict[str, str]) -> None:
        self.process = kotlik(["web", "--port", str(self.port), "--workers", "1"], env, self.log)

    def answers(self) -> bool:
        assert self.process is not None and self.process.poll() is None, self.log.read_text()
        try:
            return self.api.get("/health", timeout=2).status == 200
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL the node and its gunicorn worker at once, as a machine that dies would."""
        import psutil

        if self.process is None:
            return
        with contextlib.suppress(psutil.NoSuchProcess):
            for child in psutil.Process(self.process.pid).children(recursive=True):
                child.kill()
        stop(self.process)


@dataclass
class Cluster:
    env: dict[str, str]
    folder: Path
    nodes: list[Node]
    proxy_port: int
    stats_port: int
    workers: list[Worker] = field(default_factory=list)
    proxy: subprocess.Popen[bytes] | None = None

    @property
    def api(self) -> Client:
        """HAProxy's address: what a client of the deployment uses."""
        return Client(f"http://127.0.0.1:{self.proxy_port}")

    def node(self, rng: random.Random, address: str | None = None) -> Client:
        """A random live node's own address, past the proxy; ``address`` is the client's, as a
        proxy in front would name it (the nodes trust one proxy: ``KOTLIK_PROXIES=1``)."""
        live = [n for n in self.nodes if n.process is not None and n.process.poll() is None]
        api = rng.choice(live).api
        return Client(api.base, extra={"X-Forwarded-For": address}) if address else api

    def start_proxy(self) -> None:
        env = {
            **os.environ,
            "KOTLIK_LISTEN": f"127.0.0.1:{self.proxy_port}",
            "KOTLIK_STATS": f"127.0.0.1:{self.stats_port}",
        }
        for i, node in enumerate(self.nodes, 1):
            env[f"KOTLIK_WEB{i}"] = f"127.0.0.1:{node.port}"
        log = self.folder / "haproxy.log"
        with open(log, "wb") as out:
            self.proxy = subprocess.Popen(
                ["haproxy", "-db", "-f", str(ROOT / "deploy" / "haproxy.cfg")],
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

        def up() -> bool:
            assert self.proxy is not None and self.proxy.poll() is None, log.read_text()
            try:
                return self.api.get("/health", timeout=2).status == 200
            except OSError:
                return False

        wait_until(up, 30, "HAProxy to answer")

    def backends_up(self) -> int:
        """How many nodes HAProxy's health checks count as up (its statistics, as CSV)."""
        raw = Client(f"http://127.0.0.1:{self.stats_port}").get("/;csv").raw.decode()
        rows = [line.split(",") for line in raw.splitlines() if line.startswith("web,web")]
        return sum(row[17].startswith("UP") for row in rows)


@contextlib.contextmanager
def running(env: dict[str, str], folder: Path) -> Iterator[Cluster]:
    """Three web nodes, two workers (the first with the beat) and HAProxy on ``env``'s database and
    broker; everything killed at the end, whatever happened."""
    nodes = [Node(f"web{i}", free_port(), folder / f"web{i}.log") for i in range(1, NODES + 1)]
    cluster = Cluster(env, folder, nodes, free_port(), free_port())
    try:
        for node in nodes:
            node.start(env)
        for node in nodes:
            wait_until(node.answers, 90, f"{node.name} to answer")
        for i in (1, 2):
            # only the first runs the periodic sweeps: a deployment runs exactly one Celery beat
            (folder / f"worker{i}").mkdir()
            worker = Worker(env, folder / f"worker{i}", name=f"games{i}", beat=i == 1)
            worker.start()
            cluster.workers.append(worker)
        cluster.start_proxy()
        yield cluster
    finally:
        if cluster.proxy is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(cluster.proxy.pid, signal.SIGKILL)
            cluster.proxy.wait(timeout=10)
        for worker in cluster.workers:
            worker.kill()
        for node in nodes:
            node.kill()


def settings(database_url: str, broker_url: str, **more: str) -> dict[str, str]:
    """The environment every node of a cluster shares."""
    return environment(
        DATABASE_URL=database_url,
        CELERY_BROKER_URL=broker_url,
        KOTLIK_QUEUE=f"kotlik-cluster-{secrets.token_hex(4)}",
        KOTLIK_PROXIES="1",
        KOTLIK_STALLED_AFTER="3",
        KOTLIK_METRICS_TOKEN=METRICS_TOKEN,
        **more,
    )


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
