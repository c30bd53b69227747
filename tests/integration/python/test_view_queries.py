"""Materialized views with data, end to end through the DataStax Python driver.

Every view is compared with an oracle: the base table read with a plain
`SELECT *` and mapped in Python onto the view's rows (a base row gives a view
row when it lives and every view key column has a value; the view's WHERE on
key columns must hold). Covered: the guides' view as written, random write
histories (overwrites, older timestamps, deletions of cells, rows, ranges and
partitions, TTLs, collections, static columns, BATCH, LWT) with a printed
seed, the view queried with every SELECT clause and page size, a build on
existing data (system_views.view_builds, system.built_views), restart after
SIGKILL, and checking a live view (system_views.view_checks, `sibyl admin
verify-view` and `sibyl admin views`).

The DDL (statements, metadata, refusals) is tested in test_view_ddl.py.
"""

from __future__ import annotations

import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from cassandra import InvalidRequest
from cassandra.query import BatchStatement, SimpleStatement

from select_support import connected, fetch, fetch_pages, ks, session  # noqa: F401
from sibyl_process import SibylServer, sibyl_binary

PAGE_SIZES = (1, 2, 3, 100)


# --- helpers -------------------------------------------------------------------------------------


def rows_of(session, query: str) -> list[dict]:
    result = session.execute(SimpleStatement(query, fetch_size=None))
    return [dict(zip(result.column_names, row)) for row in result]


def view_oracle(session, base: str, key: list[str], columns: list[str], keep=lambda r: True):
    """The view rows the base gives: (key values..., column values...) per base row whose
    view key columns all have values and for which `keep` holds, as a sorted list."""
    expected = []
    for row in rows_of(session, f"SELECT * FROM {base}"):
        if any(row[name] is None for name in key) or not keep(row):
            continue
        expected.append(tuple(row[name] for name in key + columns))
    return sorted(expected, key=repr)


def view_rows(session, view: str, key: list[str], columns: list[str]) -> list[tuple]:
    names = ", ".join(key + columns)
    return sorted((tuple(r) for r in fetch(session, f"SELECT {names} FROM {view}")), key=repr)


def check_view(session, base: str, view: str, key: list[str], columns: list[str],
               keep=lambda r: True, context: str = "") -> list[tuple]:
    expected = view_oracle(session, base, key, columns, keep)
    got = view_rows(session, view, key, columns)
    assert got == expected, f"{view} differs from its base {context}"
    return got


def wait_built(session, keyspace: str, view: str, timeout_s: float = 30) -> None:
    deadline = time.monotonic() + timeout_s
    while True:
        status = fetch(session, "SELECT status, failure FROM system_views.view_builds "
                                f"WHERE keyspace_name = '{keyspace}' AND view_name = '{view}'")
        if status and status[0][0] == "built":
            return
        assert not status or status[0][0] != "failed", status
        if time.monotonic() > deadline:
            pytest.fail(f"view {keyspace}.{view} not built after {timeout_s} s: {status}")
        time.sleep(0.1)


def sibyl_admin(server: SibylServer, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "admin", "--host",
                           "127.0.0.1", "--port", str(server.port), *args],
                          capture_output=True, text=True, timeout=120)


# --- 1. the guides' view -------------------------------------------------------------------------


def test_the_guides_view_follows_its_base(session, ks):
    session.execute(f"CREATE TABLE {ks}.user_accounts (username text PRIMARY KEY, email text, "
                    "password text, country text)")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.users_by_email AS "
                    "SELECT email, password, country FROM user_accounts "
                    "WHERE username IS NOT NULL AND email IS NOT NULL "
                    "PRIMARY KEY (email, username)")
    insert = session.prepare(f"INSERT INTO {ks}.user_accounts (username, email, password, country)"
                             " VALUES (?, ?, ?, ?)")
    session.execute(insert, ("ann", "ann@example.com", "pw1", "UK"))
    session.execute(insert, ("bob", "bob@example.com", "pw2", "FR"))
    session.execute(f"INSERT INTO {ks}.user_accounts (username, password) VALUES ('eve', 'pw3')")
    by_email = session.prepare(f"SELECT * FROM {ks}.users_by_email WHERE email = ?")
    assert [tuple(r) for r in session.execute(by_email, ("ann@example.com",))] == [
        ("ann@example.com", "ann", "UK", "pw1")]
    assert list(session.execute(by_email, ("nobody",))) == []
    # eve has no email: no view row.
    assert sorted(fetch(session, f"SELECT username FROM {ks}.users_by_email")) == [
        ("ann",), ("bob",)]
    # A changed email moves the row; the old one is gone.
    session.execute(f"UPDATE {ks}.user_accounts SET email = 'ann@new.org' WHERE username = 'ann'")
    assert list(session.execute(by_email, ("ann@example.com",))) == []
    assert [r[1] for r in session.execute(by_email, ("ann@new.org",))] == ["ann"]
    # A column update reaches the view row; a deleted email removes it.
    session.execute(f"UPDATE {ks}.user_accounts SET country = 'IE' WHERE username = 'ann'")
    assert [r[2] for r in session.execute(by_email, ("ann@new.org",))] == ["IE"]
    session.execute(f"DELETE email FROM {ks}.user_accounts WHERE username = 'bob'")
    assert list(session.execute(by_email, ("bob@example.com",))) == []
    session.execute(f"DELETE FROM {ks}.user_accounts WHERE username = 'ann'")
    assert list(session.execute(f"SELECT * FROM {ks}.users_by_email")) == []


def test_an_older_write_changes_nothing_and_a_newer_one_wins(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int, w int)")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT * FROM t "
                    "WHERE v IS NOT NULL AND k IS NOT NULL PRIMARY KEY (v, k)")
    session.execute(f"INSERT INTO {ks}.t (k, v, w) VALUES (1, 10, 100) USING TIMESTAMP 1000")
    session.execute(f"UPDATE {ks}.t USING TIMESTAMP 500 SET v = 20 WHERE k = 1")
    assert fetch(session, f"SELECT v, k, w FROM {ks}.by_v") == [(10, 1, 100)]
    session.execute(f"UPDATE {ks}.t USING TIMESTAMP 2000 SET v = 20 WHERE k = 1")
    assert fetch(session, f"SELECT v, k, w FROM {ks}.by_v") == [(20, 1, 100)]
    # Back to the first value, at a timestamp between: Cassandra's view
    # tombstone at 2000 could hide it; here the row comes back.
    session.execute(f"UPDATE {ks}.t USING TIMESTAMP 3000 SET v = 10 WHERE k = 1")
    assert fetch(session, f"SELECT v, k, w FROM {ks}.by_v") == [(10, 1, 100)]
    # Deleted then written again with an older timestamp than the deletion:
    # the base hides it, so must the view.
    session.execute(f"DELETE FROM {ks}.t USING TIMESTAMP 4000 WHERE k = 1")
    session.execute(f"INSERT INTO {ks}.t (k, v, w) VALUES (1, 30, 300) USING TIMESTAMP 3500")
    assert fetch(session, f"SELECT * FROM {ks}.by_v") == []
    session.execute(f"INSERT INTO {ks}.t (k, v, w) VALUES (1, 30, 300) USING TIMESTAMP 5000")
    assert fetch(session, f"SELECT v, k, w FROM {ks}.by_v") == [(30, 1, 300)]


def test_unselected_columns_keep_the_row_and_ttls_expire_it(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v int, w int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_c AS SELECT k, c FROM t "
                    "WHERE c IS NOT NULL AND k IS NOT NULL PRIMARY KEY (c, k)")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT k, c, w FROM t "
                    "WHERE v IS NOT NULL AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)")
    # A row that lives only by an unselected cell (UPDATE writes no marker).
    session.execute(f"UPDATE {ks}.t SET w = 5 WHERE k = 1 AND c = 1")
    assert fetch(session, f"SELECT c, k FROM {ks}.by_c") == [(1, 1)]
    session.execute(f"DELETE w FROM {ks}.t WHERE k = 1 AND c = 1")
    assert fetch(session, f"SELECT c, k FROM {ks}.by_c") == []
    # The key column with a TTL takes the view row with it; the base row
    # stays (w has no TTL).
    session.execute(f"INSERT INTO {ks}.t (k, c, w) VALUES (2, 2, 7)")
    session.execute(f"UPDATE {ks}.t USING TTL 1 SET v = 9 WHERE k = 2 AND c = 2")
    assert fetch(session, f"SELECT v, k, c, w FROM {ks}.by_v") == [(9, 2, 2, 7)]
    time.sleep(2.1)
    assert fetch(session, f"SELECT v, k, c, w FROM {ks}.by_v") == []
    assert fetch(session, f"SELECT c, k FROM {ks}.by_c") == [(2, 2)]


# --- 2. random histories -------------------------------------------------------------------------


def test_random_histories_keep_the_views_exact(session, ks):
    seed = int(os.environ.get("SIBYL_VIEW_SEED", random.randrange(1 << 30)))
    print(f"SIBYL_VIEW_SEED={seed}")
    rng = random.Random(seed)
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v int, w text, s int static, "
                    "l list<int>, PRIMARY KEY (k, c))")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT k, c, v, w, l FROM t "
                    "WHERE v IS NOT NULL "
                    "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_c AS SELECT k, c, w FROM t "
                    "WHERE c IS NOT NULL AND k IS NOT NULL AND c >= 2 PRIMARY KEY (c, k)")
    views = [("by_v", ["v", "k", "c"], ["w", "l"], lambda r: True),
             ("by_c", ["c", "k"], ["w"], lambda r: r["c"] >= 2)]

    def timestamp() -> str:
        return f" USING TIMESTAMP {rng.randrange(1, 50)}" if rng.random() < 0.3 else ""

    def statement() -> str:
        k, c, v = rng.randrange(4), rng.randrange(4), rng.randrange(3)
        choice = rng.randrange(10)
        if choice == 0:
            return f"INSERT INTO {ks}.t (k, c, v, w) VALUES ({k}, {c}, {v}, 'w{v}'){timestamp()}"
        if choice == 1:
            return f"UPDATE {ks}.t{timestamp()} SET v = {v} WHERE k = {k} AND c = {c}"
        if choice == 2:
            return f"UPDATE {ks}.t SET w = 'x{c}', l = l + [{v}] WHERE k = {k} AND c = {c}"
        if choice == 3:
            return f"DELETE v FROM {ks}.t{timestamp()} WHERE k = {k} AND c = {c}"
        if choice == 4:
            return f"DELETE FROM {ks}.t{timestamp()} WHERE k = {k} AND c = {c}"
        if choice == 5:
            return f"DELETE FROM {ks}.t WHERE k = {k} AND c >= {c}"
        if choice == 6:
            return f"DELETE FROM {ks}.t{timestamp()} WHERE k = {k}"
        if choice == 7:
            return f"UPDATE {ks}.t SET s = {v} WHERE k = {k}"
        if choice == 8:
            return f"INSERT INTO {ks}.t (k, c, v) VALUES ({k}, {c}, {v}) IF NOT EXISTS"
        return f"UPDATE {ks}.t SET v = null WHERE k = {k} AND c = {c}"

    # Whether some check compared non-empty views: a history can end with every row deleted
    # or out of both views, so the end state alone cannot show the test was not vacuous.
    view_rows_seen = 0
    for step in range(120):
        if rng.random() < 0.15:
            batch = BatchStatement()
            for _ in range(rng.randrange(2, 4)):
                text = statement()
                while "IF NOT EXISTS" in text:
                    text = statement()
                batch.add(SimpleStatement(text))
            session.execute(batch)
        else:
            session.execute(statement())
        if step % 4 == 0:
            for view, key, columns, keep in views:
                view_rows_seen += len(check_view(session, f"{ks}.t", f"{ks}.{view}", key, columns,
                                                 keep, f"at step {step}, SIBYL_VIEW_SEED={seed}"))
    for view, key, columns, keep in views:
        check_view(session, f"{ks}.t", f"{ks}.{view}", key, columns, keep,
                   f"at the end, SIBYL_VIEW_SEED={seed}")
    assert view_rows_seen > 0, f"the history never put a row in a view, SIBYL_VIEW_SEED={seed}"


# --- 3. the view queried like a table ------------------------------------------------------------


def test_select_clauses_and_paging_on_a_view(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v int, PRIMARY KEY (k, c))")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT * FROM t WHERE v IS NOT NULL "
                    "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c) "
                    "WITH CLUSTERING ORDER BY (k DESC, c ASC)")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c, v) VALUES (?, ?, ?)")
    for k in range(10):
        for c in range(3):
            session.execute(insert, (k, c, (k + c) % 3))
    rows = fetch(session, f"SELECT k, c FROM {ks}.by_v WHERE v = 1")
    expected = sorted(((k, c) for k in range(10) for c in range(3) if (k + c) % 3 == 1),
                      key=lambda kc: (-kc[0], kc[1]))
    assert rows == expected
    for size in PAGE_SIZES:
        pages = fetch_pages(session, f"SELECT k, c FROM {ks}.by_v WHERE v = 1", fetch_size=size)
        assert [row for page in pages for row in page] == expected, size
        everything = fetch(session, f"SELECT v, k, c FROM {ks}.by_v", fetch_size=size)
        assert len(everything) == 30, size
    assert fetch(session, f"SELECT k, c FROM {ks}.by_v WHERE v = 1 LIMIT 2") == expected[:2]
    assert fetch(session, f"SELECT k, c FROM {ks}.by_v WHERE v = 1 ORDER BY k ASC") == \
        list(reversed(expected))
    assert fetch(session, f"SELECT count(*) FROM {ks}.by_v WHERE v = 1") == [(len(expected),)]
    assert fetch(session, f"SELECT k, c FROM {ks}.by_v WHERE v = 1 AND k = 4") == \
        [kc for kc in expected if kc[0] == 4]
    per_partition = fetch(session, f"SELECT v, k FROM {ks}.by_v PER PARTITION LIMIT 1")
    assert sorted(v for v, _ in per_partition) == [0, 1, 2]
    assert fetch(session, f"SELECT k FROM {ks}.by_v WHERE v = 1 AND k = 4 AND c = 0") == [(4,)]
    filtered = fetch(session, f"SELECT k, c FROM {ks}.by_v WHERE c = 2 ALLOW FILTERING")
    assert sorted(filtered) == sorted((k, 2) for k in range(10))


# --- 4. building on existing data ----------------------------------------------------------------


def test_a_view_created_on_data_is_built(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v int, PRIMARY KEY (k, c))")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c, v) VALUES (?, ?, ?)")
    for k in range(200):
        session.execute(insert, (k, k % 3, k % 7))
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT * FROM t WHERE v IS NOT NULL "
                    "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)")
    wait_built(session, ks, "by_v")
    assert fetch(session, "SELECT view_name FROM system.built_views "
                          f"WHERE keyspace_name = '{ks}'") == [("by_v",)]
    got = check_view(session, f"{ks}.t", f"{ks}.by_v", ["v", "k", "c"], [])
    assert len(got) == 200
    session.execute(f"UPDATE {ks}.t SET v = 100 WHERE k = 5 AND c = 2")
    check_view(session, f"{ks}.t", f"{ks}.by_v", ["v", "k", "c"], [], context="after a write")


# --- 5. restart after SIGKILL --------------------------------------------------------------------


def test_views_survive_a_kill_and_restart():
    with tempfile.TemporaryDirectory(prefix="sibyl-view-restart-") as tmp:
        server = SibylServer(Path(tmp)).start()
        try:
            with connected(server) as s:
                s.execute("CREATE KEYSPACE r WITH replication = "
                          "{'class': 'SimpleStrategy', 'replication_factor': 1}")
                s.execute("CREATE TABLE r.t (k int, c int, v int, PRIMARY KEY (k, c))")
                s.execute("CREATE MATERIALIZED VIEW r.by_v AS SELECT * FROM t WHERE v IS NOT NULL "
                          "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)")
                insert = s.prepare("INSERT INTO r.t (k, c, v) VALUES (?, ?, ?)")
                for k in range(100):
                    s.execute(insert, (k, 0, k % 5))
                for k in range(0, 100, 3):
                    s.execute(f"UPDATE r.t SET v = 9 WHERE k = {k} AND c = 0")
            server.kill()  # SIGKILL: the base writes and their view rows went in one batch
            server = SibylServer(Path(tmp)).start()
            with connected(server) as s:
                got = check_view(s, "r.t", "r.by_v", ["v", "k", "c"], [],
                                 context="after SIGKILL and restart")
                assert len(got) == 100
            server.stop_cleanly()
        finally:
            server.kill()


# --- 6. checking a live view ---------------------------------------------------------------------


def test_view_checks_and_admin_commands(sibyl, session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    session.execute(f"CREATE MATERIALIZED VIEW {ks}.by_v AS SELECT * FROM t "
                    "WHERE v IS NOT NULL AND k IS NOT NULL PRIMARY KEY (v, k)")
    for k in range(20):
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES ({k}, {k % 4})")
    session.execute("INSERT INTO system_views.view_checks (keyspace_name, view_name, repair) "
                    "VALUES (%s, %s, false)", (ks, "by_v"))
    check = rows_of(session, "SELECT * FROM system_views.view_checks "
                             f"WHERE keyspace_name = '{ks}' AND view_name = 'by_v'")
    assert len(check) == 1
    assert (check[0]["rows_expected"], check[0]["missing"], check[0]["unexpected"],
            check[0]["different"], check[0]["repaired"], check[0]["repair"]) == (20, 0, 0, 0, 0,
                                                                                 False)
    with pytest.raises(InvalidRequest, match="doesn't exist"):
        session.execute("INSERT INTO system_views.view_checks (keyspace_name, view_name) "
                        f"VALUES ('{ks}', 'nothing')")
    with pytest.raises(InvalidRequest, match="Modification is not supported"):
        session.execute("INSERT INTO system_views.view_builds (keyspace_name, view_name) "
                        f"VALUES ('{ks}', 'by_v')")

    verify = sibyl_admin(sibyl, "verify-view", f"{ks}.by_v")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert f"{ks}.by_v is consistent with its base on every node asked" in verify.stdout
    assert f"{ks}.by_v" in verify.stdout and " 20 " in verify.stdout
    repaired = sibyl_admin(sibyl, "verify-view", f"{ks}.by_v", "--repair")
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    missing = sibyl_admin(sibyl, "verify-view", f"{ks}.nothing")
    assert missing.returncode == 1, missing.stdout + missing.stderr
    views = sibyl_admin(sibyl, "views", ks)
    assert views.returncode == 0, views.stdout + views.stderr
    assert "by_v" in views.stdout and "built" in views.stdout
