"""``kotlik``: run the whole service with one command, or its parts separately.

``kotlik up`` resolves the database (``DATABASE_URL`` or the embedded server), migrates it,
prepares the default broker's tables, and runs a Celery worker and gunicorn as children that
inherit that URL (see :mod:`service.server.supervise`). It says it is up once ``GET /health`` answers,
restarts a child that dies, and on Ctrl-C or SIGTERM stops them, then the embedded server.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.request import ProxyHandler, build_opener

from audit.offline import add_arguments as verify_arguments
from events.database import data_dir, embedded_server, migrate
from kotlik_client.play import add_arguments as play_arguments
from service.server import settings
from service.server.supervise import Child, Supervisor, log
from workers.queues import games_queue, search_queue, webhooks_queue

if TYPE_CHECKING:
    from audit.trust import Trust

#: Open connections each web process serves at once (streams and long-polls included), unless
#: ``KOTLIK_WEB_CONNECTIONS`` says otherwise.
WEB_CONNECTIONS = 5000


def _web_command(host: str, port: int, workers: int) -> list[str]:
    """gunicorn with gevent workers: a waiting stream or long-poll costs a greenlet, not a thread.

    The per-request access log is off unless ``KOTLIK_ACCESS_LOG`` is set: at hundreds of commands
    a second it cost more than the rules did.

    Each worker listens on a socket of its own (``SO_REUSEPORT``), and the kernel spreads new
    connections over them. On one shared socket, whichever worker woke first took a whole burst of
    them, one worker at one core's limit while the other idled (figures: docs/performance.md,
    "Figures formerly quoted in the code"). On its own socket a worker accepts a burst at once
    (:mod:`service.server.webworker`), and one holding more than its share of the keep-alive connections
    lets some go (:mod:`service.server.balance`).
    """
    command = [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers)]
    command += [
        "--worker-class",
        "service.server.webworker.Worker",
        "--worker-connections",
        str(settings.positive({}, "KOTLIK_WEB_CONNECTIONS", WEB_CONNECTIONS, "connections")),
    ]
    command += ["--timeout", "120", "--graceful-timeout", "10", "--config", "python:service.server.hooks"]
    _metrics_folder()
    if workers > 1:
        command.append("--reuse-port")
    if os.environ.get("KOTLIK_ACCESS_LOG"):
        command += ["--access-logfile", "-"]
    return [*command, "service.wsgi:app"]


def _metrics_folder() -> None:
    """The folder where the web processes keep their metrics, for ``GET /metrics`` to sum
    (prometheus-client's multiprocess mode): ``PROMETHEUS_MULTIPROC_DIR``, else a new one."""
    if not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(prefix="kotlik-metrics-")


def worker_command(
    concurrency: int, schedule: Path | None = None, env: Mapping[str, str] = os.environ
) -> list[str]:
    """A Celery worker for the games' queue (bots, scoring, clocks, sweeps) of the process that
    will run with ``env``; with a beat ``schedule`` file it also runs the periodic sweeps."""
    command = [*_CELERY, "--queues", games_queue(env), "--hostname", "games@%h"]
    command += ["--concurrency", str(concurrency)]
    if schedule is not None:
        schedule.parent.mkdir(parents=True, exist_ok=True)
        command += ["--beat", "--schedule", str(schedule)]
    return command


def search_worker_command(env: Mapping[str, str] = os.environ) -> list[str]:
    """A Celery worker for searching bots' turns alone (:mod:`workers.queues`), with as many
    processes as ``KOTLIK_SEARCH_PROCESSES`` (1): the cores the searches may have between them."""
    processes = ["--concurrency", env.get("KOTLIK_SEARCH_PROCESSES") or "1"]
    return [*_CELERY, "--queues", search_queue(env), *processes, "--hostname", "search@%h"]


def webhook_worker_command(env: Mapping[str, str] = os.environ) -> list[str]:
    """A Celery worker for webhook deliveries alone (:mod:`workers.queues`): threads, since a
    delivery waits on the network rather than the CPU."""
    threads = ["--pool", "threads", "--concurrency", str(WEBHOOK_THREADS)]
    return [*_CELERY, "--queues", webhooks_queue(env), *threads, "--hostname", "webhooks@%h"]


_CELERY = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "--loglevel", "INFO"]
#: Webhook deliveries sent at once: as many slow endpoints as this are waited on side by side.
WEBHOOK_THREADS = 8


#: Seconds ``kotlik up`` waits for the API's first answer before it gives up.
STARTUP = 120.0


def _schedule() -> Path:
    return data_dir() / "celerybeat-schedule"


@contextmanager
def _database() -> Iterator[str]:
    """``DATABASE_URL``, or the embedded server, which this command then stops when it ends.

    Children inherit the URL through the environment, so only this process holds the server.
    """
    configured = os.environ.get("DATABASE_URL")
    if configured:
        yield configured
        return
    server = embedded_server(data_dir() / "pgdata")
    _forget_dead_holders(server)
    os.environ["DATABASE_URL"] = url = str(server.get_uri())
    try:
        yield url
    finally:
        server.cleanup()  # stops the server unless another live process still holds it


def _forget_dead_holders(server: Any) -> None:
    """Drop processes that no longer exist from pgserver's list of the server's holders.

    pgserver stops the server when the last process in ``.handle_pids.json`` exits; a holder
    that was killed never removes itself, and then no later ``kotlik`` would stop the server.
    """
    import psutil  # pgserver's own dependency

    def alive(pid: int) -> bool:
        try:
            return bool(psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
        except psutil.NoSuchProcess:
            return False

    with server._lock:  # pgserver's inter-process lock over that file
        holders = server.global_process_id_list
        holders.put([pid for pid in holders.get() if alive(pid)])


def _prepare_broker() -> None:
    """kombu's tables and the queue, made once here by the owner rather than raced for by the
    children, which connect as the service role and may only use them."""
    from events import privileges
    from events.database import database_url
    from workers.app import app, broker_url
    from workers.broker import prepare

    prepare(broker_url(database_url()), app.conf.task_default_queue)
    privileges.apply(database_url())


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on, or None if it can."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            probe.bind(address)
    except OSError as e:
        return e.strerror or str(e)
    return None


def _refuse_taken_port(host: str, port: int) -> bool:
    taken = _port_taken(host, port)
    if taken:
        log(f"cannot listen on {host}:{port} ({taken}); stop what uses it or choose another --port")
    return bool(taken)


def _answers(host: str, port: int) -> Callable[[], bool]:
    """Whether ``GET /health`` answers 200 on the address gunicorn listens on."""
    local = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    url = f"http://[{local}]:{port}/health" if ":" in local else f"http://{local}:{port}/health"
    direct = build_opener(ProxyHandler({}))  # never through an HTTP_PROXY from the environment

    def check() -> bool:
        try:
            with direct.open(url, timeout=1) as reply:
                return bool(reply.status == 200)
        except OSError:
            return False

    return check


def up(args: argparse.Namespace) -> int:
    if _refuse_taken_port(args.host, args.port):
        return 1
    with _database() as url:
        migrate(url)
        _prepare_broker()
        web = Child("web server", _web_command(args.host, args.port, args.workers))
        worker = Child("worker", worker_command(args.concurrency, _schedule()))
        search = Child("search worker", search_worker_command())
        webhooks = Child("webhook worker", webhook_worker_command())
        with Supervisor([worker, search, webhooks, web]) as children:
            children.start()
            if not children.wait_for(_answers(args.host, args.port), web, STARTUP):
                return 0 if children.stopping else _not_up(web, args.host, args.port)
            url = f"http://{args.host}:{args.port}/"
            print(f"Kotlík is up: {url}  (API docs: {url}api/v1/docs; Ctrl-C stops it)", flush=True)
            return children.watch(restart=True)


def _not_up(web: Child, host: str, port: int) -> int:
    """Say why the API never answered; the exit code of ``kotlik up``."""
    code = web.exited()
    if code is None:
        if time.monotonic() - web.started >= STARTUP:
            log(f"the API did not answer http://{host}:{port}/health within {STARTUP:.0f} s; stopping")
        return 1  # otherwise another child was given up on, which was said already
    taken = _port_taken(host, port)
    reason = f"{host}:{port} is taken ({taken})" if taken else "see its log above"
    log(f"the web server exited with code {code} before the API answered: {reason}")
    return 1


def migrate_command(args: argparse.Namespace) -> int:
    with _database() as url:
        migrate(url)
        _prepare_broker()
    return 0


def audit(args: argparse.Namespace) -> int:
    """Re-run a finished game from its revealed seed; exit 1 on any discrepancy."""
    from uuid import UUID

    from audit.stored import verify
    from events.database import create_pool

    with _database() as url, create_pool(url, max_size=1) as pool, pool.connection() as conn:
        problems = verify(conn, UUID(args.game_id))
    for problem in problems:
        print(problem)
    print("the log follows from the seed and the rules" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


def _export_bytes(path: str) -> bytes:
    """An export file's bytes; ``-`` reads standard input."""
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as file:
        return file.read()


def projections_command(args: argparse.Namespace) -> int:
    """``kotlik ratings|seeks|credentials|push check|rebuild``: compare the table with what the log
    folds to, or replace it with that; ``check`` exits 1 on a difference."""
    from events.database import create_pool
    from projections import credentials, push, ratings, seeks

    table = {"ratings": ratings, "seeks": seeks, "credentials": credentials, "push": push}[args.command]
    with _database() as url, create_pool(url, max_size=1) as pool, pool.connection() as conn:
        if args.action == "rebuild":
            print(f"{args.command}: {table.rebuild(conn)} row(s) rebuilt from the log")
            return 0
        folded, stored = table.recompute(conn), table.stored(conn)
    differ = sorted(str(k) for k in set(folded) | set(stored) if folded.get(k) != stored.get(k))
    for key in differ[:20]:
        print(f"{key}: the log gives {folded.get(key)}, the table holds {stored.get(key)}")
    print(f"{args.command}: {len(stored)} row(s), {len(differ)} differ from the log")
    return 1 if differ else 0


def verify_command(args: argparse.Namespace) -> int:
    """Check an export with no database, server or network; exit 1 unless it verifies
    (:mod:`audit.offline`, the same command as the standalone verifier's ``kotlik-verify``)."""
    from audit.offline import run

    return run(args.file, args.key)


def import_command(args: argparse.Namespace) -> int:
    """Load an exported finished game into this server's database once it verifies and its
    signature is accepted (:mod:`audit.trust`): exit 1, nothing written, if either is refused."""
    from audit.imports import ImportRefused, NotVerified, restore
    from audit.trust import SignatureRefused, vouch
    from audit.verify import BadExport, parse
    from events.database import create_pool

    try:
        trust = _import_trust(args.key)
    except (ValueError, OSError) as e:
        print(f"refused, nothing imported: the key: {e}")
        return 1
    try:
        data = _export_bytes(args.file)
        export = parse(data.splitlines())
        signed = vouch(data, export, trust)
        with _database() as url, create_pool(url, max_size=1) as pool, pool.connection() as conn:
            row = restore(conn, export)
    except OSError as e:
        print(f"cannot read {args.file}: {e.strerror or e}")
        return 1
    except NotVerified as e:
        print(f"refused, nothing imported:\n{e.verdict.report()}")
        return 1
    except (BadExport, ImportRefused, SignatureRefused) as e:
        print(f"refused, nothing imported: {e.reason}")
        return 1
    print(
        f"imported {row.kind} game {row.id} (rules version {row.rules_version}), "
        f"finished at version {row.version}\n  the file: {signed}"
    )
    return 0


def _import_trust(key_file: str | None) -> Trust:
    """The keys ``kotlik import`` trusts: this server's own (if it has made one), those of
    ``KOTLIK_IMPORT_KEYS``, and ``--key``'s, pinned; ``KOTLIK_REQUIRE_SIGNED_IMPORTS`` as the server
    reads it. ``ValueError`` for a key file that cannot be read."""
    from audit import signing
    from audit.trust import Trust, read_key, read_keys

    own = settings.signing_key_path({})
    keys = [signing.jwk(signing.load_or_create(own).public_key())] if own.exists() else []
    keys += read_keys(os.environ.get("KOTLIK_IMPORT_KEYS"))
    pinned = read_key(Path(key_file)) if key_file else None
    return Trust(tuple(keys), pinned, required=settings.flag({}, "KOTLIK_REQUIRE_SIGNED_IMPORTS"))


def web(args: argparse.Namespace) -> int:
    if _refuse_taken_port(args.host, args.port):
        return 1
    with _database():
        command = _web_command(args.host, args.port, args.workers)
        with Supervisor([Child("web server", command)]) as children:
            children.start()
            return children.watch(restart=False)


def worker(args: argparse.Namespace) -> int:
    with _database():
        _prepare_broker()
        command = worker_command(args.concurrency, _schedule() if args.beat else None)
        search = Child("search worker", search_worker_command())
        webhooks = Child("webhook worker", webhook_worker_command())
        with Supervisor([Child("worker", command), search, webhooks]) as children:
            children.start()
            return children.watch(restart=False)


def play_command(args: argparse.Namespace) -> int:
    """A terminal client of a running server (:mod:`kotlik_client.play`)."""
    from kotlik_client.play import run

    return run(args)


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
    p = sub.add_parser("worker", help="the Celery workers alone: the games', the searches', the webhooks'")
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--beat", action="store_true", help="also run the periodic outbox sweep")
    p.set_defaults(handler=worker)
    p = sub.add_parser("audit", help="re-run a finished game from its seed and compare with its log")
    p.add_argument("game_id")
    p.set_defaults(handler=audit)
    p = sub.add_parser("verify", help="check an exported game offline: seed, setup, every command, the score")
    verify_arguments(p)
    p.set_defaults(handler=verify_command)
    p = sub.add_parser("import", help="load an exported finished game into this database, once it verifies")
    p.add_argument("file", help="an export (GET /games/{id}/export); - reads standard input")
    p.add_argument(
        "--key",
        metavar="KEYFILE",
        help="the exporting server's key as a JWK file: refuse a file it did not sign",
    )
    p.set_defaults(handler=import_command)
    p = sub.add_parser("play", help="play a game in this terminal, against bots or another terminal")
    play_arguments(p)
    p.set_defaults(handler=play_command)
    p = sub.add_parser("migrate", help="bring the database schema up to date")
    p.set_defaults(handler=migrate_command)
    for name in ("ratings", "seeks", "credentials", "push"):
        p = sub.add_parser(name, help=f"check the {name} table against the log, or rebuild it from the log")
        p.add_argument("action", choices=["check", "rebuild"])
        p.set_defaults(handler=projections_command)
    args = parser.parse_args(argv)
    return int(args.handler(args))


if __name__ == "__main__":
    sys.exit(main())
