"""Reads and writes on a three-node cluster (`sibyl cluster start`) through
the Python driver: consistency levels, Unavailable with Cassandra's fields,
and hints replayed to a node that was down."""

from __future__ import annotations

import os
import signal
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel, InvalidRequest, ReadTimeout, Unavailable
from cassandra.cluster import NoHostAvailable
from cassandra.query import SimpleStatement

from cluster_process import ADDRESSES, RunningCluster, running_cluster, wait_for


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        with running.connect("127.0.0.1", only=True) as c:
            session = c.connect()
            session.execute("CREATE KEYSPACE ks WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 3}")
            session.execute("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))")
        yield running


def at(level: int, cql: str) -> SimpleStatement:
    return SimpleStatement(cql, consistency_level=level)


def test_writes_at_quorum_are_read_from_every_coordinator(cluster: RunningCluster) -> None:
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        insert = session.prepare("INSERT INTO ks.t (k, c, v) VALUES (?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.QUORUM
        for k in range(30):
            for row in range(3):
                session.execute(insert, (k, row, f"{k}.{row}"))
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            # A range scan over the whole ring, and a partition at ALL.
            rows = list(session.execute(at(ConsistencyLevel.QUORUM,
                                           "SELECT k, c, v FROM ks.t WHERE k < 30 ALLOW FILTERING")))
            assert len(rows) == 90, address
            assert {(r.k, r.c, r.v) for r in rows} == {
                (k, row, f"{k}.{row}") for k in range(30) for row in range(3)}
            one = session.execute(at(ConsistencyLevel.ALL,
                                     "SELECT v FROM ks.t WHERE k = 7 AND c = 2")).one()
            assert one.v == "7.2"


def test_a_dead_replica_makes_all_unavailable_and_gets_its_hints(cluster: RunningCluster) -> None:
    victim = 3
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        os.kill(cluster.pid(victim), signal.SIGKILL)
        wait_for(lambda: node_marked_down(session), 30, "the failure detector to see node 3 down")
        session.execute(at(ConsistencyLevel.QUORUM,
                           "INSERT INTO ks.t (k, c, v) VALUES (1000, 1, 'while down')"))
        assert session.execute(at(ConsistencyLevel.QUORUM,
                                  "SELECT v FROM ks.t WHERE k = 1000 AND c = 1")).one().v == \
            "while down"
        with pytest.raises(NoHostAvailable) as refused:
            session.execute(at(ConsistencyLevel.ALL, "SELECT v FROM ks.t WHERE k = 1000"))
        (error,) = refused.value.errors.values()
        assert isinstance(error, Unavailable)
        assert "Cannot achieve consistency level ALL" in str(error)
        assert (error.required_replicas, error.alive_replicas) == (3, 2)

    cluster.start_node(victim)
    cluster.wait_until_serving(victim)
    # Node 3, asked alone at ONE, reads its own replica first: the row is
    # there once node 1 replayed its hint.
    with cluster.connect(ADDRESSES[victim - 1], only=True) as c:
        session = c.connect()
        wait_for(lambda: local_row(session) == "while down", 60, "the hint to be replayed")


def node_marked_down(session) -> bool:
    """True once an ALL read is refused up front; until the failure detector
    convicts the dead node, such a read times out waiting for it instead."""
    try:
        session.execute(at(ConsistencyLevel.ALL, "SELECT v FROM ks.t WHERE k = 1"))
    except ReadTimeout:
        return False
    except NoHostAvailable as e:
        return any(isinstance(err, Unavailable) for err in e.errors.values())
    return False


def local_row(session):
    row = session.execute(at(ConsistencyLevel.ONE,
                             "SELECT v FROM ks.t WHERE k = 1000 AND c = 1")).one()
    return row.v if row else None


def test_what_needs_paxos_or_a_counter_leader_is_refused_by_name(cluster: RunningCluster) -> None:
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        session.execute("CREATE TABLE IF NOT EXISTS ks.counts (k int PRIMARY KEY, n counter)")
        refusals = [
            (at(ConsistencyLevel.SERIAL, "SELECT v FROM ks.t WHERE k = 1 AND c = 1"), "Paxos"),
            (at(ConsistencyLevel.QUORUM,
                "INSERT INTO ks.t (k, c, v) VALUES (5000, 1, 'x') IF NOT EXISTS"), "Paxos"),
            (at(ConsistencyLevel.QUORUM, "UPDATE ks.counts SET n = n + 1 WHERE k = 1"), "counter"),
        ]
        for statement, word in refusals:
            with pytest.raises(InvalidRequest) as refused:
                session.execute(statement)
            assert word in str(refused.value), str(refused.value)
