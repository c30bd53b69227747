"""CREATE INDEX and DROP INDEX through the DataStax Python driver: the
statements of the guides, system_schema.indexes, the driver's index metadata,
Cassandra 4.1's errors, and DROP INDEX. (Queries that use an index are tested
elsewhere.)"""

from __future__ import annotations

import itertools
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Cluster, Session

from driver_session import connected_cluster as connected

SAI = "org.apache.cassandra.index.sai.StorageAttachedIndex"


@pytest.fixture(scope="module")
def cluster_session(sibyl) -> Iterator[tuple[Cluster, Session]]:
    with connected(sibyl) as pair:
        yield pair


_keyspace_numbers = itertools.count()


@pytest.fixture
def keyspace(cluster_session) -> Iterator[str]:
    """A fresh keyspace in use for one test, dropped afterwards."""
    session = cluster_session[1]
    name = f"index_ddl_{next(_keyspace_numbers)}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.set_keyspace(name)
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")


def create_guide_tables(session: Session) -> None:
    session.execute("""
        CREATE TABLE user_activities (
            user_id uuid, activity_timestamp timestamp, activity_type text,
            activity_data text, device_info text, ip_address text,
            PRIMARY KEY (user_id, activity_timestamp)
        ) WITH CLUSTERING ORDER BY (activity_timestamp DESC)""")
    session.execute("""
        CREATE TABLE user_accounts (
            user_id uuid PRIMARY KEY, email text, country text, tags set<text>)""")


def index_rows(session: Session, keyspace: str) -> list[tuple]:
    rows = session.execute("SELECT table_name, index_name, kind, options "
                           "FROM system_schema.indexes WHERE keyspace_name = %s", [keyspace])
    return [(r.table_name, r.index_name, r.kind, dict(r.options)) for r in rows]


def test_guide_statements_are_stored(cluster_session, keyspace):
    cluster, session = cluster_session
    create_guide_tables(session)
    session.execute("CREATE INDEX ON user_activities (activity_type)")
    session.execute("CREATE INDEX user_account_country ON user_accounts(country)")
    assert index_rows(session, keyspace) == [
        ("user_accounts", "user_account_country", "COMPOSITES", {"target": "country"}),
        ("user_activities", "user_activities_activity_type_idx", "COMPOSITES",
         {"target": "activity_type"}),
    ]


def test_driver_metadata_shows_indexes(cluster_session, keyspace):
    cluster, session = cluster_session
    create_guide_tables(session)
    session.execute("CREATE INDEX user_account_country ON user_accounts(country)")
    session.execute("CREATE INDEX ON user_accounts (tags)")
    session.execute("CREATE CUSTOM INDEX email_sai ON user_accounts (email) USING 'sai'")
    cluster.refresh_schema_metadata()
    table = cluster.metadata.keyspaces[keyspace].tables["user_accounts"]
    assert sorted(table.indexes) == ["email_sai", "user_account_country", "user_accounts_tags_idx"]
    country = table.indexes["user_account_country"]
    assert country.kind == "COMPOSITES"
    assert country.index_options == {"target": "country"}
    assert country.as_cql_query() == \
        f"CREATE INDEX user_account_country ON {keyspace}.user_accounts (country)"
    assert table.indexes["user_accounts_tags_idx"].index_options == {"target": "values(tags)"}
    sai = table.indexes["email_sai"]
    assert sai.kind == "CUSTOM"
    assert sai.index_options == {"class_name": SAI, "target": "email"}
    assert f"CREATE INDEX user_account_country ON {keyspace}.user_accounts (country);" in \
        cluster.metadata.keyspaces[keyspace].export_as_string()


def test_create_index_errors(cluster_session, keyspace):
    session = cluster_session[1]
    create_guide_tables(session)
    session.execute("CREATE INDEX user_account_country ON user_accounts(country)")
    cases = {
        "CREATE INDEX user_account_country ON user_activities (device_info)":
            "Index 'user_account_country' already exists",
        "CREATE INDEX other_name ON user_accounts (country)":
            "Index other_name is a duplicate of existing index user_account_country",
        "CREATE INDEX ON user_accounts (user_id)":
            "Cannot create secondary index on the only partition key column user_id",
        "CREATE INDEX ON user_accounts (nope)":
            f"Undefined column name nope in table {keyspace}.user_accounts",
        "CREATE INDEX ON user_accounts (keys(tags))":
            "Cannot create index on keys of column tags with non-map type",
        "CREATE INDEX ON user_accounts (full(tags))":
            "full() indexes can only be created on frozen collections",
        "CREATE INDEX ON missing (x)": "Table 'missing' doesn't exist",
        "CREATE CUSTOM INDEX ON user_accounts (email) "
        "USING 'org.apache.cassandra.index.sasi.SASIIndex'":
            "SASI indexes are disabled. Enable in cassandra.yaml to use.",
    }
    for statement, message in cases.items():
        with pytest.raises(InvalidRequest) as error:
            session.execute(statement)
        assert message in str(error.value), statement
    # IF NOT EXISTS on a taken name is a no-op, whatever the target.
    session.execute("CREATE INDEX IF NOT EXISTS user_account_country ON user_accounts (email)")
    assert [row[1] for row in index_rows(session, keyspace)] == ["user_account_country"]


def test_drop_index(cluster_session, keyspace):
    cluster, session = cluster_session
    create_guide_tables(session)
    session.execute("CREATE INDEX user_account_country ON user_accounts(country)")
    session.execute("CREATE INDEX ON user_activities (activity_type)")
    with pytest.raises(InvalidRequest) as error:
        session.execute("ALTER TABLE user_accounts DROP country")
    assert "Cannot drop column country because it has dependent secondary indexes " \
        "(user_account_country)" in str(error.value)
    session.execute(f"DROP INDEX {keyspace}.user_account_country")
    session.execute("ALTER TABLE user_accounts DROP country")
    with pytest.raises(InvalidRequest) as error:
        session.execute("DROP INDEX user_account_country")
    assert f"Index '{keyspace}.user_account_country' doesn't exist'" in str(error.value)
    session.execute("DROP INDEX IF EXISTS user_account_country")
    session.execute("DROP TABLE user_activities")
    assert index_rows(session, keyspace) == []
    cluster.refresh_schema_metadata()
    assert cluster.metadata.keyspaces[keyspace].tables["user_accounts"].indexes == {}
