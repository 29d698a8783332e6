"""The live path (issue 13): commands, bots, state loads, watchers and the server CPU of an answer,
against the raw commit limit.

Prints figures and asserts nothing. Each figure is the median and min–max over ``--reps``
repetitions and, because this small shared machine makes absolute numbers noisy, also a ratio to
the raw durable-commit limit measured in the same run (the raw section always runs for that).

The service is started as a user starts it, by the ``kotlik`` CLI with its defaults, on a scratch
database ``kotlik_bench_<hex>`` of ``DATABASE_URL``'s server (else the machine's default one) that
is dropped at the end; every process it starts is stopped.

    python bench/live.py [--reps 3] [--seconds 10] [--sections raw,commands,bots,load,watchers,costs]
                         [--streams 1000] [--polls 500] [--paced 600] [--watched-rate 100]
                         [--quick]

Needs aiohttp: ``pip install -e ".[bench]"``.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import secrets
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from livepath import bots, costs, folds, known, machine, raw, scratch, services, watchers
from livepath.client import TIMEOUT, Api, Tally, raise_open_files, session
from livepath.figures import DURATION, PLAIN, RATE, Board, percentile, render
from livepath.players import ASKING, KNOWING, Driver, Window

SECTIONS = {
    "raw": "durable one-row INSERT + COMMIT per transaction",
    "commands": "two-human Kupferkessel games over HTTP (only the POST /commands is timed)",
    "bots": "human vs the default bot: 201 → the bot's first event on /stream",
    "load": "projections.fold.state_at of a long game, with and without snapshots",
    "watchers": "open /stream and /state?wait long-polls over 50 games while they play (post-only)",
    "costs": f"CPU per answer (web, PostgreSQL, this driver), {costs.CLIENTS} clients asking at once",
}
PROCESSES = (1, 4, 16)
CONCURRENCY = (1, 16, 50)
WATCHED_GAMES = 50
REDIS = "redis://127.0.0.1:6379/0"


@dataclass
class Run:
    args: argparse.Namespace
    board: Board
    database: str
    logs: Path
    run_id: str
    scripts: list[known.Script]
    limit: float | None = None

    def env(self, broker: str | None = None) -> dict[str, str]:
        return services.environment(self.database, f"kotlik-bench-{self.run_id}", self.logs, broker)


def _progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _failures(run: Run, where: str, tally: Tally) -> None:
    if tally.failures:
        detail = ", ".join(f"{status} ×{n}" for status, n in sorted(tally.failures.items()))
        run.board.note(f"{where}: {detail}")


def _ms(seconds: float) -> float:
    return 1000 * seconds


def _share(part: int, whole: int) -> float:
    return 100 * part / whole if whole else math.nan


# --- raw -------------------------------------------------------------------------------------


def raw_section(run: Run) -> None:
    raw.prepare(run.database)
    for rep in range(run.args.reps):
        for n in PROCESSES:
            rate = raw.commits_per_second(run.database, n, run.args.seconds)
            run.board.add("raw", f"{n:>2} process{'es' if n > 1 else ''}: commits/s", rate, "/s", RATE)
            _progress(f"raw rep {rep + 1}: {n} processes {rate:,.0f} commits/s")
    run.limit = max(f.median for f in run.board.figures("raw"))


# --- commands --------------------------------------------------------------------------------


async def _drive(base: str, mode: str, concurrency: int, run: Run, rate: float | None = None) -> Driver:
    async with session() as s:
        driver = Driver(
            Api(s, base),
            mode,
            run.scripts,
            run.args.max_games,
            run.args.seed,
            rate,
            stagger=not run.args.together,
        )
        await driver.prepare(concurrency)
        await driver.run(Window.of(run.args.seconds))
    return driver


def _post_figures(run: Run, section: str, label: str, driver: Driver) -> None:
    posts = driver.posts
    run.board.add(section, f"{label}: commands/s", len(posts.seconds) / run.args.seconds, "/s", RATE)
    run.board.add(section, f"{label}: POST p50", _ms(percentile(posts.seconds, 50)), "ms", DURATION)
    run.board.add(section, f"{label}: POST p99", _ms(percentile(posts.seconds, 99)), "ms", DURATION)
    if driver.rate:
        late = _share(driver.late, len(posts.seconds) + posts.failed)
        run.board.add(section, f"{label}: commands started late", late, "%", PLAIN)
    run.board.add(section, f"{label}: failed calls", posts.failed + driver.other.failed, "count")
    _failures(run, f"{section} {label} POST", posts)
    _failures(run, f"{section} {label} other calls", driver.other)


def commands_section(run: Run) -> None:
    with services.running(run.env(), run.logs / "commands", worker=False) as stack:
        asyncio.run(_drive(stack.base, ASKING, 2, run))  # warm-up: imports, pools, first folds
        for rep in range(run.args.reps):
            for concurrency in CONCURRENCY:
                for mode in (ASKING, KNOWING):
                    driver = asyncio.run(_drive(stack.base, mode, concurrency, run))
                    _post_figures(run, "commands", f"{mode} ×{concurrency}", driver)
                    _progress(
                        f"commands rep {rep + 1}: {mode} ×{concurrency}: {len(driver.posts.seconds)} "
                        f"commands, {driver.games} games, {driver.posts.failed} failed"
                    )
            for mode in (ASKING, KNOWING) if run.args.paced else ():  # the floor's rate, at 50 games
                concurrency, rate = CONCURRENCY[-1], run.args.paced
                driver = asyncio.run(_drive(stack.base, mode, concurrency, run, rate))
                _post_figures(run, "commands", f"{mode} ×{concurrency} at {rate:g}/s", driver)
                _progress(
                    f"commands rep {rep + 1}: {mode} ×{concurrency} at {rate:g}/s: "
                    f"{len(driver.posts.seconds)} commands, {driver.late} late, {driver.posts.failed} failed"
                )


# --- bots ------------------------------------------------------------------------------------


async def _bot_replies(base: str, seconds: float, seed: int) -> bots.Replies:
    async with session() as s:
        return await bots.measure(Api(s, base), Window.of(seconds), seed)


def _redis_reachable(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_timeout=2).ping())
    except redis.RedisError:
        return False


def _forget_queue(url: str, queue: str) -> None:
    """Delete the run's own queue keys from Redis; other queues are left alone."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2)
    for key in client.scan_iter(match=f"*{queue}*"):
        client.delete(key)


def bots_section(run: Run) -> None:
    for name, broker in (("database broker", None), ("redis broker", run.args.redis)):
        if broker and not _redis_reachable(broker):
            run.board.note(f"bots: {broker} does not answer; the Redis figures are left out")
            continue
        with services.running(run.env(broker), run.logs / f"bots-{name.split()[0]}", worker=True) as stack:
            asyncio.run(_bot_replies(stack.base, min(5.0, run.args.seconds), run.args.seed))  # warm-up
            for rep in range(run.args.reps):
                replies = asyncio.run(_bot_replies(stack.base, run.args.seconds, run.args.seed + rep))
                waits = replies.waits.seconds
                run.board.add("bots", f"{name}: replies timed", len(waits), "count")
                run.board.add("bots", f"{name}: reply p50", _ms(percentile(waits, 50)), "ms", DURATION)
                run.board.add("bots", f"{name}: reply p99", _ms(percentile(waits, 99)), "ms", DURATION)
                run.board.add("bots", f"{name}: failed", replies.waits.failed + replies.calls.failed, "count")
                _failures(run, f"bots {name} replies", replies.waits)
                _failures(run, f"bots {name} calls", replies.calls)
                _progress(f"bots rep {rep + 1}: {name}: {len(waits)} replies in {replies.games} games")
        if broker:
            _forget_queue(broker, f"kotlik-bench-{run.run_id}")


# --- load ------------------------------------------------------------------------------------


def load_section(run: Run) -> None:
    from events.database import create_pool

    with create_pool(run.database, max_size=2) as pool:
        built = folds.build(pool, folds.SIZES[-1], run.args.build_seconds, run.args.seed)
        run.board.note(
            f"load: a {built.version:,}-event {folds.LONG_GAME} game (both seats passing) was built in "
            f"{built.seconds:.0f} s through commands.handlers.play; state_at(at=N) times an N-event game"
        )
        if built.version < folds.SIZES[-1]:
            run.board.note(f"load: the build stopped short of {folds.SIZES[-1]:,} events (--build-seconds)")
        for rep in range(run.args.reps):
            times = folds.measure(pool, built)
            for n in folds.sizes(built):
                with_s, without_s = times[(n, True)], times[(n, False)]
                run.board.add("load", f"{n:>6,} events, snapshots", _ms(with_s), "ms", DURATION)
                run.board.add("load", f"{n:>6,} events, no snapshots", _ms(without_s), "ms", DURATION)
                run.board.add("load", f"{n:>6,} events, cold fold events/s", n / without_s, "/s", RATE)
            _progress(f"load rep {rep + 1}: done")


# --- watchers --------------------------------------------------------------------------------


@dataclass
class Watching:
    """One watchers window: the players, what the watchers saw, and the web processes' peak."""

    driver: Driver
    watched: watchers.Watched
    window: Window
    open_at_start: int
    rss_mib: float = 0.0
    processes: int = 0
    #: CPU per command over the window, all its fan-out to the watchers included.
    cpu: costs.Cost | None = None


async def _sample_rss(stack: services.Stack, watching: Watching) -> None:
    while True:
        mib, count = await asyncio.to_thread(services.web_rss_mib, stack)
        watching.rss_mib, watching.processes = max(watching.rss_mib, mib), max(watching.processes, count)
        await asyncio.sleep(1.0)


async def _until_streams_answer(watched: watchers.Watched, streams: int) -> None:
    """Let the streams connect before the window (at most the client timeout)."""
    deadline = time.monotonic() + TIMEOUT + 1
    while time.monotonic() < deadline:
        segments = watched.segments
        if len(segments) >= streams and not any(s.status == "connecting" for s in segments):
            return
        await asyncio.sleep(0.2)


async def _watch(stack: services.Stack, run: Run, rate: float | None) -> Watching:
    raise_open_files(run.args.streams + run.args.polls + 1024)
    async with session() as s:
        api = Api(s, stack.base)
        driver = Driver(
            api, KNOWING, run.scripts, run.args.max_games, run.args.seed, rate, stagger=not run.args.together
        )
        await driver.prepare(WATCHED_GAMES)
        watched, tables = watchers.Watched(), driver.tables
        jobs = [
            watchers.follow_stream(api, tables[i % len(tables)], watched) for i in range(run.args.streams)
        ]
        jobs += [watchers.poll(api, tables[i % len(tables)], watched) for i in range(run.args.polls)]
        jobs.append(watchers.read_catalog(api, watched))
        jobs.append(watchers.probe_lag(watched))
        tasks = [asyncio.create_task(job) for job in jobs]
        await _until_streams_answer(watched, run.args.streams)
        opened = sum(seg.status == 200 and not seg.closed for seg in watched.segments)
        watching = Watching(driver, watched, Window.of(run.args.seconds), opened)
        watched.window = watching.window
        tasks.append(asyncio.create_task(_sample_rss(stack, watching)))
        with costs.Meter(lambda: services.web_pids(stack)) as meter:
            await driver.run(watching.window)
        watching.cpu = meter.per(len(driver.posts.seconds))
        await watchers.settled(watched, driver.history, watching.window)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return watching


def _watcher_figures(run: Run, w: Watching, prefix: str) -> None:
    got = watchers.delivery(w.watched, w.driver.history, w.window)

    def add(name: str, value: float, unit: str = "count") -> None:
        run.board.add("watchers", prefix + name, value, unit, DURATION if unit == "ms" else PLAIN)

    add("streams open at the window's start", w.open_at_start)
    add("stream attempts refused or timed out", got.refused)
    add("streams still unanswered at the end", got.waiting)
    add("streams that got every version", _share(got.complete, got.followed), "%")
    add("versions missed on open streams", got.missing)
    add("stream delivery p50 (after the 201)", _ms(percentile(got.delays, 50)), "ms")
    add("stream delivery p99 (after the 201)", _ms(percentile(got.delays, 99)), "ms")
    add("stream delivery p99 to streams already open", _ms(percentile(got.open_delays, 99)), "ms")
    add("streams asked for in the window: head p50", _ms(percentile(got.openings, 50)), "ms")
    add("streams asked for in the window: head p99", _ms(percentile(got.openings, 99)), "ms")
    add("long-polls answered 200", len(w.watched.polls.seconds))
    add("long-polls failed or timed out", w.watched.polls.failed)
    add("long-poll delivery p99 (after the 201)", _ms(percentile(w.watched.poll_delays, 99)), "ms")
    add("this driver's own event-loop lag p99", _ms(percentile(w.watched.lag, 99)), "ms")
    catalog, connecting = w.watched.catalog, w.watched.catalog_connecting
    add("GET /catalog p99", _ms(percentile(catalog.seconds, 99)), "ms")
    add("GET /catalog failed", catalog.failed)
    add("GET /catalog p99 while the watchers connect", _ms(percentile(connecting.seconds, 99)), "ms")
    if w.cpu is not None:
        add("CPU per command: web processes", _ms(w.cpu.web), "ms")
        add("CPU per command: PostgreSQL", _ms(w.cpu.database), "ms")
        add("CPU per command: this load driver", _ms(w.cpu.driver), "ms")
    add("web RSS, peak (gunicorn master + workers)", w.rss_mib, "MiB")
    add("web processes", w.processes)
    _failures(run, "watchers polls", w.watched.polls)
    _failures(run, "watchers catalog", w.watched.catalog)


def watchers_section(run: Run) -> None:
    run.board.note(
        f"watchers: {run.args.streams} streams and {run.args.polls} long-polls (wait={watchers.POLL_WAIT}) "
        f"over {WATCHED_GAMES} games; client timeout {TIMEOUT:.0f} s"
    )
    rates: list[float | None] = [None, run.args.watched_rate] if run.args.watched_rate else [None]
    for rep in range(run.args.reps):
        for rate in rates:
            paced = f" at {rate:g}/s" if rate else ""
            logs = run.logs / f"watchers-{rep}{'-paced' if rate else ''}"
            with services.running(run.env(), logs, worker=False) as stack:
                watching = asyncio.run(_watch(stack, run, rate))
            _post_figures(run, "watchers", f"{KNOWING} ×{WATCHED_GAMES}{paced}", watching.driver)
            _watcher_figures(run, watching, f"{paced.strip()}: " if rate else "")
            opened = sum(seg.status == 200 for seg in watching.watched.segments)
            _progress(
                f"watchers rep {rep + 1}{paced}: {opened} streams opened, "
                f"{len(watching.driver.posts.seconds)} commands, {watching.driver.late} late"
            )


# --- costs -----------------------------------------------------------------------------------

COSTED_GAMES = 16
#: Streams that follow each costed game, to tell what a stream frame costs.
STREAMS_EACH = 8


async def _costs(stack: services.Stack, run: Run) -> dict[str, costs.Cost]:
    def web() -> list[int]:
        return services.web_pids(stack)

    async with session() as s:
        api = Api(s, stack.base)
        measured = await costs.measure(api, web, run.args.seconds)
        plain = await _commands_cost(api, web, run, streams_each=0)
        measured[f"POST /commands ({KNOWING} ×{COSTED_GAMES})"] = plain
        watched = await _commands_cost(api, web, run, streams_each=STREAMS_EACH)
        measured[f"a command's events to one stream ({STREAMS_EACH} a game)"] = costs.Cost(
            web=(watched.web - plain.web) / STREAMS_EACH,
            database=(watched.database - plain.database) / STREAMS_EACH,
            driver=(watched.driver - plain.driver) / STREAMS_EACH,
            answers=watched.answers * STREAMS_EACH,
        )
    return measured


async def _commands_cost(api: Api, web: Callable[[], list[int]], run: Run, streams_each: int) -> costs.Cost:
    """CPU per command of ``COSTED_GAMES`` games played, each followed by ``streams_each`` streams."""
    driver = Driver(api, KNOWING, run.scripts, run.args.max_games, run.args.seed)
    await driver.prepare(COSTED_GAMES)
    watched = watchers.Watched()
    followers = [
        asyncio.create_task(watchers.follow_stream(api, table, watched))
        for table in driver.tables
        for _ in range(streams_each)
    ]
    await _until_streams_answer(watched, len(followers))
    with costs.Meter(web) as meter:
        await driver.run(Window.of(run.args.seconds))
    for follower in followers:
        follower.cancel()
    await asyncio.gather(*followers, return_exceptions=True)
    return meter.per(len(driver.posts.seconds))


def costs_section(run: Run) -> None:
    with services.running(run.env(), run.logs / "costs", worker=False) as stack:
        for rep in range(run.args.reps):
            for name, cost in asyncio.run(_costs(stack, run)).items():
                run.board.add("costs", f"{name}: answers/s", cost.answers / run.args.seconds, "/s", RATE)
                run.board.add("costs", f"{name}: web CPU", _ms(cost.web), "ms", DURATION)
                run.board.add("costs", f"{name}: PostgreSQL CPU", _ms(cost.database), "ms", DURATION)
                run.board.add("costs", f"{name}: load driver CPU", _ms(cost.driver), "ms", DURATION)
            _progress(f"costs rep {rep + 1}: done")


# --- the run ---------------------------------------------------------------------------------


def _arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--reps", type=int, help="repetitions of every figure (3; --quick: 1)")
    parser.add_argument("--seconds", type=float, help="length of each timed window (10; --quick: 3)")
    parser.add_argument("--sections", default=",".join(SECTIONS), help="comma-separated; raw always runs")
    parser.add_argument("--streams", type=int, help="open /stream clients (1000; --quick: 100)")
    parser.add_argument("--polls", type=int, help="open /state?wait long-polls (500; --quick: 50)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1 rep, 3 s, 100 streams, 50 polls")
    parser.add_argument(
        "--paced", type=float, default=600, help="the commands/s 50 paced games offer together (0: none)"
    )
    parser.add_argument(
        "--watched-rate",
        type=float,
        default=100,
        help="the commands/s the watched games offer in the watchers' paced window (0: none)",
    )
    parser.add_argument(
        "--together",
        action="store_true",
        help="start the commands section's games together (so they also end together) rather than "
        "each at a random point of its game",
    )
    parser.add_argument("--max-games", type=int, default=2000, help="cap on games created per window")
    parser.add_argument("--build-seconds", type=float, default=180, help="cap on building the long game")
    parser.add_argument("--redis", default=REDIS, help="the Redis broker of the bots section")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", help="keep the services' logs in this directory (default: discarded)")
    args = parser.parse_args(argv)
    quick = {"reps": 1, "seconds": 3.0, "streams": 100, "polls": 50}
    full = {"reps": 3, "seconds": 10.0, "streams": 1000, "polls": 500}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.sections = [s.strip() for s in args.sections.split(",") if s.strip()]
    unknown = sorted(set(args.sections) - set(SECTIONS))
    if unknown:
        parser.error(f"unknown sections {unknown}; known: {', '.join(SECTIONS)}")
    return args


def _header(run: Run, server: str) -> str:
    where = urlsplit(server)
    load1, load5, _ = os.getloadavg()
    return "\n".join(
        [
            f"bench/live.py: reps {run.args.reps}, {run.args.seconds:g} s windows, sections "
            f"{','.join(run.args.sections)}, seed {run.args.seed}",
            f"server {where.hostname}:{where.port or 5432} ({scratch.durability(run.database)}); "
            f"load average {load1:.2f}/{load5:.2f} at the start",
            machine.describe(),
            f"post-only: the client plays games it computed beforehand from an arranged deck "
            f"({known.GAME} draws only in setup), so only POST /games and /commands reach the server",
            "actions+post: GET /actions of the seat the last 201 named to move, before each POST; "
            "the POST alone is timed",
            "×N: N games played as fast as the server answers (its limit, and a saturated server's latency); "
            "at R/s: the N games offer R commands/s together, evenly spaced (the latency at that load)",
            "vs raw limit: a rate ÷ the best raw commits/s; a duration × it (raw commits that fit in it)",
        ]
    )


RUNNERS = {
    "commands": commands_section,
    "bots": bots_section,
    "load": load_section,
    "watchers": watchers_section,
    "costs": costs_section,
}


def _sections(run: Run) -> None:
    raw_section(run)
    if set(run.args.sections) - {"raw"}:
        services.migrate(run.env())
    for section in run.args.sections:
        if section in RUNNERS:
            RUNNERS[section](run)


def _report(run: Run, header: str, started: float) -> str:
    titles = [(s, SECTIONS[s]) for s in SECTIONS if s == "raw" or s in run.args.sections]
    lines = [header, "", render(run.board, run.limit, titles)]
    notes = Counter(run.board.notes)
    if notes:
        lines += ["", "notes:"]
        lines += [f"  {text}" + (f" (×{times})" if times > 1 else "") for text, times in notes.items()]
    limit = f"{run.limit:,.0f} commits/s" if run.limit else "not measured"
    lines += ["", f"raw limit {limit}; the run took {time.monotonic() - started:.0f} s"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the sections on a scratch database; print the table, also of a run that failed midway."""
    args = _arguments(argv)
    server = scratch.server_url()
    run_id = secrets.token_hex(4)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kotlik-bench-") as temporary:
        logs = Path(args.logs or temporary)
        name, database = scratch.create(server, run_id)
        run = Run(args, Board(), database, logs, run_id, known.scripts(20, args.seed))
        header = "bench/live.py"
        try:
            header = _header(run, server)
            _sections(run)
        finally:
            scratch.drop(server, name)
            print(_report(run, header, started), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
