"""WHERE clauses Cassandra 4.1 refuses, with its exact InvalidRequest messages
(StatementRestrictions, ClusteringColumnRestrictions, SingleColumnRestriction,
MultiColumnRestriction, the token() checks of Relation, and the unit tests
SelectSingleColumnRelationTest / SelectMultiColumnRelationTest), and the
queries a seed shows refused. Each refused query that ALLOW FILTERING makes
legal is also run with it, so the refusal is not an accident.
"""

from __future__ import annotations

import pytest
from cassandra import InvalidRequest

from select_support import (REQUIRES_ALLOW_FILTERING, assert_invalid, fetch, ks,  # noqa: F401
                            server_message, session)


@pytest.fixture
def table(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c1 int, c2 int, v int, s int STATIC, "
                    "tags set<text>, m map<text, int>, PRIMARY KEY (k, c1, c2))")
    session.execute(f"INSERT INTO {ks}.t (k, c1, c2, v, s, tags, m) "
                    "VALUES (1, 1, 1, 1, 1, {'a'}, {'x': 1})")
    return f"{ks}.t"


@pytest.mark.parametrize("where", [
    "v = 1",                      # regular column
    "s = 1",                      # static column
    "c1 = 1",                     # clustering column without the partition key
    "c1 > 0 AND c1 < 5",
    "k > 0",                      # a slice on the partition key
    "k = 1 AND v = 1",            # one partition, still filtered
    "k = 1 AND c1 = 1 AND v > 0",
    "tags CONTAINS 'a'",
    "m CONTAINS KEY 'x'",
    "m['x'] = 1",
    "token(k) >= token(1) AND v = 1",
])
def test_filtering_needs_allow_filtering(session, table, where):
    assert_invalid(session, f"SELECT * FROM {table} WHERE {where}", REQUIRES_ALLOW_FILTERING)
    assert fetch(session, f"SELECT k, c1, c2 FROM {table} WHERE {where} ALLOW FILTERING") == [
        (1, 1, 1)]


def test_part_of_a_composite_partition_key_needs_allow_filtering(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, PRIMARY KEY ((a, b), c))")
    session.execute(f"INSERT INTO {ks}.t (a, b, c) VALUES (1, 2, 3)")
    assert_invalid(session, f"SELECT * FROM {ks}.t WHERE a = 1", REQUIRES_ALLOW_FILTERING)
    assert_invalid(session, f"SELECT * FROM {ks}.t WHERE a = 1 AND c = 3", REQUIRES_ALLOW_FILTERING)
    assert fetch(session, f"SELECT * FROM {ks}.t WHERE a = 1 ALLOW FILTERING") == [(1, 2, 3)]


def test_skipping_a_clustering_column(session, table):
    assert_invalid(session, f"SELECT * FROM {table} WHERE k = 1 AND c2 = 1",
                   'PRIMARY KEY column "c2" cannot be restricted as preceding column "c1" is not '
                   'restricted')
    assert fetch(session, f"SELECT k, c1, c2 FROM {table} WHERE k = 1 AND c2 = 1 ALLOW FILTERING") \
        == [(1, 1, 1)]
    assert_invalid(session, f"SELECT * FROM {table} WHERE k = 1 AND c1 > 0 AND c2 = 1",
                   'Clustering column "c2" cannot be restricted (preceding column "c1" is '
                   'restricted by a non-EQ relation)')
    assert fetch(session, f"SELECT k, c1, c2 FROM {table} WHERE k = 1 AND c1 > 0 AND c2 = 1 "
                          "ALLOW FILTERING") == [(1, 1, 1)]


def test_the_seed_over_clustered_table_is_refused(session, ks):
    session.execute(f"CREATE TABLE {ks}.over_clustered (user_id uuid, year int, month int, day int, "
                    "hour int, activity_data text, PRIMARY KEY (user_id, year, month, day, hour))")
    message = ('PRIMARY KEY column "day" cannot be restricted as preceding column "month" is not '
               'restricted')
    query = (f"SELECT * FROM {ks}.over_clustered WHERE user_id = "
             "550e8400-e29b-41d4-a716-446655440000 AND year = 2026 AND day = 26")
    assert_invalid(session, query, message)
    with pytest.raises(InvalidRequest) as error:
        session.prepare(f"SELECT * FROM {ks}.over_clustered WHERE user_id = ? "
                        "AND year = 2026 AND day = 26")
    assert server_message(error.value) == message
    # The seed's "GOOD" alternative is one query away.
    session.execute(f"INSERT INTO {ks}.over_clustered (user_id, year, month, day, hour) VALUES "
                    "(550e8400-e29b-41d4-a716-446655440000, 2026, 1, 26, 10)")
    assert len(fetch(session, query.replace("AND day", "AND month = 1 AND day"))) == 1


def test_conflicting_relations_on_one_column(session, table):
    t = table
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND k = 2",
                   "k cannot be restricted by more than one relation if it includes an Equal")
    assert_invalid(session, f"SELECT * FROM {t} WHERE k IN (1, 2) AND k = 2",
                   "k cannot be restricted by more than one relation if it includes a IN")
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND c1 = 1 AND c1 > 0",
                   "c1 cannot be restricted by more than one relation if it includes an Equal")
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND c1 > 0 AND c1 = 1",
                   'Column "c1" cannot be restricted by both an equality and an inequality relation')
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND c1 > 0 AND c1 >= 1",
                   "More than one restriction was found for the start bound on c1")
    assert_invalid(session, f"SELECT * FROM {t} WHERE k = 1 AND c1 < 5 AND c1 <= 1",
                   "More than one restriction was found for the end bound on c1")


def test_collections_refuse_equality_and_slices_and_wrong_contains(session, table):
    t = table
    assert_invalid(session, f"SELECT * FROM {t} WHERE tags = {{'a'}} ALLOW FILTERING",
                   "Collection column 'tags' (set<text>) cannot be restricted by a '=' relation")
    assert_invalid(session, f"SELECT * FROM {t} WHERE tags > {{'a'}} ALLOW FILTERING",
                   "Collection column 'tags' (set<text>) cannot be restricted by a '>' relation")
    assert_invalid(session, f"SELECT * FROM {t} WHERE v CONTAINS 1 ALLOW FILTERING",
                   "Cannot use CONTAINS on non-collection column v")
    assert_invalid(session, f"SELECT * FROM {t} WHERE tags CONTAINS KEY 'a' ALLOW FILTERING",
                   "Cannot use CONTAINS KEY on non-map column tags")


def test_multi_column_refusals(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d))")
    t = f"{ks}.t"
    # Since 3.0 a single-column slice merges with a tuple slice starting at the same column
    # (MultiColumnRestriction.mergeWith converts it); one starting elsewhere is refused.
    session.execute(f"SELECT * FROM {t} WHERE a = 0 AND (b, c, d) > (0, 1, 0) AND b < 1")
    two_starts = ('Column "c" cannot be restricted by two inequalities not starting with the '
                  'same column')
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 0 AND (b, c, d) > (0, 1, 0) AND c < 1",
                   two_starts)
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 0 AND c > 1 AND (b, c, d) < (1, 1, 0)",
                   two_starts)
    assert_invalid(session, f"SELECT * FROM {t} WHERE (a, b, c, d) IN ((0, 1, 2, 3))",
                   "Multi-column relations can only be applied to clustering columns but was "
                   "applied to: a")
    # The relation's rendering in this message changed across versions: check the stable part.
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 0 AND (d, c, b) = (0, 0, 0)",
                   "Clustering columns must appear in the PRIMARY KEY order in multi-column "
                   "relations", exact=False)
    assert_invalid(session, f"SELECT * FROM {t} WHERE (c, d) IN ((0, 1))",
                   'PRIMARY KEY column "c" cannot be restricted as preceding column "b" is not '
                   'restricted')
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 0 AND b > 0 AND (c, d) > (0, 0)",
                   'Clustering column "c" cannot be restricted (preceding column "b" is '
                   'restricted by a non-EQ relation)')
    assert_invalid(session, f"SELECT * FROM {t} WHERE a = 0 AND (b, c) > (0, 0) AND (c) < (0)",
                   two_starts)


def test_token_refusals(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, PRIMARY KEY ((a, b), c))")
    assert_invalid(session, f"SELECT * FROM {ks}.t WHERE token(a) > 0",
                   "The token() function must be applied to all partition key components or none "
                   "of them")
    assert_invalid(session, f"SELECT * FROM {ks}.t WHERE token(b, a) > 0",
                   "The token function arguments must be in the partition key order: a, b")


@pytest.mark.parametrize("query", [
    "SELECT * FROM user_activities WHERE user_id = 550e8400-e29b-41d4-a716-446655440000 "
    "AND activity_type = 'login'",
    "SELECT * FROM user_activities WHERE activity_type = 'login'",
])
def test_the_seed_queries_that_need_an_index(session, ks, query):
    session.execute(f"CREATE TABLE {ks}.user_activities (user_id uuid, activity_timestamp timestamp, "
                    "activity_type text, activity_data text, device_info text, ip_address text, "
                    "PRIMARY KEY (user_id, activity_timestamp)) "
                    "WITH CLUSTERING ORDER BY (activity_timestamp DESC)")
    session.set_keyspace(ks)
    try:
        assert_invalid(session, query, REQUIRES_ALLOW_FILTERING)
    finally:
        session.execute("USE system")
