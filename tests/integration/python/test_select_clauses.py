"""The clauses of SELECT through the Python driver, as Cassandra 4.1 answers
them: `*`, listed columns and aliases, DISTINCT, ORDER BY (and its rules with
IN), LIMIT and PER PARTITION LIMIT (literals and bind markers), GROUP BY, and
the aggregates with their result names and types.

Facts come from Cassandra 4.1's SelectStatement, Selection and the unit tests
SelectTest, SelectLimitTest, SelectOrderByTest, SelectGroupByTest and
AggregationTest.
"""

from __future__ import annotations

from decimal import Decimal

from cassandra import InvalidRequest
import pytest

from select_support import (CANNOT_PAGE_ORDER_BY_WITH_IN, assert_invalid, column_types, columns,
                            fetch, ks, session, warnings_of)  # noqa: F401  (fixtures)

# --- * , columns, aliases --------------------------------------------------------------------


def test_star_lists_key_columns_then_statics_then_regulars_by_name(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, zeta int, s int STATIC, alpha int, "
                    "PRIMARY KEY (k, c))")
    session.execute(f"INSERT INTO {ks}.t (k, c, zeta, s, alpha) VALUES (1, 2, 3, 4, 5)")
    assert columns(session, f"SELECT * FROM {ks}.t") == ["k", "c", "s", "alpha", "zeta"]
    assert fetch(session, f"SELECT * FROM {ks}.t") == [(1, 2, 4, 5, 3)]


def test_listed_columns_in_any_order_repeated_and_aliased(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text, w int)")
    session.execute(f"INSERT INTO {ks}.t (k, v, w) VALUES (1, 'a', 10)")
    query = f'SELECT w, k AS key, v AS "Value", k, w AS MyW FROM {ks}.t'
    # Unquoted aliases are lower-cased, quoted ones keep their case.
    assert columns(session, query) == ["w", "key", "Value", "k", "myw"]
    assert fetch(session, query) == [(10, 1, "a", 1, 10)]


def test_unknown_column_and_alias_in_where_are_refused(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    with pytest.raises(InvalidRequest, match="Undefined column name nope"):
        session.execute(f"SELECT nope FROM {ks}.t")
    # An alias names a result column only; WHERE cannot use it.
    with pytest.raises(InvalidRequest, match="Undefined column name key"):
        session.execute(f"SELECT k AS key FROM {ks}.t WHERE key = 1")


# --- DISTINCT ------------------------------------------------------------------------------------


@pytest.fixture
def distinct_table(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, s int STATIC, v int, "
                    "PRIMARY KEY ((a, b), c))")
    for a, b in [(1, 1), (1, 2), (2, 1)]:
        for c in range(3):
            session.execute(f"INSERT INTO {ks}.t (a, b, c, v) VALUES ({a}, {b}, {c}, {c})")
        session.execute(f"UPDATE {ks}.t SET s = {a * 10 + b} WHERE a = {a} AND b = {b}")
    return f"{ks}.t"


def test_distinct_returns_one_row_per_partition(session, distinct_table):
    got = fetch(session, f"SELECT DISTINCT a, b, s FROM {distinct_table}")
    assert sorted(got) == [(1, 1, 11), (1, 2, 12), (2, 1, 21)]
    assert fetch(session, f"SELECT DISTINCT a, b FROM {distinct_table} WHERE a = 1 AND b IN (1, 2)") \
        == [(1, 1), (1, 2)]
    assert fetch(session, f"SELECT DISTINCT s FROM {distinct_table} WHERE a = 2 AND b = 1") == [(21,)]
    # A partition whose rows are all deleted but whose static row lives is still a partition.
    session.execute(f"DELETE FROM {distinct_table} WHERE a = 2 AND b = 1 AND c IN (0, 1, 2)")
    assert sorted(fetch(session, f"SELECT DISTINCT a, b FROM {distinct_table}")) == [
        (1, 1), (1, 2), (2, 1)]
    # Filtering on a static column is allowed with DISTINCT.
    assert fetch(session, f"SELECT DISTINCT a, b, s FROM {distinct_table} WHERE s = 12 "
                          "ALLOW FILTERING") == [(1, 2, 12)]


def test_distinct_refusals(session, distinct_table):
    assert_invalid(session, f"SELECT DISTINCT a, b, c FROM {distinct_table}",
                   "SELECT DISTINCT queries must only request partition key columns and/or "
                   "static columns (not c)")
    assert_invalid(session, f"SELECT DISTINCT a, v FROM {distinct_table} WHERE a = 1 AND b = 1",
                   "SELECT DISTINCT queries must only request partition key columns and/or "
                   "static columns (not v)")
    assert_invalid(session, f"SELECT DISTINCT a FROM {distinct_table}",
                   "SELECT DISTINCT queries must request all the partition key columns (missing b)")
    assert_invalid(session, f"SELECT DISTINCT a, b FROM {distinct_table} WHERE a = 1 AND b = 1 "
                            "AND c = 1",
                   "SELECT DISTINCT with WHERE clause only supports restriction by partition key "
                   "and/or static columns.")
    assert_invalid(session, f"SELECT DISTINCT a, b FROM {distinct_table} WHERE v = 1 "
                            "ALLOW FILTERING",
                   "SELECT DISTINCT with WHERE clause only supports restriction by partition key "
                   "and/or static columns.")
    assert_invalid(session, f"SELECT DISTINCT a, b FROM {distinct_table} PER PARTITION LIMIT 1",
                   "PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries")


def test_distinct_with_limit(session, distinct_table):
    everything = fetch(session, f"SELECT DISTINCT a, b FROM {distinct_table}")
    assert fetch(session, f"SELECT DISTINCT a, b FROM {distinct_table} LIMIT 2") == everything[:2]


# --- ORDER BY ------------------------------------------------------------------------------------


@pytest.fixture
def ordered_table(session, ks):
    # c1 ascending, c2 descending.
    session.execute(f"CREATE TABLE {ks}.t (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2)) "
                    "WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)")
    for k in (1, 2):
        for c1 in range(3):
            for c2 in range(2):
                session.execute(f"INSERT INTO {ks}.t (k, c1, c2, v) VALUES "
                                f"({k}, {c1}, {c2}, {k * 100 + c1 * 10 + c2})")
    return f"{ks}.t"


def test_order_by_follows_or_reverses_the_clustering_order(session, ordered_table):
    natural = fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1")
    assert natural == [(0, 1), (0, 0), (1, 1), (1, 0), (2, 1), (2, 0)]
    assert fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1 ORDER BY c1 ASC") == natural
    assert fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1 "
                          "ORDER BY c1 ASC, c2 DESC") == natural
    assert fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1 ORDER BY c1 DESC") \
        == natural[::-1]
    assert fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1 "
                          "ORDER BY c1 DESC, c2 ASC") == natural[::-1]
    # A restricted prefix lets ORDER BY start at the next column.
    assert fetch(session, f"SELECT c2 FROM {ordered_table} WHERE k = 1 AND c1 = 2 "
                          "ORDER BY c2 ASC") == [(0,), (1,)]
    # Reversed with a slice and a LIMIT: the limit takes the first rows in the asked order.
    assert fetch(session, f"SELECT c1, c2 FROM {ordered_table} WHERE k = 1 AND c1 >= 1 "
                          "ORDER BY c1 DESC LIMIT 3") == [(2, 0), (2, 1), (1, 0)]


def test_order_by_refusals(session, ordered_table):
    assert_invalid(session, f"SELECT * FROM {ordered_table} WHERE k = 1 ORDER BY c1 ASC, c2 ASC",
                   "Unsupported order by relation")
    assert_invalid(session, f"SELECT * FROM {ordered_table} WHERE k = 1 ORDER BY c2 DESC",
                   "Order by currently only supports the ordering of columns following their "
                   "declared order in the PRIMARY KEY")
    assert_invalid(session, f"SELECT * FROM {ordered_table} WHERE k = 1 ORDER BY v DESC",
                   "Order by is currently only supported on the clustered columns of the PRIMARY "
                   "KEY, got v")
    assert_invalid(session, f"SELECT * FROM {ordered_table} ORDER BY c1 DESC",
                   "ORDER BY is only supported when the partition key is restricted by an EQ or "
                   "an IN.")
    assert_invalid(session, f"SELECT * FROM {ordered_table} WHERE token(k) > 0 ORDER BY c1 DESC",
                   "ORDER BY is only supported when the partition key is restricted by an EQ or "
                   "an IN.")


def test_order_by_with_in_cannot_be_paged(session, ordered_table):
    query = f"SELECT k, c1, c2 FROM {ordered_table} WHERE k IN (1, 2) ORDER BY c1 DESC"
    # Post-query ordering drops the row limit, so any page size pages: refused even with LIMIT.
    assert_invalid(session, query, CANNOT_PAGE_ORDER_BY_WITH_IN)
    assert_invalid(session, query + " LIMIT 2", CANNOT_PAGE_ORDER_BY_WITH_IN, fetch_size=100)


def test_order_by_with_in_sorts_across_partitions_without_paging(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v text, PRIMARY KEY (k, c))")
    for k, c in [(1, 1), (1, 4), (2, 2), (2, 5), (3, 3)]:
        session.execute(f"INSERT INTO {ks}.t (k, c, v) VALUES ({k}, {c}, '{k}/{c}')")
    query = f"SELECT v FROM {ks}.t WHERE k IN (3, 1, 2) ORDER BY c DESC"
    assert fetch(session, query, fetch_size=None) == [("2/5",), ("1/4",), ("3/3",), ("2/2",),
                                                      ("1/1",)]
    assert fetch(session, query + " LIMIT 2", fetch_size=None) == [("2/5",), ("1/4",)]
    # The ordering column need not be selected: it is read for sorting, not returned.
    from select_support import statement
    assert list(session.execute(statement(query, None)).column_names) == ["v"]


# --- LIMIT / PER PARTITION LIMIT -----------------------------------------------------------------


@pytest.fixture
def limit_table(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, v int, PRIMARY KEY (k, c))")
    for k in range(3):
        for c in range(4):
            session.execute(f"INSERT INTO {ks}.t (k, c, v) VALUES ({k}, {c}, {k * 10 + c})")
    return f"{ks}.t"


def test_limit_literal_and_bind_marker(session, limit_table):
    assert fetch(session, f"SELECT c FROM {limit_table} WHERE k = 1 LIMIT 2") == [(0,), (1,)]
    prepared = session.prepare(f"SELECT c FROM {limit_table} WHERE k = ? LIMIT ?")
    assert [(m.name, m.type.cql_parameterized_type()) for m in prepared.column_metadata] == [
        ("k", "int"), ("[limit]", "int")]
    assert fetch(session, prepared, (1, 3)) == [(0,), (1,), (2,)]
    everything = fetch(session, f"SELECT k, c FROM {limit_table}")
    assert len(everything) == 12
    assert fetch(session, f"SELECT k, c FROM {limit_table} LIMIT 5") == everything[:5]
    assert fetch(session, f"SELECT k, c FROM {limit_table} LIMIT 100") == everything


def test_per_partition_limit(session, limit_table):
    everything = fetch(session, f"SELECT k, c FROM {limit_table}")
    first_two = [r for r in everything if r[1] < 2]
    assert fetch(session, f"SELECT k, c FROM {limit_table} PER PARTITION LIMIT 2") == first_two
    assert fetch(session, f"SELECT k, c FROM {limit_table} PER PARTITION LIMIT 2 LIMIT 3") \
        == first_two[:3]
    assert fetch(session, f"SELECT c FROM {limit_table} WHERE k IN (0, 2) PER PARTITION LIMIT 1") \
        == [(0,), (0,)]
    assert fetch(session, f"SELECT c FROM {limit_table} WHERE k = 1 ORDER BY c DESC "
                          "PER PARTITION LIMIT 3") == [(3,), (2,), (1,)]
    assert fetch(session, f"SELECT k, c FROM {limit_table} WHERE c > 0 PER PARTITION LIMIT 1 "
                          "ALLOW FILTERING") == [r for r in everything if r[1] == 1]
    prepared = session.prepare(f"SELECT k, c FROM {limit_table} PER PARTITION LIMIT ? LIMIT ?")
    assert [m.name for m in prepared.column_metadata] == ["[per_partition_limit]", "[limit]"]
    assert fetch(session, prepared, (1, 2)) == [r for r in everything if r[1] == 0][:2]


def test_limit_refusals(session, limit_table):
    for clause in ("LIMIT 0", "LIMIT -1", "PER PARTITION LIMIT 0", "PER PARTITION LIMIT -3"):
        assert_invalid(session, f"SELECT * FROM {limit_table} {clause}",
                       "LIMIT must be strictly positive")
    prepared = session.prepare(f"SELECT * FROM {limit_table} LIMIT ?")
    assert_invalid(session, prepared, "LIMIT must be strictly positive", (0,))
    assert_invalid(session, prepared, "Invalid null value of limit", (None,))
    assert_invalid(session, f"SELECT count(*) FROM {limit_table} PER PARTITION LIMIT 2",
                   "PER PARTITION LIMIT is not allowed with aggregate queries.")


def test_unset_limit_means_no_limit(session, limit_table):
    from cassandra.query import UNSET_VALUE
    prepared = session.prepare(f"SELECT c FROM {limit_table} WHERE k = ? LIMIT ?")
    assert fetch(session, prepared, (2, UNSET_VALUE)) == [(0,), (1,), (2,), (3,)]


# --- GROUP BY ------------------------------------------------------------------------------------


@pytest.fixture
def group_table(session, ks):
    """SelectGroupByTest's data, with its deletions."""
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, d int, e int, "
                    "PRIMARY KEY (a, b, c, d))")
    for values in [(1, 2, 1, 3, 6), (1, 2, 2, 6, 12), (1, 3, 2, 12, 24), (1, 4, 2, 12, 24),
                   (1, 4, 2, 6, 12), (2, 2, 3, 3, 6), (2, 4, 3, 6, 12), (3, 3, 2, 12, 24),
                   (4, 8, 2, 12, 24)]:
        session.execute(f"INSERT INTO {ks}.t (a, b, c, d, e) VALUES {values}")
    session.execute(f"DELETE FROM {ks}.t WHERE a = 1 AND b = 3 AND c = 2 AND d = 12")
    session.execute(f"DELETE FROM {ks}.t WHERE a = 3")
    return f"{ks}.t"


def test_group_by_partition_key_and_clustering_prefix(session, group_table):
    t = group_table
    by_a = fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} GROUP BY a")
    assert sorted(by_a) == [(1, 2, 6, 4, 24), (2, 2, 6, 2, 12), (4, 8, 24, 1, 24)]
    assert fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} WHERE a = 1 GROUP BY a, b, c") \
        == [(1, 2, 6, 1, 6), (1, 2, 12, 1, 12), (1, 4, 12, 2, 24)]
    # Columns restricted by = may be left out of the GROUP BY list.
    assert fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} WHERE a = 1 AND b = 2 "
                          "GROUP BY c") == [(1, 2, 6, 1, 6), (1, 2, 12, 1, 12)]
    # Without aggregates a group is its first row.
    assert fetch(session, f"SELECT a, b, c, d FROM {t} WHERE a = 1 GROUP BY a, b") == [
        (1, 2, 1, 3), (1, 4, 2, 6)]
    # LIMIT and PER PARTITION LIMIT count groups.
    assert fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} WHERE a = 1 "
                          "GROUP BY a, b, c LIMIT 2") == [(1, 2, 6, 1, 6), (1, 2, 12, 1, 12)]
    assert fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} WHERE a IN (1, 2, 4) "
                          "GROUP BY a, b, c PER PARTITION LIMIT 1") == [
        (1, 2, 6, 1, 6), (2, 2, 6, 1, 6), (4, 8, 24, 1, 24)]
    # Reversed: the groups come in reverse, each group's first row is the first one read.
    assert fetch(session, f"SELECT a, b, e, count(b), max(e) FROM {t} WHERE a = 1 "
                          "GROUP BY a, b, c ORDER BY b DESC, c DESC") == [
        (1, 4, 24, 2, 24), (1, 2, 12, 1, 12), (1, 2, 6, 1, 6)]
    assert fetch(session, f"SELECT DISTINCT a, count(a) FROM {t} WHERE a IN (1, 2, 4) GROUP BY a") \
        == [(1, 1), (2, 1), (4, 1)]


def test_group_by_on_a_range_warns(session, group_table):
    assert "Aggregation query used without partition key" in warnings_of(
        session, f"SELECT a, count(*) FROM {group_table} GROUP BY a")
    assert "Aggregation query used on multiple partition keys (IN restriction)" in warnings_of(
        session, f"SELECT a, count(*) FROM {group_table} WHERE a IN (1, 2) GROUP BY a")
    assert warnings_of(session, f"SELECT a, count(*) FROM {group_table} WHERE a = 1 GROUP BY a") == []


def test_group_by_refusals(session, group_table, ks):
    t = group_table
    assert_invalid(session, f"SELECT a, count(*) FROM {t} GROUP BY a, e",
                   "Group by is currently only supported on the columns of the PRIMARY KEY, got e")
    assert_invalid(session, f"SELECT a, count(*) FROM {t} GROUP BY a, c",
                   "Group by currently only support groups of columns following their declared "
                   "order in the PRIMARY KEY")
    assert_invalid(session, f"SELECT a, count(*) FROM {t} GROUP BY b, a",
                   "Group by currently only support groups of columns following their declared "
                   "order in the PRIMARY KEY")
    assert_invalid(session, f"SELECT DISTINCT a, count(a) FROM {t} GROUP BY a, b",
                   "Grouping on clustering columns is not allowed for SELECT DISTINCT queries")
    assert_invalid(session, f"SELECT a, count(*) FROM {t} GROUP BY a, b ORDER BY b DESC",
                   "ORDER BY is only supported when the partition key is restricted by an EQ or "
                   "an IN.")
    session.execute(f"CREATE TABLE {ks}.composite (p1 int, p2 int, c int, PRIMARY KEY ((p1, p2), c))")
    assert_invalid(session, f"SELECT p1, count(*) FROM {ks}.composite GROUP BY p1",
                   "Group by is not supported on only a part of the partition key")


# --- aggregates ----------------------------------------------------------------------------------


def test_aggregates_names_types_and_values(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c double, d decimal, e smallint, "
                    "f tinyint, g bigint, h varint, x text, PRIMARY KEY (a, b))")
    query = (f"SELECT max(b), min(b), sum(b), avg(b), max(c), sum(c), avg(c), sum(d), avg(d), "
             f"sum(e), avg(e), sum(f), avg(f), sum(g), avg(h), min(x), max(x) FROM {ks}.t")
    assert columns(session, query) == [
        "system.max(b)", "system.min(b)", "system.sum(b)", "system.avg(b)", "system.max(c)",
        "system.sum(c)", "system.avg(c)", "system.sum(d)", "system.avg(d)", "system.sum(e)",
        "system.avg(e)", "system.sum(f)", "system.avg(f)", "system.sum(g)", "system.avg(h)",
        "system.min(x)", "system.max(x)"]
    # sum and avg keep their argument's type: avg of ints is an int, sum of tinyints a tinyint.
    assert column_types(session, query) == [
        "int", "int", "int", "int", "double", "double", "double", "decimal", "decimal",
        "smallint", "smallint", "tinyint", "tinyint", "bigint", "varint", "text", "text"]
    assert fetch(session, query) == [(None, None, 0, 0, None, 0.0, 0.0, Decimal("0"), Decimal("0"),
                                      0, 0, 0, 0, 0, 0, None, None)]
    session.execute(f"INSERT INTO {ks}.t (a, b, c, d, e, f, g, h, x) "
                    "VALUES (1, 1, 11.5, 11.5, 1, 1, 10, 4, 'm')")
    session.execute(f"INSERT INTO {ks}.t (a, b, c, d, e, f, g, h, x) "
                    "VALUES (1, 2, 9.5, 1.5, 2, 2, 20, 5, 'b')")
    session.execute(f"INSERT INTO {ks}.t (a, b, c, d, e, f, g, h, x) "
                    "VALUES (1, 3, 9.0, 2.0, 3, 3, 30, 6, 'z')")
    assert fetch(session, query) == [(3, 1, 6, 2, 11.5, 30.0, 10.0, Decimal("15.0"), Decimal("5.0"),
                                      6, 2, 6, 2, 60, 5, "b", "z")]
    session.execute(f"INSERT INTO {ks}.t (a, b) VALUES (1, 5)")
    # avg of ints is integer division: (1 + 2 + 3 + 5) / 4 = 2.
    assert fetch(session, f"SELECT avg(b), sum(b) FROM {ks}.t") == [(2, 11)]
    assert fetch(session, f"SELECT avg(CAST(b AS double)) FROM {ks}.t") == [(11.0 / 4,)]


def test_count_forms(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, PRIMARY KEY (a, b))")
    assert columns(session, f"SELECT COUNT(*), COUNT(1), count(c) FROM {ks}.t") == [
        "count", "count", "system.count(c)"]
    assert column_types(session, f"SELECT count(*), count(c) FROM {ks}.t") == ["bigint", "bigint"]
    assert fetch(session, f"SELECT count(*), count(c) FROM {ks}.t") == [(0, 0)]
    assert columns(session, f"SELECT COUNT(*) AS myCount FROM {ks}.t") == ["mycount"]
    for b in range(4):
        c = "null" if b == 0 else str(b)
        session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (1, {b}, {c})")
    session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (2, 0, 7)")
    assert fetch(session, f"SELECT count(*), count(1), count(c) FROM {ks}.t") == [(5, 5, 4)]
    assert fetch(session, f"SELECT count(*) FROM {ks}.t WHERE a = 1 AND b > 1") == [(2,)]
    # LIMIT does not change an aggregate's answer.
    assert fetch(session, f"SELECT count(*) FROM {ks}.t LIMIT 1") == [(5,)]
    assert fetch(session, f"SELECT count(*) FROM {ks}.t WHERE a = 1 LIMIT 2") == [(4,)]


def test_aggregates_with_plain_columns_take_the_first_row(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, PRIMARY KEY (a, b))")
    query = f"SELECT count(b), max(b) AS max, b, c AS first FROM {ks}.t WHERE a = 1"
    assert columns(session, query) == ["system.count(b)", "max", "b", "first"]
    assert fetch(session, query) == [(0, None, None, None)]
    session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (1, 2, null)")
    session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (1, 4, 6)")
    session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (1, 8, 12)")
    assert fetch(session, query) == [(3, 8, 2, None)]


def test_aggregate_without_partition_key_warns(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int PRIMARY KEY, b int)")
    session.execute(f"INSERT INTO {ks}.t (a, b) VALUES (1, 1)")
    assert warnings_of(session, f"SELECT count(*) FROM {ks}.t") == [
        "Aggregation query used without partition key"]
    assert warnings_of(session, f"SELECT count(*) FROM {ks}.t WHERE a IN (1, 2)") == [
        "Aggregation query used on multiple partition keys (IN restriction)"]
    assert warnings_of(session, f"SELECT count(*) FROM {ks}.t WHERE a = 1") == []


def test_aggregate_refusals(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, PRIMARY KEY (a, b))")
    assert_invalid(session, f"SELECT max(sum(c)) FROM {ks}.t",
                   "aggregate functions cannot be used as arguments of aggregate functions")
