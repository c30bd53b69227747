"""CREATE / ALTER / DROP MATERIALIZED VIEW through the DataStax Python driver:
Cassandra 4.1's errors, the guides' view (accepted by the checks, then refused
while Sibyl does not maintain views), and the two configuration keys."""

from __future__ import annotations

import itertools
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session

from driver_session import connected
from sibyl_process import running_server

NOT_SUPPORTED = "Materialized views are not supported by Sibyl yet"
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


def test_guides_view_passes_the_checks_then_is_refused(session):
    assert NOT_SUPPORTED in error_of(session, GUIDES_VIEW)
    assert NOT_SUPPORTED in error_of(session, GUIDES_VIEW.replace("VIEW", "VIEW IF NOT EXISTS", 1))
    assert "users_by_email" not in session.cluster.metadata.keyspaces[session.keyspace].tables


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
