"""Runs the real `sibyl` binary for end-to-end tests.

Each server gets free loopback ports (CQL, and the Prometheus metrics
endpoint, so that servers of tests run in parallel do not clash on the
default 9180), from a share of the ports of its own under pytest-xdist (see
free_port), and a temporary data directory; its
stdout and stderr go to a log file that is polled for Cassandra's ready line
("Starting listening for CQL clients on ADDR:PORT"). Stopping a server sends
SIGTERM and requires exit code 0 within 5 seconds.

The binary is $SIBYL_BIN, or <repo>/build/sibyl.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import random
import re
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest

REPO = Path(__file__).resolve().parents[3]
READY_LINE = re.compile(r"Starting listening for CQL clients on (\S+):(\d+)")
STARTUP_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 5.0

# The session's shared server (conftest.py) uses non-default values so that
# tests can tell flags are honoured; tests of the defaults start their own.
SHARED_NUM_TOKENS = 8
SHARED_CLUSTER_NAME = "Integration Cluster"


def sibyl_binary() -> Path:
    path = Path(os.environ.get("SIBYL_BIN", REPO / "build" / "sibyl"))
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"no sibyl binary at {path}: build it (scripts/build.sh) or set SIBYL_BIN",
                    pytrace=False)
    return path


def die_with_parent() -> None:
    """Runs in the child before exec: if the test process dies, so does sibyl."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


# The ports servers and clusters are given. Not the kernel's choice (a bind
# to port 0): that comes from the ephemeral range, where every outgoing
# connection on the machine takes its local port and where every other
# pytest-xdist worker draws too, so a port a test gives up for a while (a node
# killed, then restarted on the same ports; a port that must stay closed) may
# be someone else's by the time it needs it back. Instead each process walks
# its own share of the ports below (or above) the ephemeral range: all of it,
# or one N-th of it in each of N xdist workers. A port is handed out once it is
# free on every address (a wildcard bind fails if anything holds the port on
# any 127.0.0.x), and not again until the walk has gone round its whole share.
PORT_POOL_FLOOR = 10000
MIN_PORT_SHARE = 512


def _ephemeral_range() -> tuple[int, int]:
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def _port_share() -> range | None:
    """This process's ports, or None when there are too few (the kernel picks then)."""
    low, high = _ephemeral_range()
    start, end = max((PORT_POOL_FLOOR, low), (high + 1, 65536), key=lambda r: r[1] - r[0])
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1"... under xdist
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    if count > 1 and worker.startswith("gw") and worker[2:].isdigit():
        size = (end - start) // count
        start += (int(worker[2:]) % count) * size
        end = start + size
    return range(start, end) if end - start >= MIN_PORT_SHARE else None


_PORTS = _port_share()
# A random starting point, so that two test runs on one machine do not walk
# the same ports in step.
_next_port = random.SystemRandom().randrange(len(_PORTS)) if _PORTS else 0


def _free_everywhere(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("0.0.0.0", port))
        except OSError:
            return False
    return True


def free_port(span: int = 1) -> int:
    """A port that was free a moment ago on every loopback address, from this
    process's share (see above); with `span`, the first of that many
    consecutive free ports (etcd listens on its port and the next)."""
    global _next_port
    while _PORTS is None:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("0.0.0.0", 0))
            first = s.getsockname()[1]
        if first + span - 1 <= 65535 and all(
                _free_everywhere(port) for port in range(first + 1, first + span)):
            return first
    for _ in range(len(_PORTS)):
        first = _PORTS[_next_port % len(_PORTS)]
        _next_port = (_next_port + 1) % len(_PORTS)
        if first + span - 1 > _PORTS[-1]:
            continue
        if all(_free_everywhere(port) for port in range(first, first + span)):
            _next_port = (_next_port + span - 1) % len(_PORTS)
            return first
    raise RuntimeError(f"no free port left in {_PORTS}")


@contextlib.contextmanager
def refused_port() -> Iterator[int]:
    """A loopback port that refuses connections for the duration of the
    block: bound but not listening, so that nothing else can listen there
    meanwhile (a port merely free a moment ago may not stay so)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        yield s.getsockname()[1]


class SibylServer:
    """One `sibyl start` process with its own port, data dir and log file."""

    def __init__(self, workdir: Path, extra_args: list[str] | None = None):
        self.workdir = workdir
        self.data_dir = workdir / "data"
        self.log_path = workdir / "sibyl.log"
        self.extra_args = list(extra_args or [])
        self.host = "127.0.0.1"
        self.port = 0
        self.metrics_port = 0  # /metrics (prometheus_port)
        self.proc: subprocess.Popen | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def start(self, attempts: int = 3) -> "SibylServer":
        """Starts the server and waits for its ready line.

        The free port can be taken by someone else between our probe and the
        server's bind, so a start that fails with "in use" is retried on a new
        port; any other failure fails the test at once.
        """
        last_error = ""
        for _ in range(attempts):
            self.port = free_port()
            self.metrics_port = free_port()
            self._spawn()
            ready, last_error = self._wait_ready()
            if ready:
                return self
            if "in use" not in self.log_text():
                break
        pytest.fail(f"sibyl did not start: {last_error}\n--- log ---\n{self.log_text()}",
                    pytrace=False)

    def _spawn(self) -> None:
        args = [
            str(sibyl_binary()), "start",
            "--data-dir", str(self.data_dir),
            "--listen-address", self.host,
            "--native-transport-port", str(self.port),
            "--prometheus-port", str(self.metrics_port),
            *self.extra_args,
        ]
        log = open(self.log_path, "wb")
        try:
            self.proc = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=self.workdir,
                                         preexec_fn=die_with_parent)
        finally:
            log.close()

    def _wait_ready(self) -> tuple[bool, str]:
        assert self.proc is not None
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while time.monotonic() < deadline:
            match = READY_LINE.search(self.log_text())
            if match:
                if int(match.group(2)) != self.port:
                    self.kill()
                    return False, f"ready line names port {match.group(2)}, expected {self.port}"
                return True, ""
            if self.proc.poll() is not None:
                return False, f"exited with code {self.proc.returncode} before becoming ready"
            time.sleep(0.02)
        self.kill()
        return False, f"no ready line within {STARTUP_TIMEOUT_S:.0f} s"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def rss_kib(self) -> int:
        """Resident set size from /proc/<pid>/status (VmRSS, in KiB)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS line")

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The node stopped (SIGSTOP) for the block and continued after it: the
        kernel still takes what clients send, but nothing reads or answers it.

        Waits until every thread has stopped: kill() returns before they do,
        and on a loaded machine a thread not yet stopped still answers a
        request sent after it, milliseconds later."""
        os.kill(self.pid, signal.SIGSTOP)
        try:
            deadline = time.monotonic() + 30
            while not self._all_threads_stopped():
                assert time.monotonic() < deadline, "sibyl did not stop within 30 s of SIGSTOP"
                time.sleep(0.001)
            yield
        finally:
            os.kill(self.pid, signal.SIGCONT)

    def _all_threads_stopped(self) -> bool:
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                stat = (task / "stat").read_text()
            except FileNotFoundError:  # a thread that has just ended
                continue
            if stat.rsplit(")", 1)[1].split()[0] not in ("T", "Z", "X"):
                return False
        return True

    def wait_for_unread_request(self, timeout_s: float = 30) -> None:
        """Waits until a request sits unread at the node (a paused one): the
        client has sent it and is waiting for the reply."""
        deadline = time.monotonic() + timeout_s
        while self._unread_request_bytes() == 0:
            assert time.monotonic() < deadline, f"no request reached the node within {timeout_s} s"
            time.sleep(0.005)

    def _unread_request_bytes(self) -> int:
        """The receive queues of the node's established CQL connections."""
        unread = 0
        for table in ("/proc/net/tcp", "/proc/net/tcp6"):
            try:
                lines = Path(table).read_text().splitlines()[1:]
            except FileNotFoundError:
                continue
            for line in lines:
                fields = line.split()  # sl local rem st tx_queue:rx_queue ...
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                established = fields[3] == "01"
                if established and local_port == self.port:
                    unread += int(fields[4].split(":")[1], 16)
        return unread

    def stop(self, sig: int = signal.SIGTERM) -> int:
        """Sends `sig` and returns the exit code; fails if it takes over 5 s."""
        assert self.proc is not None
        if self.proc.poll() is not None:
            return self.proc.returncode
        started = time.monotonic()
        self.proc.send_signal(sig)
        try:
            code = self.proc.wait(timeout=STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.kill()
            pytest.fail(f"sibyl did not exit within {STOP_TIMEOUT_S:.0f} s of "
                        f"{signal.Signals(sig).name}\n--- log ---\n{self.log_text()}", pytrace=False)
        elapsed = time.monotonic() - started
        assert elapsed < STOP_TIMEOUT_S
        return code

    def stop_cleanly(self, sig: int = signal.SIGTERM) -> None:
        code = self.stop(sig)
        assert code == 0, (f"sibyl exited with {code} after {signal.Signals(sig).name}"
                           f"\n--- log ---\n{self.log_text()}")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@contextlib.contextmanager
def running_server(extra_args: list[str] | None = None) -> Iterator[SibylServer]:
    """A server for the duration of the block; it must stop cleanly at the end."""
    with tempfile.TemporaryDirectory(prefix="sibyl-it-") as tmp:
        server = SibylServer(Path(tmp), extra_args).start()
        try:
            yield server
            assert server.alive(), (f"sibyl died (exit code {server.proc.returncode})"
                                    f"\n--- log ---\n{server.log_text()}")
            server.stop_cleanly()
        finally:
            server.kill()


