"""Real processes, real faults: QUORUM's promises while a replica is frozen,
killed or cut off (issue 15, item 7).

Each scenario runs `sibyl cluster start` (etcd and nodes on 127.0.0.1..N),
keeps two writer and two reader threads busy at QUORUM (replication factor 3)
through coordinators that stay healthy (and a third writer through the
victim itself, whose writes the fault leaves undecided), hurts one replica
(the victim, drawn from the seed), heals it, and then checks
(quorum_checker.py):

- every QUORUM read (of a single partition, or now and then of the whole
  table: a range scan across the ring) saw every QUORUM write acknowledged
  before it began, every value an earlier QUORUM read returned, and nothing
  never written;
- no acknowledged write is lost (a final read at ALL);
- hints: what was written while the victim was out reaches it. Half the keys
  are in a table nothing reads during the run ("unobserved"), so nothing but
  the writes themselves and hint replay can bring them to the victim, which
  is asked alone at ONE (a replica reads itself first; the tables have
  speculative_retry = 'NONE' so no other replica answers for it);
- convergence: after the final ALL read (blocking read repair) every node,
  asked alone at ONE, holds exactly what that read returned.

Scenarios (CI runs these; this file takes about 80 s, the partitions
another 50 s):

- SIGSTOP of a replica, then SIGCONT;
- kill -9 of a replica, then a restart on the same data; and the same with
  the restart quick enough that the others never see the replica down;
- a network partition, both ways and one way: in test_cluster_partitions.py,
  which runs these scenarios inside a private network namespace (a file of
  its own, so that pytest-xdist's workers run it beside this one);
- read repair alone: with hinted handoff off on the coordinator
  (`--hinted-handoff-enabled false`), a write at ONE while the victim is
  frozen and convicted leaves it stale; an ALL read (through a healthy node)
  and a QUORUM read (through the victim itself) must repair it before they
  answer;
- the checker itself, on hand-made histories.

SIBYL_LONG_FAULT_TESTS=1 adds a longer run (about 90 s) on five nodes where
a nemesis freezes and kills random nodes one after the other (and, in
test_cluster_partitions.py, the partition on five nodes).

Random choices (victim, keys, timings) come from one seed: SIBYL_FAULT_SEED,
else a fresh one. It is printed at the start of each test and in every
failure message; run again with SIBYL_FAULT_SEED=<seed> to replay the same
choices (timings on a real machine still differ).
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import struct
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

import pytest
from cassandra import ConsistencyLevel, ReadTimeout, Unavailable
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile, NoHostAvailable
from cassandra.policies import WhiteListRoundRobinPolicy
from cassandra.query import SimpleStatement

from cluster_process import RunningCluster, running_cluster
from quorum_checker import History, Read, Write, lost_writes, read_violations, report

SEED = int(os.environ.get("SIBYL_FAULT_SEED") or random.SystemRandom().randrange(2**31))
LONG = os.environ.get("SIBYL_LONG_FAULT_TESTS") == "1"
long_test = pytest.mark.skipif(not LONG, reason="set SIBYL_LONG_FAULT_TESTS=1 to run")
# The sanitizer build's run (scripts/test.sh asan-python) keeps to a freeze
# and a partition: the other scenarios take the same code paths, and CI's
# time is bounded.
not_sanitized = pytest.mark.skipif(
    os.environ.get("SIBYL_SANITIZED") == "1",
    reason="covered by the other fault scenarios in the sanitizer build's run")

KEYSPACE = "faults"
# The failure detector convicts a silent node after 5 s. A fault then lasts
# longer than the read timeout (5 s), so that the reads sent to the victim
# just before a coordinator convicted it have failed, and later ones had
# time to answer without it (coordinators convict up to ~1 s apart).
CONVICTED_SECONDS = (7.5, 9.5)
SHORT_FAULT_SECONDS = (1.5, 3.5)  # healed before the failure detector convicts
HINT_DELIVERY_TIMEOUT_S = 60.0  # hint rounds run every 10 s


# --- sessions ---------------------------------------------------------------

def address(i: int) -> str:
    return f"127.0.0.{i}"


@contextmanager
def session_on(cluster: RunningCluster, nodes: list[int]) -> Iterator:
    """A session whose queries go only to `nodes` (round robin)."""
    addresses = [address(i) for i in nodes]
    profile = ExecutionProfile(load_balancing_policy=WhiteListRoundRobinPolicy(addresses),
                               request_timeout=15)
    driver = Cluster(addresses, port=cluster.native_port, protocol_version=4,
                     connect_timeout=10, control_connection_timeout=10,
                     execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    try:
        yield driver.connect()
    finally:
        driver.shutdown()


def create_history_table(cluster: RunningCluster, table: str) -> None:
    """The table a workload writes: rows (k, v) and the register `latest`."""
    with session_on(cluster, [1]) as session:
        session.execute(f"CREATE KEYSPACE IF NOT EXISTS {KEYSPACE} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        session.execute(f"CREATE TABLE {KEYSPACE}.{table} (k int, v int, latest int static, "
                        "PRIMARY KEY (k, v)) WITH speculative_retry = 'NONE'")


def read_key(session, table: str, key: int, level: int) -> Read:
    started = time.monotonic()
    rows = list(session.execute(SimpleStatement(
        f"SELECT v, latest FROM {KEYSPACE}.{table} WHERE k = %s", consistency_level=level),
        (key,)))
    finished = time.monotonic()
    return Read(key, started, finished, frozenset(r.v for r in rows if r.v is not None),
                rows[0].latest if rows else None)


def scan_table(session, table: str, keys: list[int], level: int) -> list[Read]:
    """One read of the whole table (a range scan), as a Read of each of
    `keys` (empty when the scan had no row of it), all with the scan's
    times: a page fetched later only makes the check stricter."""
    started = time.monotonic()
    rows = list(session.execute(SimpleStatement(
        f"SELECT k, v, latest FROM {KEYSPACE}.{table}", consistency_level=level)))
    finished = time.monotonic()
    values: dict[int, set[int]] = {k: set() for k in keys}
    latest: dict[int, int | None] = {k: None for k in keys}
    for row in rows:
        values.setdefault(row.k, set())
        if row.v is not None:
            values[row.k].add(row.v)
        latest[row.k] = row.latest
    return [Read(k, started, finished, frozenset(values[k]), latest.get(k)) for k in values]


@dataclass(frozen=True)
class HistoryTables:
    """A scenario's two tables: `read` holds the keys the readers read,
    `unread` the keys nothing reads until the end (see QuorumWorkload)."""
    read: str
    unread: str
    unread_keys: frozenset[int]

    def of(self, key: int) -> str:
        return self.unread if key in self.unread_keys else self.read


def read_until_answered(session, table: str, key: int, level: int, timeout_s: float) -> Read:
    """Reads `key` at `level`, again while the cluster answers Unavailable or
    a timeout (a node just back is not yet seen alive everywhere)."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            return read_key(session, table, key, level)
        except (NoHostAvailable, ReadTimeout, Unavailable):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


def replica_contents(cluster: RunningCluster, node: int, table: str | HistoryTables,
                     keys: list[int]) -> dict[int, Read]:
    """What `node` itself holds for `keys` (in `table`, or in the one of
    HistoryTables a key is in): asked alone at ONE, it reads its own replica
    (local first, no speculative retry)."""
    table_of = table.of if isinstance(table, HistoryTables) else (lambda key: table)
    with session_on(cluster, [node]) as session:
        return {k: read_until_answered(session, table_of(k), k, ConsistencyLevel.ONE, 30)
                for k in keys}


def replicated_by(session, node: int, keys: list[int]) -> list[int]:
    """The keys of which `node` is a replica, by the driver's token map (all
    of them with three nodes and RF 3)."""
    metadata = session.cluster.metadata
    return [k for k in keys
            if any(host.address == address(node)
                   for host in metadata.get_replicas(KEYSPACE, struct.pack(">i", k)))]


def probe_key(session, victim: int) -> int:
    """A key (outside the workload's) of which the victim is a replica, by
    the driver's token map: ALL reads of it tell whether the coordinator
    counts the victim alive."""
    metadata = session.cluster.metadata
    for key in range(100_000, 100_500):
        replicas = metadata.get_replicas(KEYSPACE, struct.pack(">i", key))
        if any(host.address == address(victim) for host in replicas):
            return key
    pytest.fail(f"no key has node {victim} among its replicas in the driver's token map")


def sees_down(session, table: str, probe: int) -> bool:
    """True once the coordinator refuses an ALL read of `probe` up front
    (Unavailable): its failure detector convicted a replica."""
    try:
        read_key(session, table, probe, ConsistencyLevel.ALL)
    except NoHostAvailable as e:
        return any(isinstance(err, Unavailable) for err in e.errors.values())
    except Unavailable:
        return True
    except ReadTimeout:  # not convicted yet: the coordinator waited for it
        return False
    return False


def sees_all_up(session, table: str, probe: int) -> bool:
    try:
        read_key(session, table, probe, ConsistencyLevel.ALL)
        return True
    except (NoHostAvailable, ReadTimeout, Unavailable):
        return False


def log_excerpt(cluster: RunningCluster, nodes: int, lines: int = 12) -> str:
    """For failure messages: whether each node's process lives, the last
    warnings, errors and UP/DOWN lines of its logs, and their last lines
    (a crash leaves its backtrace there)."""
    out = []
    for i in range(1, nodes + 1):
        try:
            pid = cluster.pid(i)
            state = f"pid {pid} " + ("alive" if process_alive(pid) else "gone")
        except (OSError, ValueError):
            state = "no pid file"
        out.append(f"--- node{i}: {state}")
        for name in ("sibyl.log", "sibyl-test.log"):
            path = cluster.node_dir(i) / name
            if not path.exists():
                continue
            all_lines = path.read_text(errors="replace").splitlines()
            picked = [line for line in all_lines
                      if line.startswith(("warn", "error", "critical")) or "DOWN" in line
                      or "UP" in line]
            out.append(f"--- node{i}/{name}, selected:\n" + "\n".join(picked[-lines:]) +
                       f"\n--- node{i}/{name}, last lines:\n" + "\n".join(all_lines[-5:]))
    return "\n".join(out)


def process_alive(pid: int) -> bool:
    """Running, and not a zombie."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def wait_until(condition: Callable[[], object], timeout_s: float, what: Callable[[], str]) -> None:
    """cluster_process.wait_for, but the failure message (with the nodes'
    logs) is made when it fails, not before the wait."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what()}")
        time.sleep(0.25)


# --- the workload -------------------------------------------------------------

class QuorumWorkload:
    """Writer and reader threads at QUORUM, recording a History.

    Each writer owns a share of the keys, so each key's writes are
    sequential: its values and the driver's client timestamps increase
    together, and the newest write holds the largest value. Values come from
    one counter: every (key, value) pair is unique. The unobserved keys live
    in a table of their own that nothing reads during the run, so they are
    never read-repaired: the victim can get them only from the writes
    themselves or from hints. The readers read single partitions of the
    observed table, and now and then the whole table (a range scan across
    the ring, which also repairs what differs)."""

    RANGE_SCAN_SHARE = 0.15

    def __init__(self, session, tables: "HistoryTables", observed: list[int],
                 unobserved: list[int], seed: int, writers: int = 2, readers: int = 2,
                 victim_writer: tuple[object, list[int]] | None = None):
        """`victim_writer`: a session to the victim alone and keys (read too)
        that one more writer writes through it: writes a failing coordinator
        leaves undecided, which reads may see or not, but, once seen, always."""
        self.session = session
        self.tables = tables
        self.observed = observed + (victim_writer[1] if victim_writer else [])
        self.history = History()
        self._stop = threading.Event()
        self._values = itertools.count(1)
        self._values_lock = threading.Lock()
        keys = observed + unobserved
        self._threads = [
            threading.Thread(target=self._write_loop, name=f"writer{i}", daemon=True,
                             args=(session, keys[i::writers], random.Random(seed * 16 + i)))
            for i in range(writers)] + [
            threading.Thread(target=self._write_loop, name="victim-writer", daemon=True,
                             args=(victim_writer[0], victim_writer[1],
                                   random.Random(seed * 16 + 7)))
            for _ in ([victim_writer] if victim_writer else [])] + [
            threading.Thread(target=self._read_loop, name=f"reader{i}", daemon=True,
                             args=(random.Random(seed * 16 + 8 + i),))
            for i in range(readers)]

    def start(self) -> None:
        for t in self._threads:
            t.start()

    def stop(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(60)
            assert not t.is_alive(), f"the {t.name} thread is stuck in a request"

    def _next_value(self) -> int:
        with self._values_lock:
            return next(self._values)

    def _write_loop(self, session, keys: list[int], rng: random.Random) -> None:
        inserts = {}
        for table in (self.tables.read, self.tables.unread):
            inserts[table] = session.prepare(
                f"INSERT INTO {KEYSPACE}.{table} (k, v, latest) VALUES (?, ?, ?)")
            inserts[table].consistency_level = ConsistencyLevel.QUORUM
        while not self._stop.is_set():
            value = self._next_value()
            key = rng.choice(keys)
            started = time.monotonic()
            try:
                session.execute(inserts[self.tables.of(key)], (key, value, value))
                self.history.record_write(Write(key, value, started, time.monotonic(), True))
            except Exception as e:  # noqa: BLE001 - any failure leaves the write undecided
                self.history.record_write(Write(key, value, started, time.monotonic(), False,
                                                f"{type(e).__name__}: {e}"))
            time.sleep(0.01)

    def _read_loop(self, rng: random.Random) -> None:
        while not self._stop.is_set():
            try:
                if rng.random() < self.RANGE_SCAN_SHARE:
                    for read in scan_table(self.session, self.tables.read, self.observed,
                                           ConsistencyLevel.QUORUM):
                        self.history.record_read(read)
                else:
                    self.history.record_read(read_key(
                        self.session, self.tables.read, rng.choice(self.observed),
                        ConsistencyLevel.QUORUM))
            except Exception as e:  # noqa: BLE001 - a failed read promises nothing
                self.history.record_failed_read(time.monotonic(), f"{type(e).__name__}: {e}")
            time.sleep(0.01)


# --- faults ---------------------------------------------------------------------

@dataclass
class Fault:
    """How to hurt the victim and how to heal it. A fault `convicted` lasts
    until the coordinators see the victim down, and then some; a short one
    is healed before the failure detector notices (the coordinators then
    time out on the victim, and hint what it missed)."""
    name: str
    inject: Callable[[int], None]
    heal: Callable[[int], None]
    convicted: bool = True
    seconds: tuple[float, float] = SHORT_FAULT_SECONDS  # how long, when not convicted


def freeze(cluster: RunningCluster, convicted: bool = True) -> Fault:
    return Fault("SIGSTOP" if convicted else "short SIGSTOP",
                 lambda victim: os.kill(cluster.pid(victim), signal.SIGSTOP),
                 lambda victim: os.kill(cluster.pid(victim), signal.SIGCONT), convicted)


def kill_and_restart(cluster: RunningCluster, convicted: bool = True) -> Fault:
    def restart(victim: int) -> None:
        cluster.start_node(victim)
        cluster.wait_until_serving(victim)
    return Fault("kill -9" if convicted else "kill -9 and a quick restart",
                 cluster.kill_node, restart, convicted)


@contextmanager
def resumed_at_the_end(cluster: RunningCluster, nodes: int) -> Iterator[None]:
    """SIGCONT to every node when the test ends, so that a failed test leaves
    no frozen process for `sibyl cluster stop` to wait on."""
    try:
        yield
    finally:
        for i in range(1, nodes + 1):
            try:
                os.kill(cluster.pid(i), signal.SIGCONT)
            except (OSError, ValueError):
                pass


# --- one scenario -----------------------------------------------------------------

def run_scenario(cluster: RunningCluster, nodes: int, table: str, fault: Fault,
                 seed: int, victim: int | None = None) -> None:
    """Writes and reads at QUORUM through the nodes other than the victim,
    hurts the victim, heals it, then checks the history, hint delivery and
    convergence. Fails with the seed and the nodes' log excerpts."""
    rng = random.Random(seed)
    victim = victim or rng.randint(1, nodes)
    coordinators = [i for i in range(1, nodes + 1) if i != victim]
    keys = rng.sample(range(1, 1000), 28)
    observed, unobserved, through_victim = keys[:12], keys[12:24], keys[24:]
    print(f"seed {seed}: {fault.name} of node {victim}, coordinators {coordinators}")

    def context() -> str:
        return (f"seed {seed}, {fault.name} of node {victim} ({address(victim)})\n"
                f"logs:\n{log_excerpt(cluster, nodes)}")

    tables = HistoryTables(table, f"{table}_unread", frozenset(unobserved))
    create_history_table(cluster, tables.read)
    create_history_table(cluster, tables.unread)
    with session_on(cluster, coordinators) as session, session_on(cluster, [victim]) as direct, \
            resumed_at_the_end(cluster, nodes):
        probe = probe_key(session, victim)
        # Where the victim's own copy can be asked for (ONE, locally).
        hinted_keys = replicated_by(session, victim, unobserved)
        workload = QuorumWorkload(session, tables, observed, unobserved, seed,
                                  victim_writer=(direct, through_victim))
        workload.start()
        try:
            time.sleep(rng.uniform(1.0, 2.0))
            injected = time.monotonic()
            convicted = injected
            fault.inject(victim)
            if fault.convicted:
                # Until the coordinators convict the victim, its share of every
                # request times out; then it is left out.
                wait_until(lambda: sees_down(session, table, probe), 30,
                           lambda: f"the coordinators to see node {victim} down ({context()})")
                convicted = time.monotonic()
                time.sleep(rng.uniform(*CONVICTED_SECONDS))
            else:
                time.sleep(rng.uniform(*fault.seconds))
            healed = time.monotonic()
            fault.heal(victim)
            time.sleep(3.0)
        finally:
            workload.stop()
        history = workload.history
        print(history.summary())

        during = [w for w in history.writes if injected < w.started and w.finished < healed]
        assert any(w.acknowledged for w in during), (
            f"no QUORUM write succeeded while one replica was out:\n"
            f"{[w.error for w in during][:5]}\n{context()}")
        # Reads need the victim convicted: before, a coordinator that asks
        # it waits out the read timeout, and both readers may be stuck so.
        assert not fault.convicted or any(
            convicted < r.started and r.finished < healed for r in history.reads), (
            f"no QUORUM read answered while one replica was out and convicted "
            f"(injected {injected:.3f}, convicted {convicted:.3f}, healed {healed:.3f}); "
            f"reads that ended after the conviction: "
            f"{[(r.key, round(r.started, 3), round(r.finished, 3)) for r in history.reads if r.finished > convicted][:8]}; "
            f"failed reads: {history.failed_reads[:5]}\n{context()}")

        violations = read_violations(history)
        assert not violations, f"QUORUM reads broke their promise: {report(violations)}\n{context()}"

        # Hints: the victim gets what it missed, although nothing read those keys.
        acked = history.acknowledged_values()
        assert any(acked.get(k) for k in hinted_keys), (
            f"no acknowledged write to check hints with: keys {hinted_keys}\n{context()}")
        missing_on_victim: dict[int, set[int]] = {}

        def victim_has_unobserved_writes() -> bool:
            held = replica_contents(cluster, victim, tables.unread, hinted_keys)
            missing_on_victim.clear()
            missing_on_victim.update({k: acked.get(k, set()) - held[k].values
                                      for k in hinted_keys if acked.get(k, set()) - held[k].values})
            return not missing_on_victim

        deadline = time.monotonic() + HINT_DELIVERY_TIMEOUT_S
        while not victim_has_unobserved_writes():
            assert time.monotonic() < deadline, (
                f"node {victim} did not get the writes it missed (hints) within "
                f"{HINT_DELIVERY_TIMEOUT_S:.0f} s; missing per key: {missing_on_victim}\n"
                f"{context()}")
            time.sleep(1.0)

        # No acknowledged write lost, and the replicas converge.
        wait_until(lambda: sees_all_up(session, table, probe), 30,
                   lambda: f"the coordinators to see every node up ({context()})")
        final = {k: read_until_answered(session, tables.of(k), k, ConsistencyLevel.ALL, 30)
                 for k in keys}
    lost = lost_writes(history, final)
    assert not lost, f"acknowledged writes lost: {report(lost)}\n{context()}"
    for node in range(1, nodes + 1):
        held = replica_contents(cluster, node, tables, keys)
        diverged = [f"key {k}: node has {sorted(held[k].values)} latest={held[k].latest}, "
                    f"ALL read {sorted(final[k].values)} latest={final[k].latest}"
                    for k in keys if (held[k].values, held[k].latest) !=
                    (final[k].values, final[k].latest)]
        assert not diverged, (f"node {node} differs from the ALL read that repaired it: "
                              f"{report(diverged)}\n{context()}")


# --- scenarios on a shared three-node cluster ----------------------------------

@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        yield running


def test_a_frozen_replica_loses_nothing_and_gets_its_hints(cluster: RunningCluster) -> None:
    print(f"SIBYL_FAULT_SEED={SEED}")
    run_scenario(cluster, 3, "frozen", freeze(cluster), SEED)


@not_sanitized
def test_a_killed_replica_loses_nothing_and_gets_its_hints_after_restart(
        cluster: RunningCluster) -> None:
    print(f"SIBYL_FAULT_SEED={SEED}")
    run_scenario(cluster, 3, "killed", kill_and_restart(cluster), SEED + 1)


@not_sanitized
def test_a_replica_restarted_before_it_is_seen_down_loses_nothing(
        cluster: RunningCluster) -> None:
    """Killed and back within the failure detector's 5 s: the coordinators
    never convict it, so what it missed is hinted after write timeouts and
    over connections to a process that is no longer there."""
    print(f"SIBYL_FAULT_SEED={SEED}")
    run_scenario(cluster, 3, "restarted", kill_and_restart(cluster, convicted=False), SEED + 5)


# --- read repair ---------------------------------------------------------------------

# After the second writes: row 2 and the register at 2; row 1 deleted.
REPAIRED = (frozenset({2}), 2)


@not_sanitized
def test_read_repair_brings_a_stale_replica_up_to_date() -> None:
    """Hinted handoff off on the only coordinator: a replica that missed
    writes (a new row, a newer register value, a row's tombstone) stays
    stale until a read repairs it, and a blocking read repair finishes
    before the read answers."""
    print(f"SIBYL_FAULT_SEED={SEED}")
    rng = random.Random(SEED + 3)
    victim, coordinator = rng.sample([1, 2, 3], 2)
    third = 6 - victim - coordinator
    keys = rng.sample(range(1, 1000), 8)
    table = "repaired"
    with running_cluster() as cluster, resumed_at_the_end(cluster, 3):
        def context() -> str:
            return (f"seed {SEED}: victim node {victim}, coordinator node {coordinator}\n"
                    f"logs:\n{log_excerpt(cluster, 3)}")

        create_history_table(cluster, table)
        # The coordinator again, without hints.
        old = cluster.pid(coordinator)
        os.kill(old, signal.SIGTERM)
        wait_until(lambda: not Path(f"/proc/{old}").exists(), 30, lambda: "the coordinator to stop")
        cluster.start_node(coordinator, ("--hinted-handoff-enabled", "false"))
        cluster.wait_until_serving(coordinator)

        with session_on(cluster, [coordinator]) as session:
            wait_until(lambda: sees_all_up(session, table, 0), 30,
                       lambda: f"every node up ({context()})")
            first = session.prepare(f"INSERT INTO {KEYSPACE}.{table} (k, v, latest) VALUES (?, ?, ?)")
            first.consistency_level = ConsistencyLevel.ALL
            for k in keys:
                session.execute(first, (k, 1, 1))
            os.kill(cluster.pid(victim), signal.SIGSTOP)
            wait_until(lambda: sees_down(session, table, 0), 30,
                       lambda: f"node {coordinator} to see node {victim} down ({context()})")
            # A new row and register value, and a tombstone for the old row.
            second = session.prepare(f"INSERT INTO {KEYSPACE}.{table} (k, v, latest) VALUES (?, ?, ?)")
            second.consistency_level = ConsistencyLevel.ONE
            delete = session.prepare(f"DELETE FROM {KEYSPACE}.{table} WHERE k = ? AND v = 1")
            delete.consistency_level = ConsistencyLevel.ONE
            for k in keys:
                session.execute(second, (k, 2, 2))
                session.execute(delete, (k,))
            wait_until(lambda: all((r.values, r.latest) == REPAIRED for r in
                                   replica_contents(cluster, third, table, keys).values()),
                       30, lambda: f"node {third} to get the second writes ({context()})")
            os.kill(cluster.pid(victim), signal.SIGCONT)
            wait_until(lambda: sees_all_up(session, table, 0), 30,
                       lambda: f"node {coordinator} to see node {victim} up ({context()})")

        stale = replica_contents(cluster, victim, table, keys)
        assert all((r.values, r.latest) == (frozenset({1}), 1) for r in stale.values()), (
            f"node {victim} got the writes made while it was down although the coordinator "
            f"keeps no hints: {stale}\n{context()}")

        # Half the keys repaired by an ALL read through the coordinator, half
        # by a QUORUM read through the victim (which asks itself first).
        repaired_at_all, repaired_at_quorum = keys[:4], keys[4:]
        with session_on(cluster, [coordinator]) as session:
            for k in repaired_at_all:
                got = read_key(session, table, k, ConsistencyLevel.ALL)
                assert (got.values, got.latest) == REPAIRED, f"{got}\n{context()}"
        with session_on(cluster, [victim]) as session:
            for k in repaired_at_quorum:
                got = read_key(session, table, k, ConsistencyLevel.QUORUM)
                assert (got.values, got.latest) == REPAIRED, f"{got}\n{context()}"
        # Blocking read repair: done before those reads answered, so no wait here.
        for node in (victim, coordinator, third):
            held = replica_contents(cluster, node, table, keys)
            wrong = {k: (sorted(r.values), r.latest) for k, r in held.items()
                     if (r.values, r.latest) != REPAIRED}
            assert not wrong, f"node {node} not repaired: {wrong}\n{context()}"


# --- longer runs (SIBYL_LONG_FAULT_TESTS=1) ------------------------------------------------

@long_test
def test_five_nodes_under_a_nemesis_of_freezes_and_kills() -> None:
    """Five nodes, RF 3: four faults in a row, each on a random node, each a
    freeze or a kill, convicted or healed before; every fault is checked as
    a scenario of its own."""
    rng = random.Random(SEED + 4)
    print(f"SIBYL_FAULT_SEED={SEED}")
    with running_cluster(nodes=5) as cluster:
        for round_number in range(4):
            fault = rng.choice([freeze(cluster), kill_and_restart(cluster),
                                freeze(cluster, convicted=False),
                                kill_and_restart(cluster, convicted=False)])
            run_scenario(cluster, 5, f"nemesis{round_number}", fault, rng.randrange(2**31))


# --- the checker itself ----------------------------------------------------------

def test_the_checker_accepts_a_consistent_history_and_flags_each_kind_of_violation() -> None:
    """The cluster tests are only as good as the checker: each rule must fire
    on a history that breaks it, and stay quiet on one that keeps it."""
    good = History()
    good.record_write(Write(1, 1, 0.0, 1.0, True))
    good.record_write(Write(1, 2, 2.0, 3.0, False, "WriteTimeout"))  # undecided
    good.record_write(Write(1, 3, 4.0, 5.0, True))
    good.record_read(Read(1, 0.5, 0.9, frozenset(), None))          # before any ack
    good.record_read(Read(1, 1.5, 1.6, frozenset({1}), 1))
    good.record_read(Read(1, 2.5, 2.6, frozenset({1, 2}), 2))       # the undecided one landed
    good.record_read(Read(1, 4.5, 5.5, frozenset({1, 2, 3}), 3))    # concurrent with 3
    assert read_violations(good) == []
    assert lost_writes(good, {1: Read(1, 6.0, 6.1, frozenset({1, 2, 3}), 3)}) == []

    def violations_with(read: Read) -> list[str]:
        history = History(writes=list(good.writes), reads=[read])
        return read_violations(history)

    (stale,) = violations_with(Read(1, 5.5, 5.6, frozenset({1, 2}), 2))[:1]
    assert stale.startswith("stale read of key 1") and "missing [3]" in stale
    assert any(v.startswith("register of key 1 behind")
               for v in violations_with(Read(1, 5.5, 5.6, frozenset({1, 3}), 1)))
    assert any("never written" in v for v in violations_with(Read(1, 1.5, 1.6, frozenset({1, 2}), 2)))
    assert any("never written" in v for v in violations_with(Read(1, 1.5, 1.6, frozenset({1, 9}), 9)))
    assert any("register latest=1 but the largest row is 3" in v
               for v in violations_with(Read(1, 5.5, 5.6, frozenset({1, 3}), 1)))
    # The undecided write 2, once read, must be read by every later read.
    after_seen = History(writes=list(good.writes), reads=[
        Read(1, 2.5, 2.6, frozenset({1, 2}), 2), Read(1, 2.7, 2.8, frozenset({1}), 1)])
    assert [v for v in read_violations(after_seen) if v.startswith("non-monotonic")] == [
        "non-monotonic reads of key 1: a read that ended at 2.600 returned [2], the read that "
        "began at 2.700 (ended 2.800) did not"]
    overlapping = History(writes=list(good.writes), reads=[
        Read(1, 2.5, 2.75, frozenset({1, 2}), 2), Read(1, 2.7, 2.8, frozenset({1}), 1)])
    assert read_violations(overlapping) == []
    assert lost_writes(good, {1: Read(1, 6.0, 6.1, frozenset({1}), 1)}) == [
        "key 1: acknowledged values [3] are lost"]
    assert lost_writes(good, {}) == ["key 1: acknowledged values [1, 3] are lost"]
