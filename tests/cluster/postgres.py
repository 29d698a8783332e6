"""A primary PostgreSQL and a synchronous standby of the test's own, from the ``pgserver`` package's
binaries (``initdb``, ``pg_basebackup``, ``pg_ctl``), on loopback ports; nothing of the machine's.

As root, PostgreSQL refuses to run: the servers run as ``pgserver``'s own system user, as the
embedded server does.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from pathlib import Path

import psutil
import psycopg
from processes import free_port, wait_until

#: The standby's name, as the primary's ``synchronous_standby_names`` asks for it.
STANDBY = "standby1"


def _bin(name: str) -> str:
    import pgserver

    return str(Path(pgserver.__file__).parent / "pginstall" / "bin" / name)


def _user() -> str | None:
    if os.geteuid() != 0:
        return None
    from pgserver.utils import ensure_user_exists

    ensure_user_exists("pgserver")
    return "pgserver"


class Postgres:
    """One server: its data directory, its port, its log."""

    def __init__(self, folder: Path, name: str) -> None:
        self.data = folder / name
        self.port = free_port()
        self.log = folder / f"{name}.log"
        self.user = _user()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        done = subprocess.run([_bin(args[0]), *args[1:]], user=self.user, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr.decode(errors="replace")

    def init(self) -> None:
        self._run("initdb", "-D", str(self.data), "--auth=trust", "-U", "postgres", "--encoding=utf8")
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write("listen_addresses = '127.0.0.1'\nunix_socket_directories = ''\nwal_level = replica\n")

    def copy_of(self, primary: Postgres) -> None:
        """A standby of ``primary``: a base backup that streams from it, named for synchronous commit."""
        self._run(
            "pg_basebackup",
            "-D",
            str(self.data),
            "-d",
            primary.url() + f"?application_name={STANDBY}",
            "-R",
            "-X",
            "stream",
        )

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-o", f"-p {self.port}", "start")

    def promote(self) -> None:
        """What the operator does when the primary is gone: the standby takes writes, and commits no
        longer wait for a standby that is not there."""
        self._run("pg_ctl", "-D", str(self.data), "-w", "promote")
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET synchronous_standby_names = ''")
            conn.execute("SELECT pg_reload_conf()")

    def kill(self) -> None:
        """SIGKILL the postmaster and every backend, as a machine losing power would."""
        pid = self.pid()
        if pid is None:
            return
        with contextlib.suppress(psutil.NoSuchProcess):
            postmaster = psutil.Process(pid)
            processes = [postmaster, *postmaster.children(recursive=True)]
            for p in processes:
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.send_signal(signal.SIGKILL)
            psutil.wait_procs(processes, timeout=30)

    def pid(self) -> int | None:
        with contextlib.suppress(FileNotFoundError, ValueError):
            return int((self.data / "postmaster.pid").read_text().split()[0])
        return None


def _own(folder: Path) -> None:
    user = _user()
    if user is not None:
        shutil.chown(folder, user, user)
    folder.chmod(0o755)


def alone(folder: Path) -> Postgres:
    """A started server with no standby."""
    _own(folder)
    server = Postgres(folder, "alone")
    server.init()
    server.start()
    return server


def replicated(folder: Path) -> tuple[Postgres, Postgres]:
    """A started primary and a started standby that it commits synchronously to."""
    _own(folder)
    primary, standby = Postgres(folder, "primary"), Postgres(folder, "standby")
    primary.init()
    primary.start()
    standby.copy_of(primary)
    standby.start()
    with psycopg.connect(primary.url(), autocommit=True) as conn:
        conn.execute(f"ALTER SYSTEM SET synchronous_standby_names = '{STANDBY}'")
        conn.execute("SELECT pg_reload_conf()")

        def synchronous() -> bool:
            row = conn.execute(
                "SELECT sync_state FROM pg_stat_replication WHERE application_name = %s", (STANDBY,)
            ).fetchone()
            return row is not None and row[0] == "sync"

        wait_until(synchronous, 30, "the standby to replicate synchronously")
    return primary, standby
