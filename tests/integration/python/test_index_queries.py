"""Queries that use secondary indexes, end to end through the DataStax Python
driver, checked against Cassandra 4.1's behaviour.

Every index answer is compared with an oracle: the whole table read with a
plain `SELECT *` (token order, then clustering order) and filtered in Python.
An index query must return exactly those rows, in that order.

Covered: the guides' statements with data, every index kind (regular, static,
values of list / set / map, keys, entries, full(frozen), clustering column,
partition key component), writes keeping indexes exact (overwrites, deletes of
every granularity, timestamps, TTL, collections, BATCH, LWT), paging, LIMIT,
PER PARTITION LIMIT, count(*), token ranges, prepared statements, the ALLOW
FILTERING rules and refusals, building an index on existing data
(system."IndexInfo", system_views.index_builds), DROP / re-CREATE, restart
after SIGKILL, TRUNCATE and DROP TABLE.

The DDL itself (CREATE / DROP INDEX statements, metadata, errors) is tested in
test_index_ddl.py.
"""

from __future__ import annotations

import datetime
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable

import pytest
from cassandra import InvalidRequest, ReadFailure
from cassandra.query import SimpleStatement

from select_support import (REQUIRES_ALLOW_FILTERING, assert_invalid, connected,  # noqa: F401
                            fetch, fetch_pages, int_token, ks, session)
from sibyl_process import SibylServer

PAGE_SIZES = (1, 2, 3, 100)
ORDER_BY_WITH_INDEX = "ORDER BY with 2ndary indexes is not supported."
IN_WITH_INDEX = "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported"


# --- helpers -------------------------------------------------------------------------------------


def scan(session, table: str) -> tuple[list[str], list[tuple]]:
    """The column names and every row of an unrestricted, unpaged `SELECT *`."""
    result = session.execute(SimpleStatement(f"SELECT * FROM {table}", fetch_size=None))
    return list(result.column_names), [tuple(r) for r in result]


def oracle(session, table: str, predicate: Callable[[dict], bool]) -> list[tuple]:
    """The full scan's rows for which `predicate(row as a dict)` holds, in scan order."""
    names, rows = scan(session, table)
    return [row for row in rows if predicate(dict(zip(names, row)))]


def indexed(session, table: str, where: str, params=None, fetch_size=None) -> list[tuple]:
    return fetch(session, f"SELECT * FROM {table} WHERE {where}", params, fetch_size=fetch_size)


def check(session, table: str, where: str, predicate: Callable[[dict], bool],
          params=None, nonempty: bool | None = None) -> list[tuple]:
    """The index query `SELECT * ... WHERE where` equals the oracle, unpaged and paged."""
    expected = oracle(session, table, predicate)
    if nonempty is not None:
        assert bool(expected) == nonempty, f"the oracle of {where} has {len(expected)} rows"
    got = indexed(session, table, where, params)
    assert got == expected, where
    return got


def check_paged(session, table: str, where: str, expected: list[tuple], params=None) -> None:
    query = f"SELECT * FROM {table} WHERE {where}"
    for size in PAGE_SIZES:
        pages = fetch_pages(session, query, params, fetch_size=size)
        rows = [row for page in pages for row in page]
        assert rows == expected, (where, size)
        assert all(len(page) <= size for page in pages), (where, size)
        assert fetch(session, query, params, fetch_size=size) == expected, (where, size)


def wait_built(session, keyspace: str, index: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = fetch(session, "SELECT index_name FROM system.\"IndexInfo\" "
                              "WHERE table_name = %s", [keyspace])
        if (index,) in rows:
            return
        time.sleep(0.05)
    pytest.fail(f"index {keyspace}.{index} not built within {timeout} s")


def contains(collection, value) -> bool:
    return collection is not None and value in collection


# --- 1. the guides' statements -------------------------------------------------------------------


def test_guide_user_accounts_by_country(session, ks):
    session.execute(f"USE {ks}")
    session.execute("CREATE TABLE user_accounts (username text PRIMARY KEY, email text, "
                    "password text, country text)")
    session.execute("CREATE INDEX user_account_country ON user_accounts(country)")
    countries = ["UK", "US", "FR", "UK", "DE", None, "uk", "UK "]
    insert = session.prepare("INSERT INTO user_accounts (username, email, password, country) "
                             "VALUES (?, ?, ?, ?)")
    for i in range(40):
        session.execute(insert, (f"user{i}", f"user{i}@example.com", "secret",
                                 countries[i % len(countries)]))
    got = fetch(session, "SELECT * FROM user_accounts WHERE country = 'UK'")
    expected = oracle(session, "user_accounts", lambda r: r["country"] == "UK")
    assert got == expected
    assert sorted(r[0] for r in got) == sorted(f"user{i}" for i in range(40) if i % 8 in (0, 3))
    assert fetch(session, "SELECT * FROM user_accounts WHERE country = 'XX'") == []
    assert fetch(session, "SELECT username FROM user_accounts WHERE username = 'user3' "
                          "AND country = 'UK'") == [("user3",)]
    assert fetch(session, "SELECT username FROM user_accounts WHERE username = 'user4' "
                          "AND country = 'UK'") == []


def test_guide_user_activities_with_and_without_partition_key(session, ks):
    session.execute(f"USE {ks}")
    session.execute("""
        CREATE TABLE user_activities (
            user_id uuid, activity_timestamp timestamp, activity_type text,
            activity_data text, device_info text, ip_address text,
            PRIMARY KEY (user_id, activity_timestamp)
        ) WITH CLUSTERING ORDER BY (activity_timestamp DESC)""")
    session.execute("CREATE INDEX ON user_activities (activity_type)")
    users = [uuid.UUID(int=i * 7919 + 1) for i in range(6)]
    types = ["login", "logout", "purchase", "view"]
    insert = session.prepare("INSERT INTO user_activities (user_id, activity_timestamp, "
                             "activity_type, activity_data, device_info, ip_address) "
                             "VALUES (?, ?, ?, ?, ?, ?)")
    base = datetime.datetime(2024, 1, 1)
    for u, user in enumerate(users):
        for i in range(8):
            session.execute(insert, (user, base + datetime.timedelta(minutes=i),
                                     types[(u + i) % 4], f"data{i}", "phone", "10.0.0.1"))
    table = "user_activities"
    for kind in types:
        got = check(session, table, f"activity_type = '{kind}'",
                    lambda r, kind=kind: r["activity_type"] == kind, nonempty=True)
        # Within a partition, newest first (the clustering order).
        for user in users:
            stamps = [r[1] for r in got if r[0] == user]
            assert stamps == sorted(stamps, reverse=True)
    user = users[2]
    got = fetch(session, "SELECT * FROM user_activities WHERE user_id = %s "
                         "AND activity_type = 'login'", [user])
    assert got == oracle(session, table,
                         lambda r: r["user_id"] == user and r["activity_type"] == "login")
    assert len(got) == 2
    prepared = session.prepare("SELECT activity_timestamp FROM user_activities "
                               "WHERE user_id = ? AND activity_type = ?")
    assert fetch(session, prepared, (users[0], "view")) == [
        (base + datetime.timedelta(minutes=7),), (base + datetime.timedelta(minutes=3),)]
    assert fetch(session, prepared, (uuid.UUID(int=5), "view")) == []


# --- 2. every index kind -------------------------------------------------------------------------


KIND_TARGETS = ("v", "s", "l", "st", "m", "keys(m)", "entries(m)", "full(f)", "c")


def fill_kinds(session, t: str) -> None:
    insert = session.prepare(f"INSERT INTO {t} (k, c, v, l, st, m, f) VALUES (?, ?, ?, ?, ?, ?, ?)")
    for k in range(12):
        session.execute(f"UPDATE {t} SET s = {k % 3} WHERE k = {k}")
        for c in range(k % 5):
            session.execute(insert, (k, c, (k + c) % 4, [c, k % 2, c], {f"t{(k + c) % 3}", "all"},
                                     {f"key{c}": k % 3, "x": c}, [k % 2, c]))
    # A row without any indexed value, and a static-only partition.
    session.execute(f"INSERT INTO {t} (k, c) VALUES (3, 99)")
    session.execute(f"UPDATE {t} SET s = 1 WHERE k = 100")


def create_kinds_table(session, t: str) -> None:
    session.execute(f"CREATE TABLE {t} (k int, c int, s int STATIC, v int, l list<int>, "
                    "st set<text>, m map<text, int>, f frozen<list<int>>, PRIMARY KEY (k, c))")


@pytest.fixture
def kinds(session, ks):
    """A table with every indexable shape and data: 12 partitions (k) of 0..4 rows, one
    partition with only a static value; all indexes created before the data."""
    t = f"{ks}.t"
    create_kinds_table(session, t)
    for target in KIND_TARGETS:
        session.execute(f"CREATE INDEX ON {t} ({target})")
    fill_kinds(session, t)
    return t


KIND_CASES = [
    ("regular", "v = 2", lambda r: r["v"] == 2),
    ("static", "s = 1", lambda r: r["s"] == 1),
    ("list values", "l CONTAINS 1", lambda r: contains(r["l"], 1)),
    ("list values repeated", "l CONTAINS 3", lambda r: contains(r["l"], 3)),
    ("set values", "st CONTAINS 't1'", lambda r: contains(r["st"], "t1")),
    ("map values", "m CONTAINS 2", lambda r: r["m"] is not None and 2 in r["m"].values()),
    ("map keys", "m CONTAINS KEY 'key2'", lambda r: contains(r["m"], "key2")),
    ("map entries", "m['key1'] = 1",
     lambda r: r["m"] is not None and r["m"].get("key1") == 1),
    ("full frozen list", "f = [1, 2]", lambda r: r["f"] == [1, 2]),
    ("clustering column", "c = 1", lambda r: r["c"] == 1),
    ("nothing matches", "v = 42", lambda r: False),
]


@pytest.mark.parametrize("name,where,predicate", KIND_CASES, ids=[c[0] for c in KIND_CASES])
def test_every_index_kind_matches_the_oracle(session, kinds, name, where, predicate):
    expected = check(session, kinds, where, predicate, nonempty=(name != "nothing matches"))
    check_paged(session, kinds, where, expected)


def per_partition(rows: list[tuple], limit: int) -> list[tuple]:
    """The first `limit` rows of each partition (column 0 is the partition key)."""
    seen: dict = {}
    kept = []
    for row in rows:
        seen[row[0]] = seen.get(row[0], 0) + 1
        if seen[row[0]] <= limit:
            kept.append(row)
    return kept


@pytest.mark.parametrize("name,where,predicate", KIND_CASES, ids=[c[0] for c in KIND_CASES])
def test_every_index_kind_with_limits_and_a_partition_key(session, kinds, name, where,
                                                          predicate):
    expected = oracle(session, kinds, predicate)
    for size in (None, 1, 2, 3):
        for limit in (1, 4):
            assert indexed(session, kinds, f"{where} LIMIT {limit}", fetch_size=size) == \
                expected[:limit], (limit, size)
        for per in (1, 2):
            assert indexed(session, kinds, f"{where} PER PARTITION LIMIT {per}",
                           fetch_size=size) == per_partition(expected, per), (per, size)
        assert fetch(session, f"SELECT count(*) FROM {kinds} WHERE {where}",
                     fetch_size=size) == [(len(expected),)], size
    for k in (1, 4, 7, 10, 100):
        assert indexed(session, kinds, f"k = {k} AND {where}") == \
            [row for row in expected if row[0] == k], k


def test_every_index_kind_built_on_existing_data(session, ks):
    t = f"{ks}.t"
    create_kinds_table(session, t)
    fill_kinds(session, t)
    names = [f"built_{n}" for n in range(len(KIND_TARGETS))]
    for name, target in zip(names, KIND_TARGETS):
        session.execute(f"CREATE INDEX {name} ON {t} ({target})")
    for name in names:
        wait_built(session, ks, name)
    for name, where, predicate in KIND_CASES:
        expected = check(session, t, where, predicate, nonempty=(name != "nothing matches"))
        assert fetch(session, f"SELECT * FROM {t} WHERE {where}", fetch_size=2) == expected


def test_static_index_returns_every_row_of_matching_partitions(session, kinds):
    got = fetch(session, f"SELECT k, c FROM {kinds} WHERE s = 1")
    keys = [k for k in range(12) if k % 3 == 1] + [100]
    # A partition without rows shows as its static row (as in the full scan).
    expected_rows = {(k, c) for k in keys for c in range(k % 5)}
    expected_rows |= {(k, None) for k in keys if k % 5 == 0}
    assert set(got) == expected_rows
    assert len(got) == len(expected_rows)


def test_partition_key_component_index(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (a text, b int, c int, v int, PRIMARY KEY ((a, b), c)) "
                    "WITH CLUSTERING ORDER BY (c DESC)")
    session.execute(f"CREATE INDEX ON {t} (a)")
    session.execute(f"CREATE INDEX ON {t} (b)")
    for a in ("x", "y", "z"):
        for b in range(6):
            for c in range(3):
                session.execute(f"INSERT INTO {t} (a, b, c, v) VALUES ('{a}', {b}, {c}, {b * c})")
    expected = check(session, t, "a = 'y'", lambda r: r["a"] == "y", nonempty=True)
    check_paged(session, t, "a = 'y'", expected)
    check(session, t, "b = 4", lambda r: r["b"] == 4, nonempty=True)
    check(session, t, "a = 'w'", lambda r: False)
    # Both components, one indexed and one filtered, is a full partition key: no filtering.
    assert fetch(session, f"SELECT a, b, c FROM {t} WHERE a = 'x' AND b = 2") == [
        ("x", 2, 2), ("x", 2, 1), ("x", 2, 0)]
    check(session, t, "a = 'z' AND v = 4 ALLOW FILTERING",
          lambda r: r["a"] == "z" and r["v"] == 4, nonempty=True)


def test_partition_key_index_finds_static_only_partitions(session, ks):
    # Cassandra's SecondaryIndexTest.testIndexOnPartitionKeyWithStaticColumnAndNoRows.
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (pk1 int, pk2 int, c int, s int static, v int, "
                    "PRIMARY KEY ((pk1, pk2), c))")
    session.execute(f"CREATE INDEX ON {t} (pk2)")
    insert = f"INSERT INTO {t} (pk1, pk2, c, s, v) VALUES (%s, %s, %s, %s, %s)"
    session.execute(insert, (1, 1, 1, 9, 1))
    session.execute(insert, (1, 1, 2, 9, 2))
    session.execute(f"INSERT INTO {t} (pk1, pk2, s) VALUES (2, 1, 9)")
    session.execute(insert, (3, 1, 1, 9, 1))
    got = check(session, t, "pk2 = 1", lambda r: r["pk2"] == 1, nonempty=True)
    assert sorted(got, key=lambda r: (r[0], r[2] or 0)) == [
        (1, 1, 1, 9, 1), (1, 1, 2, 9, 2), (2, 1, None, 9, None), (3, 1, 1, 9, 1)]
    session.execute(f"UPDATE {t} SET s = 9, v = 1 WHERE pk1 = 1 AND pk2 = 10 AND c = 2")
    assert fetch(session, f"SELECT * FROM {t} WHERE pk2 = 10") == [(1, 10, 2, 9, 1)]
    session.execute(f"UPDATE {t} SET s = 9 WHERE pk1 = 1 AND pk2 = 20")
    assert fetch(session, f"SELECT * FROM {t} WHERE pk2 = 20") == [(1, 20, None, 9, None)]


def test_clustering_column_index_on_second_clustering_column(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c1 int, c2 text, v int, PRIMARY KEY (k, c1, c2)) "
                    "WITH CLUSTERING ORDER BY (c1 DESC, c2 ASC)")
    session.execute(f"CREATE INDEX ON {t} (c2)")
    for k in range(8):
        for c1 in range(3):
            for c2 in ("a", "b", "c"):
                session.execute(f"INSERT INTO {t} (k, c1, c2, v) VALUES ({k}, {c1}, '{c2}', 1)")
    expected = check(session, t, "c2 = 'b'", lambda r: r["c2"] == "b", nonempty=True)
    check_paged(session, t, "c2 = 'b'", expected)
    check(session, t, "k = 5 AND c2 = 'c'", lambda r: r["k"] == 5 and r["c2"] == "c",
          nonempty=True)


NO_CLUSTERING_CASES = [
    ("regular", "v", "v = 1", lambda r: r["v"] == 1),
    ("regular text", "t", "t = 'b'", lambda r: r["t"] == "b"),
    ("list values", "l", "l CONTAINS 1", lambda r: contains(r["l"], 1)),
    ("set values", "st", "st CONTAINS 1", lambda r: contains(r["st"], 1)),
    ("map values", "m", "m CONTAINS 1", lambda r: r["m"] is not None and 1 in r["m"].values()),
    ("map keys", "keys(m)", "m CONTAINS KEY 1", lambda r: contains(r["m"], 1)),
    ("map entries", "entries(m)", "m[1] = 1",
     lambda r: r["m"] is not None and r["m"].get(1) == 1),
    ("full frozen list", "full(f)", "f = [1]", lambda r: r["f"] == [1]),
]


@pytest.mark.parametrize("name,target,where,predicate", NO_CLUSTERING_CASES,
                         ids=[c[0] for c in NO_CLUSTERING_CASES])
def test_every_index_kind_without_clustering_columns(session, ks, name, target, where,
                                                     predicate):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int PRIMARY KEY, v int, t text, l list<int>, "
                    "st set<int>, m map<int, int>, f frozen<list<int>>)")
    session.execute(f"CREATE INDEX ON {t} ({target})")
    insert = session.prepare(f"INSERT INTO {t} (k, v, t, l, st, m, f) VALUES (?, ?, ?, ?, ?, ?, ?)")
    for k in range(20):
        session.execute(insert, (k, k % 3, "abc"[k % 3], [k % 3], {k % 3}, {k % 3: k % 3},
                                 [k % 3]))
    expected = check(session, t, where, predicate, nonempty=True)
    check_paged(session, t, where, expected)
    # With the partition key it finds the row.
    assert fetch(session, f"SELECT k FROM {t} WHERE k = 1 AND {where}") == [(1,)]


def test_index_values_of_several_types(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, u uuid, ts timestamp, b boolean, "
                    "tx text, bl blob, d double, tp frozen<tuple<int, text>>, PRIMARY KEY (k, c))")
    for column in ("u", "ts", "b", "tx", "bl", "d", "tp"):
        session.execute(f"CREATE INDEX ON {t} ({column})")
    insert = session.prepare(f"INSERT INTO {t} (k, c, u, ts, b, tx, bl, d, tp) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
    base = datetime.datetime(2020, 5, 17, 12, 0, 0)
    for k in range(10):
        for c in range(3):
            i = k + c
            session.execute(insert, (k, c, uuid.UUID(int=i % 4), base + datetime.timedelta(
                seconds=i % 5), i % 2 == 0, ["", "a", "b"][i % 3], bytes([i % 3] * (i % 3)),
                [0.5, -1.0, 1e300][i % 3], (i % 2, "x" * (i % 2))))
    cases = [
        ("u = %s", [uuid.UUID(int=2)], lambda r: r["u"] == uuid.UUID(int=2)),
        ("ts = %s", [base + datetime.timedelta(seconds=3)],
         lambda r: r["ts"] == base + datetime.timedelta(seconds=3)),
        ("b = false", None, lambda r: r["b"] is False),
        ("tx = ''", None, lambda r: r["tx"] == ""),
        ("tx = 'b'", None, lambda r: r["tx"] == "b"),
        ("bl = 0x0202", None, lambda r: r["bl"] == b"\x02\x02"),
        ("d = -1.0", None, lambda r: r["d"] == -1.0),
        ("tp = (1, 'x')", None, lambda r: r["tp"] == (1, "x")),
    ]
    for where, params, predicate in cases:
        check(session, t, where, predicate, params=params, nonempty=True)


def test_paging_an_index_query_while_rows_change(session, ks):
    """Rows written between pages: a row already returned that changes value is not
    returned again, a matching row ahead of the position is returned, nothing repeats."""
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX ON {t} (v)")
    for k in range(30):
        for c in range(0, 6, 2):
            session.execute(f"INSERT INTO {t} (k, c, v) VALUES ({k}, {c}, 1)")
    statement = SimpleStatement(f"SELECT k, c FROM {t} WHERE v = 1", fetch_size=4)
    result = session.execute(statement)
    seen: list[tuple] = []
    while True:
        seen.extend(tuple(r) for r in result.current_rows)
        if result.paging_state is None:
            break
        k, c = seen[-1]
        # The first row seen leaves the index value and comes back: behind the position.
        session.execute(f"UPDATE {t} SET v = 2 WHERE k = {seen[0][0]} AND c = {seen[0][1]}")
        session.execute(f"UPDATE {t} SET v = 1 WHERE k = {seen[0][0]} AND c = {seen[0][1]}")
        # A new row in the current partition, after the position.
        if c < 5:
            session.execute(f"INSERT INTO {t} (k, c, v) VALUES ({k}, {c + 1}, 1)")
        result = session.execute(statement, paging_state=result.paging_state)
    assert len(seen) == len(set(seen)), "a row came twice"
    tokens = [(int_token(k), c) for k, c in seen]
    assert tokens == sorted(tokens)
    final = fetch(session, f"SELECT k, c FROM {t} WHERE v = 1", fetch_size=None)
    assert set(seen) <= set(final)
    assert {(k, c) for k in range(30) for c in range(0, 6, 2)} <= set(seen)


TOO_BIG = b"\x00" * (1024 * 65)


def test_indexed_values_over_64k_are_refused(session, ks):
    # Cassandra's SecondaryIndexTest.testIndexOnCompositeValueOver64k.
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (a int PRIMARY KEY, b int, c blob)")
    session.execute(f"CREATE INDEX ON {t} (c)")
    for statement in (f"INSERT INTO {t} (a, b, c) VALUES (0, 0, %s)",
                      f"INSERT INTO {t} (a, b, c) VALUES (0, 0, %s) IF NOT EXISTS",
                      f"BEGIN BATCH INSERT INTO {t} (a, b, c) VALUES (0, 0, %s); APPLY BATCH"):
        with pytest.raises(InvalidRequest) as error:
            session.execute(statement, [TOO_BIG])
        assert "Cannot index value of size" in str(error.value), statement
    assert fetch(session, f"SELECT a FROM {t}") == []


def test_index_query_values_over_64k_are_refused(session, ks):
    # Cassandra's SelectTest.testIndexQueryWithValueOver64K.
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (a int, b int, c blob, PRIMARY KEY (a, b))")
    session.execute(f"CREATE INDEX c_idx ON {t} (c)")
    session.execute(f"INSERT INTO {t} (a, b, c) VALUES (0, 0, 0x01)")
    assert_invalid(session, session.prepare(f"SELECT * FROM {t} WHERE c = ? ALLOW FILTERING"),
                   "Index expression values may not be larger than 64K", params=[TOO_BIG])
    session.execute(f"DROP INDEX {ks}.c_idx")
    assert fetch(session, session.prepare(f"SELECT * FROM {t} WHERE c = ? ALLOW FILTERING"),
                 [TOO_BIG]) == []


# --- 3. writes keep the index exact -------------------------------------------------------------


@pytest.fixture
def simple(session, ks):
    """k in 0..9, c in 0..2, v = (k + c) % 3, static s = k % 2; index on v and s."""
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, w int, s int STATIC, "
                    "PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX v_idx ON {t} (v)")
    session.execute(f"CREATE INDEX ON {t} (s)")
    for k in range(10):
        session.execute(f"UPDATE {t} SET s = {k % 2} WHERE k = {k}")
        for c in range(3):
            session.execute(f"INSERT INTO {t} (k, c, v, w) VALUES ({k}, {c}, {(k + c) % 3}, {c})")
    return t


def check_v(session, t, values=range(-1, 12)):
    for value in values:
        check(session, t, f"v = {value}", lambda r, value=value: r["v"] == value)


def keys_for(session, t, where) -> list[tuple]:
    return fetch(session, f"SELECT k, c FROM {t} WHERE {where}")


def test_overwrite_moves_the_row_between_values(session, simple):
    t = simple
    session.execute(f"UPDATE {t} SET v = 7 WHERE k = 4 AND c = 1")
    assert keys_for(session, t, "v = 7") == [(4, 1)]
    assert (4, 1) not in keys_for(session, t, "v = 2")
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (4, 1, 8)")
    assert keys_for(session, t, "v = 7") == []
    assert keys_for(session, t, "v = 8") == [(4, 1)]
    check_v(session, t)


def test_deleting_the_cell_row_range_and_partition(session, simple):
    t = simple
    session.execute(f"DELETE v FROM {t} WHERE k = 1 AND c = 0")
    assert (1, 0) not in keys_for(session, t, "v = 1")
    session.execute(f"UPDATE {t} SET v = null WHERE k = 1 AND c = 1")
    assert (1, 1) not in keys_for(session, t, "v = 2")
    session.execute(f"DELETE FROM {t} WHERE k = 2 AND c = 0")
    assert (2, 0) not in keys_for(session, t, "v = 2")
    session.execute(f"DELETE FROM {t} WHERE k = 5 AND c >= 1")
    assert [r for r in keys_for(session, t, "v = 0") if r[0] == 5] == []
    assert [r for r in keys_for(session, t, "v = 1") if r[0] == 5] == []
    session.execute(f"DELETE FROM {t} WHERE k = 6")
    assert [r for r in keys_for(session, t, "s = 0") if r[0] == 6] == []
    for value in (0, 1, 2):
        assert 6 not in [r[0] for r in keys_for(session, t, f"v = {value}")]
    session.execute(f"DELETE s FROM {t} WHERE k = 8")
    assert 8 not in [r[0] for r in keys_for(session, t, "s = 0")]
    check_v(session, t)
    for value in (0, 1):
        check(session, t, f"s = {value}", lambda r, value=value: r["s"] == value)


def test_older_timestamp_does_not_change_the_index(session, simple):
    t = simple
    session.execute(f"UPDATE {t} USING TIMESTAMP 1000 SET v = 5 WHERE k = 0 AND c = 0")
    # The fixture wrote with the current time: this update is older and loses.
    assert keys_for(session, t, "v = 5") == []
    assert (0, 0) in keys_for(session, t, "v = 0")
    now = int(time.time() * 1_000_000)
    session.execute(f"UPDATE {t} USING TIMESTAMP {now + 10_000_000} SET v = 5 "
                    "WHERE k = 0 AND c = 0")
    session.execute(f"UPDATE {t} USING TIMESTAMP {now + 5_000_000} SET v = 6 "
                    "WHERE k = 0 AND c = 0")
    assert keys_for(session, t, "v = 5") == [(0, 0)]
    assert keys_for(session, t, "v = 6") == []
    session.execute(f"DELETE v FROM {t} USING TIMESTAMP {now + 5_000_000} WHERE k = 0 AND c = 0")
    assert keys_for(session, t, "v = 5") == [(0, 0)]
    session.execute(f"DELETE FROM {t} USING TIMESTAMP {now + 6_000_000} WHERE k = 0")
    assert keys_for(session, t, "v = 5") == [(0, 0)]
    assert 0 not in [r[0] for r in keys_for(session, t, "v = 1")]
    check_v(session, t)


def test_partition_deletion_shadows_older_inserts(session, simple):
    t = simple
    now = int(time.time() * 1_000_000)
    session.execute(f"DELETE FROM {t} USING TIMESTAMP {now + 10_000_000} WHERE k = 3")
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (3, 7, 9) USING TIMESTAMP {now + 1}")
    assert keys_for(session, t, "v = 9") == []
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (3, 8, 9) "
                    f"USING TIMESTAMP {now + 20_000_000}")
    assert keys_for(session, t, "v = 9") == [(3, 8)]
    check_v(session, t)


def test_newer_write_survives_an_intermediate_deletion(session, simple):
    t = simple
    now = int(time.time() * 1_000_000) + 10_000_000
    session.execute(f"UPDATE {t} USING TIMESTAMP {now} SET v = 9 WHERE k = 7 AND c = 2")
    session.execute(f"UPDATE {t} USING TIMESTAMP {now + 300} SET v = 9 WHERE k = 7 AND c = 2")
    session.execute(f"DELETE v FROM {t} USING TIMESTAMP {now + 200} WHERE k = 7 AND c = 2")
    assert keys_for(session, t, "v = 9") == [(7, 2)]
    session.execute(f"DELETE FROM {t} USING TIMESTAMP {now + 250} WHERE k = 7 AND c = 2")
    assert keys_for(session, t, "v = 9") == [(7, 2)]
    session.execute(f"DELETE FROM {t} USING TIMESTAMP {now + 260} WHERE k = 7 AND c >= 0")
    assert keys_for(session, t, "v = 9") == [(7, 2)]
    assert fetch(session, f"SELECT k, c, v, w FROM {t} WHERE k = 7") == [(7, 2, 9, None)]
    check_v(session, t)


def test_equal_timestamps(session, simple):
    t = simple
    ts = int(time.time() * 1_000_000) + 10_000_000
    session.execute(f"UPDATE {t} USING TIMESTAMP {ts} SET v = 5 WHERE k = 9 AND c = 0")
    # A tie between two values: the greater value wins (Cassandra's reconciliation).
    session.execute(f"UPDATE {t} USING TIMESTAMP {ts} SET v = 4 WHERE k = 9 AND c = 0")
    assert keys_for(session, t, "v = 4") == []
    assert keys_for(session, t, "v = 5") == [(9, 0)]
    session.execute(f"UPDATE {t} USING TIMESTAMP {ts} SET v = 6 WHERE k = 9 AND c = 0")
    assert keys_for(session, t, "v = 5") == []
    assert keys_for(session, t, "v = 6") == [(9, 0)]
    # A tie between a value and a deletion: the deletion wins.
    session.execute(f"DELETE v FROM {t} USING TIMESTAMP {ts} WHERE k = 9 AND c = 0")
    assert keys_for(session, t, "v = 6") == []
    check_v(session, t)


def test_reinserting_the_same_value(session, simple):
    t = simple
    before = keys_for(session, t, "v = 1")
    for _ in range(3):
        session.execute(f"INSERT INTO {t} (k, c, v) VALUES (1, 0, 1)")
        session.execute(f"UPDATE {t} SET v = 1 WHERE k = 1 AND c = 0")
    assert keys_for(session, t, "v = 1") == before
    session.execute(f"UPDATE {t} SET s = 1 WHERE k = 3")
    assert [r for r in keys_for(session, t, "s = 1") if r[0] == 3] == [(3, 0), (3, 1), (3, 2)]
    check_v(session, t)


def poll(condition: Callable[[], bool], timeout: float = 8.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def test_ttl_expires_out_of_the_index(session, simple):
    t = simple
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (20, 0, 9) USING TTL 1")
    session.execute(f"UPDATE {t} USING TTL 1 SET v = 9 WHERE k = 21 AND c = 0")
    session.execute(f"UPDATE {t} USING TTL 1 SET s = 9 WHERE k = 22")
    # Expired value overwritten by a value without TTL: must stay.
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (23, 0, 9) USING TTL 1")
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (23, 0, 9)")
    assert poll(lambda: keys_for(session, t, "v = 9") == [(23, 0)]), \
        keys_for(session, t, "v = 9")
    assert poll(lambda: keys_for(session, t, "s = 9") == [])
    check(session, t, "v = 9", lambda r: r["v"] == 9)
    check_v(session, t)


def test_collection_element_add_and_remove(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, l list<int>, st set<int>, "
                    "m map<int, int>, PRIMARY KEY (k, c))")
    for target in ("l", "st", "m", "keys(m)", "entries(m)"):
        session.execute(f"CREATE INDEX ON {t} ({target})")
    for k in range(6):
        session.execute(f"INSERT INTO {t} (k, c, l, st, m) VALUES "
                        f"({k}, 0, [{k}], {{{k}}}, {{{k}: {k}}})")

    def keys(where):
        return [r[0] for r in fetch(session, f"SELECT k FROM {t} WHERE {where}")]

    session.execute(f"UPDATE {t} SET l = l + [7], st = st + {{7}}, m = m + {{7: 70}} "
                    "WHERE k = 2 AND c = 0")
    assert keys("l CONTAINS 7") == [2]
    assert keys("st CONTAINS 7") == [2]
    assert keys("m CONTAINS 70") == [2]
    assert keys("m CONTAINS KEY 7") == [2]
    assert keys("m[7] = 70") == [2]
    session.execute(f"UPDATE {t} SET l = l - [7], st = st - {{7}}, m = m - {{7}} "
                    "WHERE k = 2 AND c = 0")
    for where in ("l CONTAINS 7", "st CONTAINS 7", "m CONTAINS 70", "m CONTAINS KEY 7",
                  "m[7] = 70"):
        assert keys(where) == [], where
    session.execute(f"UPDATE {t} SET m[3] = 33 WHERE k = 3 AND c = 0")
    assert keys("m[3] = 3") == []
    assert keys("m[3] = 33") == [3]
    assert keys("m CONTAINS 3") == []
    assert keys("m CONTAINS KEY 3") == [3]
    session.execute(f"DELETE m[3] FROM {t} WHERE k = 3 AND c = 0")
    assert keys("m CONTAINS KEY 3") == []
    session.execute(f"UPDATE {t} SET l[0] = 9 WHERE k = 4 AND c = 0")
    assert keys("l CONTAINS 4") == []
    assert keys("l CONTAINS 9") == [4]
    session.execute(f"DELETE l[0] FROM {t} WHERE k = 4 AND c = 0")
    assert keys("l CONTAINS 9") == []
    session.execute(f"UPDATE {t} SET st = {{50, 51}} WHERE k = 5 AND c = 0")  # the whole set
    assert keys("st CONTAINS 5") == []
    assert keys("st CONTAINS 51") == [5]
    session.execute(f"UPDATE {t} SET l = l + [1, 1], st = st + {{1}} WHERE k = 0 AND c = 0")
    session.execute(f"UPDATE {t} SET l = l - [1] WHERE k = 1 AND c = 0")
    assert keys("l CONTAINS 1") == [0]
    assert sorted(keys("st CONTAINS 1")) == [0, 1]
    check(session, t, "st CONTAINS 1", lambda r: contains(r["st"], 1))
    for value in range(0, 80):
        check(session, t, f"l CONTAINS {value}", lambda r, v=value: contains(r["l"], v))
        check(session, t, f"m CONTAINS KEY {value}", lambda r, v=value: contains(r["m"], v))


def test_multi_partition_batch(session, simple):
    t = simple
    session.execute(f"""
        BEGIN BATCH
            INSERT INTO {t} (k, c, v) VALUES (30, 0, 11);
            UPDATE {t} SET v = 11 WHERE k = 2 AND c = 2;
            DELETE FROM {t} WHERE k = 4 AND c = 0;
            UPDATE {t} SET s = 5 WHERE k = 31;
            DELETE v FROM {t} WHERE k = 8 AND c = 1;
        APPLY BATCH""")
    assert sorted(keys_for(session, t, "v = 11")) == [(2, 2), (30, 0)]
    check(session, t, "v = 11", lambda r: r["v"] == 11)
    assert keys_for(session, t, "s = 5") == [(31, None)]
    check_v(session, t)


def test_lightweight_transaction_changes_the_index(session, simple):
    t = simple
    applied = session.execute(f"UPDATE {t} SET v = 10 WHERE k = 5 AND c = 1 IF v = 0").one()
    assert applied[0] is True
    assert keys_for(session, t, "v = 10") == [(5, 1)]
    applied = session.execute(f"UPDATE {t} SET v = 11 WHERE k = 5 AND c = 1 IF v = 0").one()
    assert applied[0] is False
    assert keys_for(session, t, "v = 11") == []
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (40, 0, 10) IF NOT EXISTS")
    session.execute(f"DELETE FROM {t} WHERE k = 5 AND c = 1 IF EXISTS")
    assert keys_for(session, t, "v = 10") == [(40, 0)]
    check_v(session, t)


# --- 4. paging, limits, aggregates, tokens, prepared --------------------------------------------


@pytest.fixture
def paged(session, ks):
    """40 partitions of 0..5 rows, v = c % 2 (so many rows per value and partition)."""
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, w text, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX ON {t} (v)")
    insert = session.prepare(f"INSERT INTO {t} (k, c, v, w) VALUES (?, ?, ?, ?)")
    for k in range(40):
        for c in range(k % 6):
            session.execute(insert, (k, c, c % 2, f"w{k}.{c}"))
    return t


def test_paging_returns_the_unpaged_rows(session, paged):
    expected = check(session, paged, "v = 1", lambda r: r["v"] == 1, nonempty=True)
    check_paged(session, paged, "v = 1", expected)
    pages = fetch_pages(session, f"SELECT * FROM {paged} WHERE v = 1", fetch_size=3)
    assert all(len(page) == 3 for page in pages[:-1])


def test_limit_and_per_partition_limit(session, paged):
    everything = oracle(session, paged, lambda r: r["v"] == 0)
    for limit in (1, 2, 5, 17, 1000):
        for size in (None, 1, 2, 3, 100):
            got = fetch(session, f"SELECT * FROM {paged} WHERE v = 0 LIMIT {limit}",
                        fetch_size=size)
            assert got == everything[:limit], (limit, size)
    for per in (1, 2):
        expected, seen = [], {}
        for row in everything:
            seen[row[0]] = seen.get(row[0], 0) + 1
            if seen[row[0]] <= per:
                expected.append(row)
        for size in (None, 1, 2, 3, 100):
            assert fetch(session, f"SELECT * FROM {paged} WHERE v = 0 PER PARTITION LIMIT {per}",
                         fetch_size=size) == expected, (per, size)
        got = fetch(session, f"SELECT * FROM {paged} WHERE v = 0 PER PARTITION LIMIT {per} "
                             "LIMIT 7", fetch_size=2)
        assert got == expected[:7]


def test_count_with_the_index(session, paged):
    for value in (0, 1, 2):
        expected = len(oracle(session, paged, lambda r, v=value: r["v"] == v))
        for size in (None, 1, 3, 100):
            assert fetch(session, f"SELECT count(*) FROM {paged} WHERE v = {value}",
                         fetch_size=size) == [(expected,)], (value, size)
    assert fetch(session, f"SELECT count(*) FROM {paged} WHERE k = 5 AND v = 0") == [(3,)]


def test_token_range_with_the_index(session, paged):
    for bound in (-5_000_000_000_000_000_000, 0, int_token(17), 4_000_000_000_000_000_000):
        where = f"token(k) > {bound} AND v = 1"
        expected = check(session, paged, where,
                         lambda r, b=bound: int_token(r["k"]) > b and r["v"] == 1)
        check_paged(session, paged, where, expected)
    where = f"token(k) > {int_token(3)} AND token(k) <= {int_token(33)} AND v = 0"
    check(session, paged, where,
          lambda r: int_token(3) < int_token(r["k"]) <= int_token(33) and r["v"] == 0)


def test_prepared_statements_with_bound_index_values(session, paged):
    prepared = session.prepare(f"SELECT * FROM {paged} WHERE v = ?")
    for value in (0, 1, 5):
        expected = oracle(session, paged, lambda r, v=value: r["v"] == v)
        for size in (None, 1, 2, 3, 100):
            assert fetch(session, prepared, (value,), fetch_size=size) == expected, (value, size)
    pages = fetch_pages(session, f"SELECT * FROM {paged} WHERE v = ?", (1,), fetch_size=2,
                        prepared=True)
    assert [r for p in pages for r in p] == oracle(session, paged, lambda r: r["v"] == 1)
    with_key = session.prepare(f"SELECT c FROM {paged} WHERE k = ? AND v = ?")
    assert fetch(session, with_key, (5, 1)) == [(1,), (3,)]
    limited = session.prepare(f"SELECT * FROM {paged} WHERE v = ? LIMIT ?")
    assert fetch(session, limited, (1, 4), fetch_size=3) == \
        oracle(session, paged, lambda r: r["v"] == 1)[:4]


# --- 5. ALLOW FILTERING rules --------------------------------------------------------------------


@pytest.fixture
def filtering(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, a int, b int, x int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX ON {t} (a)")
    session.execute(f"CREATE INDEX ON {t} (b)")
    for k in range(12):
        for c in range(4):
            session.execute(f"INSERT INTO {t} (k, c, a, b, x) VALUES "
                            f"({k}, {c}, {(k + c) % 3}, {c % 2}, {k % 4})")
    return t


def test_two_indexed_columns_need_allow_filtering(session, filtering):
    t = filtering
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 1 AND b = 0", REQUIRES_ALLOW_FILTERING)
    check(session, t, "a = 1 AND b = 0 ALLOW FILTERING",
          lambda r: r["a"] == 1 and r["b"] == 0, nonempty=True)
    expected = oracle(session, t, lambda r: r["a"] == 1 and r["b"] == 0)
    check_paged(session, t, "a = 1 AND b = 0 ALLOW FILTERING", expected)


def test_indexed_and_unindexed_column_need_allow_filtering(session, filtering):
    t = filtering
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 2 AND x = 1", REQUIRES_ALLOW_FILTERING)
    expected = check(session, t, "a = 2 AND x = 1 ALLOW FILTERING",
                     lambda r: r["a"] == 2 and r["x"] == 1, nonempty=True)
    check_paged(session, t, "a = 2 AND x = 1 ALLOW FILTERING", expected)
    check(session, t, "a = 2 AND x > 1 ALLOW FILTERING",
          lambda r: r["a"] == 2 and r["x"] > 1, nonempty=True)
    check(session, t, "a = 0 AND c > 1 ALLOW FILTERING",
          lambda r: r["a"] == 0 and r["c"] > 1, nonempty=True)


def test_partition_key_and_index_need_no_filtering(session, filtering):
    t = filtering
    check(session, t, "k = 4 AND a = 1", lambda r: r["k"] == 4 and r["a"] == 1, nonempty=True)
    prepared = session.prepare(f"SELECT * FROM {t} WHERE k = ? AND a = ?")
    assert fetch(session, prepared, (4, 1)) == oracle(
        session, t, lambda r: r["k"] == 4 and r["a"] == 1)
    check(session, t, "k = 4 AND c >= 1 AND a = 1",
          lambda r: r["k"] == 4 and r["c"] >= 1 and r["a"] == 1)


def test_slice_on_indexed_column_needs_allow_filtering(session, filtering):
    t = filtering
    assert_invalid(session, f"SELECT * FROM {t} WHERE a > 1", REQUIRES_ALLOW_FILTERING)
    check(session, t, "a > 1 ALLOW FILTERING", lambda r: r["a"] > 1, nonempty=True)
    check(session, t, "a >= 1 AND b = 1 ALLOW FILTERING",
          lambda r: r["a"] >= 1 and r["b"] == 1, nonempty=True)


def test_order_by_and_in_are_refused_with_an_index(session, filtering):
    t = filtering
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 1 ORDER BY c DESC", ORDER_BY_WITH_INDEX)
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND a = 1 ORDER BY c DESC",
                   ORDER_BY_WITH_INDEX)
    assert_invalid(session, f"SELECT * FROM {t} WHERE k IN (1, 2) AND a = 1", IN_WITH_INDEX)


# --- 6. building an index on existing data --------------------------------------------------------


def test_index_built_on_existing_data(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v text, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {t} (k, c, v) VALUES (?, ?, ?)")
    for k in range(100):
        for c in range(3):
            session.execute(insert, (k, c, f"v{(k * 3 + c) % 7}"))
    session.execute(f"CREATE INDEX built_idx ON {t} (v)")
    expected = oracle(session, t, lambda r: r["v"] == "v3")
    assert len(expected) > 30
    deadline = time.monotonic() + 30
    statuses = []
    while True:
        builds = fetch(session, "SELECT keyspace_name, table_name, index_name, status, "
                                "partitions_built, last_token, failure "
                                "FROM system_views.index_builds WHERE keyspace_name = %s", [ks])
        statuses.append(builds)
        try:
            got = fetch(session, f"SELECT * FROM {t} WHERE v = 'v3'")
            assert got == expected, "an index being built answered wrong rows"
        except ReadFailure:
            pass  # the index is not yet available: allowed while building, never wrong rows
        info = fetch(session, "SELECT table_name, index_name FROM system.\"IndexInfo\" "
                              "WHERE table_name = %s", [ks])
        if builds and builds[0][3] == "built":
            assert info == [(ks, "built_idx")]
            break
        assert builds and builds[0][3] in ("building", "built"), builds
        assert time.monotonic() < deadline, statuses[-1]
        time.sleep(0.02)
    row = statuses[-1][0]
    assert row[:4] == (ks, "t", "built_idx", "built")
    assert row[4] == 100  # partitions_built
    assert row[6] is None  # failure
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 'v3'") == expected
    for n in range(7):
        check(session, t, f"v = 'v{n}'", lambda r, n=n: r["v"] == f"v{n}", nonempty=True)
    check_paged(session, t, "v = 'v3'", expected)


def test_writes_during_the_build_are_indexed_exactly(session, ks):
    """Rows written, changed and deleted while the index is being built."""
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {t} (k, c, v) VALUES (?, ?, ?)")
    for k in range(100):
        for c in range(3):
            session.execute(insert, (k, c, (k + c) % 5))
    session.execute(f"CREATE INDEX race_idx ON {t} (v)")
    futures = []
    for k in range(0, 100, 3):
        futures.append(session.execute_async(f"UPDATE {t} SET v = 7 WHERE k = {k} AND c = 1"))
        futures.append(session.execute_async(f"DELETE FROM {t} WHERE k = {k + 1} AND c = 0"))
        futures.append(session.execute_async(f"INSERT INTO {t} (k, c, v) VALUES ({k}, 5, 8)"))
        futures.append(session.execute_async(f"DELETE v FROM {t} WHERE k = {k + 2} AND c = 2"))
    for future in futures:
        future.result()
    wait_built(session, ks, "race_idx")
    for value in (0, 1, 2, 3, 4, 7, 8):
        check(session, t, f"v = {value}", lambda r, value=value: r["v"] == value, nonempty=True)
    check(session, t, "v = 5", lambda r: False)


def test_kill_during_the_build_then_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-index-build-kill-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as s:
                s.execute("CREATE KEYSPACE r WITH replication = "
                          "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                s.execute("CREATE TABLE r.t (k int, c int, v int, PRIMARY KEY (k, c))")
                insert = s.prepare("INSERT INTO r.t (k, c, v) VALUES (?, ?, ?)")
                for k in range(100):
                    for c in range(3):
                        s.execute(insert, (k, c, (k * c) % 4))
                s.execute("CREATE INDEX kill_idx ON r.t (v)")
            server.kill()  # SIGKILL, possibly mid-build
            server = SibylServer(Path(tmp)).start()
            with connected(server) as s:
                wait_built(s, "r", "kill_idx")
                builds = fetch(s, "SELECT index_name, status, failure FROM "
                                  "system_views.index_builds WHERE keyspace_name = 'r'")
                assert builds == [("kill_idx", "built", None)]
                for n in range(4):
                    check(s, "r.t", f"v = {n}", lambda r, n=n: r["v"] == n, nonempty=True)
            server.stop_cleanly()
        finally:
            server.kill()


# --- 7. DROP INDEX and CREATE again --------------------------------------------------------------


def test_drop_index_then_create_again(session, simple, ks):
    t = simple
    expected = check(session, t, "v = 1", lambda r: r["v"] == 1, nonempty=True)
    session.execute(f"DROP INDEX {ks}.v_idx")
    assert_invalid(session, f"SELECT * FROM {t} WHERE v = 1", REQUIRES_ALLOW_FILTERING)
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 1 ALLOW FILTERING") == expected
    # Writes while there is no index, then the index again under the same name.
    session.execute(f"UPDATE {t} SET v = 1 WHERE k = 0 AND c = 0")
    session.execute(f"DELETE FROM {t} WHERE k = 1")
    session.execute(f"CREATE INDEX v_idx ON {t} (v)")
    wait_built(session, ks, "v_idx")
    check(session, t, "v = 1", lambda r: r["v"] == 1, nonempty=True)
    check_v(session, t)


# --- 8. restart after SIGKILL --------------------------------------------------------------------


def test_indexes_survive_a_kill_and_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-index-restart-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as s:
                s.execute("CREATE KEYSPACE r WITH replication = "
                          "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                s.execute("CREATE TABLE r.t (k int, c int, v int, s int STATIC, "
                          "m map<int, int>, PRIMARY KEY (k, c))")
                s.execute("CREATE INDEX ON r.t (v)")
                s.execute("CREATE INDEX ON r.t (s)")
                s.execute("CREATE INDEX ON r.t (keys(m))")
                insert = s.prepare("INSERT INTO r.t (k, c, v, m) VALUES (?, ?, ?, ?)")
                for k in range(30):
                    s.execute(f"UPDATE r.t SET s = {k % 2} WHERE k = {k}")
                    for c in range(3):
                        s.execute(insert, (k, c, (k + c) % 4, {c: k}))
                s.execute("UPDATE r.t SET v = 9 WHERE k = 1 AND c = 1")
                s.execute("DELETE FROM r.t WHERE k = 2")
                s.execute("DELETE v FROM r.t WHERE k = 3 AND c = 0")
                # An index created on existing data just before the kill.
                s.execute("CREATE INDEX c_idx ON r.t (c)")
                wait_built(s, "r", "c_idx")
            server.kill()  # SIGKILL
            server = SibylServer(Path(tmp)).start()
            with connected(server) as s:
                cases = [("v = 9", lambda r: r["v"] == 9)]
                cases += [(f"v = {n}", lambda r, n=n: r["v"] == n) for n in range(4)]
                cases += [(f"s = {n}", lambda r, n=n: r["s"] == n) for n in range(2)]
                cases += [(f"m CONTAINS KEY {n}", lambda r, n=n: contains(r["m"], n))
                          for n in range(3)]
                cases += [(f"c = {n}", lambda r, n=n: r["c"] == n) for n in range(3)]
                for where, predicate in cases:
                    check(s, "r.t", where, predicate, nonempty=True)
                assert fetch(s, "SELECT k, c FROM r.t WHERE v = 9") == [(1, 1)]
                # Writes after the restart still maintain the index.
                s.execute("UPDATE r.t SET v = 9 WHERE k = 4 AND c = 0")
                check(s, "r.t", "v = 9", lambda r: r["v"] == 9)
            server.stop_cleanly()
        finally:
            server.kill()


# --- 9. TRUNCATE and DROP TABLE ------------------------------------------------------------------


def test_truncate_empties_index_answers(session, simple):
    t = simple
    assert keys_for(session, t, "v = 1")
    session.execute(f"TRUNCATE {t}")
    for where in ("v = 0", "v = 1", "v = 2", "s = 0", "s = 1"):
        assert keys_for(session, t, where) == [], where
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (1, 1, 1)")
    assert keys_for(session, t, "v = 1") == [(1, 1)]


def test_drop_table_and_create_again_with_an_index(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX v_idx ON {t} (v)")
    for k in range(10):
        session.execute(f"INSERT INTO {t} (k, c, v) VALUES ({k}, 0, {k % 2})")
    session.execute(f"DROP TABLE {t}")
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, w int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX v_idx ON {t} (v)")
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 1") == []
    for k in range(5):
        session.execute(f"INSERT INTO {t} (k, c, v) VALUES ({k}, 0, 1)")
    check(session, t, "v = 1", lambda r: r["v"] == 1, nonempty=True)
    assert len(fetch(session, f"SELECT * FROM {t} WHERE v = 1")) == 5
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 0") == []


def test_dropped_column_values_do_not_come_back_in_a_new_index(session, ks):
    t = f"{ks}.t"
    session.execute(f"CREATE TABLE {t} (k int, c int, v int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE INDEX v_idx ON {t} (v)")
    for k in range(5):
        session.execute(f"INSERT INTO {t} (k, c, v) VALUES ({k}, 0, 1)")
    session.execute(f"DROP INDEX {ks}.v_idx")
    session.execute(f"ALTER TABLE {t} DROP v")
    time.sleep(0.01)
    session.execute(f"ALTER TABLE {t} ADD v int")
    session.execute(f"CREATE INDEX v_idx2 ON {t} (v)")
    wait_built(session, ks, "v_idx2")
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 1") == []
    session.execute(f"INSERT INTO {t} (k, c, v) VALUES (9, 0, 1)")
    assert fetch(session, f"SELECT * FROM {t} WHERE v = 1") == [(9, 0, 1)]


def test_drop_keyspace_and_create_again_with_the_same_names(session):
    for _ in range(2):
        session.execute("CREATE KEYSPACE idx_again WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.execute("CREATE TABLE idx_again.t (k int, c int, v int, PRIMARY KEY (k, c))")
        session.execute("CREATE INDEX tv ON idx_again.t (v)")
        assert fetch(session, "SELECT * FROM idx_again.t WHERE v = 1") == []
        for k in range(5):
            session.execute(f"INSERT INTO idx_again.t (k, c, v) VALUES ({k}, 0, 1)")
        check(session, "idx_again.t", "v = 1", lambda r: r["v"] == 1, nonempty=True)
        session.execute("DROP KEYSPACE idx_again")
