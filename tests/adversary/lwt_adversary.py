#!/usr/bin/python3
"""The adversary of Sibyl's lightweight transactions: real nodes, real faults, a checked history.

It starts a cluster (`sibyl cluster start`: etcd and nodes on 127.0.0.1..N, replication factor
3), runs client processes that each talk to one coordinator only (so every node coordinates),
and has them compare-and-set a few registers: ``INSERT ... IF NOT EXISTS``, ``UPDATE ... IF v =
?``, SERIAL reads of one register and, now and then, a SERIAL read of the whole table (a scan,
checked as a read of each register in use). Meanwhile a nemesis hurts the nodes, one at a time,
healing each before the next:

- ``kill``: kill -9 of a node, then a restart on the same data (its promises and acceptances must
  have been durable before it answered);
- ``stop``: SIGSTOP, then SIGCONT (a node that wakes up with stale rounds in flight);
- ``partition``: nftables drops packets on the storage port, inside a private network namespace
  (``unshare -n``; the run re-executes itself there): the victim isolated from the majority, the
  others split in two halves only the victim bridges, or one way (the victim heard, not reached);
- ``skew``: the victim restarts with its clock `SKEW_SECONDS` ahead (libfaketime), so its
  ballots outrank everyone's, then restarts on the true time, so its ballots lag everyone's.

Three workloads run at once: the CAS registers; unique ids, each claimed with ``IF NOT EXISTS`` by
a thread on every node (checked with UniqueInsertSet: each is won once); and plain QUORUM writes,
each acknowledged one of which must be found by an ALL read at the end.

Every invocation and completion is recorded as linearizability.py expects (a timeout, a lost
connection or a dead coordinator is ``info``: the round may still complete later; only
Unavailable, refused before any round, is ``fail``), and the history is checked per key. The
registers rotate: each key is used for `KEY_SECONDS`, which keeps the search per key small.

Random choices (ops, values, victims, fault timings) come from one seed, printed first; the same
seed replays the same choices (a real machine's timings still differ). Usage:

    tests/adversary/lwt_adversary.py [--nodes 3] [--seconds 60] [--faults kill,stop,partition]
                                     [--seed N] [--keep DIR] [--paxos-variant v2]

`--paxos-variant` is the nodes' `paxos_variant` (v1 or v2, the default); the verdict counts the
attempts v2 decided at the prepare, and a run whose count contradicts its variant fails.

exits 0 when the history is linearizable, 1 when it is not (with a counterexample), 2 when the
checker could not decide. tests/adversary/test_lwt_adversary.py runs it in CI; broken_paxos.py
shows it catches broken builds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "integration" / "python"))

from cassandra import ConsistencyLevel, Unavailable  # noqa: E402
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile, NoHostAvailable  # noqa: E402
from cassandra.policies import WhiteListRoundRobinPolicy  # noqa: E402
from cassandra.query import SimpleStatement  # noqa: E402

from cluster_process import RunningCluster, running_cluster  # noqa: E402
from linearizability import CasRegister, UniqueInsertSet, check  # noqa: E402

KEYSPACE = "adversary"
KEYS_AT_ONCE = 3  # registers in use at any moment
KEY_SECONDS = 4.0  # how long each generation of registers is used
VALUES = 5  # register values are 0..VALUES-1: collisions make conditions hold
CAS_CLIENTS_PER_NODE = 2
IDS_AT_ONCE = 4  # ids being claimed at any moment
SCAN_SHARE = 0.05  # of operations: a SERIAL read of the whole table
FAULT_SECONDS = (2.0, 6.0)  # how long a fault lasts
CALM_SECONDS = (1.0, 3.0)  # between faults
SKEW_SECONDS = 30
IN_NETNS_ENV = "SIBYL_ADVERSARY_IN_NETNS"
FAULTS = ("kill", "stop", "partition", "skew")


def address(i: int) -> str:
    return f"127.0.0.{i}"


# --- the history ---------------------------------------------------------------------------------

class History:
    """Events in the order the recorder saw them (one lock orders them: that order is the
    real-time order the checker relies on)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._start = time.monotonic()
        self.events: list[dict] = []

    def record(self, process: int, kind: str, f: str, key: int, value,
               error: Exception | None = None) -> None:
        event = {"process": process, "type": kind, "f": f, "key": key, "value": value}
        if error is not None:
            event["error"] = f"{type(error).__name__}: {error}"[:300]
        with self._lock:
            event["time"] = round(time.monotonic() - self._start, 4)
            self.events.append(event)

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for event in self.events:
            if event["type"] != "invoke":
                out[event["type"]] = out.get(event["type"], 0) + 1
        return out


def definitely_refused(error: Exception) -> bool:
    """Unavailable is answered before any Paxos round starts: the operation had no effect."""
    if isinstance(error, Unavailable):
        return True
    if isinstance(error, NoHostAvailable) and error.errors:
        return all(isinstance(e, Unavailable) for e in error.errors.values())
    return False


def is_connection_error(error: Exception) -> bool:
    return isinstance(error, NoHostAvailable) or "onnection" in type(error).__name__


# --- the clients ---------------------------------------------------------------------------------

class Clients:
    """Threads, each with a driver that sends to one node only: per node, CAS_CLIENTS_PER_NODE on
    the registers, one inserting unique ids, one writing at QUORUM. A thread whose operation ended
    indeterminate continues as a new process (the old one may still have a round in flight, and
    the checker allows one open operation per process)."""

    def __init__(self, cluster: RunningCluster, nodes: int, seed: int) -> None:
        self.cluster = cluster
        self.registers = History()  # CasRegister's
        self.ids = History()  # UniqueInsertSet's
        self.acknowledged_writes: list[tuple[int, int]] = []  # (writer, seq) at QUORUM
        self._stop = threading.Event()
        self._processes = iter(range(1_000_000))
        self._process_lock = threading.Lock()
        self._started = time.monotonic()
        self.errors: list[str] = []  # unexpected: a client bug or an error no LWT should give
        loops = [self._registers] * CAS_CLIENTS_PER_NODE + [self._unique_ids, self._quorum_writes]
        self._threads = [
            threading.Thread(target=self._run, name=f"{loop.__name__[1:]}-{i}-{j}", daemon=True,
                             args=(loop, i, random.Random(seed * 100 + i * 10 + j)))
            for i in range(1, nodes + 1) for j, loop in enumerate(loops)]

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)
            if t.is_alive():
                self.errors.append(f"{t.name} is stuck in a request")

    def _new_process(self) -> int:
        with self._process_lock:
            return next(self._processes)

    def _keys_now(self, at_once: int = KEYS_AT_ONCE) -> list[int]:
        generation = int((time.monotonic() - self._started) / KEY_SECONDS)
        return [generation * at_once + i for i in range(at_once)]

    def _run(self, loop: Callable, node: int, rng: random.Random) -> None:
        profile = ExecutionProfile(
            load_balancing_policy=WhiteListRoundRobinPolicy([address(node)]),
            request_timeout=20, consistency_level=ConsistencyLevel.QUORUM,
            serial_consistency_level=ConsistencyLevel.SERIAL)
        driver = Cluster([address(node)], port=self.cluster.native_port, protocol_version=4,
                         connect_timeout=10, control_connection_timeout=10,
                         execution_profiles={EXEC_PROFILE_DEFAULT: profile})
        try:
            session = driver.connect()
            loop(session, node, rng)
        except Exception as e:  # noqa: BLE001 - reported by the run
            self.errors.append(f"{threading.current_thread().name}: {type(e).__name__}: {e}")
        finally:
            driver.shutdown()

    def _perform(self, history: History, process: int, f: str, key: int, value,
                 execute: Callable[[], object]) -> int:
        """Records `execute`'s invocation and outcome; returns the process to go on with."""
        history.record(process, "invoke", f, key, value)
        try:
            outcome = execute()
        except Exception as e:  # noqa: BLE001 - every failure is recorded
            if definitely_refused(e):
                history.record(process, "fail", f, key, None, e)
            else:
                history.record(process, "info", f, key, None, e)
                process = self._new_process()
            if is_connection_error(e):
                time.sleep(0.5)  # the coordinator is down: do not spin
            return process
        history.record(process, "ok", f, key, outcome)
        return process

    def _registers(self, session, node: int, rng: random.Random) -> None:
        """The CAS register: SERIAL reads (now and then a scan), IF NOT EXISTS, IF v = old."""
        read = SimpleStatement(f"SELECT v FROM {KEYSPACE}.registers WHERE k = %s",
                               consistency_level=ConsistencyLevel.SERIAL)
        insert = session.prepare(
            f"INSERT INTO {KEYSPACE}.registers (k, v) VALUES (?, ?) IF NOT EXISTS")
        cas = session.prepare(f"UPDATE {KEYSPACE}.registers SET v = ? WHERE k = ? IF v = ?")
        scan = SimpleStatement(f"SELECT k, v FROM {KEYSPACE}.registers",
                               consistency_level=ConsistencyLevel.SERIAL, fetch_size=100)
        process = self._new_process()
        while not self._stop.is_set():
            if rng.random() < SCAN_SHARE:
                self._scan(session, scan)
                continue
            key = rng.choice(self._keys_now())
            choice = rng.random()
            if choice < 0.4:
                def execute(key=key):
                    row = session.execute(read, (key,)).one()
                    return row.v if row else None
                process = self._perform(self.registers, process, "read", key, None, execute)
            elif choice < 0.55:
                value = rng.randrange(VALUES)
                process = self._perform(
                    self.registers, process, "insert", key, value,
                    lambda key=key, value=value: [
                        value, bool(session.execute(insert, (key, value)).one()[0])])
            else:
                old, new = rng.randrange(VALUES), rng.randrange(VALUES)
                process = self._perform(
                    self.registers, process, "cas", key, [old, new],
                    lambda key=key, old=old, new=new: [
                        old, new, bool(session.execute(cas, (new, key, old)).one()[0])])

    def _scan(self, session, scan: SimpleStatement) -> None:
        """A SERIAL read of the whole table, recorded as a read of each register in use (absent:
        no row), each by a process of its own: they are open at once."""
        keys = self._keys_now()
        processes = {key: self._new_process() for key in keys}
        for key in keys:
            self.registers.record(processes[key], "invoke", "read", key, None)
        try:
            values = {row.k: row.v for row in session.execute(scan)}
        except Exception as e:  # noqa: BLE001 - a failed read constrains nothing
            for key in keys:
                self.registers.record(processes[key], "info", "read", key, None, e)
            if is_connection_error(e):
                time.sleep(0.5)
            return
        for key in keys:
            self.registers.record(processes[key], "ok", "read", key, values.get(key))

    def _unique_ids(self, session, node: int, rng: random.Random) -> None:
        """Ids claimed with IF NOT EXISTS by every node's thread at once: each must be won once."""
        claim = session.prepare(
            f"INSERT INTO {KEYSPACE}.ids (id, owner) VALUES (?, ?) IF NOT EXISTS")
        read = SimpleStatement(f"SELECT owner FROM {KEYSPACE}.ids WHERE id = %s",
                               consistency_level=ConsistencyLevel.SERIAL)
        process = self._new_process()
        while not self._stop.is_set():
            key = rng.choice(self._keys_now(IDS_AT_ONCE))
            if rng.random() < 0.3:
                process = self._perform(
                    self.ids, process, "read", key, None,
                    lambda key=key: session.execute(read, (key,)).one() is not None)
            else:
                process = self._perform(
                    self.ids, process, "insert", key, node,
                    lambda key=key: bool(session.execute(claim, (key, node)).one()[0]))

    def _quorum_writes(self, session, node: int, rng: random.Random) -> None:
        """Plain QUORUM inserts, each of a row of its own: every acknowledged one must survive."""
        write = session.prepare(f"INSERT INTO {KEYSPACE}.writes (writer, seq) VALUES (?, ?)")
        seq = 0
        while not self._stop.is_set():
            seq += 1
            try:
                session.execute(write, (node, seq))
            except Exception as e:  # noqa: BLE001 - an unacknowledged write promises nothing
                if is_connection_error(e):
                    time.sleep(0.5)
                continue
            with self._process_lock:
                self.acknowledged_writes.append((node, seq))
            time.sleep(rng.uniform(0, 0.02))


# --- the nemesis ---------------------------------------------------------------------------------

@dataclass
class Nemesis:
    """Hurts one node at a time, drawn from the seed, and heals it before the next."""
    cluster: RunningCluster
    nodes: int
    faults: tuple[str, ...]
    rng: random.Random
    log: list[str] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    error: str | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="nemesis", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(120)

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.rng.uniform(*CALM_SECONDS)):
                fault = self.rng.choice(self.faults)
                victim = self.rng.randrange(1, self.nodes + 1)
                seconds = self.rng.uniform(*FAULT_SECONDS)
                self.log.append(f"{time.strftime('%H:%M:%S')} {fault} node {victim} "
                                f"for {seconds:.1f} s")
                inject, heal = self._fault(fault)
                inject(victim)
                try:
                    self._stop.wait(seconds)
                finally:
                    heal(victim)
        except Exception as e:  # noqa: BLE001 - reported by the run
            self.error = f"nemesis: {type(e).__name__}: {e}"

    def _fault(self, name: str) -> tuple[Callable[[int], None], Callable[[int], None]]:
        c = self.cluster
        if name == "kill":
            return c.kill_node, self._restart
        if name == "stop":
            return (lambda v: os.kill(c.pid(v), signal.SIGSTOP),
                    lambda v: os.kill(c.pid(v), signal.SIGCONT))
        if name == "partition":
            return self._cut, self._heal
        if name == "skew":
            return (lambda v: self._restart(v, skew=f"+{SKEW_SECONDS}s"),
                    lambda v: self._restart(v))
        raise ValueError(f"unknown fault {name!r}")

    def _restart(self, victim: int, skew: str | None = None) -> None:
        if self.cluster.alive(victim):
            self.cluster.kill_node(victim)
        wrapper: tuple[str, ...] = ()
        if skew is not None:
            # libfaketime: the node's clock runs `skew` away from everyone's.
            wrapper = ("faketime", "-f", skew)
        self.cluster.start_node(victim, wrapper=wrapper)
        self.cluster.wait_until_serving(victim)

    def _cut(self, victim: int) -> None:
        """One of the partitions, drawn from the seed, around `victim`: `isolated` (it alone
        against the majority), `bridge` (the others split in two halves that only it still
        joins) or `one-way` (the others' packets to it are dropped: it is heard, not reached).
        Only the storage port: client traffic and etcd are left alone."""
        others = [i for i in range(1, self.nodes + 1) if i != victim]
        shape = self.rng.choice(("isolated", "bridge", "one-way"))
        port = self.cluster.storage_port
        rules = []

        def drop(sources: list[int], destinations: list[int], one_way: bool = False) -> None:
            src = "{ " + ", ".join(address(i) for i in sources) + " }"
            dst = "{ " + ", ".join(address(i) for i in destinations) + " }"
            if one_way:
                rules.append(f"    ip saddr {src} ip daddr {dst} tcp dport {port} drop")
                return
            for a, b in ((src, dst), (dst, src)):
                for direction in ("dport", "sport"):
                    rules.append(f"    ip saddr {a} ip daddr {b} tcp {direction} {port} drop")

        if shape == "isolated":
            drop([victim], others)
        elif shape == "bridge":
            half = len(others) // 2
            drop(others[:half], others[half:])
        else:
            drop(others, [victim], one_way=True)
        self.log[-1] += f" ({shape})"
        ruleset = ("table inet sibyl_adversary {\n  chain input {\n"
                   "    type filter hook input priority 0; policy accept;\n"
                   + "\n".join(rules) + "\n  }\n}\n")
        subprocess.run(["nft", "-f", "-"], input=ruleset, text=True, check=True, timeout=30)

    def _heal(self, victim: int) -> None:
        subprocess.run(["nft", "delete", "table", "inet", "sibyl_adversary"], check=True,
                       timeout=30)


# --- a run ---------------------------------------------------------------------------------------

def unavailable_faults(faults: tuple[str, ...]) -> list[str]:
    """Why some of `faults` cannot be made here."""
    why = []
    if "partition" in faults:
        if os.geteuid() != 0:
            why.append("partition needs root (unshare -n, nft)")
        elif any(shutil.which(tool) is None for tool in ("unshare", "ip", "nft")):
            why.append("partition needs unshare, ip and nft")
        elif not os.environ.get(IN_NETNS_ENV):
            probe = subprocess.run(["unshare", "-n", "--", "sh", "-c",
                                    "ip link set lo up && nft list ruleset"],
                                   capture_output=True, text=True, timeout=30)
            if probe.returncode != 0:
                why.append(f"partition: no private network namespace: {probe.stderr.strip()}")
    if "skew" in faults:
        if shutil.which("faketime") is None:
            why.append("skew needs faketime (Debian package faketime)")
        elif os.environ.get("SIBYL_SANITIZED") == "1":
            # libfaketime's LD_PRELOAD would come before AddressSanitizer's runtime.
            why.append("skew cannot preload libfaketime into a sanitized build")
    return why


@dataclass
class RunResult:
    seed: int
    valid: bool | None
    summary: str
    directory: Path | None = None


def run(nodes: int, seconds: float, faults: tuple[str, ...], seed: int,
        directory: Path, paxos_variant: str = "v2") -> RunResult:
    """One adversary run in `directory`: the cluster's files, the histories (registers.jsonl,
    ids.jsonl) and the verdict (verdict.txt) go there."""
    rng = random.Random(seed)
    with running_cluster(nodes=nodes, parent=directory,
                         node_options=(("paxos_variant", paxos_variant),)) as cluster:
        with cluster.connect(address(1), only=True) as driver:
            session = driver.connect()
            session.execute(f"CREATE KEYSPACE IF NOT EXISTS {KEYSPACE} WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 3}")
            session.execute(f"CREATE TABLE IF NOT EXISTS {KEYSPACE}.registers "
                            "(k int PRIMARY KEY, v int)")
            session.execute(f"CREATE TABLE IF NOT EXISTS {KEYSPACE}.ids "
                            "(id int PRIMARY KEY, owner int)")
            session.execute(f"CREATE TABLE IF NOT EXISTS {KEYSPACE}.writes "
                            "(writer int, seq int, PRIMARY KEY (writer, seq))")
        clients = Clients(cluster, nodes, rng.randrange(2**31))
        nemesis = Nemesis(cluster, nodes, faults, random.Random(rng.randrange(2**31)))
        clients.start()
        if faults:
            nemesis.start()
        try:
            time.sleep(seconds)
        finally:
            nemesis.stop()
            clients.stop()
            for i in range(1, nodes + 1):  # nothing left frozen for `cluster stop`
                try:
                    os.kill(cluster.pid(i), signal.SIGCONT)
                except (OSError, ValueError):
                    pass
        decided_at_prepare = paxos_decided_at_prepare(cluster, nodes)
        lost, lost_problem = lost_writes(cluster, clients.acknowledged_writes)
    histories = {"registers": (clients.registers, CasRegister),
                 "ids": (clients.ids, UniqueInsertSet)}
    lines = [f"seed {seed}: {nodes} nodes, {seconds:.0f} s, faults {','.join(faults) or 'none'}, "
             f"paxos_variant {paxos_variant}",
             "nemesis:", *("  " + line for line in nemesis.log)]
    problems = clients.errors + ([nemesis.error] if nemesis.error else [])
    valid: bool | None = True
    for name, (history, model) in histories.items():
        with open(directory / f"{name}.jsonl", "w") as out:
            for event in history.events:
                out.write(json.dumps(event) + "\n")
        result = check(history.events, model)
        lines.append(f"{name} ({model.name}): {history.counts()}; linearizable: {result.verdict} "
                     f"({len(result.per_key)} keys, {result.ops_checked} ops, "
                     f"{result.steps} steps)")
        if result.counterexample is not None:
            described = result.counterexample.describe()
            if len(described) > 1000:  # the ops linearized before it can be thousands
                described = described[:1000] + " ... (all of it: linearizability.py <history>)"
            lines.append(f"counterexample on key {result.key}: {described}")
        if result.valid is False or (result.valid is None and valid):
            valid = result.valid
        if history.counts().get("ok", 0) == 0:
            problems.append(f"no {name} operation completed")
    # The variant under test ran: v2's fast path taken (counted since each node's last start),
    # v1's never.
    lines.append(f"Paxos attempts decided at the prepare (v2's fast path): {decided_at_prepare}")
    if (decided_at_prepare > 0) != (paxos_variant == "v2"):
        problems.append(f"{decided_at_prepare} attempts decided at the prepare on {paxos_variant}")
    lines.append(f"QUORUM writes: {len(clients.acknowledged_writes)} acknowledged, "
                 f"{len(lost)} lost" + (f": {sorted(lost)[:20]}" if lost else ""))
    if lost:
        valid = False
    if lost_problem:
        problems.append(lost_problem)
    if not clients.acknowledged_writes:
        problems.append("no QUORUM write was acknowledged")
    lines += [f"problem: {p}" for p in problems]
    if problems:
        valid = False
    lines.append(f"verdict: {dict([(True, 'valid'), (False, 'INVALID'), (None, 'unknown')])[valid]}")
    lines.append(f"histories and verdict: {directory}")
    (directory / "verdict.txt").write_text("\n".join(lines) + "\n")
    return RunResult(seed, valid, "\n".join(lines), directory)


def paxos_decided_at_prepare(cluster: RunningCluster, nodes: int) -> int:
    """sibyl_paxos_decided_at_prepare_total summed over the nodes that answer /metrics."""
    total = 0
    for i in range(1, nodes + 1):
        try:
            with urllib.request.urlopen(f"http://{address(i)}:{cluster.metrics_port}/metrics",
                                        timeout=5) as response:
                text = response.read().decode("utf-8")
        except OSError:
            continue  # down, or just restarted
        for line in text.splitlines():
            if line.startswith("sibyl_paxos_decided_at_prepare_total{"):
                total += int(float(line.rsplit(" ", 1)[1]))
    return total


def lost_writes(cluster: RunningCluster,
                acknowledged: list[tuple[int, int]]) -> tuple[set[tuple[int, int]], str | None]:
    """The acknowledged QUORUM writes an ALL read no longer finds, once every node answers again
    (a node just restarted may take a while)."""
    deadline = time.monotonic() + 90
    error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with cluster.connect(address(1)) as driver:
                rows = driver.connect().execute(SimpleStatement(
                    f"SELECT writer, seq FROM {KEYSPACE}.writes",
                    consistency_level=ConsistencyLevel.ALL, fetch_size=5000))
                found = {(row.writer, row.seq) for row in rows}
            return set(acknowledged) - found, None
        except Exception as e:  # noqa: BLE001 - nodes still coming back: try again
            error = e
            time.sleep(2)
    return set(), f"the final ALL read of the QUORUM writes kept failing: {error}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--faults", default="kill,stop,partition,skew",
                        help="comma-separated, of: " + ", ".join(FAULTS) + "; empty for none")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--paxos-variant", choices=("v1", "v2"), default="v2",
                        help="the nodes' paxos_variant (default: v2)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="put the cluster and the history here, and keep them")
    args = parser.parse_args(argv)
    faults = tuple(f for f in args.faults.split(",") if f)
    for f in faults:
        if f not in FAULTS:
            parser.error(f"unknown fault {f!r}")
    why = unavailable_faults(faults)
    if why:
        print("cannot run: " + "; ".join(why), file=sys.stderr)
        return 3
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if "partition" in faults and not os.environ.get(IN_NETNS_ENV):
        # Again, in a network namespace of its own, where nft touches nothing else.
        command = ["unshare", "-n", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh",
                   sys.executable, str(Path(__file__).resolve()), "--nodes", str(args.nodes),
                   "--seconds", str(args.seconds), "--faults", args.faults,
                   "--seed", str(seed), "--paxos-variant", args.paxos_variant]
        if args.keep:
            command += ["--keep", str(args.keep.resolve())]
        return subprocess.run(command, env=dict(os.environ, **{IN_NETNS_ENV: "1"})).returncode
    print(f"SIBYL_ADVERSARY_SEED={seed}", flush=True)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        result = run(args.nodes, args.seconds, faults, seed, args.keep, args.paxos_variant)
    else:
        with tempfile.TemporaryDirectory(prefix="sibyl-adversary-") as tmp:
            result = run(args.nodes, args.seconds, faults, seed, Path(tmp), args.paxos_variant)
    print(result.summary)
    return {True: 0, False: 1, None: 2}[result.valid]


if __name__ == "__main__":
    sys.exit(main())
