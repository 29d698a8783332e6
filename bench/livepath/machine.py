"""How fast this machine is in the hour of a run, apart from PostgreSQL's disk.

The same code has cost twice as much CPU in one hour as in another on these shared machines, and
a figure is only read right next to what the hour allowed. The raw limit measures the disk; these
two measure the CPU and the kernel's network path, which is what an HTTP answer spends its time in:
a loop of pure Python, and a 50-byte round trip over loopback TCP between two processes.
"""

from __future__ import annotations

import os
import socket
import statistics
import time
import timeit

#: Round trips timed for the loopback figure.
ROUND_TRIPS = 20_000


def cpu_model() -> str:
    """The CPU's name as the kernel gives it, or ``unknown``."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return "unknown"


def python_loop_ns() -> float:
    """Nanoseconds for ``sum(range(100))``, the best of five: Python's own speed now."""
    number = 100_000
    return min(timeit.repeat("sum(range(100))", number=number, repeat=5)) / number * 1e9


def loopback_round_trip_us() -> float:
    """Microseconds for a 50-byte request and its echo over loopback TCP (the median of 5 spans)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        child = os.fork()
        if child == 0:
            _echo(server)
        server_address = server.getsockname()
    try:
        with socket.create_connection(server_address) as client:
            client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            spans = []
            for _ in range(5):
                started = time.perf_counter()
                for _ in range(ROUND_TRIPS // 5):
                    client.sendall(b"x" * 50)
                    _receive(client, 50)
                spans.append((time.perf_counter() - started) / (ROUND_TRIPS // 5) * 1e6)
    finally:
        os.waitpid(child, 0)
    return statistics.median(spans)


def _echo(server: socket.socket) -> None:
    """The forked child: echo one connection until it closes, then leave without cleanup."""
    try:
        connection, _ = server.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        while data := connection.recv(4096):
            connection.sendall(data)
    finally:
        os._exit(0)


def _receive(client: socket.socket, size: int) -> None:
    got = 0
    while got < size:
        chunk = client.recv(size - got)
        if not chunk:
            raise ConnectionError("the echo closed early")
        got += len(chunk)


def describe() -> str:
    """One line for a run's header."""
    return (
        f"machine: {cpu_model()}, {os.cpu_count()} cores; now: a Python loop "
        f"(sum(range(100))) {python_loop_ns():.0f} ns, a loopback TCP round trip "
        f"{loopback_round_trip_us():.1f} µs"
    )
