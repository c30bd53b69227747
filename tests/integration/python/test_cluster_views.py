"""Materialized views on a three-node cluster through the Python driver.

A base replica derives its view rows under the base partition's lock and
sends those of view partitions it does not hold to its paired view replica
through the view outbox (docs/dev/views.md, "Ring"). With replication factor
2 on three nodes most view updates cross nodes. Checked here: the view read
at every consistency level equals the view computed from the base; a view
created on existing data is built on every node; a view replica killed with
SIGKILL while writes go on gets its rows once it is back; and `sibyl admin
verify-view` and `views` ask every node."""

from __future__ import annotations

import re
import subprocess
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel
from cassandra.query import SimpleStatement

from cluster_process import RunningCluster, running_cluster, wait_for
from sibyl_process import sibyl_binary

LEVELS = (ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        yield running


def at(level: int, cql: str) -> SimpleStatement:
    return SimpleStatement(cql, consistency_level=level, fetch_size=None)


def expected_view(session, keyspace: str) -> list[tuple]:
    """(v, k, c, w) of every base row with a v, read at ALL."""
    rows = session.execute(at(ConsistencyLevel.ALL, f"SELECT k, c, v, w FROM {keyspace}.t"))
    return sorted((r.v, r.k, r.c, r.w) for r in rows if r.v is not None)


def view_at(session, keyspace: str, level: int) -> list[tuple]:
    rows = session.execute(at(level, f"SELECT v, k, c, w FROM {keyspace}.by_v"))
    return sorted((r.v, r.k, r.c, r.w) for r in rows)


def create(session, keyspace: str, rf: int) -> None:
    session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                    f"{{'class': 'SimpleStrategy', 'replication_factor': {rf}}}")
    session.execute(f"CREATE TABLE {keyspace}.t (k int, c int, v int, w text, "
                    "PRIMARY KEY (k, c))")


def create_view(session, keyspace: str) -> None:
    session.execute(f"CREATE MATERIALIZED VIEW {keyspace}.by_v AS SELECT k, c, v, w FROM t "
                    "WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL "
                    "PRIMARY KEY (v, k, c)")


def admin(cluster: RunningCluster, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "admin", "--host", "127.0.0.1", "--port",
                           str(cluster.native_port), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("rf", [2, 3])
def test_views_on_the_ring_follow_their_base_at_every_level(cluster: RunningCluster,
                                                           rf: int) -> None:
    keyspace = f"views{rf}"
    with cluster.connect() as c:
        session = c.connect()
        create(session, keyspace, rf)
        create_view(session, keyspace)
        insert = session.prepare(f"INSERT INTO {keyspace}.t (k, c, v, w) VALUES (?, ?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.QUORUM
        for k in range(40):
            for c in range(2):
                session.execute(insert, (k, c, (k + c) % 5, f"w{k}"))
        # Key switches, column updates and deletions.
        for k in range(0, 40, 3):
            session.execute(at(ConsistencyLevel.QUORUM,
                               f"UPDATE {keyspace}.t SET v = 7, w = 'moved' "
                               f"WHERE k = {k} AND c = 0"))
        for k in range(1, 40, 5):
            session.execute(at(ConsistencyLevel.QUORUM,
                               f"DELETE FROM {keyspace}.t WHERE k = {k}"))
        expected = expected_view(session, keyspace)
        assert len(expected) > 40
        # The paired view replicas receive their updates through the outbox,
        # a moment after the base write: wait until every replica has them.
        wait_for(lambda: view_at(session, keyspace, ConsistencyLevel.ALL) == expected, 30,
                   "the view to hold what its base gives")
        for level in LEVELS:
            assert view_at(session, keyspace, level) == expected, level
        moved = session.execute(at(ConsistencyLevel.QUORUM,
                                   f"SELECT k FROM {keyspace}.by_v WHERE v = 7"))
        assert sorted(r.k for r in moved) == sorted(
            k for k in range(0, 40, 3) if k % 5 != 1)
    verify = admin(cluster, "verify-view", f"{keyspace}.by_v")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert verify.stdout.count("Node: ") == 3, verify.stdout


def test_a_view_created_on_existing_data_is_built_on_every_node(cluster: RunningCluster) -> None:
    keyspace = "views_built"
    with cluster.connect() as c:
        session = c.connect()
        create(session, keyspace, 2)
        insert = session.prepare(f"INSERT INTO {keyspace}.t (k, c, v, w) VALUES (?, ?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.ALL
        for k in range(60):
            session.execute(insert, (k, 0, k % 4, "x"))
        create_view(session, keyspace)
        expected = expected_view(session, keyspace)

        def built_everywhere() -> bool:
            out = admin(cluster, "views", keyspace)
            built = re.findall(rf"^{keyspace}\s+by_v\s+built\s", out.stdout, re.MULTILINE)
            return out.returncode == 0 and len(built) == 3

        wait_for(built_everywhere, 60, "the view to be built on every node")
        wait_for(lambda: view_at(session, keyspace, ConsistencyLevel.ALL) == expected, 30,
                   "the built view to hold what its base gives")


def test_a_killed_view_replica_gets_its_rows_when_it_is_back(cluster: RunningCluster) -> None:
    keyspace = "views_kill"
    victim = 3
    with cluster.connect() as c:
        session = c.connect()
        create(session, keyspace, 2)
        create_view(session, keyspace)
        cluster.kill_node(victim)
        try:
            # Writes at ONE go on; updates for the victim's view partitions
            # wait in the other nodes' outboxes.
            for k in range(60):
                session.execute(at(ConsistencyLevel.ONE,
                                   f"INSERT INTO {keyspace}.t (k, c, v, w) "
                                   f"VALUES ({k}, 0, {k % 6}, 'while down')"))
        finally:
            cluster.start_node(victim)
            cluster.wait_until_serving(victim)
        wait_for(lambda: len(expected_view(session, keyspace)) == 60, 60,
                   "the base to be readable at ALL again")
        expected = expected_view(session, keyspace)
        wait_for(lambda: view_at(session, keyspace, ConsistencyLevel.ALL) == expected, 60,
                   "the view to hold every row written while a node was down")
