"""pg_auto_failover on loopback: a monitor and two keepers, each keeper running its PostgreSQL, the
standby synchronous, a failover decided by the monitor with no operator.

Debian's ``postgresql-15-auto-failover`` (``pg_autoctl``) with Debian's PostgreSQL 15 binaries
(``/usr/lib/postgresql/15/bin``). As root, everything runs as the ``postgres`` system user, which
PostgreSQL needs. Nothing of the machine's PostgreSQL service is touched: the data directories,
the sockets and the logs are in this formation's own folder, the servers listen on free loopback
ports only, and the machine's cluster (its data, its port, ``/var/run/postgresql``) is never used.

The monitor's health checks are tuned for a test (a node unreachable for 3 s is failed over, and
the old primary gets 3 s to stand down); pg_auto_failover's defaults (20 s, 30 s) suit a real
network, where a short blip must not cost a failover.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import psutil
import psycopg
from processes import free_port, wait_until

BIN = Path("/usr/lib/postgresql/15/bin")
#: The monitor's settings (milliseconds), set before the keepers register.
TUNING = {
    "pgautofailover.health_check_period": 1000,
    "pgautofailover.health_check_timeout": 1000,
    "pgautofailover.health_check_max_retries": 1,
    "pgautofailover.health_check_retry_delay": 500,
    "pgautofailover.node_considered_unhealthy_timeout": 3000,
    "pgautofailover.primary_demote_timeout": 3000,
}


def missing() -> str | None:
    """Why pg_auto_failover cannot run here, or None."""
    if shutil.which("pg_autoctl") is None:
        return "pg_autoctl is not installed (apt-get install postgresql-15-auto-failover)"
    if not (BIN / "pg_ctl").exists():
        return f"Debian's PostgreSQL 15 binaries are not in {BIN}"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "runuser is needed to run PostgreSQL as the postgres user"
    return None


class Formation:
    """The monitor and the keepers ``node1``, ``node2`` (``node1`` the first primary)."""

    NAMES = ("node1", "node2")

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="kotlik-autofailover-"))
        self.user = "postgres" if os.geteuid() == 0 else None
        if self.user is not None:
            shutil.chown(self.folder, self.user, self.user)
        self.folder.chmod(0o755)
        self.monitor_port = free_port()
        self.ports = {name: free_port() for name in self.NAMES}
        self.keepers: dict[str, subprocess.Popen[bytes]] = {}

    def _command(self, *args: str) -> list[str]:
        env = [
            f"PATH={BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            f"XDG_CONFIG_HOME={self.folder / 'config'}",
            f"XDG_DATA_HOME={self.folder / 'data'}",
            # the sockets here, not in the machine's /var/run/postgresql
            f"PG_REGRESS_SOCK_DIR={self.folder}",
            f"HOME={self.folder}",
            f"PGHOST={self.folder}",
            # initdb takes the databases' encoding from the locale: UTF-8, not SQL_ASCII
            "LANG=C.UTF-8",
            "LC_ALL=C.UTF-8",
        ]
        command = ["env", "-i", *env, "pg_autoctl", *args]
        return ["runuser", "-u", self.user, "--", *command] if self.user else command

    def _run(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        with open(self.folder / f"{name}.log", "ab") as out:
            return subprocess.Popen(
                self._command(*args), stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )

    def url(self, port: int, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{port}/{database}?connect_timeout=2"

    @property
    def monitor_url(self) -> str:
        return f"postgres://autoctl_node@127.0.0.1:{self.monitor_port}/pg_auto_failover?sslmode=disable"

    def multi_host(self, database: str) -> str:
        """The services' URL: both servers, whichever takes writes."""
        hosts = ",".join(f"127.0.0.1:{port}" for port in self.ports.values())
        return f"postgresql://postgres@{hosts}/{database}?target_session_attrs=read-write&connect_timeout=2"

    def start(self) -> None:
        common = ["--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", str(BIN / "pg_ctl")]
        monitor = self.folder / "monitor"
        self.keepers["monitor"] = self._run(
            "monitor", "create", "monitor", "--pgdata", str(monitor), "--pgport", str(self.monitor_port),
            "--listen", "127.0.0.1", *common, "--run",
        )  # fmt: skip
        wait_until(lambda: self._answers(self.monitor_port, "pg_auto_failover"), 120, "the monitor")
        with psycopg.connect(self.url(self.monitor_port, "pg_auto_failover"), autocommit=True) as conn:
            for setting, value in TUNING.items():
                conn.execute(f"ALTER SYSTEM SET {setting} = {value}")
            conn.execute("SELECT pg_reload_conf()")
        for name in self.NAMES:
            self.keepers[name] = self._run(
                name, "create", "postgres", "--pgdata", str(self.folder / name), "--pgport",
                str(self.ports[name]), "--listen", "127.0.0.1", "--name", name, "--monitor",
                self.monitor_url, *common, "--run",
            )  # fmt: skip
            wanted = {"node1": "single"} if name == "node1" else {"node1": "primary", "node2": "secondary"}
            wait_until(lambda wanted=wanted: self.states() == wanted, 180, f"{name} to join as {wanted}")

    def _answers(self, port: int, database: str) -> bool:
        try:
            with psycopg.connect(self.url(port, database), autocommit=True) as conn:
                conn.execute("SELECT 1")
            return True
        except psycopg.Error:
            return False

    def states(self) -> dict[str, str]:
        """Each node's state as the monitor has it (both reported and assigned: a node is in a state
        once it has reached what it was assigned)."""
        try:
            with psycopg.connect(self.url(self.monitor_port, "pg_auto_failover"), autocommit=True) as conn:
                rows: list[Any] = conn.execute(
                    "SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node"
                ).fetchall()
        except psycopg.Error:
            return {}
        return {
            _text(name): _text(reported) if reported == goal else f"{_text(reported)}→{_text(goal)}"
            for name, reported, goal in rows
        }

    def primary(self) -> str:
        """The node that takes writes now."""
        for name, port in self.ports.items():
            with contextlib.suppress(psycopg.Error), psycopg.connect(self.url(port), autocommit=True) as conn:
                row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
                if row is not None and not row[0]:
                    return name
        raise AssertionError(f"no node takes writes: {self.states()}")

    def kill(self, name: str) -> None:
        """SIGKILL a node whole, its keeper and its PostgreSQL, as a machine that dies."""
        keeper = self.keepers.pop(name, None)
        if keeper is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(keeper.pid, signal.SIGKILL)
            keeper.wait(timeout=30)
        self._kill_postmaster(self.folder / name)

    def _kill_postmaster(self, data: Path) -> None:
        with contextlib.suppress(FileNotFoundError, ValueError, psutil.NoSuchProcess):
            postmaster = psutil.Process(int((data / "postmaster.pid").read_text().split()[0]))
            processes = [postmaster, *postmaster.children(recursive=True)]
            for process in processes:
                with contextlib.suppress(psutil.NoSuchProcess):
                    process.send_signal(signal.SIGKILL)
            psutil.wait_procs(processes, timeout=30)

    def stop(self) -> None:
        """Everything killed and its folder removed, whatever state it is in."""
        for name in list(self.keepers):
            self.kill(name)
        for name in ("monitor", *self.NAMES):
            self._kill_postmaster(self.folder / name)
        shutil.rmtree(self.folder, ignore_errors=True)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""


def _text(value: str | bytes) -> str:
    """The monitor's database is SQL_ASCII if its locale was C: psycopg then gives bytes."""
    return value.decode() if isinstance(value, bytes) else value
