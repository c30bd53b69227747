"""Writes through the DataStax Python driver: INSERT, UPDATE, DELETE, BATCH and
TRUNCATE read back with SELECT for every table shape, TTL and writetime(),
prepared statements with token-aware routing keys, and data that survives a
clean restart and (with commitlog_sync: batch) a SIGKILL."""

from __future__ import annotations

import itertools
import re
import struct
import tempfile
import time
import uuid
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from driver_session import connected_cluster as connected
from sibyl_process import SibylServer


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as (_, session):
        yield session


_keyspace_numbers = itertools.count()


@pytest.fixture
def ks(session) -> Iterator[str]:
    """A fresh keyspace for one test, dropped afterwards."""
    name = f"writes_{next(_keyspace_numbers)}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")


def rows(session: Session, query: str, *args) -> list[tuple]:
    return [tuple(r) for r in session.execute(query, *args)]


# --- round trips ------------------------------------------------------------------------------


def test_insert_update_delete_round_trip(session, ks):
    session.execute(f"CREATE TABLE {ks}.users (id int PRIMARY KEY, name text, age int)")
    session.execute(f"INSERT INTO {ks}.users (id, name, age) VALUES (1, 'ada', 36)")
    session.execute(f"INSERT INTO {ks}.users (id, name) VALUES (2, 'bob')")
    assert sorted(rows(session, f"SELECT id, name, age FROM {ks}.users")) == [
        (1, "ada", 36), (2, "bob", None)]

    session.execute(f"UPDATE {ks}.users SET age = 37 WHERE id = 1")
    assert rows(session, f"SELECT age FROM {ks}.users WHERE id = 1") == [(37,)]

    session.execute(f"DELETE age FROM {ks}.users WHERE id = 1")
    assert rows(session, f"SELECT id, name, age FROM {ks}.users WHERE id = 1") == [(1, "ada", None)]

    session.execute(f"DELETE FROM {ks}.users WHERE id = 2")
    assert rows(session, f"SELECT id FROM {ks}.users") == [(1,)]


def test_update_alone_makes_a_row_that_lives_only_with_its_cells(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    session.execute(f"UPDATE {ks}.t SET v = 1 WHERE k = 1")
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (2, 2)")
    session.execute(f"DELETE v FROM {ks}.t WHERE k IN (1, 2)")
    # No row marker for k = 1 (UPDATE writes none): the row is gone; k = 2 stays.
    assert rows(session, f"SELECT k, v FROM {ks}.t") == [(2, None)]


def test_composite_partition_key_and_descending_clustering(session, ks):
    session.execute(f"CREATE TABLE {ks}.events (tenant text, day int, at timestamp, seq int, "
                    "what text, PRIMARY KEY ((tenant, day), at, seq)) "
                    "WITH CLUSTERING ORDER BY (at DESC, seq ASC)")
    for at, seq in [(1000, 2), (3000, 1), (2000, 1), (1000, 1)]:
        session.execute(f"INSERT INTO {ks}.events (tenant, day, at, seq, what) "
                        "VALUES ('acme', 7, %s, %s, %s)", (at, seq, f"{at}/{seq}"))
    session.execute(f"INSERT INTO {ks}.events (tenant, day, at, seq, what) "
                    "VALUES ('acme', 8, 1, 1, 'other day')")
    got = [r.what for r in session.execute(
        f"SELECT what FROM {ks}.events WHERE tenant = 'acme' AND day = 7")]
    assert got == ["3000/1", "2000/1", "1000/1", "1000/2"]
    reversed_ = [r.what for r in session.execute(
        f"SELECT what FROM {ks}.events WHERE tenant = 'acme' AND day = 7 ORDER BY at ASC, seq DESC")]
    assert reversed_ == list(reversed(got))
    sliced = [r.what for r in session.execute(
        f"SELECT what FROM {ks}.events WHERE tenant = 'acme' AND day = 7 AND at > 1000 AND at <= 3000")]
    assert sliced == ["3000/1", "2000/1"]
    by_key = rows(session, f"SELECT what FROM {ks}.events WHERE tenant = 'acme' AND day = 7 "
                           "AND at = 1000 AND seq = 2")
    assert by_key == [("1000/2",)]
    assert len(rows(session, f"SELECT * FROM {ks}.events")) == 5

    session.execute(f"DELETE FROM {ks}.events WHERE tenant = 'acme' AND day = 7 AND at = 1000")
    assert [r.what for r in session.execute(
        f"SELECT what FROM {ks}.events WHERE tenant = 'acme' AND day = 7")] == ["3000/1", "2000/1"]
    session.execute(f"DELETE FROM {ks}.events WHERE tenant = 'acme' AND day = 7")
    assert rows(session, f"SELECT what FROM {ks}.events") == [("other day",)]


def test_static_columns(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, s text STATIC, v int, "
                    "PRIMARY KEY (k, c))")
    session.execute(f"INSERT INTO {ks}.t (k, s) VALUES (1, 'shared')")
    # A partition with only static values reads as one row with null clustering.
    assert rows(session, f"SELECT k, c, s, v FROM {ks}.t WHERE k = 1") == [(1, None, "shared", None)]
    session.execute(f"INSERT INTO {ks}.t (k, c, v) VALUES (1, 1, 10)")
    session.execute(f"INSERT INTO {ks}.t (k, c, v) VALUES (1, 2, 20)")
    assert rows(session, f"SELECT k, c, s, v FROM {ks}.t WHERE k = 1") == [
        (1, 1, "shared", 10), (1, 2, "shared", 20)]
    session.execute(f"UPDATE {ks}.t SET s = 'changed' WHERE k = 1")
    assert {r.s for r in session.execute(f"SELECT s FROM {ks}.t WHERE k = 1")} == {"changed"}
    assert rows(session, f"SELECT DISTINCT k, s FROM {ks}.t") == [(1, "changed")]


def test_collections(session, ks):
    session.execute(f"CREATE TYPE {ks}.address (street text, zip int)")
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, l list<text>, s set<int>, "
                    "m map<text, int>, a address, f frozen<list<int>>)")
    session.execute(f"INSERT INTO {ks}.t (k, l, s, m, a, f) VALUES "
                    "(1, ['b'], {3, 1}, {'x': 1}, {street: 'main', zip: 1}, [9, 8])")
    session.execute(f"UPDATE {ks}.t SET l = l + ['c', 'd'] WHERE k = 1")
    session.execute(f"UPDATE {ks}.t SET l = ['a'] + l WHERE k = 1")
    session.execute(f"UPDATE {ks}.t SET s = s + {{2}}, m['y'] = 2 WHERE k = 1")
    session.execute(f"UPDATE {ks}.t SET s = s - {{3}}, m = m - {{'x'}} WHERE k = 1")
    session.execute(f"UPDATE {ks}.t SET a.zip = 2 WHERE k = 1")
    row = session.execute(f"SELECT l, s, m, a, f FROM {ks}.t WHERE k = 1").one()
    assert row.l == ["a", "b", "c", "d"]
    assert row.s == {1, 2}
    assert dict(row.m) == {"y": 2}
    assert (row.a.street, row.a.zip) == ("main", 2)
    assert row.f == [9, 8]

    session.execute(f"UPDATE {ks}.t SET l = ['only'] WHERE k = 1")
    session.execute(f"DELETE s FROM {ks}.t WHERE k = 1")
    row = session.execute(f"SELECT l, s FROM {ks}.t WHERE k = 1").one()
    assert row.l == ["only"]
    assert row.s is None


def test_counters(session, ks):
    session.execute(f"CREATE TABLE {ks}.hits (page text PRIMARY KEY, n counter)")
    for _ in range(3):
        session.execute(f"UPDATE {ks}.hits SET n = n + 2 WHERE page = 'home'")
    session.execute(f"UPDATE {ks}.hits SET n = n - 1 WHERE page = 'home'")
    assert rows(session, f"SELECT n FROM {ks}.hits WHERE page = 'home'") == [(5,)]
    batch = BatchStatement(batch_type=BatchType.COUNTER)
    batch.add(SimpleStatement(f"UPDATE {ks}.hits SET n = n + 10 WHERE page = 'home'"))
    batch.add(SimpleStatement(f"UPDATE {ks}.hits SET n = n + 1 WHERE page = 'about'"))
    session.execute(batch)
    assert sorted(rows(session, f"SELECT page, n FROM {ks}.hits")) == [("about", 1), ("home", 15)]


def test_ttl_and_writetime(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text, w text)")
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 'x') USING TTL 1000 AND TIMESTAMP 12345")
    session.execute(f"UPDATE {ks}.t USING TIMESTAMP 777 SET w = 'y' WHERE k = 1")
    row = session.execute(f"SELECT ttl(v), writetime(v), ttl(w), writetime(w) FROM {ks}.t "
                          "WHERE k = 1").one()
    assert 990 <= row[0] <= 1000
    assert row[1] == 12345
    assert row[2] is None
    assert row[3] == 777

    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (2, 'short') USING TTL 1")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and rows(session, f"SELECT v FROM {ks}.t WHERE k = 2"):
        time.sleep(0.2)
    assert rows(session, f"SELECT v FROM {ks}.t WHERE k = 2") == []

    with pytest.raises(InvalidRequest, match="Cannot use selection function writeTime on "
                                             "PRIMARY KEY part k"):
        session.execute(f"SELECT writetime(k) FROM {ks}.t")


def test_default_time_to_live(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int) "
                    "WITH default_time_to_live = 500")
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 1)")
    assert 490 <= session.execute(f"SELECT ttl(v) FROM {ks}.t WHERE k = 1").one()[0] <= 500


# --- prepared statements and routing -------------------------------------------------------------


def test_prepared_writes_carry_routing_keys(session, ks):
    session.execute(f"CREATE TABLE {ks}.one (k int PRIMARY KEY, v text)")
    session.execute(f"CREATE TABLE {ks}.two (a text, b int, c int, v text, "
                    "PRIMARY KEY ((a, b), c))")
    insert = session.prepare(f"INSERT INTO {ks}.one (v, k) VALUES (?, ?)")
    assert insert.routing_key_indexes == [1]
    bound = insert.bind(("hello", 42))
    assert bound.routing_key == struct.pack(">i", 42)
    session.execute(bound)

    update = session.prepare(f"UPDATE {ks}.two SET v = ? WHERE a = ? AND b = ? AND c = ?")
    assert update.routing_key_indexes == [1, 2]
    bound = update.bind(("v1", "x", 5, 1))
    component_a = b"x"
    component_b = struct.pack(">i", 5)
    assert bound.routing_key == (struct.pack(">H", 1) + component_a + b"\x00" +
                                 struct.pack(">H", 4) + component_b + b"\x00")
    session.execute(bound)

    select = session.prepare(f"SELECT v FROM {ks}.one WHERE k = ?")
    assert session.execute(select, (42,)).one().v == "hello"
    assert rows(session, f"SELECT v FROM {ks}.two WHERE a = 'x' AND b = 5") == [("v1",)]

    delete = session.prepare(f"DELETE FROM {ks}.one WHERE k = ?")
    assert delete.routing_key_indexes == [0]
    session.execute(delete, (42,))
    assert session.execute(select, (42,)).one() is None


def test_prepared_statement_follows_a_schema_change(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, v) VALUES (?, ?)")
    session.execute(insert, (1, 1))
    session.execute(f"ALTER TABLE {ks}.t ADD w int")
    session.execute(insert, (2, 2))
    assert sorted(rows(session, f"SELECT k, v, w FROM {ks}.t")) == [(1, 1, None), (2, 2, None)]


# --- batches -------------------------------------------------------------------------------------


def test_batches(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v text, PRIMARY KEY (k, c))")
    session.execute(f"""
        BEGIN BATCH
          INSERT INTO {ks}.t (k, c, v) VALUES (1, 1, 'a');
          INSERT INTO {ks}.t (k, c, v) VALUES (1, 2, 'b');
          UPDATE {ks}.t SET v = 'c' WHERE k = 2 AND c = 1;
        APPLY BATCH""")
    assert sorted(rows(session, f"SELECT k, c, v FROM {ks}.t")) == [
        (1, 1, "a"), (1, 2, "b"), (2, 1, "c")]

    insert = session.prepare(f"INSERT INTO {ks}.t (k, c, v) VALUES (?, ?, ?)")
    batch = BatchStatement(batch_type=BatchType.UNLOGGED)
    batch.add(insert, (3, 1, "prepared"))
    batch.add(SimpleStatement(f"DELETE FROM {ks}.t WHERE k = %s AND c = %s"), (1, 1))
    batch.add(f"UPDATE {ks}.t SET v = 'simple' WHERE k = 3 AND c = 2")
    session.execute(batch)
    assert sorted(rows(session, f"SELECT k, c, v FROM {ks}.t")) == [
        (1, 2, "b"), (2, 1, "c"), (3, 1, "prepared"), (3, 2, "simple")]

    session.execute(f"BEGIN BATCH USING TIMESTAMP 5000 "
                    f"INSERT INTO {ks}.t (k, c, v) VALUES (4, 1, 'x'); "
                    f"INSERT INTO {ks}.t (k, c, v) VALUES (5, 1, 'y'); APPLY BATCH")
    assert {r[0] for r in session.execute(f"SELECT writetime(v) FROM {ks}.t WHERE k IN (4, 5)")} \
        == {5000}

    with pytest.raises(InvalidRequest, match="Timestamp must be set either on BATCH or "
                                             "individual statements"):
        session.execute(f"BEGIN BATCH USING TIMESTAMP 1 INSERT INTO {ks}.t (k, c, v) "
                        "VALUES (1, 1, 'a') USING TIMESTAMP 2; APPLY BATCH")


def test_batch_rules(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    session.execute(f"CREATE TABLE {ks}.c (k int PRIMARY KEY, n counter)")
    session.execute(f"CREATE TABLE {ks}.u (k int PRIMARY KEY, v int)")
    with pytest.raises(InvalidRequest, match="Cannot include a counter statement in a logged batch"):
        session.execute(f"BEGIN BATCH UPDATE {ks}.c SET n = n + 1 WHERE k = 1; APPLY BATCH")
    with pytest.raises(InvalidRequest,
                       match="Cannot include non-counter statement in a counter batch"):
        session.execute(f"BEGIN COUNTER BATCH INSERT INTO {ks}.t (k, v) VALUES (1, 1); "
                        "APPLY BATCH")
    with pytest.raises(InvalidRequest, match="Batch with conditions cannot span multiple tables"):
        session.execute(f"BEGIN BATCH INSERT INTO {ks}.t (k, v) VALUES (1, 1) IF NOT EXISTS; "
                        f"INSERT INTO {ks}.u (k, v) VALUES (1, 1); APPLY BATCH")
    assert rows(session, f"SELECT * FROM {ks}.t") == []


# --- truncate ------------------------------------------------------------------------------------


def test_writes_share_the_where_clause_of_reads(session, ks):
    """UPDATE and DELETE restrict rows with the relations SELECT takes, tuple
    notation included (cases from Cassandra 4.1's DeleteTest and UpdateTest),
    and refuse the rest with Cassandra's messages."""
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (pk int, c1 int, c2 int, v int, s set<int>, "
                    "PRIMARY KEY (pk, c1, c2))")
    insert = session.prepare(f"INSERT INTO {t} (pk, c1, c2, v) VALUES (?, ?, ?, ?)")
    for c1 in range(5):
        for c2 in range(5):
            session.execute(insert, (2, c1, c2, 10 * c1 + c2))
            session.execute(insert, (3, c1, c2, 10 * c1 + c2))

    def keys(pk):
        return [(r.c1, r.c2) for r in session.execute(f"SELECT c1, c2 FROM {t} WHERE pk = {pk}")]

    session.execute(f"DELETE FROM {t} WHERE pk = 2 AND c1 < 3")
    session.execute(f"DELETE FROM {t} WHERE pk = 2 AND (c1, c2) > (3, 3)")
    assert keys(2) == [(3, 0), (3, 1), (3, 2), (3, 3)]
    session.execute(f"DELETE FROM {t} WHERE pk = 2 AND (c1, c2) < (3, 1)")
    assert keys(2) == [(3, 1), (3, 2), (3, 3)]
    session.execute(f"DELETE FROM {t} WHERE pk = 2 AND (c1, c2) >= (3, 2) AND (c1) <= (4)")
    assert keys(2) == [(3, 1)]

    # A mix of single and multi-column relations.
    session.execute(f"DELETE FROM {t} WHERE pk = 3 AND c1 = 0 AND (c2) < (3)")
    session.execute(f"DELETE FROM {t} WHERE pk = 3 AND c1 IN (0, 1) AND (c2) >= (3)")
    session.execute(f"DELETE FROM {t} WHERE pk = 3 AND (c1) IN ((0), (1)) AND c2 < 1")
    session.execute(f"DELETE FROM {t} WHERE pk = 3 AND (c1) = (1) AND c2 >= 2")
    assert [k for k in keys(3) if k[0] < 2] == [(1, 1)]

    # Whole rows by tuple equality and IN, in UPDATE and DELETE.
    session.execute(f"UPDATE {t} SET v = 99 WHERE pk = 3 AND (c1, c2) = (4, 4)")
    session.execute(f"UPDATE {t} SET v = 98 WHERE pk = 3 AND (c1, c2) IN ((4, 3), (4, 2))")
    assert rows(session, f"SELECT c2, v FROM {t} WHERE pk = 3 AND c1 = 4 AND c2 >= 2") == [
        (2, 98), (3, 98), (4, 99)]
    session.execute(f"DELETE FROM {t} WHERE pk = 3 AND (c1, c2) IN ((4, 3), (4, 4))")
    assert rows(session, f"SELECT c2 FROM {t} WHERE pk = 3 AND c1 = 4 AND c2 >= 2") == [(2,)]

    refusals = {
        f"DELETE v FROM {t} WHERE pk = 2 AND (c1, c2) >= (3, 1)":
            "Range deletions are not supported for specific columns",
        f"DELETE FROM {t} WHERE pk = 2 AND c1 = 3 AND v = 1":
            "Non PRIMARY KEY columns found in where clause: v",
        f"DELETE FROM {t} WHERE pk = 2 AND s CONTAINS 1":
            "Non PRIMARY KEY columns found in where clause: s",
        f"DELETE FROM {t} WHERE s CONTAINS 1":
            "Some partition key parts are missing: pk",
        f"UPDATE {t} SET v = 1 WHERE pk = 2 AND (c1, c2) > (1, 1)":
            "Slice restrictions are not supported on the clustering columns in UPDATE statements",
        f"UPDATE {t} SET v = 1 WHERE pk = 2 AND (c1) = (1)":
            "Some clustering keys are missing: c2",
        f"UPDATE {t} SET v = 1 WHERE token(pk) = 5 AND c1 = 1 AND c2 = 1":
            "The token function cannot be used in WHERE clauses for UPDATE statements",
        f"DELETE FROM {t} WHERE pk = 2 AND c1 != 1":
            'Unsupported "!=" relation: c1 != 1',
        f"DELETE FROM {t} WHERE pk = 2 AND c2 = 1":
            'PRIMARY KEY column "c2" cannot be restricted as preceding column "c1" is not '
            "restricted",
        f"DELETE FROM {t} WHERE pk = 2 AND c1 > 1 AND c2 = 1":
            'Clustering column "c2" cannot be restricted (preceding column "c1" is restricted '
            "by a non-EQ relation)",
    }
    for query, message in refusals.items():
        with pytest.raises(InvalidRequest, match=re.escape(message)):
            session.execute(query)


def test_truncate(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    for k in range(10):
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (%s, %s)", (k, k))
    assert len(rows(session, f"SELECT * FROM {ks}.t")) == 10
    session.execute(f"TRUNCATE {ks}.t")
    assert rows(session, f"SELECT * FROM {ks}.t") == []
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 1)")
    assert rows(session, f"SELECT k, v FROM {ks}.t") == [(1, 1)]
    with pytest.raises(InvalidRequest, match="table nosuch does not exist"):
        session.execute(f"TRUNCATE {ks}.nosuch")
    with pytest.raises(InvalidRequest, match="Cannot truncate virtual tables"):
        session.execute("TRUNCATE system_views.settings")


def test_drop_and_recreate_starts_empty(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 1)")
    session.execute(f"DROP TABLE {ks}.t")
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    assert rows(session, f"SELECT * FROM {ks}.t") == []


def test_paging_over_stored_rows(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c) VALUES (?, ?)")
    execute_concurrent_with_args(session, insert, [(k, c) for k in range(5) for c in range(20)])
    statement = SimpleStatement(f"SELECT k, c FROM {ks}.t", fetch_size=7)
    got = [tuple(r) for r in session.execute(statement)]
    assert len(got) == 100
    assert len(set(got)) == 100


# --- virtual keyspaces ---------------------------------------------------------------------------


def test_system_views_is_a_virtual_keyspace(sibyl):
    with connected(sibyl) as (cluster, _):
        assert cluster.metadata.keyspaces["system_views"].virtual is True
        assert cluster.metadata.keyspaces["system_virtual_schema"].virtual is True
        assert cluster.metadata.keyspaces["system"].virtual is False


# --- durability ----------------------------------------------------------------------------------


SCHEMA = ("CREATE KEYSPACE kept WITH replication = {'class': 'SimpleStrategy', "
          "'replication_factor': 1}",
          "CREATE TABLE kept.t (k int, c int, v text, l list<int>, PRIMARY KEY (k, c))")


def test_data_survives_a_clean_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-it-writes-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as (_, session):
                for statement in SCHEMA:
                    session.execute(statement)
                insert = session.prepare("INSERT INTO kept.t (k, c, v) VALUES (?, ?, ?)")
                execute_concurrent_with_args(session, insert,
                                             [(k, c, f"{k}:{c}") for k in range(10) for c in range(10)])
                session.execute("UPDATE kept.t SET l = l + [1, 2] WHERE k = 0 AND c = 0")
                session.execute("DELETE FROM kept.t WHERE k = 9")
                before = sorted(rows(session, "SELECT k, c, v, l FROM kept.t"))
            server.stop_cleanly()
            server.start()
            with connected(server) as (_, session):
                assert sorted(rows(session, "SELECT k, c, v, l FROM kept.t")) == before
                assert len(before) == 90
            server.stop_cleanly()
        finally:
            server.kill()


@pytest.mark.parametrize("mode", ["batch", "group"])
def test_acknowledged_writes_survive_sigkill(mode):
    args = ["--commitlog-sync", mode]
    if mode == "group":
        args += ["--commitlog-sync-group-window", "5ms"]
    with tempfile.TemporaryDirectory(prefix="sibyl-it-writes-") as tmp:
        server = SibylServer(Path(tmp), args).start()
        try:
            with connected(server) as (_, session):
                for statement in SCHEMA:
                    session.execute(statement)
                insert = session.prepare("INSERT INTO kept.t (k, c, v) VALUES (?, ?, ?)")
                results = execute_concurrent_with_args(
                    session, insert, [(k, c, str(uuid.uuid4())) for k in range(20) for c in range(25)],
                    concurrency=32, raise_on_first_error=True)
                assert all(ok for ok, _ in results)
                acknowledged = sorted(rows(session, "SELECT k, c, v FROM kept.t"))
                assert len(acknowledged) == 500
                server.kill()  # SIGKILL right after the last acknowledgement
            server.start()
            with connected(server) as (_, session):
                assert sorted(rows(session, "SELECT k, c, v FROM kept.t")) == acknowledged
            server.stop_cleanly()
        finally:
            server.kill()


def test_periodic_mode_starts_cleanly_after_sigkill():
    with tempfile.TemporaryDirectory(prefix="sibyl-it-writes-") as tmp:
        server = SibylServer(Path(tmp), ["--commitlog-sync", "periodic",
                                         "--commitlog-sync-period", "50ms"]).start()
        try:
            with connected(server) as (_, session):
                for statement in SCHEMA:
                    session.execute(statement)
                session.execute("INSERT INTO kept.t (k, c, v) VALUES (1, 1, 'x')")
                time.sleep(0.5)  # several sync periods: the write is on disk
                server.kill()
            server.start()
            with connected(server) as (_, session):
                assert rows(session, "SELECT k, c, v FROM kept.t") == [(1, 1, "x")]
                session.execute("INSERT INTO kept.t (k, c, v) VALUES (2, 2, 'y')")
                assert len(rows(session, "SELECT * FROM kept.t")) == 2
            server.stop_cleanly()
        finally:
            server.kill()
