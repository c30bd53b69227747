"""Secondary indexes on a three-node cluster through the Python driver.

An index is local to each replica (src/index/): a query through it reads
every ring range from the replicas the consistency level needs, each
replica answering from its own index. Checked here: the answers of every
consistency level and page size equal a filtered scan; indexes built on
every node for data written before CREATE INDEX; an index read at ALL whose
replicas disagree returns the newest version of each row (replica filtering
protection), and read repair leaves the stale replica's index exact."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest
from cassandra import ConsistencyLevel, ReadTimeout, Unavailable
from cassandra.cluster import NoHostAvailable
from cassandra.query import SimpleStatement

from cluster_process import RunningCluster, running_cluster

LEVELS = (ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL)


def wait_until(condition: Callable[[], object], timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(0.25)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        yield running


def at(level: int, cql: str, fetch_size: int | None = None) -> SimpleStatement:
    return SimpleStatement(cql, consistency_level=level, fetch_size=fetch_size)


@pytest.mark.parametrize("rf", [1, 3])
def test_index_reads_span_the_ring_at_every_level_and_page_size(cluster: RunningCluster,
                                                                rf: int) -> None:
    keyspace = f"spread{rf}"
    with cluster.connect() as c:
        session = c.connect()
        session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                        f"{{'class': 'SimpleStrategy', 'replication_factor': {rf}}}")
        session.execute(f"CREATE TABLE {keyspace}.t (k int, c int, v int, tags set<text>, "
                        "PRIMARY KEY (k, c))")
        session.execute(f"CREATE INDEX ON {keyspace}.t (v)")
        session.execute(f"CREATE INDEX ON {keyspace}.t (tags)")
        insert = session.prepare(f"INSERT INTO {keyspace}.t (k, c, v, tags) VALUES (?, ?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.ALL
        for k in range(50):
            for row in range(3):
                session.execute(insert, (k, row, (k + row) % 5, {f"t{k % 4}", "all"}))
        everything = list(session.execute(at(ConsistencyLevel.ALL,
                                              f"SELECT k, c, v, tags FROM {keyspace}.t")))
        assert len(everything) == 150
        wanted = [(r.k, r.c) for r in everything if r.v == 3]
        tagged = [(r.k, r.c) for r in everything if "t1" in r.tags]
        for level in LEVELS:
            for fetch_size in (None, 1, 2, 7, 100):
                got = [(r.k, r.c) for r in session.execute(at(
                    level, f"SELECT k, c FROM {keyspace}.t WHERE v = 3", fetch_size))]
                assert got == wanted, (level, fetch_size)
            got = [(r.k, r.c) for r in session.execute(at(
                level, f"SELECT k, c FROM {keyspace}.t WHERE tags CONTAINS 't1'", 3))]
            assert got == tagged, level
            count = session.execute(at(level, f"SELECT count(*) FROM {keyspace}.t WHERE v = 3"))
            assert count.one().count == len(wanted)


def test_every_node_builds_an_index_created_on_existing_data(cluster: RunningCluster) -> None:
    with cluster.connect() as c:
        session = c.connect()
        session.execute("CREATE KEYSPACE built WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 2}")
        session.execute("CREATE TABLE built.t (k int PRIMARY KEY, v text)")
        insert = session.prepare("INSERT INTO built.t (k, v) VALUES (?, ?)")
        insert.consistency_level = ConsistencyLevel.ALL
        for k in range(200):
            session.execute(insert, (k, f"v{k % 7}"))
        session.execute("CREATE INDEX t_v ON built.t (v)")
    for node in (1, 2, 3):
        with cluster.connect(f"127.0.0.{node}", only=True) as c:
            session = c.connect()

            def built() -> bool:
                rows = session.execute("SELECT * FROM system.\"IndexInfo\" WHERE table_name = 'built'")
                return [r.index_name for r in rows] == ["t_v"]

            wait_until(built, 60, f"node {node} to build t_v")
            status = session.execute("SELECT status, partitions_built FROM system_views.index_builds "
                                     "WHERE keyspace_name = 'built'").one()
            assert status.status == "built"
            assert status.partitions_built > 0
    with cluster.connect() as c:
        session = c.connect()
        for level in LEVELS:
            rows = session.execute(at(level, "SELECT k FROM built.t WHERE v = 'v3'"))
            assert sorted(r.k for r in rows) == [k for k in range(200) if k % 7 == 3]


def sees_replica_down(session) -> bool:
    try:
        session.execute(at(ConsistencyLevel.ALL, "SELECT * FROM stale.t WHERE k = 9"))
    except NoHostAvailable as e:
        return any(isinstance(err, Unavailable) for err in e.errors.values())
    except Unavailable:
        return True
    except ReadTimeout:
        return False
    return False


def sees_all_up(session) -> bool:
    try:
        session.execute(at(ConsistencyLevel.ALL, "SELECT * FROM stale.t WHERE k = 9"))
        return True
    except (NoHostAvailable, ReadTimeout, Unavailable):
        return False


def test_replicas_that_disagree_answer_the_newest_rows_and_repair_the_stale_index(
        cluster: RunningCluster) -> None:
    """Node 3 misses an update of an indexed value (node 1 coordinates without
    hints). An ALL read through the index of the OLD value must not return the
    row on node 3's word alone: the other replicas' newer versions of it are
    fetched too (replica filtering protection), and read repair then fixes
    node 3's data and index."""
    coordinator, victim = 1, 3
    with cluster.connect(f"127.0.0.{coordinator}", only=True) as c:
        session = c.connect()
        session.execute("CREATE KEYSPACE stale WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        session.execute("CREATE TABLE stale.t (k int PRIMARY KEY, v int)")
        session.execute("CREATE INDEX ON stale.t (v)")
        for k in range(10):
            session.execute(at(ConsistencyLevel.ALL, f"INSERT INTO stale.t (k, v) VALUES ({k}, 1)"))
    old = cluster.pid(coordinator)
    os.kill(old, signal.SIGTERM)
    wait_until(lambda: not Path(f"/proc/{old}").exists(), 30, "the coordinator to stop")
    cluster.start_node(coordinator, ("--hinted-handoff-enabled", "false"))
    cluster.wait_until_serving(coordinator)
    try:
        with cluster.connect(f"127.0.0.{coordinator}", only=True) as c:
            session = c.connect()
            wait_until(lambda: sees_all_up(session), 30, "every node up")
            os.kill(cluster.pid(victim), signal.SIGSTOP)
            wait_until(lambda: sees_replica_down(session), 30, f"node {victim} down")
            for k in range(5):
                session.execute(at(ConsistencyLevel.QUORUM, f"UPDATE stale.t SET v = 2 WHERE k = {k}"))
            os.kill(cluster.pid(victim), signal.SIGCONT)
            wait_until(lambda: sees_all_up(session), 30, f"node {victim} up")
        with cluster.connect(f"127.0.0.{victim}", only=True) as c:
            stale = c.connect()
            rows = stale.execute(at(ConsistencyLevel.ONE, "SELECT k FROM stale.t WHERE v = 1"))
            assert sorted(r.k for r in rows) == list(range(10)), "node 3 should be stale"
        with cluster.connect(f"127.0.0.{coordinator}", only=True) as c:
            session = c.connect()
            rows = session.execute(at(ConsistencyLevel.ALL, "SELECT k, v FROM stale.t WHERE v = 1"))
            assert sorted((r.k, r.v) for r in rows) == [(k, 1) for k in range(5, 10)]
            rows = session.execute(at(ConsistencyLevel.ALL, "SELECT k, v FROM stale.t WHERE v = 2"))
            assert sorted((r.k, r.v) for r in rows) == [(k, 2) for k in range(5)]
        with cluster.connect(f"127.0.0.{victim}", only=True) as c:
            repaired = c.connect()
            rows = repaired.execute(at(ConsistencyLevel.ONE, "SELECT k FROM stale.t WHERE v = 1"))
            assert sorted(r.k for r in rows) == list(range(5, 10)), "read repair fixes node 3"
            rows = repaired.execute(at(ConsistencyLevel.ONE, "SELECT k FROM stale.t WHERE v = 2"))
            assert sorted(r.k for r in rows) == list(range(5))
    finally:
        for i in (1, 2, 3):
            try:
                os.kill(cluster.pid(i), signal.SIGCONT)
            except (OSError, ValueError):
                pass
