"""``kotlik``: run the whole service with one command, or its parts separately.

``kotlik up`` resolves the database (``DATABASE_URL`` or the embedded server), migrates it, and
runs a Celery worker and gunicorn as children that inherit that URL; Ctrl-C or SIGTERM stops
them, then the embedded server.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType

from events.database import data_dir, database_url, migrate


def _web_command(host: str, port: int, workers: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"{host}:{port}",
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        "8",
        "--timeout",
        "120",
        "--access-logfile",
        "-",
        "service.wsgi:app",
    ]


def worker_command(concurrency: int, schedule: Path | None = None) -> list[str]:
    """A Celery worker; with a beat ``schedule`` file it also runs the periodic outbox sweep."""
    command = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--loglevel", "INFO"]
    command += ["--concurrency", str(concurrency)]
    if schedule is not None:
        schedule.parent.mkdir(parents=True, exist_ok=True)
        command += ["--beat", "--schedule", str(schedule)]
    return command


def _schedule() -> Path:
    return data_dir() / "celerybeat-schedule"


def _database() -> str:
    url = database_url()
    os.environ["DATABASE_URL"] = url
    return url


def up(args: argparse.Namespace) -> int:
    url = _database()
    migrate(url)
    children = [
        subprocess.Popen(worker_command(args.concurrency, _schedule())),
        subprocess.Popen(_web_command(args.host, args.port, args.workers)),
    ]
    print(f"Kotlík is up: http://{args.host}:{args.port}/api/v1/docs  (Ctrl-C stops it)", flush=True)
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    while not stopping and all(c.poll() is None for c in children):
        time.sleep(0.2)
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + 20
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
    return 0 if stopping else 1


def migrate_command(args: argparse.Namespace) -> int:
    migrate(_database())
    return 0


def audit(args: argparse.Namespace) -> int:
    """Re-run a finished game from its revealed seed; exit 1 on any discrepancy."""
    from uuid import UUID

    from events.database import create_pool
    from projections.audit import verify

    with create_pool(_database(), max_size=1) as pool, pool.connection() as conn:
        problems = verify(conn, UUID(args.game_id))
    for problem in problems:
        print(problem)
    print("the log follows from the seed and the rules" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


def web(args: argparse.Namespace) -> int:
    _database()
    return subprocess.call(_web_command(args.host, args.port, args.workers))


def worker(args: argparse.Namespace) -> int:
    _database()
    return subprocess.call(worker_command(args.concurrency, _schedule() if args.beat else None))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kotlik", description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="command", required=True)
    for name, handler in (("up", up), ("web", web)):
        p = sub.add_parser(name, help="everything on one machine" if name == "up" else "the API alone")
        p.add_argument("--host", default="127.0.0.1")
        p.add_argument("--port", type=int, default=8000)
        p.add_argument("--workers", type=int, default=2, help="gunicorn processes")
        if name == "up":
            p.add_argument("--concurrency", type=int, default=2, help="Celery worker processes")
        p.set_defaults(handler=handler)
    p = sub.add_parser("worker", help="a Celery worker alone")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--beat", action="store_true", help="also run the periodic outbox sweep")
    p.set_defaults(handler=worker)
    p = sub.add_parser("audit", help="re-run a finished game from its seed and compare with its log")
    p.add_argument("game_id")
    p.set_defaults(handler=audit)
    p = sub.add_parser("migrate", help="bring the database schema up to date")
    p.set_defaults(handler=migrate_command)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
