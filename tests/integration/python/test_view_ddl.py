"""CREATE / ALTER / DROP MATERIALIZED VIEW through the DataStax Python driver:
Cassandra 4.1's errors, the guides' view created and seen in the driver's
metadata, system_schema and DESCRIBE, the statements a view refuses, and the
two configuration keys."""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import AlreadyExists, InvalidRequest
from cassandra.cluster import Session

from driver_session import connected
from sibyl_process import SibylServer, running_server

USAGE_WARNING = ("Materialized views are experimental and are not recommended for production "
                 "use.")
GUIDES_VIEW = ("CREATE MATERIALIZED VIEW users_by_email AS "
               "SELECT email, password, country FROM user_accounts "
               "WHERE username IS NOT NULL AND email IS NOT NULL "
               "PRIMARY KEY (email, username)")

_keyspace_numbers = itertools.count()


def prepare_keyspace(session: Session, name: str) -> None:
    session.execute(f"CREATE KEYSPACE IF NOT EXISTS {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.set_keyspace(name)
    session.execute("CREATE TABLE IF NOT EXISTS user_accounts (username text PRIMARY KEY, "
                    "email text, password text, country text)")
    session.execute("CREATE TABLE IF NOT EXISTS t (k int, c int, v int, s int static, "
                    "l list<int>, PRIMARY KEY (k, c))")


@pytest.fixture
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as s:
        name = f"view_ddl_{next(_keyspace_numbers)}"
        prepare_keyspace(s, name)
        yield s
        s.execute(f"DROP KEYSPACE IF EXISTS {name}")


def error_of(session: Session, query: str) -> str:
    with pytest.raises(InvalidRequest) as caught:
        session.execute(query)
    return caught.value.message if hasattr(caught.value, "message") else str(caught.value)


def test_guides_view_is_created_with_4_1s_warning(session):
    result = session.execute(GUIDES_VIEW)
    assert result.response_future.warnings == [USAGE_WARNING]
    keyspace = session.cluster.metadata.keyspaces[session.keyspace]
    assert "users_by_email" not in keyspace.tables
    view = keyspace.views["users_by_email"]
    assert keyspace.tables["user_accounts"].views["users_by_email"] is view
    assert view.base_table_name == "user_accounts"
    assert not view.include_all_columns
    assert view.where_clause == "username IS NOT NULL AND email IS NOT NULL"
    assert [c.name for c in view.partition_key] == ["email"]
    assert [c.name for c in view.clustering_key] == ["username"]
    assert sorted(view.columns) == ["country", "email", "password", "username"]
    # IF NOT EXISTS is a no-op; without it, the view already exists.
    session.execute(GUIDES_VIEW.replace("VIEW", "VIEW IF NOT EXISTS", 1))
    with pytest.raises(AlreadyExists) as caught:
        session.execute(GUIDES_VIEW)
    assert (caught.value.keyspace, caught.value.table) == (session.keyspace, "users_by_email")


def test_a_view_reads_like_a_table(session):
    session.execute("CREATE MATERIALIZED VIEW by_c AS SELECT k, c, v FROM t WHERE k IS NOT NULL "
                    "AND c IS NOT NULL PRIMARY KEY (c, k)")
    rows = session.execute("SELECT * FROM by_c WHERE c = 1")
    assert rows.column_names == ["c", "k", "v"]
    prepared = session.prepare("SELECT v FROM by_c WHERE c = ? AND k = ?")
    # Token-aware routing uses the view's own partition key.
    assert prepared.routing_key_indexes == [0]
    session.execute(prepared, [1, 2])


def test_truncating_a_base_truncates_its_views(session):
    session.execute(GUIDES_VIEW)
    session.execute("INSERT INTO user_accounts (username, email) VALUES ('u', 'e')")
    session.execute("TRUNCATE user_accounts")
    assert list(session.execute("SELECT * FROM user_accounts")) == []
    assert list(session.execute("SELECT * FROM users_by_email")) == []


def test_system_schema_and_describe(session):
    session.execute("CREATE MATERIALIZED VIEW by_c AS SELECT * FROM user_accounts WHERE "
                    "username IS NOT NULL AND country IS NOT NULL "
                    "PRIMARY KEY (country, username) WITH comment = 'by country'")
    ks = session.keyspace
    row = session.execute("SELECT * FROM system_schema.views WHERE keyspace_name = %s AND "
                          "view_name = 'by_c'", [ks]).one()
    assert row.base_table_name == "user_accounts"
    assert row.include_all_columns
    assert row.where_clause == "username IS NOT NULL AND country IS NOT NULL"
    assert row.comment == "by country"
    assert row.default_time_to_live == 0
    base_id = session.execute("SELECT id FROM system_schema.tables WHERE keyspace_name = %s AND "
                              "table_name = 'user_accounts'", [ks]).one().id
    assert row.base_table_id == base_id
    assert row.id != base_id
    tables = [r.table_name for r in session.execute(
        "SELECT table_name FROM system_schema.tables WHERE keyspace_name = %s", [ks])]
    assert "by_c" not in tables
    columns = {r.column_name: r.kind for r in session.execute(
        "SELECT column_name, kind FROM system_schema.columns WHERE keyspace_name = %s AND "
        "table_name = 'by_c'", [ks])}
    assert columns == {"country": "partition_key", "username": "clustering",
                       "email": "regular", "password": "regular"}
    described = session.execute("DESCRIBE MATERIALIZED VIEW by_c").one()
    assert described.type == "materialized_view"
    assert described.create_statement.startswith(
        f"CREATE MATERIALIZED VIEW {ks}.by_c AS\n    SELECT *\n    FROM {ks}.user_accounts\n"
        "    WHERE username IS NOT NULL AND country IS NOT NULL\n"
        "    PRIMARY KEY (country, username)\n WITH CLUSTERING ORDER BY (username ASC)\n")
    names = [r.name for r in session.execute(f"DESCRIBE KEYSPACE {ks}")]
    assert names.index("by_c") == names.index("user_accounts") + 1


def test_alter_and_drop(session):
    session.execute(GUIDES_VIEW)
    session.execute("ALTER MATERIALIZED VIEW users_by_email WITH comment = 'c'")
    keyspace = session.cluster.metadata.keyspaces[session.keyspace]
    assert keyspace.views["users_by_email"].options["comment"] == "c"
    assert ("Forbidden default_time_to_live detected for a materialized view."
            in error_of(session, "ALTER MATERIALIZED VIEW users_by_email WITH "
                                 "default_time_to_live = 5"))
    session.execute("DROP MATERIALIZED VIEW users_by_email")
    keyspace = session.cluster.metadata.keyspaces[session.keyspace]
    assert "users_by_email" not in keyspace.views
    assert "users_by_email" not in keyspace.tables["user_accounts"].views
    session.execute("DROP MATERIALIZED VIEW IF EXISTS users_by_email")
    # The base can go once its views are gone.
    session.execute("DROP TABLE user_accounts")


@pytest.mark.parametrize("query, message", [
    ("INSERT INTO users_by_email (email, username) VALUES ('a', 'b')",
     "Cannot directly modify a materialized view"),
    ("UPDATE users_by_email SET country = 'x' WHERE email = 'a' AND username = 'b'",
     "Cannot directly modify a materialized view"),
    ("DELETE FROM users_by_email WHERE email = 'a'", "Cannot directly modify a materialized view"),
    ("INSERT INTO users_by_email (email, username) VALUES ('a', 'b') IF NOT EXISTS",
     "Cannot directly modify a materialized view"),
    ("BEGIN BATCH INSERT INTO user_accounts (username) VALUES ('b'); "
     "DELETE FROM users_by_email WHERE email = 'a'; APPLY BATCH",
     "Cannot directly modify a materialized view"),
    ("TRUNCATE users_by_email",
     "Cannot TRUNCATE materialized view directly; must truncate base table instead"),
    ("DROP TABLE users_by_email",
     "Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead."),
    ("DROP TABLE user_accounts",
     "Cannot drop a table when materialized views still depend on it ({ks})"),
    ("ALTER TABLE users_by_email WITH comment = 'x'",
     "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead"),
    ("ALTER TABLE user_accounts DROP country",
     "Cannot drop column country on base table user_accounts with materialized views"),
    ("CREATE INDEX ON users_by_email (country)",
     "Secondary indexes on materialized views aren't supported"),
])
def test_what_a_view_refuses(session, query, message):
    session.execute(GUIDES_VIEW)
    assert message.format(ks=session.keyspace) in error_of(session, query)


def test_a_table_cannot_take_a_views_name(session):
    session.execute(GUIDES_VIEW)
    with pytest.raises(AlreadyExists):
        session.execute("CREATE TABLE users_by_email (k int PRIMARY KEY)")


def test_build_tables_are_readable(session):
    # Whatever the engine reports, the tables answer with 4.1's columns.
    assert session.execute("SELECT keyspace_name, view_name, status_replicated "
                           "FROM system.built_views").column_names == [
        "keyspace_name", "view_name", "status_replicated"]
    assert session.execute("SELECT keyspace_name, view_name, start_token, end_token, last_token, "
                           "keys_built FROM system.view_builds_in_progress").column_names[-1] \
        == "keys_built"
    assert "status" in session.execute("SELECT * FROM system_views.view_builds").column_names


@pytest.mark.parametrize("query, message", [
    ("CREATE MATERIALIZED VIEW v AS SELECT * FROM missing WHERE k IS NOT NULL PRIMARY KEY (k)",
     "Base table 'missing' doesn't exist"),
    ("CREATE MATERIALIZED VIEW t AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL "
     "PRIMARY KEY (k, c)",
     "Cannot create materialized view 't' - a table with the same name already exists"),
    ("CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE k IS NOT NULL AND c IS NOT NULL "
     "PRIMARY KEY (k, c)",
     "Cannot include static column 's' in materialized view 'v'"),
    ("CREATE MATERIALIZED VIEW v AS SELECT k, c, l FROM t WHERE k IS NOT NULL AND c IS NOT NULL "
     "AND l IS NOT NULL PRIMARY KEY (l, k, c)",
     "Invalid non-frozen collection type 'org.apache.cassandra.db.marshal.ListType("
     "org.apache.cassandra.db.marshal.Int32Type)' for PRIMARY KEY column 'l'"),
    ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL PRIMARY KEY (k)",
     "Cannot create materialized view 'v' without primary key columns c from base table 't'"),
    ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL PRIMARY KEY (c, k)",
     "Primary key columns c must be restricted with 'IS NOT NULL' or otherwise"),
    ("CREATE MATERIALIZED VIEW v AS SELECT k, c, v FROM t WHERE k IS NOT NULL AND "
     "c IS NOT NULL AND v = 1 PRIMARY KEY (c, k)",
     "Non-primary key columns can only be restricted with 'IS NOT NULL' (got: v restricted "
     "illegally)"),
    ("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k IS NOT NULL AND c IS NOT NULL "
     "PRIMARY KEY (c, k) WITH default_time_to_live = 10",
     "Cannot set default_time_to_live for a materialized view. Data in a materialized view "
     "always expire at the same time than the corresponding data in the parent table."),
    ("ALTER MATERIALIZED VIEW v WITH comment = 'x'", "Materialized view '{ks}.v' doesn't exist"),
    ("DROP MATERIALIZED VIEW v", "Materialized view '{ks}.v' doesn't exist"),
])
def test_cassandra_41_messages(session, query, message):
    assert message.format(ks=session.keyspace) in error_of(session, query)


def test_bind_markers_are_refused_when_prepared(session):
    with pytest.raises(InvalidRequest) as caught:
        session.prepare("CREATE MATERIALIZED VIEW v AS SELECT k, c FROM t WHERE k = ? AND "
                        "c IS NOT NULL PRIMARY KEY (c, k)")
    assert "Bind variables are not allowed in CREATE MATERIALIZED VIEW statements" in str(
        caught.value)


def test_if_exists_is_a_no_op(session):
    session.execute("DROP MATERIALIZED VIEW IF EXISTS v")
    session.execute("ALTER MATERIALIZED VIEW IF EXISTS v WITH comment = 'x'")


def test_disabled_and_strict_nodes(tmp_path):
    config = tmp_path / "sibyl.yaml"
    config.write_text("materialized_views_enabled: false\n")
    with running_server(["--config", str(config)]) as server, connected(server) as s:
        prepare_keyspace(s, "views_off")
        assert ("Materialized views are disabled. Enable in cassandra.yaml to use."
                in error_of(s, GUIDES_VIEW))
        # ALTER and DROP are not gated, as in 4.1.
        assert "Materialized view 'views_off.v' doesn't exist" in error_of(
            s, "DROP MATERIALIZED VIEW v")
    with running_server(["--materialized-views-strict-primary-key-selection", "true"]) as server, \
            connected(server) as s:
        prepare_keyspace(s, "views_strict")
        assert ("Unknown column 'username' referenced in PRIMARY KEY for materialized view "
                "'users_by_email'" in error_of(s, GUIDES_VIEW))


def test_a_view_survives_a_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-view-restart-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as s:
                prepare_keyspace(s, "views_kept")
                s.execute(GUIDES_VIEW + " WITH comment = 'kept'")
            server.stop_cleanly()
            server = SibylServer(Path(tmp)).start()
            with connected(server) as s:
                row = s.execute("SELECT base_table_name, where_clause, comment FROM "
                                "system_schema.views WHERE keyspace_name = 'views_kept'").one()
                assert (row.base_table_name, row.where_clause, row.comment) == (
                    "user_accounts", "username IS NOT NULL AND email IS NOT NULL", "kept")
                assert "users_by_email" in s.cluster.metadata.keyspaces["views_kept"].views
                assert list(s.execute("SELECT * FROM views_kept.users_by_email")) == []
            server.stop_cleanly()
        finally:
            server.kill()
