"""A Kotlík cluster on loopback: ``kotlik web`` nodes behind HAProxy (``deploy/haproxy.cfg``), worker
nodes, each serving its metrics, on a database and a broker the caller gives. Used by the cluster
tests (``conftest.py``) and by ``bench/cluster.py``; nothing here needs pytest.

Everything :func:`running` starts, it kills at the end, whatever happened.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT / "tests" / "platform") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "platform"))

from httpclient import Client  # noqa: E402
from processes import Worker, environment, free_port, kotlik, stop, wait_until  # noqa: E402

NODES = 3
#: HAProxy's configuration names this many nodes; a smaller cluster repeats its nodes in the rest.
PROXIED = 3
METRICS_TOKEN = "cluster-metrics"


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

    def start_proxy(self, behind: int | None = None) -> None:
        """HAProxy in front of the first ``behind`` nodes (all of them unless given)."""
        serving = self.nodes[: behind or len(self.nodes)]
        env = {
            **os.environ,
            "KOTLIK_LISTEN": f"127.0.0.1:{self.proxy_port}",
            "KOTLIK_STATS": f"127.0.0.1:{self.stats_port}",
        }
        for i in range(PROXIED):
            env[f"KOTLIK_WEB{i + 1}"] = f"127.0.0.1:{serving[i % len(serving)].port}"
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

    def stop_proxy(self) -> None:
        if self.proxy is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proxy.pid, signal.SIGKILL)
            self.proxy.wait(timeout=10)
            self.proxy = None

    def task_counts(self, task: str, outcome: str = "success") -> float:
        """The workers' count of ``task`` run to ``outcome``, summed over the workers' metrics."""
        from prometheus_client.parser import text_string_to_metric_families

        total, wanted = 0.0, {"task": task, "outcome": outcome}
        for worker in self.workers:
            port = worker.env["KOTLIK_WORKER_METRICS_PORT"]
            metrics = Client(f"http://127.0.0.1:{port}")
            reply = metrics.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
            assert reply.status == 200, reply
            for family in text_string_to_metric_families(reply.raw.decode()):
                for sample in family.samples:
                    if sample.name == "kotlik_tasks_total" and sample.labels == wanted:
                        total += sample.value
        return total

    def backends_up(self) -> int:
        """How many nodes HAProxy's health checks count as up (its statistics, as CSV)."""
        raw = Client(f"http://127.0.0.1:{self.stats_port}").get("/;csv").raw.decode()
        rows = [line.split(",") for line in raw.splitlines() if line.startswith("web,web")]
        return sum(row[17].startswith("UP") for row in rows[: len(self.nodes)])


@contextlib.contextmanager
def running(env: dict[str, str], folder: Path, nodes: int = NODES, workers: int = 2) -> Iterator[Cluster]:
    """``nodes`` web nodes, ``workers`` workers (the first with the beat) and HAProxy on ``env``'s
    database and broker; everything killed at the end, whatever happened."""
    web = [Node(f"web{i}", free_port(), folder / f"web{i}.log") for i in range(1, nodes + 1)]
    cluster = Cluster(env, folder, web, free_port(), free_port())
    try:
        for node in web:
            node.start(env)
        for node in web:
            wait_until(node.answers, 90, f"{node.name} to answer")
        for i in range(1, workers + 1):
            # only the first runs the periodic sweeps: a deployment runs exactly one Celery beat
            (folder / f"worker{i}" / "metrics").mkdir(parents=True)
            # each serves its metrics on a port of its own, from a folder that outlives a restart
            served = {
                "KOTLIK_WORKER_METRICS_PORT": str(free_port()),
                "PROMETHEUS_MULTIPROC_DIR": str(folder / f"worker{i}" / "metrics"),
            }
            worker = Worker({**env, **served}, folder / f"worker{i}", name=f"games{i}", beat=i == 1)
            worker.start()
            cluster.workers.append(worker)
        cluster.start_proxy()
        yield cluster
    finally:
        cluster.stop_proxy()
        for worker in cluster.workers:
            worker.kill()
        for node in web:
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
