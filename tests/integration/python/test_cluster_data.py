"""Reads and writes on a three-node cluster (`sibyl cluster start`) through
the Python driver: consistency levels, Unavailable with Cassandra's fields,
counters through their leader replica, hints replayed to a node that
was down, and lightweight transactions by Paxos among the replicas."""

from __future__ import annotations

import threading
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel, InvalidRequest, ReadTimeout, Unavailable, WriteTimeout
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
            session.execute("CREATE TABLE ks.counts (k int PRIMARY KEY, n counter)")
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
        cluster.kill_node(victim)
        wait_for(lambda: node_marked_down(session), 30, "the failure detector to see node 3 down")
        session.execute(at(ConsistencyLevel.QUORUM,
                           "INSERT INTO ks.t (k, c, v) VALUES (1000, 1, 'while down')"))
        assert session.execute(at(ConsistencyLevel.QUORUM,
                                  "SELECT v FROM ks.t WHERE k = 1000 AND c = 1")).one().v == \
            "while down"
        # Counter updates go on at QUORUM; node 3 gets them as hints of
        # node 1's shards.
        for _ in range(5):
            session.execute(at(ConsistencyLevel.QUORUM,
                               "UPDATE ks.counts SET n = n + 2 WHERE k = 1000"))
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
        wait_for(lambda: local_count(session, 1000) == 10, 60, "the counter's hints")


def local_count(session, k: int):
    row = session.execute(at(ConsistencyLevel.ONE, f"SELECT n FROM ks.counts WHERE k = {k}")).one()
    return row.n if row else None


def test_counters_are_exact_from_every_coordinator_and_on_every_replica(
        cluster: RunningCluster) -> None:
    """Each update goes to one leader replica, which writes its own shard
    to the others: the same counters updated through every node, at
    several levels, add up exactly everywhere."""
    expected = {k: 0 for k in range(10)}
    levels = [ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL]
    for i, address in enumerate(ADDRESSES):
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            update = session.prepare("UPDATE ks.counts SET n = n + ? WHERE k = ?")
            for k in expected:
                for amount in (1, -3, 10 * (i + 1)):
                    update.consistency_level = levels[(k + i) % len(levels)]
                    session.execute(update, (amount, k))
                    expected[k] += amount
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            rows = session.execute(at(ConsistencyLevel.ALL,
                                      "SELECT k, n FROM ks.counts WHERE k IN (0,1,2,3,4,5,6,7,8,9)"))
            assert {r.k: r.n for r in rows} == expected, address
    # Every replica holds every shard (writes at ONE included, once the
    # ALL reads repaired what had not arrived yet): each node alone agrees.
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            for k, total in expected.items():
                wait_for(lambda: local_count(session, k) == total, 10,
                         f"counter {k} on {address}")


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


def test_lightweight_transactions_run_paxos_among_the_replicas(cluster: RunningCluster) -> None:
    sessions = []
    clusters = [cluster.connect(address, only=True) for address in ADDRESSES]
    try:
        sessions = [c.connect() for c in clusters]
        first, second, third = sessions
        insert = "INSERT INTO ks.t (k, c, v) VALUES (6000, 1, '{}') IF NOT EXISTS"
        assert first.execute(at(ConsistencyLevel.QUORUM, insert.format("a"))).one()[0] is True
        lost = second.execute(at(ConsistencyLevel.QUORUM, insert.format("b"))).one()
        assert lost[0] is False and lost.v == "a"
        update = at(ConsistencyLevel.QUORUM,
                    "UPDATE ks.t SET v = 'c' WHERE k = 6000 AND c = 1 IF v = 'a'")
        assert third.execute(update).one()[0] is True
        stale = third.execute(update).one()
        assert stale[0] is False and stale.v == "c"
        for session in sessions:
            for level in (ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL):
                row = session.execute(at(level, "SELECT v FROM ks.t WHERE k = 6000 AND c = 1")).one()
                assert row.v == "c"
        batch = at(ConsistencyLevel.QUORUM,
                   "BEGIN BATCH "
                   "INSERT INTO ks.t (k, c, v) VALUES (6001, 1, 'x') IF NOT EXISTS; "
                   "INSERT INTO ks.t (k, c, v) VALUES (6001, 2, 'y'); "
                   "APPLY BATCH")
        assert first.execute(batch).one()[0] is True
        rows = third.execute(at(ConsistencyLevel.ALL, "SELECT c, v FROM ks.t WHERE k = 6001"))
        assert [(r.c, r.v) for r in rows] == [(1, "x"), (2, "y")]
        gone = second.execute(at(ConsistencyLevel.QUORUM,
                                 "DELETE FROM ks.t WHERE k = 6001 AND c = 2 IF EXISTS"))
        assert gone.one()[0] is True
        assert third.execute(at(ConsistencyLevel.SERIAL,
                                "SELECT v FROM ks.t WHERE k = 6001 AND c = 2")).one() is None
        # Paged (the driver's default), a SERIAL read of two partitions reads
        # each through Paxos, as Cassandra's pager does.
        both = first.execute(at(ConsistencyLevel.SERIAL,
                                "SELECT k, v FROM ks.t WHERE k IN (6000, 6001) AND c = 1"))
        assert sorted((r.k, r.v) for r in both) == [(6000, "c"), (6001, "x")]
        # A SERIAL scan (no partition named) first finishes what the
        # replicas hold unfinished in the range, then reads it at QUORUM.
        third.execute("CREATE TABLE IF NOT EXISTS ks.lwt_scan (k int PRIMARY KEY, v int)")
        for k in range(5):
            assert first.execute(at(ConsistencyLevel.QUORUM,
                                    f"INSERT INTO ks.lwt_scan (k, v) VALUES ({k}, {k}) "
                                    "IF NOT EXISTS")).one()[0] is True
        for session in sessions:
            for level in (ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL):
                statement = SimpleStatement("SELECT k, v FROM ks.lwt_scan", consistency_level=level,
                                            fetch_size=2)
                assert sorted((r.k, r.v) for r in session.execute(statement)) == [
                    (k, k) for k in range(5)]
    finally:
        for c in clusters:
            c.shutdown()


def test_concurrent_compare_and_set_from_every_coordinator_loses_no_increment(
        cluster: RunningCluster) -> None:
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        session.execute("CREATE TABLE IF NOT EXISTS ks.reg (k int PRIMARY KEY, v int)")
        session.execute(at(ConsistencyLevel.QUORUM,
                           "INSERT INTO ks.reg (k, v) VALUES (1, 0) IF NOT EXISTS"))
    applied: list[int] = []
    unknown: list[int] = []
    failures: list[BaseException] = []

    def increment(address: str) -> None:
        try:
            with cluster.connect(address, only=True) as c:
                session = c.connect()
                read = at(ConsistencyLevel.SERIAL, "SELECT v FROM ks.reg WHERE k = 1")
                cas = session.prepare("UPDATE ks.reg SET v = ? WHERE k = 1 IF v = ?")
                cas.consistency_level = ConsistencyLevel.QUORUM
                done = 0
                for _ in range(60):
                    if done == 8:
                        break
                    try:
                        current = session.execute(read).one().v
                    except (ReadTimeout, WriteTimeout):
                        continue  # a contended read: read again
                    try:
                        result = session.execute(cas, (current + 1, current)).one()
                    except WriteTimeout:
                        unknown.append(current)
                        continue
                    if result[0]:
                        applied.append(current)
                        done += 1
        except BaseException as e:  # reported below, on the test's thread
            failures.append(e)

    threads = [threading.Thread(target=increment, args=(a,)) for a in ADDRESSES]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures
    # No two applied increments started from the same value: none was lost.
    assert len(set(applied)) == len(applied), sorted(applied)
    with cluster.connect("127.0.0.2", only=True) as c:
        final = c.connect().execute(at(ConsistencyLevel.SERIAL,
                                       "SELECT v FROM ks.reg WHERE k = 1")).one().v
    assert len(applied) <= final <= len(applied) + len(unknown)
    assert len(applied) > 0


def test_scans_paging_token_ranges_filtering_and_aggregates_span_the_ring(
        cluster: RunningCluster) -> None:
    """Reads without a partition key go over every node's ring ranges: the
    same answers, in token order, whichever node coordinates and whatever
    the page size."""
    from cassandra.metadata import Murmur3Token

    keys = range(40)
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        session.execute("CREATE TABLE ks.scan (k int, c int, v text, PRIMARY KEY (k, c))")
        insert = session.prepare("INSERT INTO ks.scan (k, c, v) VALUES (?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.QUORUM
        for k in keys:
            for row in range(3):
                session.execute(insert, (k, row, "odd" if k % 2 else "even"))

    def token(k: int) -> int:
        return Murmur3Token.hash_fn(k.to_bytes(4, "big", signed=True))

    in_token_order = [(k, row) for k in sorted(keys, key=token) for row in range(3)]
    low, high = -(2**62), 2**62
    in_range = {k for k in keys if low < token(k) <= high}
    assert 0 < len(in_range) < len(keys)
    for address in ADDRESSES:
        with cluster.connect(address, only=True) as c:
            session = c.connect()
            for page_size in (1, 7, 50, 1000):
                statement = SimpleStatement("SELECT k, c FROM ks.scan", fetch_size=page_size,
                                            consistency_level=ConsistencyLevel.QUORUM)
                assert [(r.k, r.c) for r in session.execute(statement)] == in_token_order, \
                    (address, page_size)
            ranged = session.execute(at(ConsistencyLevel.QUORUM,
                                        f"SELECT DISTINCT k FROM ks.scan WHERE token(k) > {low} "
                                        f"AND token(k) <= {high}"))
            assert {r.k for r in ranged} == in_range, address
            odd = session.execute(at(ConsistencyLevel.QUORUM,
                                     "SELECT k FROM ks.scan WHERE v = 'odd' ALLOW FILTERING"))
            assert sorted(r.k for r in odd) == sorted(k for k in keys if k % 2 for _ in range(3))
            totals = session.execute(at(ConsistencyLevel.QUORUM,
                                        "SELECT count(*), sum(c), max(k) FROM ks.scan")).one()
            assert tuple(totals) == (len(keys) * 3, len(keys) * 3, max(keys)), address
            limited = session.execute(at(ConsistencyLevel.QUORUM,
                                         "SELECT k, c FROM ks.scan PER PARTITION LIMIT 1 LIMIT 5"))
            assert [(r.k, r.c) for r in limited] == [(k, 0) for k in sorted(keys, key=token)[:5]]
