"""Server-side DESCRIBE as cqlsh 4.x sends it, through the Python driver."""

from __future__ import annotations

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Cluster
from cassandra.policies import RoundRobinPolicy


@pytest.fixture(scope="module")
def session(sibyl):
    cluster = Cluster(contact_points=[sibyl.host], port=sibyl.port,
                      load_balancing_policy=RoundRobinPolicy())
    yield cluster.connect()
    cluster.shutdown()


def test_describe_keyspaces_lists_the_system_keyspaces(session):
    rows = list(session.execute("DESCRIBE KEYSPACES"))
    assert {r.name for r in rows} >= {"system", "system_schema", "system_auth",
                                      "system_distributed", "system_traces"}
    assert all(r.type == "keyspace" for r in rows)


def test_describe_keyspace_gives_its_create_statement(session):
    rows = list(session.execute("DESCRIBE KEYSPACE system_auth"))
    assert rows[0].type == "keyspace"
    assert rows[0].create_statement == (
        "CREATE KEYSPACE system_auth WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': '1'}  AND durable_writes = true;")
    assert {r.name for r in rows[1:]} >= {"roles", "role_members", "role_permissions"}


def test_describe_table_recreates_the_table(session):
    row = session.execute("DESCRIBE TABLE system.local").one()
    statement = row.create_statement
    assert statement.startswith("CREATE TABLE system.local (\n    key text PRIMARY KEY,")
    assert "    tokens set<text>," in statement
    assert "AND comment = 'information about the local node'" in statement
    assert statement.endswith(";")


def test_describe_cluster(session):
    row = session.execute("DESCRIBE CLUSTER").one()
    assert row.cluster
    assert row.partitioner == "Murmur3Partitioner"


def test_describe_unknown_keyspace_is_cassandras_error(session):
    with pytest.raises(InvalidRequest, match="'nosuch' not found in keyspaces"):
        session.execute("DESCRIBE KEYSPACE nosuch")
