"""Several web nodes behind HAProxy, and a database failover: commands/s and POST p99 through the
proxy with 1, 2 and 3 ``kotlik web`` nodes, and the time from a SIGKILLed primary to the first 201
after its standby is promoted.

Prints figures and asserts nothing. The node figures are also given as ratios to the 1-node run of
the same repetition (the node counts take turns), since absolute numbers on this small shared
machine mean little. On two cores
more nodes cannot be faster — the nodes, HAProxy, Redis, PostgreSQL and this driver share the same
two cores — so the ratios show what the proxy and the coordination between nodes cost, not a
speed-up; on machines of their own the nodes would add capacity until the primary is the limit
(docs/scaling.md).

The cluster is the one ``tests/cluster`` starts (``tests/cluster/deployment.py``): HAProxy with
``deploy/haproxy.cfg``, a ``redis-server`` of its own (broker and rate limits), one worker, and a
PostgreSQL of its own from the ``pgserver`` package's binaries (``tests/cluster/postgres.py``;
nothing of the machine's is used). The failover runs on a primary and a synchronous standby of its
own, the nodes connecting with a multi-host URL, and promotes the standby ``--detect`` seconds
after the kill, as an operator would (deploy/README.md). Everything it starts, it stops.

    nice -n 10 python bench/cluster.py [--seconds 6] [--reps 3] [--concurrency 16] [--nodes 1,2,3]
                                       [--detect 2] [--no-failover]

Needs aiohttp (``pip install -e ".[bench]"``), haproxy and redis-server.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "cluster"))

import psycopg  # noqa: E402
from deployment import running, settings  # noqa: E402
from livepath import known  # noqa: E402
from livepath.client import Api, session  # noqa: E402
from livepath.figures import percentile  # noqa: E402
from livepath.players import KNOWING, Driver, Window  # noqa: E402
from postgres import alone, replicated  # noqa: E402
from processes import RedisServer  # noqa: E402

from events.database import migrate  # noqa: E402

MAX_GAMES = 100_000
#: Clients creating a game every ``PROBE_EVERY`` seconds through the failover, staggered.
PROBERS, PROBE_EVERY = 4, 0.05


async def _drive(base: str, concurrency: int, seconds: float, scripts: list[known.Script]) -> Driver:
    async with session() as s:
        driver = Driver(Api(s, base), KNOWING, scripts, MAX_GAMES, 1, stagger=True)
        await driver.prepare(concurrency)
        await driver.run(Window.of(seconds))
    return driver


def nodes_section(
    args: argparse.Namespace, redis: RedisServer, folder: Path
) -> dict[int, list[tuple[float, float]]]:
    """commands/s and POST p99 (seconds) through HAProxy, by the number of nodes behind it, once a
    repetition. One cluster of the most nodes asked for; HAProxy is restarted in front of the first
    N of them for each run, and the node counts take turns within each repetition, so that the
    machine's changing speed falls on each count alike."""
    scripts = known.scripts(20, 1)
    figures: dict[int, list[tuple[float, float]]] = {count: [] for count in args.nodes}
    home = Path(tempfile.mkdtemp(prefix="kotlik-bench-nodes-"))
    server = alone(home)
    try:
        with psycopg.connect(server.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE kotlik")
        db = server.url("kotlik")
        migrate(db)
        env = settings(db, redis.url, KOTLIK_RATE_LIMITS="off")
        run = folder / "nodes"
        run.mkdir()
        with running(env, run, nodes=max(args.nodes), workers=1) as cluster:
            asyncio.run(_drive(cluster.api.base, 2, 2.0, scripts))  # warm-up: imports, pools, first folds
            for rep in range(args.reps):
                for count in args.nodes:
                    cluster.stop_proxy()
                    cluster.start_proxy(behind=count)
                    driver = asyncio.run(_drive(cluster.api.base, args.concurrency, args.seconds, scripts))
                    posts = driver.posts.seconds
                    figures[count].append((len(posts) / args.seconds, percentile(posts, 99)))
                    failed = driver.posts.failed + driver.other.failed
                    print(
                        f"  rep {rep + 1}, {count} node(s): {len(posts)} commands, {failed} failed calls",
                        file=sys.stderr,
                    )
    finally:
        server.kill()
        shutil.rmtree(home, ignore_errors=True)
    return figures


def failover_section(args: argparse.Namespace, redis: RedisServer, folder: Path) -> tuple[float, float]:
    """Seconds from the primary's SIGKILL to the first 201 after the promotion, and from the
    promotion to it, with four clients each creating a game every 50 ms through HAProxy (a request
    may wait for a connection up to 10 s and be a 503)."""
    home = Path(tempfile.mkdtemp(prefix="kotlik-bench-failover-"))
    primary, standby = replicated(home)
    try:
        with psycopg.connect(primary.url(), autocommit=True) as conn:
            conn.execute("CREATE DATABASE kotlik")
        migrate(primary.url("kotlik"))
        both = (
            f"postgresql://postgres@127.0.0.1:{primary.port},127.0.0.1:{standby.port}/kotlik"
            "?target_session_attrs=read-write&connect_timeout=2"
        )
        env = settings(both, redis.url, KOTLIK_RATE_LIMITS="off")
        run = folder / "failover"
        run.mkdir()
        with running(env, run, workers=1) as cluster:
            api = cluster.api
            body = {"game": "kupferkessel", "seats": [{"name": "A"}, {"name": "B"}], "options": {}}
            created: list[tuple[float, int]] = []
            probing = threading.Event()
            probing.set()

            def probe() -> None:
                while probing.is_set():
                    try:
                        status = api.post("/api/v1/games", body, timeout=30).status
                    except OSError:
                        status = 0
                    created.append((time.monotonic(), status))
                    time.sleep(PROBE_EVERY)

            probers = [threading.Thread(target=probe, daemon=True) for _ in range(PROBERS)]
            for prober in probers:
                prober.start()
                time.sleep(PROBE_EVERY / PROBERS)
            time.sleep(2.0)
            primary.kill()
            killed = time.monotonic()
            time.sleep(args.detect)
            standby.promote()
            promoted = time.monotonic()
            deadline = promoted + 60
            while not any(at > promoted and status == 201 for at, status in created):
                if time.monotonic() > deadline:
                    raise SystemExit("no 201 within 60 s of the promotion")
                time.sleep(0.02)
            probing.clear()
            for prober in probers:
                prober.join(timeout=40)
        first = min(at for at, status in created if at > promoted and status == 201)
        between = Counter(str(status or "no answer") for at, status in created if killed < at < first)
        print(f"  failover: answers between the kill and the first 201: {dict(between)}", file=sys.stderr)
        return first - killed, first - promoted
    finally:
        primary.kill()
        standby.kill()
        shutil.rmtree(home, ignore_errors=True)


def _spread(values: list[float], form: str) -> str:
    """The median and the range, ``form`` the numbers' format."""
    return f"{statistics.median(values):{form}} ({min(values):{form}}–{max(values):{form}})"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="timed window of each node run")
    parser.add_argument("--reps", type=int, default=3, help="repetitions, the node counts in turn")
    parser.add_argument("--concurrency", type=int, default=16, help="games played at once")
    parser.add_argument("--nodes", default="1,2,3", help="node counts to run, the first the baseline")
    parser.add_argument("--detect", type=float, default=2.0, help="seconds before the standby is promoted")
    parser.add_argument("--no-failover", dest="failover", action="store_false")
    args = parser.parse_args()
    args.nodes = [int(n) for n in args.nodes.split(",")]
    return args


def main() -> int:
    args = _arguments()
    for program in ("haproxy", "redis-server"):
        if shutil.which(program) is None:
            raise SystemExit(f"{program} is not installed")
    folder = Path(tempfile.mkdtemp(prefix="kotlik-bench-cluster-"))
    redis = RedisServer(folder / "redis.log")
    redis.start()
    try:
        figures = nodes_section(args, redis, folder)
        failover = failover_section(args, redis, folder) if args.failover else None
    finally:
        redis.kill()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"commands through HAProxy, {args.concurrency} games at once, {args.seconds:g} s windows,"
        f" medians of {args.reps} (range); ratios to the {args.nodes[0]}-node run of the same repetition"
    )
    print(f"{'nodes':>5}  {'commands/s':>22}  {'ratio':>16}  {'POST p99 ms':>22}  {'ratio':>16}")
    base = figures[args.nodes[0]]
    for count, runs in figures.items():
        rates, p99s = [r for r, _ in runs], [1000 * p for _, p in runs]
        rate_ratios = [r / b[0] for (r, _), b in zip(runs, base, strict=True)]
        p99_ratios = [p / b[1] for (_, p), b in zip(runs, base, strict=True)]
        print(
            f"{count:>5}  {_spread(rates, '.0f'):>22}  {_spread(rate_ratios, '.2f'):>16}"
            f"  {_spread(p99s, '.1f'):>22}  {_spread(p99_ratios, '.2f'):>16}"
        )
    print("(on two shared cores more nodes add the proxy's and the coordination's cost, not speed)")
    if failover is not None:
        total, after = failover
        print(
            f"failover: SIGKILL of the primary → first 201 {total:.2f} s"
            f" (promotion {args.detect:g} s after the kill; first 201 {after:.2f} s after the promotion)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
