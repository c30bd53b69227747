"""The large-data ledger (docs/large-data.md): partitions measured whole,
memtable flushes and SSTables together, against the guides' rules — the
large_partitions / large_rows / large_cells / partition_stats views, the
client warning that names the rule, the key, the evidence and the fix, the
fail thresholds that refuse writes, system_views.model_warnings, and their
counts on /metrics."""

from __future__ import annotations

from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session

from driver_session import connected
from select_support import warnings_of
from sibyl_process import running_server
from test_metrics import Samples, scrape

MIB = 1 << 20


@pytest.fixture(scope="module")
def server():
    """A server of its own: these tests change its guardrails."""
    with running_server() as server:
        yield server


@pytest.fixture(scope="module")
def session(server) -> Iterator[Session]:
    with connected(server) as session:
        session.execute("CREATE KEYSPACE iot WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        yield session


def flush(session: Session, keyspace: str, table: str) -> None:
    session.execute("INSERT INTO system_views.flushes (keyspace_name, table_name) "
                    "VALUES (%s, %s)", [keyspace, table])


def update_guardrail(session: Session, name: str, **columns) -> None:
    assignments = ", ".join(f"{column} = %s" for column in columns)
    session.execute(f"UPDATE system_views.guardrails SET {assignments} WHERE name = %s",
                    [*columns.values(), name])


def ledger_rows(session: Session, view: str, table: str) -> list:
    return list(session.execute(f"SELECT * FROM system_views.{view} "
                                "WHERE keyspace_name = 'iot' AND table_name = %s", [table]))


def model_warning(session: Session, rule: str, table: str):
    return session.execute("SELECT * FROM system_views.model_warnings WHERE rule = %s "
                           "AND keyspace_name = 'iot' AND table_name = %s", [rule, table]).one()


def test_150_mib_over_three_flushes_is_one_large_partition(server, session):
    session.execute("CREATE TABLE iot.readings (sensor int, ts timestamp, v blob, "
                    "PRIMARY KEY (sensor, ts))")
    insert = session.prepare("INSERT INTO iot.readings (sensor, ts, v) VALUES (?, ?, ?)")
    value = b"r" * MIB
    for flush_number in range(3):
        # 50 MiB a flush: no SSTable holds more than half the 100MiB
        # threshold, as Cassandra's per-SSTable check would see it.
        for i in range(50):
            session.execute(insert, [42, flush_number * 1000 + i, value])
        if flush_number == 0:
            session.execute(insert, [7, 0, b"small"])
        flush(session, "iot", "readings")

    [row] = ledger_rows(session, "large_partitions", "readings")
    assert row.partition_key == "sensor=42"
    assert 150 * MIB < row.partition_size < 151 * MIB
    assert (row.rows, row.cells, row.tombstones) == (150, 150, 0)
    assert row.rule == "partition_size"
    assert row.last_seen is not None

    select = "SELECT ts FROM iot.readings WHERE sensor = 42 LIMIT 1"
    expected = ("Guardrail partition_size violated: Partition iot.readings (sensor=42) has size "
                "150MiB, over the warning threshold of 100MiB; bucket it by time: "
                "PRIMARY KEY ((sensor, day), ts)")
    assert warnings_of(session, select) == [expected]
    # The write that touches it is told too; the small neighbour is not.
    future = session.execute_async(insert, [42, 999999, b"x"])
    future.result()
    assert future.warnings == [expected]
    assert warnings_of(session, "SELECT ts FROM iot.readings WHERE sensor = 7") == []

    stats = {r.measure: r for r in ledger_rows(session, "partition_stats", "readings")}
    assert stats["bytes"].partitions == 2, "sensor 42 counts once, as its sum"
    assert 150 * MIB < stats["bytes"].max < 151 * MIB
    assert stats["rows"].max == 150 and stats["rows"].min == 1

    seen = model_warning(session, "partition_size", "readings")
    assert seen.count >= 2
    assert seen.example == "INSERT INTO iot.readings (sensor, ts, v) VALUES (?, ?, ?)"
    assert seen.last_warning == expected
    assert seen.first_seen <= seen.last_seen

    # The same counts on /metrics.
    samples = Samples(scrape(server))
    labels = {"keyspace": "iot", "table": "readings"}
    assert samples.get("sibyl_ledger_named_partitions", **labels) == 1
    assert 150 * MIB < samples.get("sibyl_ledger_largest_partition_bytes", **labels) < 151 * MIB
    assert samples.get("sibyl_ledger_partitions_breaking_rule", rule="partition_size",
                       **labels) == 1
    assert samples.get("sibyl_model_warnings_total", rule="partition_size", **labels) == seen.count


def test_the_memtables_share_counts_before_its_flush(session):
    session.execute("CREATE TABLE iot.metrics (metric text, ts timeuuid, v blob, "
                    "PRIMARY KEY (metric, ts))")
    insert = session.prepare("INSERT INTO iot.metrics (metric, ts, v) VALUES (?, now(), ?)")
    value = b"m" * MIB
    for _ in range(60):
        session.execute(insert, ["cpu", value])
    flush(session, "iot", "metrics")
    select = "SELECT ts FROM iot.metrics WHERE metric = 'cpu' LIMIT 1"
    assert warnings_of(session, select) == [], "60 MiB: under the threshold"
    # 50 MiB more, under the 64 MiB that makes a memtable flush on its own:
    # the partition is 110 MiB as the next read sees it.
    for _ in range(50):
        session.execute(insert, ["cpu", value])
    [warning] = warnings_of(session, select)
    assert warning.startswith("Guardrail partition_size violated: Partition iot.metrics "
                              "(metric='cpu') has size 110MiB, over the warning threshold of "
                              "100MiB; bucket it by time: PRIMARY KEY ((metric, day), ts)")
    [row] = ledger_rows(session, "large_partitions", "metrics")
    assert 110 * MIB < row.partition_size < 111 * MIB
    assert row.rows == 60, "rows count from the flush"
    flush(session, "iot", "metrics")
    [row] = ledger_rows(session, "large_partitions", "metrics")
    assert 110 * MIB < row.partition_size < 111 * MIB, "counted once after the flush"
    assert row.rows == 110


def test_rows_over_the_fail_threshold_refuse_writes_but_not_reads_or_deletes(session):
    session.execute("CREATE TABLE iot.users_by_country (country text, id int, name text, "
                    "PRIMARY KEY (country, id))")
    insert = session.prepare("INSERT INTO iot.users_by_country (country, id, name) "
                             "VALUES (?, ?, ?)")
    for i in range(1200):
        session.execute(insert, ["FR", i, "x"])
    flush(session, "iot", "users_by_country")
    update_guardrail(session, "partition_rows", warn_threshold="1000", fail_threshold="1100")
    try:
        warning = ("Guardrail partition_rows violated: Partition iot.users_by_country "
                   "(country='FR') has 1,200 rows, over the fail threshold of 1,100; split it "
                   "with a bucket in the partition key: PRIMARY KEY ((country, bucket), id)")
        assert warnings_of(session, "SELECT * FROM iot.users_by_country WHERE country = 'FR' "
                                    "LIMIT 1") == [warning]
        with pytest.raises(InvalidRequest) as refused:
            session.execute(insert, ["FR", 5000, "y"])
        assert warning in str(refused.value)
        session.execute("DELETE FROM iot.users_by_country WHERE country = 'FR' AND id = 1")
        session.execute(insert, ["DE", 1, "z"])  # another partition is not refused
        update_guardrail(session, "partition_rows", fail_threshold=None)
        future = session.execute_async(insert, ["FR", 5001, "y"])
        future.result()
        assert future.warnings == [warning.replace("fail threshold of 1,100",
                                                   "warning threshold of 1,000")]
    finally:
        update_guardrail(session, "partition_rows", warn_threshold="100000", fail_threshold=None)
    assert warnings_of(session, "SELECT * FROM iot.users_by_country WHERE country = 'FR' "
                                "LIMIT 1") == []


def test_tombstones_collections_rows_and_cells(session):
    session.execute("CREATE TABLE iot.carts (user int, item int, tags set<int>, photo blob, "
                    "PRIMARY KEY (user, item))")
    for item in range(150):
        session.execute("DELETE FROM iot.carts WHERE user = 1 AND item = %s", [item])
    add = session.prepare("UPDATE iot.carts SET tags = tags + ? WHERE user = 1 AND item = 1000")
    session.execute(add, [set(range(0, 700))])
    flush(session, "iot", "carts")
    session.execute(add, [set(range(700, 1500))])
    session.execute("UPDATE iot.carts SET photo = %s WHERE user = 1 AND item = 2000",
                    [b"p" * (2 * MIB)])
    flush(session, "iot", "carts")
    update_guardrail(session, "partition_tombstones", warn_threshold="100")
    try:
        warnings = warnings_of(session, "SELECT item FROM iot.carts WHERE user = 1 LIMIT 1")
        assert warnings == [
            "Guardrail partition_tombstones violated: Partition iot.carts (user=1) has 150 "
            "tombstones, over the warning threshold of 100; delete whole partitions or "
            "clustering ranges, not rows and cells one by one, or split it: "
            "PRIMARY KEY ((user, bucket), item)",
            "Guardrail items_per_collection violated: Partition iot.carts (user=1) has a "
            "collection of 1,500 items, over the warning threshold of 1,000; collections should "
            "be small: store the items as rows, one per clustering key"]
        [partition] = ledger_rows(session, "large_partitions", "carts")
        assert partition.rule == "partition_tombstones, items_per_collection"
        assert partition.largest_collection_items == 1500
    finally:
        update_guardrail(session, "partition_tombstones", warn_threshold="10000")

    cells = {(c.clustering_key, c.column_name): c for c in ledger_rows(session, "large_cells",
                                                                         "carts")}
    tags = cells[("item=1000", "tags")]
    assert (tags.collection_elements, tags.rule) == (1500, "items_per_collection")
    photo = cells[("item=2000", "photo")]
    assert (photo.cell_size, photo.collection_elements, photo.rule) == (2 * MIB, 0, None)
    [row] = ledger_rows(session, "large_rows", "carts")
    assert (row.partition_key, row.clustering_key, row.cells) == ("user=1", "item=2000", 1)
    assert row.row_size > 2 * MIB


def test_model_warnings_count_every_rule_broken(session):
    session.execute("CREATE TABLE iot.events (k int, c int, v int, PRIMARY KEY (k, c))")
    query = "SELECT * FROM iot.events WHERE v = 1 ALLOW FILTERING"
    for _ in range(3):
        session.execute(query)
    seen = model_warning(session, "allow_filtering", "events")
    assert seen.count == 3
    assert seen.example == query
    assert seen.last_warning.startswith("Guardrail allow_filtering violated:")
    # A refusal counts as well.
    update_guardrail(session, "allow_filtering", enabled=False)
    try:
        with pytest.raises(InvalidRequest):
            session.execute(query)
    finally:
        update_guardrail(session, "allow_filtering", enabled=True)
    assert model_warning(session, "allow_filtering", "events").count == 4
    assert model_warning(session, "partition_size", "events") is None
