"""A local cluster (`sibyl cluster start`) for integration tests: etcd and
nodes on 127.0.0.1..N, on ports picked free (on every loopback address, from
this process's share: see sibyl_process.free_port), in a temporary
directory, stopped at the end; and a driver connected to it."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile
from cassandra.policies import WhiteListRoundRobinPolicy

from sibyl_process import free_port, sibyl_binary

NODES = 3
ADDRESSES = [f"127.0.0.{i}" for i in range(1, NODES + 1)]


class RunningCluster:
    def __init__(self, directory: Path, native_port: int, storage_port: int, etcd_port: int,
                 metrics_port: int, node_options: tuple[tuple[str, str], ...] = ()):
        self.directory = directory
        # cassandra.yaml keys every node starts with (`sibyl cluster start --node-option`).
        self.node_options = node_options
        self.native_port = native_port
        self.metrics_port = metrics_port  # every node's /metrics, on its own address
        self.storage_port = storage_port
        self.etcd_port = etcd_port
        self.extra_processes: list[subprocess.Popen] = []  # nodes started by the tests
        # The newest process a test started for each node: its pid file
        # still names the one `sibyl cluster start` launched.
        self.restarted: dict[int, subprocess.Popen] = {}

    def start_node(self, i: int, extra_args: tuple[str, ...] = (),
                   wrapper: tuple[str, ...] = ()) -> None:
        """Starts node i (127.0.0.i) on the cluster's ports, its log in node<i>/;
        `extra_args` are more `sibyl start` flags (e.g. --hinted-handoff-enabled false),
        `wrapper` a command that runs it (e.g. faketime -f +30s)."""
        self.node_dir(i).mkdir(parents=True, exist_ok=True)
        with open(self.node_dir(i) / "sibyl-test.log", "a") as log:
            process = subprocess.Popen(
                list(wrapper) + self.node_command(i) + list(extra_args), stdout=log,
                stderr=subprocess.STDOUT)
        self.extra_processes.append(process)
        self.restarted[i] = process
        # So that `sibyl cluster stop` stops this process, and never signals
        # the pid of the one before, which the system may have given to
        # another process since (pids wrap around quickly here).
        (self.node_dir(i) / "pid").write_text(f"{process.pid}\n")

    def alive(self, i: int) -> bool:
        """Whether node i's process runs (and is not a zombie)."""
        try:
            stat = Path(f"/proc/{self.pid(i)}/stat").read_text()
        except (OSError, ValueError):
            return False
        return stat.split(")")[-1].split()[0] != "Z"

    def kill_node(self, i: int) -> None:
        """kill -9 of node i. Its pid file goes with it, for the same reason."""
        os.kill(self.pid(i), signal.SIGKILL)
        (self.node_dir(i) / "pid").unlink(missing_ok=True)

    def wait_until_serving(self, i: int, timeout_s: float = 60.0) -> None:
        """Waits until node i accepts CQL connections; fails at once, with the end of its log,
        if its process exits, and with the end of its log if it is not serving in time (the
        temporary directory, and the log with it, is gone when the test ends)."""
        def accepts() -> bool:
            if i in self.restarted and self.restarted[i].poll() is not None:
                pytest.fail(f"node 127.0.0.{i} exited ({self.restarted[i].returncode}) "
                            f"before serving:\n{self.log_tail(i)}")
            try:
                with socket.create_connection((f"127.0.0.{i}", self.native_port), timeout=1):
                    return True
            except OSError:
                return False
        wait_for(accepts, timeout_s, f"node 127.0.0.{i} to accept connections",
                 lambda: self.log_tail(i))

    def log_tail(self, i: int, lines: int = 40) -> str:
        try:
            text = (self.node_dir(i) / "sibyl-test.log").read_text(errors="replace")
        except OSError as e:
            return f"(no log: {e})"
        return "\n".join(text.splitlines()[-lines:])

    def command(self, verb: str, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(sibyl_binary()), "cluster", verb, "--dir", str(self.directory), *extra],
            capture_output=True, text=True, timeout=120)

    def node_dir(self, i: int) -> Path:
        return self.directory / f"node{i}"

    def pid(self, i: int) -> int:
        """Node i's process: the one a test started last, else the pid file's."""
        if i in self.restarted:
            return self.restarted[i].pid
        return int((self.node_dir(i) / "pid").read_text().split()[0])

    def node_command(self, i: int) -> list[str]:
        address = f"127.0.0.{i}"
        return [str(sibyl_binary()), "start", "--cluster-name", "Test Cluster",
                "--listen-address", address, "--rpc-address", address,
                "--native-transport-port", str(self.native_port),
                "--storage-port", str(self.storage_port),
                "--prometheus-port", str(self.metrics_port),
                "--data-dir", str(self.node_dir(i) / "data"),
                "--seeds", f"127.0.0.1:{self.storage_port}",
                "--metadata-store", "etcd",
                "--etcd-endpoints", f"http://127.0.0.1:{self.etcd_port}",
                *(arg for key, value in self.node_options
                  for arg in ("--" + key.replace("_", "-"), value))]

    def connect(self, address: str = "127.0.0.1", only: bool = False, **options) -> Cluster:
        """A driver contacting `address`; with `only`, every query goes there."""
        profiles = {}
        if only:
            profiles[EXEC_PROFILE_DEFAULT] = ExecutionProfile(
                load_balancing_policy=WhiteListRoundRobinPolicy([address]))
        return Cluster([address], port=self.native_port, protocol_version=4,
                       connect_timeout=10, control_connection_timeout=10,
                       execution_profiles=profiles, **options)


@contextlib.contextmanager
def running_cluster(nodes: int = NODES, parent: Path | None = None,
                    node_options: tuple[tuple[str, str], ...] = ()) -> Iterator[RunningCluster]:
    """`nodes` nodes and etcd in a new temporary directory (under `parent` if
    given, so that a caller can stop what a crashed test left running), every node started with
    the cassandra.yaml keys `node_options` set."""
    with tempfile.TemporaryDirectory(prefix="sibyl-cluster-test-", dir=parent) as tmp:
        # A port can be taken between the probe and the bind (etcd also binds
        # the etcd port + 1): a start that fails with "in use" is retried on
        # new ports, in a new directory.
        for attempt in range(1, 4):
            running = RunningCluster(Path(tmp) / f"cluster{attempt}", *cluster_ports(),
                                     node_options=node_options)
            started = running.command("start", "--nodes", str(nodes),
                                      *(arg for key, value in node_options
                                        for arg in ("--node-option", f"{key}={value}")),
                                      "--native-port", str(running.native_port),
                                      "--storage-port", str(running.storage_port),
                                      "--prometheus-port", str(running.metrics_port),
                                      "--etcd-port", str(running.etcd_port))
            if started.returncode == 0 or "in use" not in started.stdout + started.stderr:
                break
            running.command("stop")
        try:
            assert started.returncode == 0, started.stdout + started.stderr
            yield running
        finally:
            running.command("stop")
            for extra in running.extra_processes:
                if extra.poll() is None:
                    extra.terminate()
                    extra.wait(10)


def cluster_ports() -> tuple[int, int, int, int]:
    """Free ports for a new cluster, in RunningCluster's order: native,
    storage, etcd (whose next port, etcd's peer port, is free too) and
    metrics; free on every loopback address, all different."""
    native, storage, metrics = free_port(), free_port(), free_port()
    return native, storage, free_port(span=2), metrics


def wait_for(condition, timeout_s: float = 30.0, what: str = "condition", details=None):
    """Polls `condition` until it is truthy; on timeout fails, with `details()` if given."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.25)
    pytest.fail(f"timed out waiting for {what}" + (f":\n{details()}" if details else ""))
