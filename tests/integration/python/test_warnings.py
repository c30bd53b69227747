"""Client warnings (protocol v4+ envelope flag 0x08) as Cassandra 4.1 sends them:
a replication factor above the number of nodes, batches over the size
thresholds or over many partitions unlogged, and "Batch too large"."""

from __future__ import annotations

from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session
from cassandra.query import BatchStatement, BatchType

from driver_session import connected, create_keyspace


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as session:
        create_keyspace(session, "warn_ks")
        session.execute("CREATE TABLE IF NOT EXISTS warn_ks.kv (k int PRIMARY KEY, v text)")
        yield session


def warnings_of(session: Session, statement) -> list[str] | None:
    future = session.execute_async(statement)
    future.result()
    return future.warnings


def test_replication_factor_above_the_node_count_warns(session):
    assert warnings_of(session, "CREATE KEYSPACE rf3 WITH replication = "
                                "{'class': 'SimpleStrategy', 'replication_factor': 3}") == [
        "Your replication factor 3 for keyspace rf3 is higher than the number of nodes 1"]
    assert warnings_of(session, "ALTER KEYSPACE rf3 WITH replication = "
                                "{'class': 'NetworkTopologyStrategy', 'datacenter1': 2}") == [
        "Your replication factor 2 for keyspace rf3 is higher than the number of nodes 1 "
        "for datacenter datacenter1"]
    assert warnings_of(session, "ALTER KEYSPACE rf3 WITH replication = "
                                "{'class': 'SimpleStrategy', 'replication_factor': 1}") is None
    # The warning belongs to its response only.
    assert warnings_of(session, "SELECT * FROM system.local") is None
    session.execute("DROP KEYSPACE rf3")


def test_no_warnings_on_protocol_v3(sibyl):
    with connected(sibyl, protocol_version=3) as session:
        assert warnings_of(session, "CREATE KEYSPACE rf3v3 WITH replication = "
                                    "{'class': 'SimpleStrategy', 'replication_factor': 3}") is None
        session.execute("DROP KEYSPACE rf3v3")


def test_unlogged_batch_over_many_partitions_warns(session):
    insert = session.prepare("INSERT INTO warn_ks.kv (k, v) VALUES (?, 'x')")
    ten = BatchStatement(batch_type=BatchType.UNLOGGED)
    eleven = BatchStatement(batch_type=BatchType.UNLOGGED)
    for k in range(11):
        eleven.add(insert, (k,))
        if k < 10:
            ten.add(insert, (k,))
    assert warnings_of(session, ten) is None
    assert warnings_of(session, eleven) == [
        "Unlogged batch covering 11 partitions detected against table [warn_ks.kv]. "
        "You should use a logged batch for atomicity, or asynchronous writes for performance."]
    logged = BatchStatement(batch_type=BatchType.LOGGED)
    for k in range(11):
        logged.add(insert, (k,))
    assert warnings_of(session, logged) is None


def test_batch_size_thresholds(session):
    insert = session.prepare("INSERT INTO warn_ks.kv (k, v) VALUES (?, ?)")
    big = BatchStatement()
    for k in range(2):
        big.add(insert, (k, "v" * 3000))
    warnings = warnings_of(session, big)
    assert warnings is not None and len(warnings) == 1
    assert warnings[0].startswith("Batch for [warn_ks.kv] is of size ")
    assert ", exceeding specified threshold of 5120 by " in warnings[0]
    # One partition is never measured, however large.
    single = BatchStatement()
    single.add(insert, (1, "v" * 60000))
    assert warnings_of(session, single) is None
    huge = BatchStatement()
    for k in range(2):
        huge.add(insert, (k, "v" * 30000))
    with pytest.raises(InvalidRequest, match="Batch too large"):
        session.execute(huge)
    assert session.execute("SELECT v FROM warn_ks.kv WHERE k = 0").one().v == "v" * 3000
