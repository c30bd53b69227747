"""Guardrails (docs/guardrails.md): Cassandra 4.1/5.0's names, keys and
messages, Sibyl's defaults (on, in warn mode, for every client), their live
settings in system_views.guardrails and UPDATE of them; and the older
thresholds the guides' rules meet (tombstones read, unlogged batches)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import ConsistencyLevel, InvalidRequest, ReadFailure
from cassandra.cluster import Session
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from driver_session import connected
from select_support import warnings_of
from sibyl_process import running_server
from test_process import assert_fails_with_one_line, run, start_args

ALLOW_FILTERING_WARNING = (
    "Guardrail allow_filtering violated: Querying with ALLOW FILTERING is not recommended. "
    "ALLOW FILTERING can potentially visit all the data in the table and have unpredictable "
    "performance.")


@pytest.fixture(scope="module")
def server():
    """A server of its own: these tests change its guardrails."""
    with tempfile.TemporaryDirectory(prefix="sibyl-guardrails-") as tmp:
        config = Path(tmp) / "sibyl.yaml"
        config.write_text("read_consistency_levels_warned: [TWO, THREE]\n"
                          "fields_per_udt_fail_threshold: 100\n")
        with running_server(["--config", str(config)]) as server:
            yield server


@pytest.fixture(scope="module")
def session(server) -> Iterator[Session]:
    with connected(server) as session:
        session.execute("CREATE KEYSPACE g WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE g.t (k int, c int, v text, l list<int>, "
                        "PRIMARY KEY (k, c))")
        yield session


def update_guardrail(session: Session, name: str, **columns) -> None:
    assignments = ", ".join(f"{column} = %s" for column in columns)
    session.execute(f"UPDATE system_views.guardrails SET {assignments} WHERE name = %s",
                    [*columns.values(), name])


def guardrail_row(session: Session, name: str):
    return session.execute("SELECT * FROM system_views.guardrails WHERE name = %s", [name]).one()


def test_every_guardrail_is_listed_with_sibyls_defaults(session):
    rows = {row.name: row for row in session.execute("SELECT * FROM system_views.guardrails")}
    for name in ("keyspaces", "tables", "columns_per_table", "secondary_indexes_per_table",
                 "secondary_indexes", "materialized_views_per_table", "table_properties",
                 "user_timestamps", "group_by", "drop_truncate_table_enabled", "page_size",
                 "partition_keys_in_select", "in_select_cartesian_product", "allow_filtering",
                 "read_consistency_levels", "write_consistency_levels", "collection_size",
                 "items_per_collection", "column_value_size", "partition_size",
                 "partition_tombstones", "minimum_replication_factor", "fields_per_udt",
                 "local_data_disk_usage", "sai_string_term_size", "partition_rows"):
        assert name in rows, name
    # The guides' numbers, in warn mode.
    assert (rows["partition_size"].warn_threshold, rows["partition_size"].fail_threshold) == (
        "100MiB", None)
    assert rows["partition_rows"].warn_threshold == "100000"
    assert rows["partition_tombstones"].warn_threshold == "10000"
    assert rows["items_per_collection"].warn_threshold == "1000"
    assert (rows["allow_filtering"].enabled, rows["allow_filtering"].warned) == (True, True)
    assert rows["page_size"].warn_threshold == "-1"
    assert rows["page_size"].kind == "max threshold"
    assert rows["minimum_replication_factor"].kind == "min threshold"
    # From the configuration file.
    assert rows["read_consistency_levels"].warned_values == "[TWO, THREE]"
    assert rows["fields_per_udt"].fail_threshold == "100"
    # system_views.settings shows the keys, as Cassandra's does.
    settings = dict(session.execute(
        "SELECT name, value FROM system_views.settings WHERE name IN "
        "('page_size_warn_threshold', 'partition_size_fail_threshold', "
        "'read_consistency_levels_warned', 'allow_filtering_enabled')"))
    assert settings == {"page_size_warn_threshold": "-1", "partition_size_fail_threshold": None,
                        "read_consistency_levels_warned": "[TWO, THREE]",
                        "allow_filtering_enabled": "true"}


def test_allow_filtering_warns_by_default(session):
    assert warnings_of(session, "SELECT * FROM g.t WHERE v = 'x' ALLOW FILTERING") == [
        ALLOW_FILTERING_WARNING]
    # Not on system keyspaces, and not without ALLOW FILTERING.
    assert warnings_of(session, "SELECT * FROM system_schema.tables WHERE table_name = 't' "
                                "ALLOW FILTERING") == []
    assert warnings_of(session, "SELECT * FROM g.t WHERE k = 1") == []


def test_update_applies_at_once(session):
    update_guardrail(session, "allow_filtering", enabled=False)
    try:
        assert guardrail_row(session, "allow_filtering").enabled is False
        with pytest.raises(InvalidRequest) as refused:
            session.execute("SELECT * FROM g.t WHERE v = 'x' ALLOW FILTERING")
        assert str(refused.value).endswith(
            "Guardrail allow_filtering violated: Querying with ALLOW FILTERING is not allowed. "
            "ALLOW FILTERING can potentially visit all the data in the table and have "
            "unpredictable performance.\"")
    finally:
        update_guardrail(session, "allow_filtering", enabled=True)
    session.execute("SELECT * FROM g.t WHERE v = 'x' ALLOW FILTERING")

    update_guardrail(session, "allow_filtering", warned=False)
    try:
        assert warnings_of(session, "SELECT * FROM g.t WHERE v = 'x' ALLOW FILTERING") == []
    finally:
        update_guardrail(session, "allow_filtering", warned=True)


def test_page_size_thresholds(session):
    update_guardrail(session, "page_size", warn_threshold="100", fail_threshold="1000")
    try:
        assert guardrail_row(session, "page_size").warn_threshold == "100"
        assert warnings_of(session, "SELECT * FROM g.t", fetch_size=100) == []
        assert warnings_of(session, "SELECT * FROM g.t", fetch_size=101) == [
            "Guardrail page_size violated: Query for table t with page size 101 exceeds "
            "warning threshold of 100."]
        # A LIMIT within the page does not page: not checked.
        assert warnings_of(session, "SELECT * FROM g.t LIMIT 50", fetch_size=500) == []
        with pytest.raises(InvalidRequest, match="Guardrail page_size violated: Aborting query "
                                                 "for table t, page size 5000 exceeds fail "
                                                 "threshold of 1000."):
            session.execute(SimpleStatement("SELECT * FROM g.t", fetch_size=5000))
    finally:
        update_guardrail(session, "page_size", warn_threshold=None, fail_threshold=None)
    assert guardrail_row(session, "page_size").warn_threshold == "-1"
    assert warnings_of(session, "SELECT * FROM g.t", fetch_size=5000) == []


def test_bad_updates_are_refused_with_cassandras_messages(session):
    with pytest.raises(InvalidRequest, match="Invalid value for page_size_warn_threshold: 0 is "
                                             "not allowed; if attempting to disable use -1"):
        update_guardrail(session, "page_size", warn_threshold="0")
    with pytest.raises(InvalidRequest, match="The warn threshold 2000 for "
                                             "items_per_collection_warn_threshold should be lower "
                                             "than the fail threshold 1500"):
        update_guardrail(session, "items_per_collection", warn_threshold="2000",
                         fail_threshold="1500")
    with pytest.raises(InvalidRequest, match="Guardrail page_size has no enabled setting"):
        update_guardrail(session, "page_size", enabled=False)
    with pytest.raises(InvalidRequest, match="Unknown guardrail 'no_such_guardrail'"):
        update_guardrail(session, "no_such_guardrail", enabled=False)
    with pytest.raises(InvalidRequest, match="Invalid value for allow_filtering_enabled: null is "
                                             "not allowed"):
        session.execute("UPDATE system_views.guardrails SET enabled = blobAsBoolean(0x) "
                        "WHERE name = 'allow_filtering'")
    with pytest.raises(InvalidRequest, match="Only INSERT or UPDATE of system_views.guardrails"):
        session.execute("DELETE FROM system_views.guardrails WHERE name = 'page_size'")
    # Nothing of a refused change was kept.
    row = guardrail_row(session, "items_per_collection")
    assert (row.warn_threshold, row.fail_threshold) == ("1000", "-1")


def test_consistency_levels(session):
    update_guardrail(session, "write_consistency_levels", disallowed_values="[ALL, ANY]")
    try:
        insert = SimpleStatement("INSERT INTO g.t (k, c, v) VALUES (1, 1, 'a')",
                                 consistency_level=ConsistencyLevel.ALL)
        with pytest.raises(InvalidRequest) as refused:
            session.execute(insert)
        assert ("Guardrail write_consistency_levels violated: Provided values [ALL] are not "
                "allowed for write consistency levels (disallowed values are: [ANY, ALL])"
                in str(refused.value))
        batch = BatchStatement(consistency_level=ConsistencyLevel.ANY)
        batch.add("INSERT INTO g.t (k, c, v) VALUES (1, 1, 'a')")
        with pytest.raises(InvalidRequest, match=r"Provided values \[ANY\] are not allowed"):
            session.execute(batch)
        session.execute("INSERT INTO g.t (k, c, v) VALUES (1, 1, 'a')")
    finally:
        update_guardrail(session, "write_consistency_levels", disallowed_values=None)
    update_guardrail(session, "read_consistency_levels", warned_values="ONE")
    try:
        one = SimpleStatement("SELECT * FROM g.t WHERE k = 1", consistency_level=ConsistencyLevel.ONE)
        assert warnings_of(session, one) == [
            "Guardrail read_consistency_levels violated: Provided values [ONE] are not "
            "recommended for read consistency levels (warned values are: [ONE])"]
    finally:
        update_guardrail(session, "read_consistency_levels", warned_values="[TWO, THREE]")


def test_user_timestamps(session):
    update_guardrail(session, "user_timestamps", enabled=False)
    try:
        message = ("Guardrail user_timestamps violated: User provided timestamps (USING TIMESTAMP) "
                   "is not allowed")
        with pytest.raises(InvalidRequest, match=message.replace("(", r"\(").replace(")", r"\)")):
            session.execute("INSERT INTO g.t (k, c, v) VALUES (2, 1, 'a') USING TIMESTAMP 5")
        batch = BatchStatement()
        batch.add("INSERT INTO g.t (k, c, v) VALUES (2, 1, 'a') USING TIMESTAMP 5")
        with pytest.raises(InvalidRequest, match="Guardrail user_timestamps violated"):
            session.execute(batch)
        session.execute("INSERT INTO g.t (k, c, v) VALUES (2, 1, 'a')")
    finally:
        update_guardrail(session, "user_timestamps", enabled=True)
    session.execute("INSERT INTO g.t (k, c, v) VALUES (2, 1, 'a') USING TIMESTAMP 5")


def test_in_restrictions(session):
    update_guardrail(session, "partition_keys_in_select", fail_threshold="3")
    update_guardrail(session, "in_select_cartesian_product", warn_threshold="2")
    try:
        assert warnings_of(session, "SELECT * FROM g.t WHERE k IN (1, 2)") == []
        with pytest.raises(InvalidRequest, match="Guardrail partition_keys_in_select violated: "
                                                 "Aborting query with partition keys in IN clause "
                                                 "on table t, number of partition keys 4 exceeds "
                                                 "fail threshold of 3."):
            session.execute("SELECT * FROM g.t WHERE k IN (1, 2, 3, 4)")
        assert warnings_of(session, "SELECT * FROM g.t WHERE k = 1 AND c IN (1, 2, 3)") == [
            "Guardrail in_select_cartesian_product violated: The cartesian product of the IN "
            "restrictions on clustering key produces 3 values, this exceeds warning threshold "
            "of 2."]
    finally:
        update_guardrail(session, "partition_keys_in_select", fail_threshold=None)
        update_guardrail(session, "in_select_cartesian_product", warn_threshold=None)


def test_collections_and_values(session):
    # Sibyl's default: a warning past 1,000 items written to a collection.
    insert = session.prepare("INSERT INTO g.t (k, c, l) VALUES (3, 1, ?)")
    assert warnings_of(session, insert.bind([list(range(1000))])) == []
    assert warnings_of(session, insert.bind([list(range(1001))])) == [
        "Guardrail items_per_collection violated: Detected collection l with 1001 items, this "
        "exceeds the warning threshold of 1000."]
    update_guardrail(session, "column_value_size", fail_threshold="1KiB")
    try:
        with pytest.raises(InvalidRequest, match="Guardrail column_value_size violated: Value of "
                                                 "column 'v' has size 2000, this exceeds the "
                                                 "failure threshold of 1024."):
            session.execute("INSERT INTO g.t (k, c, v) VALUES (3, 2, %s)", ["x" * 2000])
        session.execute("INSERT INTO g.t (k, c, v) VALUES (3, 2, %s)", ["x" * 1000])
    finally:
        update_guardrail(session, "column_value_size", fail_threshold=None)


def test_guardrails_from_flags_and_bad_configuration(tmp_path):
    result = run([*start_args(tmp_path), "--page-size-warn-threshold", "0"], tmp_path)
    assert_fails_with_one_line(result, "Invalid value for page_size_warn_threshold: 0 is not "
                                       "allowed; if attempting to disable use -1")
    config = tmp_path / "sibyl.yaml"
    config.write_text("items_per_collection_fail_threshold: 10\n")
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    assert_fails_with_one_line(result, "The warn threshold 1000 for "
                                       "items_per_collection_warn_threshold should be lower than "
                                       "the fail threshold 10")
    config.write_text("read_consistency_levels_disallowed: [SOMETIMES]\n")
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    assert_fails_with_one_line(result, "SOMETIMES")


# --- the guides' rules on defaults -------------------------------------------------------------


@pytest.fixture(scope="module")
def default_session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as session:
        session.execute("CREATE KEYSPACE IF NOT EXISTS guides WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE IF NOT EXISTS guides.readings "
                        "(sensor int, ts int, v int, PRIMARY KEY (sensor, ts))")
        yield session


def test_tombstones_warn_past_1000_then_fail_past_100000(default_session):
    """cassandra.yaml's tombstone_warn_threshold (1,000) and tombstone_failure_threshold
    (100,000), at their defaults: a warning, then a ReadFailure."""
    session = default_session
    delete = session.prepare("DELETE FROM guides.readings WHERE sensor = ? AND ts = ?")

    def delete_rows(sensor: int, count: int) -> None:
        # Batches of one partition: never measured against the batch size thresholds.
        for start in range(0, count, 5000):
            batch = BatchStatement(batch_type=BatchType.UNLOGGED)
            for ts in range(start, min(count, start + 5000)):
                batch.add(delete, (sensor, ts))
            session.execute(batch)

    delete_rows(1, 1001)
    warnings = warnings_of(session, "SELECT * FROM guides.readings WHERE sensor = 1")
    assert len(warnings) == 1, warnings
    assert "1001 tombstones" in warnings[0]
    assert warnings[0].endswith("(see tombstone_warn_threshold)")
    delete_rows(2, 100001)
    with pytest.raises(ReadFailure):
        session.execute("SELECT * FROM guides.readings WHERE sensor = 2")


def test_unlogged_batch_over_eleven_partitions_has_cassandras_text(default_session):
    session = default_session
    insert = session.prepare("INSERT INTO guides.readings (sensor, ts, v) VALUES (?, 0, 1)")
    batch = BatchStatement(batch_type=BatchType.UNLOGGED)
    for sensor in range(100, 111):
        batch.add(insert, (sensor,))
    assert warnings_of(session, batch) == [
        "Unlogged batch covering 11 partitions detected against table [guides.readings]. "
        "You should use a logged batch for atomicity, or asynchronous writes for performance."]


def test_an_empty_batch_is_checked_and_applied(session):
    """A batch with no statement (BEGIN BATCH APPLY BATCH, or a BATCH message of
    none) has no level to check from its statements: it is a no-op, and the
    node stays up."""
    session.execute("BEGIN BATCH APPLY BATCH")
    session.execute(BatchStatement())
    assert session.execute("SELECT release_version FROM system.local").one() is not None
