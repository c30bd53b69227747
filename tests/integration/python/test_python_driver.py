"""End-to-end through the DataStax Python driver (Debian's python3-cassandra, 3.25)."""

from __future__ import annotations

import contextlib
import re
from typing import Iterator

import pytest
from cassandra import InvalidRequest, ProtocolVersion
from cassandra import connection as driver_connection
from cassandra.cluster import Cluster, Session
from cassandra.protocol import SyntaxException
from cassandra.query import SimpleStatement

from sibyl_process import SHARED_CLUSTER_NAME, SHARED_NUM_TOKENS, SibylServer, running_server

SYSTEM_KEYSPACES = {"system", "system_schema", "system_auth", "system_distributed", "system_traces"}
# The system_schema tables the driver reads when it loads the schema.
DRIVER_SCHEMA_TABLES = {"keyspaces", "tables", "columns", "types", "functions", "aggregates",
                        "triggers", "indexes", "views"}
# Warnings the driver logs about its own configuration, against Cassandra 4.1
# as against us: stepping down from its highest protocol version (0x42 → 0x41
# → 5) when none is set, and contact points without a load-balancing policy.
# Nothing else may be logged.
DOWNGRADE_PREFIX = "Downgrading core protocol version from"
NO_LBP_PREFIX = "Cluster.__init__ called with contact_points specified, but no load_balancing_policy"


def unexpected_messages(log) -> list[str]:
    return [m for m in log.messages() if DOWNGRADE_PREFIX not in m and NO_LBP_PREFIX not in m]


@contextlib.contextmanager
def connected(server: SibylServer, **cluster_options) -> Iterator[tuple[Cluster, Session]]:
    cluster = Cluster(contact_points=[server.host], port=server.port, **cluster_options)
    try:
        yield cluster, cluster.connect()
    finally:
        cluster.shutdown()


def pool_connections(session: Session) -> list:
    """The driver's connections of the session's pools (one per host with v3+)."""
    return [pool._connection for pool in session.get_pools() if pool._connection is not None]


# --- connecting ---------------------------------------------------------------------------------


def test_default_connect_settles_on_v5_without_warnings(sibyl, driver_log):
    with connected(sibyl) as (cluster, session):
        assert cluster.protocol_version == ProtocolVersion.V5
        assert session.execute("SELECT key FROM system.local").one().key == "local"
        assert SYSTEM_KEYSPACES <= set(cluster.metadata.keyspaces)
        unexpected = unexpected_messages(driver_log)
        downgrades = [m for m in driver_log.messages() if DOWNGRADE_PREFIX in m]
    assert unexpected == [], "the driver logged:\n" + "\n".join(unexpected)
    assert downgrades and " to 5 " in downgrades[-1], downgrades


@pytest.mark.parametrize("version", [ProtocolVersion.V4, ProtocolVersion.V3])
def test_forced_protocol_version(sibyl, driver_log, version):
    with connected(sibyl, protocol_version=version) as (cluster, session):
        assert cluster.protocol_version == version
        assert all(c.protocol_version == version for c in pool_connections(session))
        row = session.execute("SELECT cluster_name, release_version FROM system.local").one()
        assert row.cluster_name == SHARED_CLUSTER_NAME
        assert SYSTEM_KEYSPACES <= set(cluster.metadata.keyspaces)
    assert unexpected_messages(driver_log) == []


def require_compressor(name: str) -> None:
    if name not in driver_connection.locally_supported_compressions:
        pytest.fail(f"the driver has no {name} support: install python3-{name} "
                    "(scripts/install-deps.sh)", pytrace=False)


class CallCounter:
    def __init__(self, function):
        self.function = function
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return self.function(*args)


def test_lz4_v5(sibyl, driver_log, monkeypatch):
    require_compressor("lz4")
    # In v5 compression happens per segment, in one codec object the module shares.
    codec = driver_connection.segment_codec_lz4
    counter = CallCounter(codec.decompressor)
    monkeypatch.setattr(codec, "decompressor", counter)
    with connected(sibyl, compression="lz4") as (cluster, session):
        assert cluster.protocol_version == ProtocolVersion.V5
        for conn in pool_connections(session) + [cluster.control_connection._connection]:
            assert conn._compression_type == "lz4"
            assert conn.compressor is not None
        counter.calls = 0
        rows = list(session.execute("SELECT * FROM system_schema.columns"))
        assert len(rows) > 50
        assert counter.calls > 0, "no lz4-compressed segment came back"
    assert unexpected_messages(driver_log) == []


@pytest.mark.parametrize("name", ["lz4", "snappy"])
@pytest.mark.parametrize("version", [ProtocolVersion.V4, ProtocolVersion.V3])
def test_compression_v4_v3(sibyl, driver_log, monkeypatch, name, version):
    require_compressor(name)
    with connected(sibyl, compression=name, protocol_version=version) as (cluster, session):
        (conn,) = pool_connections(session)
        assert conn._compression_type == name
        assert conn.compressor is not None
        counter = CallCounter(conn.decompressor)
        monkeypatch.setattr(conn, "decompressor", counter)
        rows = list(session.execute("SELECT * FROM system_schema.columns"))
        assert len(rows) > 50
        assert counter.calls > 0, f"no {name}-compressed frame came back"
    assert unexpected_messages(driver_log) == []


# --- metadata -----------------------------------------------------------------------------------


def test_schema_metadata(sibyl):
    with connected(sibyl) as (cluster, _):
        keyspaces = cluster.metadata.keyspaces
        assert SYSTEM_KEYSPACES <= set(keyspaces)
        schema_tables = keyspaces["system_schema"].tables
        assert DRIVER_SCHEMA_TABLES <= set(schema_tables)
        for name in DRIVER_SCHEMA_TABLES:
            table = schema_tables[name]
            assert table.columns, f"system_schema.{name} has no columns"
            assert [c.name for c in table.partition_key] == ["keyspace_name"], name
        assert {"kind", "position", "type", "clustering_order"} <= set(schema_tables["columns"].columns)
        local = keyspaces["system"].tables["local"]
        assert [c.name for c in local.partition_key] == ["key"]
        assert local.clustering_key == []
        assert local.columns["tokens"].cql_type == "set<text>"
        # An empty or missing 'flags' makes the driver treat a table as COMPACT STORAGE.
        assert not local.is_compact_storage
        assert not any(t.is_compact_storage for t in schema_tables.values())


def test_token_map(sibyl):
    with connected(sibyl) as (cluster, session):
        token_map = cluster.metadata.token_map
        assert token_map is not None, "the driver built no token map"
        assert len(token_map.ring) == SHARED_NUM_TOKENS
        (host,) = cluster.metadata.all_hosts()
        assert set(token_map.token_to_host_owner.values()) == {host}
        local_tokens = session.execute("SELECT tokens FROM system.local").one().tokens
        assert sorted(t.value for t in token_map.ring) == sorted(int(t) for t in local_tokens)
        # One node owns every token, so it is the replica of any key of a
        # SimpleStrategy keyspace (system_auth: replication_factor 1).
        assert cluster.metadata.get_replicas("system_auth", b"cassandra") == [host]


def check_system_local(row, cluster_name: str, num_tokens: int) -> None:
    assert row.key == "local"
    assert row.release_version.startswith("4.1"), row.release_version
    assert row.cluster_name == cluster_name
    assert row.data_center == "datacenter1"
    assert row.rack == "rack1"
    assert row.partitioner.endswith("Murmur3Partitioner"), row.partitioner
    assert row.host_id is not None
    assert row.schema_version is not None
    assert row.cql_version and row.cql_version[0] == "3"
    assert len(row.tokens) == num_tokens


def test_system_local(sibyl):
    with connected(sibyl) as (_, session):
        rows = list(session.execute("SELECT * FROM system.local"))
        assert len(rows) == 1
        check_system_local(rows[0], SHARED_CLUSTER_NAME, SHARED_NUM_TOKENS)
        by_key = session.execute("SELECT * FROM system.local WHERE key = 'local'").one()
        assert by_key == rows[0]


def test_system_local_defaults():
    with running_server() as server, connected(server) as (_, session):
        check_system_local(session.execute("SELECT * FROM system.local").one(), "Test Cluster", 16)


def test_config_file_and_flag_override(tmp_path):
    config = tmp_path / "sibyl.yaml"
    config.write_text(
        "cluster_name: 'From File'\n"
        "num_tokens: 4\n"
        "concurrent_reads: 32  # a Cassandra key Sibyl ignores with a warning\n")
    with running_server(["--config", str(config), "--cluster-name", "From Flag"]) as server, \
            connected(server) as (_, session):
        check_system_local(session.execute("SELECT * FROM system.local").one(), "From Flag", 4)


# --- requests -----------------------------------------------------------------------------------


def test_200_concurrent_queries_over_one_connection(sibyl):
    with connected(sibyl) as (_, session):
        (state,) = session.get_pool_state().values()
        assert state["open_count"] == 1
        pairs = [(r.keyspace_name, r.table_name)
                 for r in session.execute("SELECT keyspace_name, table_name FROM system_schema.tables")]
        assert len(pairs) > 10
        by_key = session.prepare("SELECT keyspace_name, table_name FROM system_schema.tables "
                                 "WHERE keyspace_name = ? AND table_name = ?")
        local = "SELECT cluster_name FROM system.local WHERE key = 'local'"
        # Every fourth request is of another shape, so a mixed-up stream id shows.
        requests = [("local", None) if i % 4 == 3 else ("pair", pairs[i % len(pairs)])
                    for i in range(200)]
        futures = [session.execute_async(local) if kind == "local" else session.execute_async(by_key, pair)
                   for kind, pair in requests]
        for (kind, pair), future in zip(requests, futures):
            rows = list(future.result())
            if kind == "local":
                assert [r.cluster_name for r in rows] == [SHARED_CLUSTER_NAME]
            else:
                assert [(r.keyspace_name, r.table_name) for r in rows] == [pair]
        assert len({id(f._connection) for f in futures}) == 1
        (state,) = session.get_pool_state().values()
        assert state["open_count"] == 1


def test_syntax_error(sibyl):
    with connected(sibyl) as (_, session):
        with pytest.raises(SyntaxException):
            session.execute("SELEKT * FROM system.local")


def test_unknown_table(sibyl):
    with connected(sibyl) as (_, session):
        with pytest.raises(InvalidRequest, match="no_such_table"):
            session.execute("SELECT * FROM system.no_such_table")


def test_unknown_keyspace(sibyl):
    with connected(sibyl) as (_, session):
        with pytest.raises(InvalidRequest, match="no_such_keyspace"):
            session.execute("SELECT * FROM no_such_keyspace.t")


def test_unsupported_statement_names_itself(sibyl):
    # Either Sibyl does not implement CREATE TABLE yet and says so, or it does
    # and the keyspace does not exist: an InvalidRequest naming the problem.
    with connected(sibyl) as (_, session):
        with pytest.raises(InvalidRequest) as error:
            session.execute("CREATE TABLE no_such_keyspace.t (k int PRIMARY KEY, v text)")
    message = str(error.value)
    names_statement = re.search(r"(?i)create table", message) and re.search(r"(?i)implement|support", message)
    names_keyspace = "no_such_keyspace" in message and re.search(r"(?i)exist", message)
    assert names_statement or names_keyspace, message


def test_use_keyspace(sibyl):
    with connected(sibyl) as (cluster, _):
        session = cluster.connect("system_schema")
        assert session.keyspace == "system_schema"
        names = {r.keyspace_name for r in session.execute("SELECT keyspace_name FROM keyspaces")}
        assert SYSTEM_KEYSPACES <= names
        session.set_keyspace("system")
        assert session.execute("SELECT key FROM local").one().key == "local"


@pytest.mark.parametrize("version", [ProtocolVersion.V5, ProtocolVersion.V4])
def test_prepared_system_select(sibyl, version):
    with connected(sibyl, protocol_version=version) as (_, session):
        prepared = session.prepare("SELECT keyspace_name, table_name FROM system_schema.tables "
                                   "WHERE keyspace_name = ?")
        assert len(prepared.column_metadata) == 1  # the bind marker
        rows = list(session.execute(prepared, ["system_schema"]))
        assert {r.table_name for r in rows} >= DRIVER_SCHEMA_TABLES
        assert {r.keyspace_name for r in rows} == {"system_schema"}
        local = session.prepare("SELECT cluster_name FROM system.local WHERE key = ?")
        assert session.execute(local, ["local"]).one().cluster_name == SHARED_CLUSTER_NAME
        assert session.execute(local, ["elsewhere"]).one() is None


@pytest.mark.parametrize("version", [ProtocolVersion.V5, ProtocolVersion.V4, ProtocolVersion.V3])
def test_paging_returns_the_same_rows(sibyl, version):
    query = "SELECT * FROM system_schema.columns"
    with connected(sibyl, protocol_version=version) as (_, session):
        unpaged = list(session.execute(SimpleStatement(query, fetch_size=None)))
        paged = session.execute(SimpleStatement(query, fetch_size=10))
        assert len(paged.current_rows) == 10
        assert paged.has_more_pages
        assert list(paged) == unpaged
        assert len(unpaged) > 10
