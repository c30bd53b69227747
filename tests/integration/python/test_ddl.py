"""DDL through the DataStax Python driver: keyspaces, tables and types of every
shape, what cluster.metadata then shows, export_as_string() round trips,
Cassandra's errors, schema change events, and schema that survives a restart."""

from __future__ import annotations

import itertools
import tempfile
import time
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import AlreadyExists, InvalidRequest, Unauthorized
from cassandra.cluster import Cluster, Session
from cassandra.protocol import ConfigurationException, SyntaxException

import cql_wire
from driver_session import connected_cluster as connected
from sibyl_process import SibylServer


@pytest.fixture(scope="module")
def cluster_session(sibyl) -> Iterator[tuple[Cluster, Session]]:
    with connected(sibyl) as pair:
        yield pair


@pytest.fixture
def session(cluster_session) -> Session:
    return cluster_session[1]


_keyspace_numbers = itertools.count()


@pytest.fixture
def keyspace(session) -> Iterator[str]:
    """A fresh keyspace for one test, dropped afterwards."""
    name = f"ddl_{next(_keyspace_numbers)}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")


def statements_of(cql: str) -> list[str]:
    """The statements of an export_as_string() text."""
    return [s.strip() for s in cql.split(";\n") if s.strip()]


# --- shapes and metadata -------------------------------------------------------------------------


def test_table_shapes_show_in_driver_metadata(cluster_session, keyspace):
    cluster, session = cluster_session
    session.execute(f"CREATE TYPE {keyspace}.address (street text, city text, zip int)")
    session.execute(f"""
        CREATE TABLE {keyspace}.events (
            tenant text, day date, ts timeuuid, seq int,
            payload blob, tags set<text>, counts map<text, bigint>, home frozen<address>,
            owner text static,
            PRIMARY KEY ((tenant, day), ts, seq)
        ) WITH CLUSTERING ORDER BY (ts DESC, seq ASC)
          AND comment = 'events by day' AND default_time_to_live = 3600
          AND compaction = {{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}}
          AND caching = {{'keys': 'ALL', 'rows_per_partition': '10'}}""")
    session.execute(f"CREATE TABLE {keyspace}.hits (page text PRIMARY KEY, views counter)")
    cluster.refresh_schema_metadata()
    ks = cluster.metadata.keyspaces[keyspace]
    events = ks.tables["events"]
    assert [c.name for c in events.partition_key] == ["tenant", "day"]
    assert [c.name for c in events.clustering_key] == ["ts", "seq"]
    assert [c.is_reversed for c in events.clustering_key] == [True, False]
    assert events.columns["home"].cql_type == "frozen<address>"
    assert events.columns["counts"].cql_type == "map<text, bigint>"
    assert events.columns["owner"].is_static
    assert events.options["comment"] == "events by day"
    assert events.options["default_time_to_live"] == 3600
    assert events.options["compaction"]["class"] == \
        "org.apache.cassandra.db.compaction.TimeWindowCompactionStrategy"
    assert events.options["caching"] == {"keys": "ALL", "rows_per_partition": "10"}
    assert events.is_cql_compatible
    assert ks.user_types["address"].field_names == ["street", "city", "zip"]
    assert ks.user_types["address"].field_types == ["text", "text", "int"]
    assert ks.tables["hits"].columns["views"].cql_type == "counter"
    rows = session.execute(
        "SELECT column_name, clustering_order, type FROM system_schema.columns "
        "WHERE keyspace_name = %s AND table_name = 'events'", [keyspace])
    by_name = {r.column_name: r for r in rows}
    assert (by_name["ts"].clustering_order, by_name["ts"].type) == ("desc", "timeuuid")
    flags = session.execute("SELECT flags FROM system_schema.tables WHERE keyspace_name = %s "
                            "AND table_name = 'hits'", [keyspace]).one().flags
    assert set(flags) == {"compound", "counter"}


def test_export_as_string_recreates_the_keyspace(cluster_session, keyspace):
    cluster, session = cluster_session
    session.execute(f"CREATE TYPE {keyspace}.phone (country int, number text)")
    session.execute(f"CREATE TYPE {keyspace}.\"Contact\" (name text, phones frozen<list<frozen<phone>>>)")
    session.execute(f"""CREATE TABLE {keyspace}.people (
            id uuid PRIMARY KEY, contact frozen<"Contact">, nick text, scores list<int>)
        WITH comment = 'it''s people' AND gc_grace_seconds = 3600
          AND compression = {{'class': 'ZstdCompressor', 'chunk_length_in_kb': 64}}
          AND speculative_retry = '95PERCENTILE'""")
    session.execute(f"""CREATE TABLE {keyspace}.timeline (
            user text, bucket int, at timestamp, "Seq" int, body text, pinned text static,
            PRIMARY KEY ((user, bucket), at, "Seq"))
        WITH CLUSTERING ORDER BY (at DESC, "Seq" DESC)
          AND compaction = {{'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 128}}""")
    session.execute(f"CREATE TABLE {keyspace}.tally (k text, c int, n counter, "
                    "PRIMARY KEY (k, c))")
    cluster.refresh_schema_metadata()
    exported = cluster.metadata.keyspaces[keyspace].export_as_string()

    session.execute(f"DROP KEYSPACE {keyspace}")
    for statement in statements_of(exported):
        session.execute(statement)
    cluster.refresh_schema_metadata()
    assert cluster.metadata.keyspaces[keyspace].export_as_string() == exported


# --- results and events --------------------------------------------------------------------------


def test_if_not_exists_on_an_existing_object_is_quiet(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY)")
    result = session.execute(f"CREATE TABLE IF NOT EXISTS {keyspace}.t (k int PRIMARY KEY)")
    assert result.one() is None
    session.execute(f"CREATE KEYSPACE IF NOT EXISTS {keyspace} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.execute(f"DROP TABLE IF EXISTS {keyspace}.nope")
    session.execute(f"DROP TYPE IF EXISTS {keyspace}.nope")


def test_drop_keyspace_announces_each_table_and_type_before_the_keyspace(sibyl, session):
    """As Cassandra 4.1's SchemaChangeNotifier: one SCHEMA_CHANGE per table,
    view and type of a dropped keyspace, then the keyspace's own."""
    sock = cql_wire.connect(sibyl.port)
    try:
        sock.sendall(cql_wire.frame(4, cql_wire.STARTUP, cql_wire.startup_body(), stream=1))
        assert cql_wire.read_frame(sock).opcode == cql_wire.READY
        sock.sendall(cql_wire.frame(4, cql_wire.REGISTER,
                                    cql_wire.string_list(["SCHEMA_CHANGE"]), stream=2))
        assert cql_wire.read_frame(sock).opcode == cql_wire.READY
        session.execute("CREATE KEYSPACE ddl_dropped WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TYPE ddl_dropped.pair (a int, b int)")
        session.execute("CREATE TABLE ddl_dropped.t1 (k int PRIMARY KEY, v int)")
        session.execute("CREATE TABLE ddl_dropped.t2 (k int PRIMARY KEY, p frozen<pair>)")
        session.execute("DROP KEYSPACE ddl_dropped")
        events = []
        while not events or events[-1] != ["SCHEMA_CHANGE", "DROPPED", "KEYSPACE", "ddl_dropped"]:
            event = cql_wire.read_frame(sock)
            assert (event.opcode, event.stream) == (cql_wire.EVENT, -1)
            events.append(cql_wire.parse_strings(event.body))
    finally:
        sock.close()
    assert events == [
        ["SCHEMA_CHANGE", "CREATED", "KEYSPACE", "ddl_dropped"],
        ["SCHEMA_CHANGE", "CREATED", "TYPE", "ddl_dropped", "pair"],
        ["SCHEMA_CHANGE", "CREATED", "TABLE", "ddl_dropped", "t1"],
        ["SCHEMA_CHANGE", "CREATED", "TABLE", "ddl_dropped", "t2"],
        ["SCHEMA_CHANGE", "DROPPED", "TABLE", "ddl_dropped", "t1"],
        ["SCHEMA_CHANGE", "DROPPED", "TABLE", "ddl_dropped", "t2"],
        ["SCHEMA_CHANGE", "DROPPED", "TYPE", "ddl_dropped", "pair"],
        ["SCHEMA_CHANGE", "DROPPED", "KEYSPACE", "ddl_dropped"],
    ]


def test_changes_from_another_session_reach_the_metadata(sibyl, cluster_session, keyspace):
    watcher, _ = cluster_session
    with connected(sibyl) as (_, other):
        other.execute(f"CREATE TABLE {keyspace}.late (k int PRIMARY KEY, v text)")
        other.execute(f"CREATE TYPE {keyspace}.pair (a int, b int)")
    # The watcher learns of both from SCHEMA_CHANGE events, without a refresh of its own.
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        ks = watcher.metadata.keyspaces.get(keyspace)
        if ks is not None and "late" in ks.tables and "pair" in ks.user_types:
            break
        time.sleep(0.1)
    ks = watcher.metadata.keyspaces[keyspace]
    assert list(ks.tables["late"].columns) == ["k", "v"]
    assert ks.user_types["pair"].field_names == ["a", "b"]


def test_altering_a_table_updates_metadata(cluster_session, keyspace):
    cluster, session = cluster_session
    session.execute(f"CREATE TABLE {keyspace}.t (k int, c int, v text, PRIMARY KEY (k, c))")
    session.execute(f"ALTER TABLE {keyspace}.t ADD (extra int, s text static)")
    session.execute(f"ALTER TABLE {keyspace}.t DROP v")
    session.execute(f"ALTER TABLE {keyspace}.t RENAME c TO c2")
    session.execute(f"ALTER TABLE {keyspace}.t WITH comment = 'altered'")
    cluster.refresh_table_metadata(keyspace, "t")
    table = cluster.metadata.keyspaces[keyspace].tables["t"]
    assert sorted(table.columns) == ["c2", "extra", "k", "s"]
    assert table.options["comment"] == "altered"
    dropped = session.execute("SELECT column_name, type FROM system_schema.dropped_columns "
                              "WHERE keyspace_name = %s AND table_name = 't'", [keyspace]).one()
    assert (dropped.column_name, dropped.type) == ("v", "text")


def test_prepared_statement_on_a_dropped_table_fails_cleanly(session, keyspace):
    session.execute(f"CREATE TABLE {keyspace}.gone (k int PRIMARY KEY, v int)")
    prepared = session.prepare(f"SELECT v FROM {keyspace}.gone WHERE k = ?")
    session.execute(f"DROP TABLE {keyspace}.gone")
    with pytest.raises(InvalidRequest, match="table gone does not exist"):
        session.execute(prepared, [1])


# --- errors ----------------------------------------------------------------------------------------


def test_errors_carry_cassandras_codes_and_messages(session, keyspace):
    with pytest.raises(AlreadyExists) as existing:
        session.execute(f"CREATE KEYSPACE {keyspace} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    assert (existing.value.keyspace, existing.value.table) == (keyspace, "")
    session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY)")
    with pytest.raises(AlreadyExists) as existing_table:
        session.execute(f"CREATE TABLE {keyspace}.t (k int PRIMARY KEY)")
    assert (existing_table.value.keyspace, existing_table.value.table) == (keyspace, "t")

    with pytest.raises(ConfigurationException,
                       match=r"Unrecognized strategy option \{foo\} passed to SimpleStrategy "
                             r"for keyspace ks2"):
        session.execute("CREATE KEYSPACE ks2 WITH replication = "
                        "{'class': 'SimpleStrategy', 'foo': 1}")
    with pytest.raises(InvalidRequest, match="Missing mandatory option 'replication'"):
        session.execute("CREATE KEYSPACE ks2 WITH durable_writes = false")
    with pytest.raises(InvalidRequest, match=f"Unknown type {keyspace}.nope"):
        session.execute(f"CREATE TABLE {keyspace}.u (k int PRIMARY KEY, a frozen<nope>)")
    with pytest.raises(ConfigurationException, match="Unable to find compaction strategy class"):
        session.execute(f"CREATE TABLE {keyspace}.u (k int PRIMARY KEY) "
                        "WITH compaction = {'class': 'Nope'}")
    with pytest.raises(SyntaxException, match="Unknown property 'nope'"):
        session.execute(f"CREATE TABLE {keyspace}.u (k int PRIMARY KEY) WITH nope = 1")
    with pytest.raises(Unauthorized, match="system keyspace is not user-modifiable"):
        session.execute("DROP KEYSPACE system")
    session.execute(f"CREATE TYPE {keyspace}.address (street text)")
    session.execute(f"CREATE TABLE {keyspace}.homes (k int PRIMARY KEY, a frozen<address>)")
    with pytest.raises(InvalidRequest, match=f"Cannot drop user type '{keyspace}.address' as it "
                                             "is still used by tables homes"):
        session.execute(f"DROP TYPE {keyspace}.address")


# --- persistence ------------------------------------------------------------------------------------


def test_schema_survives_a_kill_and_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-it-ddl-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as (cluster, session):
                session.execute("CREATE KEYSPACE kept WITH replication = "
                                "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1} "
                                "AND durable_writes = false")
                session.execute("CREATE TYPE kept.point (x double, y double)")
                session.execute("CREATE TABLE kept.shapes (id int, n int, at frozen<point>, "
                                "PRIMARY KEY (id, n)) WITH CLUSTERING ORDER BY (n DESC) "
                                "AND comment = 'persisted'")
                session.execute("ALTER TABLE kept.shapes ADD label text")
                cluster.refresh_schema_metadata()
                before = cluster.metadata.keyspaces["kept"].export_as_string()
                version = session.execute("SELECT schema_version FROM system.local").one()[0]
            server.kill()  # SIGKILL: nothing gets a chance to flush
            server.start()
            with connected(server) as (cluster, session):
                assert cluster.metadata.keyspaces["kept"].export_as_string() == before
                assert session.execute("SELECT schema_version FROM system.local").one()[0] == version
            server.stop_cleanly()
        finally:
            server.kill()
