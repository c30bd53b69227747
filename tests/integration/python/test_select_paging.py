"""Paging as Cassandra 4.1 pages: every query shape paged with several page
sizes gives the unpaged answer, pages hold exactly fetch_size rows (groups,
for GROUP BY) until the last, aggregates answer in one row, paging resumes
correctly while rows and partitions are written between pages, and the
tombstone thresholds (tombstone_warn_threshold: a client warning,
tombstone_failure_threshold: ReadFailure) apply per query.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from cassandra import ReadFailure
from cassandra.query import SimpleStatement

from select_support import (connected, fetch, fetch_pages, int_token, ks, session,  # noqa: F401
                            warnings_of)
from sibyl_process import running_server

PAGE_SIZES = (1, 3, 10, 64)


@pytest.fixture
def data(session, ks):
    """20 partitions (k) x 0..k*3 rows; a static s; v = k*1000 + c; a set of tags."""
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, s int STATIC, v int, tags set<int>, "
                    "PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c, v, tags) VALUES (?, ?, ?, ?)")
    for k in range(20):
        session.execute(f"UPDATE {ks}.t SET s = {k % 3} WHERE k = {k}")
        for c in range(k * 3):
            session.execute(insert, (k, c, k * 1000 + c, {c % 4}))
    return f"{ks}.t"


SHAPES = [
    ("single partition", "SELECT k, c, v FROM {t} WHERE k = 15"),
    ("single partition reversed", "SELECT k, c, v FROM {t} WHERE k = 15 ORDER BY c DESC"),
    ("clustering slice", "SELECT k, c FROM {t} WHERE k = 19 AND c >= 10 AND c < 50"),
    ("IN", "SELECT k, c, v FROM {t} WHERE k IN (3, 17, 9, 0)"),
    ("IN with clustering IN", "SELECT k, c FROM {t} WHERE k IN (5, 6) AND c IN (0, 4, 14, 99)"),
    ("range scan", "SELECT k, c, s, v FROM {t}"),
    ("token range", "SELECT k, c FROM {t} WHERE token(k) > -3000000000000000000 "
                    "AND token(k) <= 5000000000000000000"),
    ("filtering", "SELECT k, c FROM {t} WHERE v > 5000 AND c < 7 ALLOW FILTERING"),
    ("filtering on static", "SELECT k, c FROM {t} WHERE s = 1 ALLOW FILTERING"),
    ("contains", "SELECT k, c FROM {t} WHERE tags CONTAINS 2 ALLOW FILTERING"),
    ("per partition limit", "SELECT k, c FROM {t} PER PARTITION LIMIT 4"),
    ("limit", "SELECT k, c FROM {t} LIMIT 37"),
    ("distinct", "SELECT DISTINCT k, s FROM {t}"),
    ("distinct IN", "SELECT DISTINCT k FROM {t} WHERE k IN (1, 2, 3, 4)"),
]


@pytest.mark.parametrize("name,query", SHAPES, ids=[s[0] for s in SHAPES])
def test_paged_equals_unpaged_and_pages_are_full(session, data, name, query):
    query = query.format(t=data)
    unpaged = fetch(session, query, fetch_size=None)
    assert unpaged, "the shape must select something"
    for page_size in PAGE_SIZES:
        pages = fetch_pages(session, query, fetch_size=page_size)
        assert [row for page in pages for row in page] == unpaged, page_size
        assert all(len(page) == page_size for page in pages[:-1]), page_size
        assert len(pages[-1]) <= page_size
        # The driver's own paging agrees.
        assert fetch(session, query, fetch_size=page_size) == unpaged


def test_prepared_statements_page_too(session, data):
    query = f"SELECT k, c FROM {data} WHERE k IN ? AND c > ?"
    unpaged = fetch(session, session.prepare(query), ([4, 8], 2), fetch_size=None)
    pages = fetch_pages(session, query, ([4, 8], 2), fetch_size=4, prepared=True)
    assert [row for page in pages for row in page] == unpaged
    assert len(unpaged) == 9 + 21


def test_group_by_pages_count_groups(session, data):
    query = f"SELECT k, count(*), max(v) FROM {data} GROUP BY k"
    unpaged = fetch(session, query, fetch_size=None)
    assert len(unpaged) == 20
    for page_size in (1, 3, 7):
        pages = fetch_pages(session, query, fetch_size=page_size)
        assert [row for page in pages for row in page] == unpaged
        assert all(len(page) <= page_size for page in pages)
    within = f"SELECT k, c, count(*) FROM {data} WHERE k = 19 GROUP BY k, c"
    assert fetch(session, within, fetch_size=5) == fetch(session, within, fetch_size=None)


def test_aggregates_answer_one_row_whatever_the_page_size(session, data):
    # Partition 0 has only its static value: a query over whole partitions shows (and counts)
    # it as one row, as SELECT * does.
    total = sum(k * 3 for k in range(20)) + 1
    for page_size in (None, 1, 10, 5000):
        assert fetch(session, f"SELECT count(*), max(v) FROM {data}", fetch_size=page_size) == [
            (total, 19 * 1000 + 56)]
        assert fetch(session, f"SELECT count(*) FROM {data} WHERE k IN (1, 2)",
                     fetch_size=page_size) == [(9,)]
        assert fetch(session, f"SELECT count(*) FROM {data} WHERE v > 15000 ALLOW FILTERING",
                     fetch_size=page_size) == [(sum(1 for k in range(20) for c in range(k * 3)
                                                    if k * 1000 + c > 15000),)]


# --- resuming while writes go on ---------------------------------------------------------------


def test_single_partition_paging_resumes_after_its_position(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v text, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c, v) VALUES (1, ?, 'old')")
    for c in range(0, 200, 2):
        session.execute(insert, (c,))
    statement = SimpleStatement(f"SELECT c, v FROM {ks}.t WHERE k = 1", fetch_size=10)
    seen: list[tuple] = []
    expected_new: set[int] = set()
    result = session.execute(statement)
    while True:
        seen.extend(tuple(r) for r in result.current_rows)
        if result.paging_state is None:
            break
        position = seen[-1][0]
        # One new row before the position (must not appear), one after (must appear),
        # and an update of a row already returned (must not come back).
        for c in (position - 1, position + 3):
            if 0 <= c < 200 and c % 2 == 1:
                session.execute(f"INSERT INTO {ks}.t (k, c, v) VALUES (1, {c}, 'new')")
                if c > position:
                    expected_new.add(c)
        session.execute(f"UPDATE {ks}.t SET v = 'changed' WHERE k = 1 AND c = {seen[0][0]}")
        result = session.execute(statement, paging_state=result.paging_state)
    clusterings = [r[0] for r in seen]
    assert clusterings == sorted(set(range(0, 200, 2)) | expected_new)
    assert expected_new


def test_range_paging_resumes_after_its_position(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, PRIMARY KEY (k, c))")
    original = range(0, 120, 2)
    for k in original:
        for c in range(3):
            session.execute(f"INSERT INTO {ks}.t (k, c) VALUES ({k}, {c})")
    statement = SimpleStatement(f"SELECT k, c FROM {ks}.t", fetch_size=7)
    seen: list[tuple] = []
    written: dict[int, int] = {}  # new partition key -> token of the position when it was written
    result = session.execute(statement)
    candidates = iter(range(1, 120, 2))
    while True:
        seen.extend(tuple(r) for r in result.current_rows)
        if result.paging_state is None:
            break
        position_token = int_token(seen[-1][0])
        for _ in range(2):
            k = next(candidates, None)
            if k is not None:
                session.execute(f"INSERT INTO {ks}.t (k, c) VALUES ({k}, 0)")
                written[k] = position_token
        # A row added to the partition being read, after the position: it must appear.
        session.execute(f"INSERT INTO {ks}.t (k, c) VALUES ({seen[-1][0]}, 10)")
        result = session.execute(statement, paging_state=result.paging_state)
    assert len(seen) == len(set(seen)), "a row came twice"
    original_rows = {(k, c) for k in original for c in range(3)}
    assert original_rows <= set(seen), "a row that existed throughout was skipped"
    for k, position_token in written.items():
        # A partition written beyond the position is read; one behind it is not.
        assert ((k, 0) in seen) == (int_token(k) > position_token), k
    tokens = [int_token(r[0]) for r in seen]
    assert tokens == sorted(tokens)


def test_paging_state_of_one_query_resumes_the_same_query(session, data):
    query = f"SELECT k, c FROM {data} WHERE k = 18"
    first = session.execute(SimpleStatement(query, fetch_size=20))
    rest = session.execute(SimpleStatement(query, fetch_size=100),
                           paging_state=first.paging_state)
    rows = [tuple(r) for r in first.current_rows] + [tuple(r) for r in rest.current_rows]
    assert rows == [(18, c) for c in range(54)]


# --- tombstone thresholds ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def thresholds_server():
    """A server of its own with low tombstone thresholds, set in its YAML file."""
    with tempfile.TemporaryDirectory(prefix="sibyl-tombstones-") as tmp:
        config = Path(tmp) / "sibyl.yaml"
        config.write_text("tombstone_warn_threshold: 10\ntombstone_failure_threshold: 50\n")
        with running_server(["--config", str(config)]) as server:
            yield server


def test_tombstone_thresholds(thresholds_server):
    with connected(thresholds_server) as s:
        s.execute("CREATE KEYSPACE tomb WITH replication = "
                  "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        s.execute("CREATE TABLE tomb.t (k int, c int, v int, PRIMARY KEY (k, c))")
        for k, deleted in ((1, 5), (2, 20), (3, 80)):
            for c in range(deleted):
                s.execute(f"INSERT INTO tomb.t (k, c, v) VALUES ({k}, {c}, 1)")
                s.execute(f"DELETE FROM tomb.t WHERE k = {k} AND c = {c}")
            s.execute(f"INSERT INTO tomb.t (k, c, v) VALUES ({k}, 1000, 1)")
        # Under the warning threshold: quiet.
        assert warnings_of(s, "SELECT * FROM tomb.t WHERE k = 1") == []
        # Over it: one client warning naming the threshold, and the rows.
        warnings = warnings_of(s, "SELECT * FROM tomb.t WHERE k = 2")
        assert len(warnings) == 1
        assert "tombstone" in warnings[0] and "(see tombstone_warn_threshold)" in warnings[0]
        assert fetch(s, "SELECT c FROM tomb.t WHERE k = 2") == [(1000,)]
        # Over the failure threshold: ReadFailure.
        with pytest.raises(ReadFailure):
            s.execute("SELECT * FROM tomb.t WHERE k = 3")
        with pytest.raises(ReadFailure):
            s.execute("SELECT * FROM tomb.t")
