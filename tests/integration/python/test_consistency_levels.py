"""Consistency levels through the Python driver, as Cassandra 4.1 validates them
(docs/dev/query.md, "Consistency levels"): reads refuse ANY, writes without
conditions refuse SERIAL and LOCAL_SERIAL (counters ANY too), lightweight
transactions want a serial level for their Paxos round and a non-serial one
(EACH_QUORUM only with NetworkTopologyStrategy) for their commit, batches
without conditions take any level, a SERIAL read names one partition at a
time when it is not paged, and every other level is accepted."""

from __future__ import annotations

import re
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel, InvalidRequest
from cassandra.cluster import Session
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from driver_session import connected, create_keyspace

KS = "cl"
NTS = "cl_nts"

SERIAL_WRITE = "You must use conditional updates for serializable writes"
ANY_READ = "ANY ConsistencyLevel is only supported for writes"
SERIAL_CAS = "Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL"
ONE_PARTITION = "SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time"
READ_BEFORE_WRITE_ANY = ("Write operation require a read but consistency ANY is not supported on "
                         "reads")
NODE_LOCAL = ("NODE_LOCAL consistency level is highly dangerous and should be used only for "
              "debugging purposes")


def commit_message(level: str) -> str:
    return (f"{level} is not supported as conditional update commit consistency. Use ANY if you "
            "mean \"make sure it is accepted but I don't care how many replicas commit it for "
            "non-SERIAL reads\"")


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as session:
        create_keyspace(session, KS)
        session.execute(f"CREATE KEYSPACE IF NOT EXISTS {NTS} WITH replication = "
                        "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1}")
        session.execute(f"CREATE TABLE IF NOT EXISTS {KS}.t (k int, c int, v int, "
                        "PRIMARY KEY (k, c))")
        session.execute(f"CREATE TABLE IF NOT EXISTS {KS}.cnt (k int PRIMARY KEY, hits counter)")
        session.execute(f"CREATE TABLE IF NOT EXISTS {KS}.coll (k int PRIMARY KEY, l list<int>)")
        session.execute(f"CREATE TABLE IF NOT EXISTS {NTS}.t (k int PRIMARY KEY, v int)")
        for k in range(1, 4):
            for c in range(1, 4):
                session.execute(f"INSERT INTO {KS}.t (k, c, v) VALUES ({k}, {c}, 0)")
        yield session


def at(query: str, consistency: int, serial: int | None = None, **options) -> SimpleStatement:
    """`query` at `consistency`; `serial` is sent as it is, even a level the
    driver's setter refuses (to see the node's answer)."""
    statement = SimpleStatement(query, consistency_level=consistency, **options)
    if serial is not None:
        statement._serial_consistency_level = serial  # pylint: disable=protected-access
    return statement


def refused(session: Session, statement, message: str) -> None:
    with pytest.raises(InvalidRequest, match=f"code=2200 .*message=\"{re.escape(message)}\""):
        session.execute(statement)


@pytest.mark.parametrize("level", [ConsistencyLevel.ONE, ConsistencyLevel.QUORUM,
                                   ConsistencyLevel.ALL, ConsistencyLevel.LOCAL_ONE,
                                   ConsistencyLevel.LOCAL_QUORUM, ConsistencyLevel.EACH_QUORUM,
                                   ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL])
def test_reads_at_every_level_but_any(session, level):
    rows = session.execute(at(f"SELECT c FROM {KS}.t WHERE k = 1", level)).all()
    assert [r.c for r in rows] == [1, 2, 3]
    # Prepared too, and a range read.
    prepared = session.prepare(f"SELECT c FROM {KS}.t WHERE k = ?")
    prepared.consistency_level = level
    assert len(session.execute(prepared, (2,)).all()) == 3
    assert len(session.execute(at(f"SELECT * FROM {KS}.t", level)).all()) >= 9


def test_read_at_any_is_refused(session):
    refused(session, at(f"SELECT * FROM {KS}.t WHERE k = 1", ConsistencyLevel.ANY), ANY_READ)
    prepared = session.prepare(f"SELECT * FROM {KS}.t WHERE k = ?")
    prepared.consistency_level = ConsistencyLevel.ANY
    refused(session, prepared.bind((1,)), ANY_READ)
    refused(session, at("SELECT * FROM system.local", ConsistencyLevel.ANY), ANY_READ)


@pytest.mark.parametrize("level", [ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL])
def test_serial_read_of_several_partitions(session, level):
    query = f"SELECT k, c FROM {KS}.t WHERE k IN (1, 2)"
    # In one go (paging off, or a LIMIT within the page): one partition at a time.
    refused(session, at(query, level, fetch_size=None), ONE_PARTITION)
    refused(session, at(query + " LIMIT 10", level), ONE_PARTITION)
    # Paged (the driver's default page size), each partition is read on its own.
    assert len(session.execute(at(query, level)).all()) == 6
    assert len(session.execute(at(query, level, fetch_size=2)).all()) == 6
    # Aggregates are always paged; a repeated key is one partition; a range read is no refusal.
    assert session.execute(at(f"SELECT count(*) FROM {KS}.t WHERE k IN (1, 2)", level,
                              fetch_size=None)).one()[0] == 6
    assert len(session.execute(at(f"SELECT * FROM {KS}.t WHERE k IN (1, 1)", level,
                                  fetch_size=None)).all()) == 3
    assert len(session.execute(at(f"SELECT * FROM {KS}.t WHERE token(k) >= "
                                  "-9223372036854775808", level, fetch_size=None)).all()) >= 9


@pytest.mark.parametrize("level", [ConsistencyLevel.ANY, ConsistencyLevel.ONE,
                                   ConsistencyLevel.QUORUM, ConsistencyLevel.ALL,
                                   ConsistencyLevel.LOCAL_ONE, ConsistencyLevel.LOCAL_QUORUM,
                                   ConsistencyLevel.EACH_QUORUM])
def test_writes_at_every_non_serial_level(session, level):
    session.execute(at(f"INSERT INTO {KS}.t (k, c, v) VALUES (10, {level}, {level})", level))
    session.execute(at(f"UPDATE {NTS}.t SET v = {level} WHERE k = 1", level))
    session.execute(at(f"DELETE FROM {KS}.t WHERE k = 11", level))
    row = session.execute(f"SELECT v FROM {KS}.t WHERE k = 10 AND c = {level}").one()
    assert row.v == level


@pytest.mark.parametrize("level", [ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL])
def test_serial_write_without_conditions_is_refused(session, level):
    refused(session, at(f"INSERT INTO {KS}.t (k, c, v) VALUES (12, 1, 1)", level), SERIAL_WRITE)
    refused(session, at(f"UPDATE {KS}.t SET v = 1 WHERE k = 12 AND c = 1", level), SERIAL_WRITE)
    refused(session, at(f"DELETE FROM {KS}.t WHERE k = 1", level), SERIAL_WRITE)
    prepared = session.prepare(f"INSERT INTO {KS}.t (k, c, v) VALUES (?, ?, ?)")
    prepared.consistency_level = level
    refused(session, prepared.bind((12, 1, 1)), SERIAL_WRITE)
    assert session.execute(f"SELECT * FROM {KS}.t WHERE k = 12").all() == []
    assert len(session.execute(f"SELECT * FROM {KS}.t WHERE k = 1").all()) == 3


def test_serial_consistency_of_a_write_without_conditions_is_ignored(session):
    session.execute(at(f"INSERT INTO {KS}.t (k, c, v) VALUES (13, 1, 1)", ConsistencyLevel.ONE,
                       serial=ConsistencyLevel.QUORUM))
    assert session.execute(f"SELECT v FROM {KS}.t WHERE k = 13").one().v == 1


def test_counter_levels(session):
    update = f"UPDATE {KS}.cnt SET hits = hits + 1 WHERE k = 1"
    refused(session, at(update, ConsistencyLevel.ANY),
            "Consistency level ANY is not yet supported for counter table cnt")
    for level in (ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL):
        refused(session, at(update, level), "Counter operations are inherently non-serializable")
    session.execute(at(update, ConsistencyLevel.QUORUM))
    assert session.execute(f"SELECT hits FROM {KS}.cnt WHERE k = 1").one().hits == 1


def test_lightweight_transaction_levels(session):
    session.execute(f"INSERT INTO {KS}.t (k, c, v) VALUES (20, 1, 0)")
    cas = f"UPDATE {KS}.t SET v = 0 WHERE k = 20 AND c = 1 IF EXISTS"
    # The serial level first, then the commit level.
    # (The driver cannot send a serial ANY: it takes 0 for "none".)
    for serial in (ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.EACH_QUORUM):
        refused(session, at(cas, ConsistencyLevel.SERIAL, serial=serial), SERIAL_CAS)
    refused(session, at(cas, ConsistencyLevel.SERIAL), commit_message("SERIAL"))
    refused(session, at(cas, ConsistencyLevel.LOCAL_SERIAL,
                        serial=ConsistencyLevel.LOCAL_SERIAL), commit_message("LOCAL_SERIAL"))
    refused(session, at(cas, ConsistencyLevel.EACH_QUORUM),
            "consistency level EACH_QUORUM not compatible with replication strategy "
            "(org.apache.cassandra.locator.SimpleStrategy)")
    # The statement's own checks come first.
    refused(session, at(f"UPDATE {KS}.t SET v = 1 WHERE k IN (20, 21) AND c = 1 IF v = 0",
                        ConsistencyLevel.SERIAL, serial=ConsistencyLevel.ONE),
            "IN on the partition key is not supported with conditional updates")
    # Accepted: serial SERIAL or LOCAL_SERIAL, commit at ANY or any non-serial level.
    for commit in (ConsistencyLevel.ANY, ConsistencyLevel.ONE, ConsistencyLevel.QUORUM,
                   ConsistencyLevel.LOCAL_QUORUM, ConsistencyLevel.LOCAL_ONE):
        for serial in (ConsistencyLevel.SERIAL, ConsistencyLevel.LOCAL_SERIAL):
            assert session.execute(at(cas, commit, serial=serial)).was_applied
    assert session.execute(at(f"INSERT INTO {NTS}.t (k, v) VALUES (5, 5) IF NOT EXISTS",
                              ConsistencyLevel.EACH_QUORUM)).was_applied
    # What a transaction wrote at ANY is read back at SERIAL.
    assert session.execute(at(f"UPDATE {KS}.t SET v = 7 WHERE k = 20 AND c = 1 IF v = 0",
                              ConsistencyLevel.ANY,
                              serial=ConsistencyLevel.LOCAL_SERIAL)).was_applied
    assert session.execute(at(f"SELECT v FROM {KS}.t WHERE k = 20 AND c = 1",
                              ConsistencyLevel.SERIAL)).one().v == 7


def batch(level: int, queries: list[str], serial: int | None = None,
          batch_type=BatchType.LOGGED) -> BatchStatement:
    statement = BatchStatement(batch_type=batch_type, consistency_level=level)
    if serial is not None:
        # A plain attribute of BatchStatement, which the driver does not check.
        statement.serial_consistency_level = serial
    for query in queries:
        statement.add(query)
    return statement


@pytest.mark.parametrize("level", [ConsistencyLevel.ANY, ConsistencyLevel.SERIAL,
                                   ConsistencyLevel.LOCAL_SERIAL])
def test_batch_without_conditions_takes_any_level(session, level):
    # 4.1's BatchStatement checks no level when nothing is conditional.
    session.execute(batch(level, [f"INSERT INTO {KS}.t (k, c, v) VALUES (30, {level}, 1)",
                                  f"INSERT INTO {KS}.t (k, c, v) VALUES (31, {level}, 1)"]))
    session.execute(at(f"BEGIN BATCH INSERT INTO {KS}.t (k, c, v) VALUES (32, {level}, 1); "
                       "APPLY BATCH", level))
    session.execute(batch(level, [f"UPDATE {KS}.cnt SET hits = hits + 1 WHERE k = 2"],
                          batch_type=BatchType.COUNTER))
    for k in (30, 31, 32):
        assert session.execute(f"SELECT v FROM {KS}.t WHERE k = {k} AND c = {level}").one().v == 1


def test_conditional_batch_levels(session):
    session.execute(f"INSERT INTO {KS}.t (k, c, v) VALUES (40, 1, 0)")
    queries = [f"UPDATE {KS}.t SET v = 1 WHERE k = 40 AND c = 1 IF v = 0",
               f"INSERT INTO {KS}.t (k, c, v) VALUES (40, 2, 1)"]
    refused(session, batch(ConsistencyLevel.SERIAL, queries), commit_message("SERIAL"))
    refused(session, batch(ConsistencyLevel.ONE, queries, serial=ConsistencyLevel.ONE), SERIAL_CAS)
    refused(session, at("BEGIN BATCH " + "; ".join(queries) + "; APPLY BATCH",
                        ConsistencyLevel.LOCAL_SERIAL), commit_message("LOCAL_SERIAL"))
    assert session.execute(f"SELECT * FROM {KS}.t WHERE k = 40 AND c = 2").one() is None
    assert session.execute(batch(ConsistencyLevel.ANY, queries,
                                 serial=ConsistencyLevel.LOCAL_SERIAL)).was_applied
    assert session.execute(f"SELECT v FROM {KS}.t WHERE k = 40 AND c = 2").one().v == 1


def test_list_operations_that_read_first(session):
    session.execute(f"INSERT INTO {KS}.coll (k, l) VALUES (1, [1, 2])")
    session.execute(f"INSERT INTO {KS}.coll (k, l) VALUES (2, [1, 2])")
    for query in (f"UPDATE {KS}.coll SET l[0] = 7 WHERE k = 1",
                  f"UPDATE {KS}.coll SET l = l - [1] WHERE k = 1",
                  f"DELETE l[0] FROM {KS}.coll WHERE k = 1"):
        refused(session, at(query, ConsistencyLevel.ANY), READ_BEFORE_WRITE_ANY)
        refused(session, batch(ConsistencyLevel.ANY, [query], batch_type=BatchType.UNLOGGED),
                READ_BEFORE_WRITE_ANY)
    session.execute(at(f"UPDATE {KS}.coll SET l = l + [3] WHERE k = 1", ConsistencyLevel.ANY))
    # In a batch at SERIAL the read is a Paxos read: one partition at a time.
    refused(session, batch(ConsistencyLevel.SERIAL,
                           [f"UPDATE {KS}.coll SET l[0] = 7 WHERE k IN (1, 2)"]), ONE_PARTITION)
    session.execute(batch(ConsistencyLevel.SERIAL, [f"UPDATE {KS}.coll SET l[0] = 7 WHERE k = 1"]))
    assert session.execute(f"SELECT l FROM {KS}.coll WHERE k = 1").one().l == [7, 2, 3]


def test_node_local_is_refused(session):
    # The driver knows no name for NODE_LOCAL (11); the node refuses it for
    # every statement sent as QUERY or EXECUTE.
    for query in (f"SELECT * FROM {KS}.t WHERE k = 1",
                  f"INSERT INTO {KS}.t (k, c, v) VALUES (50, 1, 1)",
                  f"CREATE TABLE IF NOT EXISTS {KS}.n (k int PRIMARY KEY)"):
        refused(session, at(query, 11), NODE_LOCAL)
    assert session.execute(f"SELECT * FROM {KS}.t WHERE k = 50").all() == []
