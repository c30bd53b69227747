"""WHERE clauses Cassandra 4.1 accepts, checked by the rows they return:
partition key = / IN (composite too), token ranges (against the driver's own
Murmur3), clustering prefixes with one slice, IN on clustering columns,
multi-column relations (mixed ASC/DESC too), CONTAINS / CONTAINS KEY,
filtering on regular, static and key columns with ALLOW FILTERING, full scans
in token order, and the seeds' queries on data inserted here.

The refusals live in test_select_refusals.py.
"""

from __future__ import annotations

import datetime
import uuid

import pytest

from select_support import (assert_invalid, composite_token, fetch, int_bytes,  # noqa: F401
                            int_token, ks, session)


@pytest.fixture
def wide(session, ks):
    """k in 0..4, c1 in 0..2, c2 in 0..2 (c2 descending), v = 100k + 10c1 + c2."""
    session.execute(f"CREATE TABLE {ks}.t (k int, c1 int, c2 int, v int, s int STATIC, "
                    "PRIMARY KEY (k, c1, c2)) WITH CLUSTERING ORDER BY (c1 ASC, c2 DESC)")
    insert = session.prepare(f"INSERT INTO {ks}.t (k, c1, c2, v) VALUES (?, ?, ?, ?)")
    for k in range(5):
        session.execute(f"UPDATE {ks}.t SET s = {k} WHERE k = {k}")
        for c1 in range(3):
            for c2 in range(3):
                session.execute(insert, (k, c1, c2, 100 * k + 10 * c1 + c2))
    return f"{ks}.t"


def clusterings(rows):
    return [(r[0], r[1]) for r in rows]


# --- partition key -------------------------------------------------------------------------------


def test_partition_key_equal_and_in(session, wide):
    assert len(fetch(session, f"SELECT * FROM {wide} WHERE k = 2")) == 9
    assert fetch(session, f"SELECT k FROM {wide} WHERE k = 7") == []
    got = fetch(session, f"SELECT k, c1, c2 FROM {wide} WHERE k IN (3, 1) AND c1 = 0 AND c2 = 0")
    assert got == [(1, 0, 0), (3, 0, 0)]  # IN values are read in key order
    prepared = session.prepare(f"SELECT k FROM {wide} WHERE k IN ? AND c1 = 1 AND c2 = 1")
    assert fetch(session, prepared, ([4, 0, 9],)) == [(0,), (4,)]
    assert fetch(session, f"SELECT k FROM {wide} WHERE k IN ()") == []


def test_composite_partition_key_equal_and_in_on_every_component(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a text, b int, c int, v int, PRIMARY KEY ((a, b), c))")
    for a in ("x", "y"):
        for b in range(3):
            session.execute(f"INSERT INTO {ks}.t (a, b, c, v) VALUES ('{a}', {b}, 0, {b})")
    assert fetch(session, f"SELECT a, b FROM {ks}.t WHERE a = 'x' AND b = 2") == [("x", 2)]
    assert fetch(session, f"SELECT a, b FROM {ks}.t WHERE a IN ('y', 'x') AND b IN (2, 0)") == [
        ("x", 0), ("x", 2), ("y", 0), ("y", 2)]
    assert fetch(session, f"SELECT a, b FROM {ks}.t WHERE a = 'y' AND b IN (1, 5)") == [("y", 1)]
    # Restricting part of the partition key filters every partition.
    assert sorted(fetch(session, f"SELECT a, b FROM {ks}.t WHERE b = 1 ALLOW FILTERING")) == [
        ("x", 1), ("y", 1)]
    # token() over a composite key is the token of its CompositeType serialization.
    token = composite_token(b"x", int_bytes(1))
    assert fetch(session, f"SELECT token(a, b) FROM {ks}.t WHERE a = 'x' AND b = 1") == [(token,)]


# --- tokens --------------------------------------------------------------------------------------


def test_full_scan_is_in_token_order(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    keys = list(range(-20, 30))
    for k in keys:
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES ({k}, {k})")
    expected = sorted(keys, key=int_token)
    assert [r[0] for r in fetch(session, f"SELECT k FROM {ks}.t")] == expected
    assert [r[0] for r in fetch(session, f"SELECT k FROM {ks}.t", fetch_size=7)] == expected
    got = fetch(session, f"SELECT k, token(k) FROM {ks}.t")
    assert got == [(k, int_token(k)) for k in expected]


def test_token_ranges_return_the_keys_whose_token_is_inside(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    keys = list(range(60))
    for k in keys:
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES ({k}, {k})")
    tokens = sorted(int_token(k) for k in keys)
    bounds = [-2**63, tokens[5], tokens[17], 0, tokens[40], tokens[-1], 2**63 - 1]
    operators = ((">", "<="), (">=", "<"), (">=", "<="), (">", "<"))
    prepared = {ops: session.prepare(f"SELECT k FROM {ks}.t WHERE token(k) {ops[0]} ? "
                                     f"AND token(k) {ops[1]} ?") for ops in operators}
    for low in bounds:
        # The minimum token as an upper bound means "to the end of the ring" in Cassandra (a
        # quirk of its Range); upper bounds here stay above it.
        for high in bounds[1:]:
            for low_op, high_op in operators:
                query = prepared[(low_op, high_op)].query_string
                got = [r[0] for r in fetch(session, prepared[(low_op, high_op)], (low, high))]
                wanted = [k for k in sorted(keys, key=int_token)
                          if (int_token(k) > low or (low_op == ">=" and int_token(k) == low))
                          and (int_token(k) < high or (high_op == "<=" and int_token(k) == high))]
                assert got == wanted, query.replace("?", "%d") % (low, high)
    one_sided = [r[0] for r in fetch(session, f"SELECT k FROM {ks}.t WHERE token(k) > {tokens[50]}")]
    assert one_sided == [k for k in sorted(keys, key=int_token) if int_token(k) > tokens[50]]
    equal = fetch(session, f"SELECT k FROM {ks}.t WHERE token(k) = {int_token(33)}")
    assert equal == [(33,)]


def test_token_of_values_on_the_right_hand_side(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY)")
    for k in (33, 34, 35):
        session.execute(f"INSERT INTO {ks}.t (k) VALUES ({k})")
    assert fetch(session, f"SELECT k FROM {ks}.t WHERE token(k) = token(33)") == [(33,)]
    after = sorted((k for k in (33, 34, 35) if int_token(k) > int_token(34)), key=int_token)
    assert fetch(session, f"SELECT k FROM {ks}.t WHERE token(k) > token(%s)", (34,)) == [
        (k,) for k in after]
    assert_invalid(session, f"SELECT k FROM {ks}.t WHERE token(k) = token(1, 2)",
                   "Invalid number of arguments in call to function system.token: 1 required but "
                   "2 provided")


# --- clustering ----------------------------------------------------------------------------------


def test_clustering_prefix_and_one_slice(session, wide):
    q = f"SELECT c1, c2 FROM {wide} WHERE k = 1"
    assert clusterings(fetch(session, q + " AND c1 = 1")) == [(1, 2), (1, 1), (1, 0)]
    assert clusterings(fetch(session, q + " AND c1 = 1 AND c2 = 1")) == [(1, 1)]
    assert clusterings(fetch(session, q + " AND c1 > 0")) == [
        (1, 2), (1, 1), (1, 0), (2, 2), (2, 1), (2, 0)]
    assert clusterings(fetch(session, q + " AND c1 >= 1 AND c1 < 2")) == [(1, 2), (1, 1), (1, 0)]
    # The slice on the descending column keeps the table's order.
    assert clusterings(fetch(session, q + " AND c1 = 2 AND c2 < 2")) == [(2, 1), (2, 0)]
    assert clusterings(fetch(session, q + " AND c1 = 2 AND c2 >= 1 AND c2 <= 2")) == [(2, 2), (2, 1)]
    assert fetch(session, q + " AND c1 > 2") == []
    assert fetch(session, q + " AND c1 > 1 AND c1 < 1") == []


def test_in_on_clustering_columns(session, wide):
    q = f"SELECT c1, c2 FROM {wide} WHERE k = 3"
    assert clusterings(fetch(session, q + " AND c1 IN (2, 0)")) == [
        (0, 2), (0, 1), (0, 0), (2, 2), (2, 1), (2, 0)]
    assert clusterings(fetch(session, q + " AND c1 IN (2, 0) AND c2 IN (0, 2)")) == [
        (0, 2), (0, 0), (2, 2), (2, 0)]
    assert clusterings(fetch(session, q + " AND c1 = 1 AND c2 IN (0, 1)")) == [(1, 1), (1, 0)]
    assert clusterings(fetch(session, q + " AND c1 IN (1, 2) AND c2 > 0")) == [
        (1, 2), (1, 1), (2, 2), (2, 1)]
    assert clusterings(fetch(session, q + " AND c1 IN (0, 1) ORDER BY c1 DESC")) == [
        (1, 0), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2)]
    assert fetch(session, f"SELECT k, c1, c2 FROM {wide} WHERE k IN (1, 2) AND c1 = 0 AND c2 IN (1)") \
        == [(1, 0, 1), (2, 0, 1)]


def test_multi_column_relations(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d))")
    for b, c, d in [(0, 0, 0), (0, 1, 0), (0, 1, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1)]:
        session.execute(f"INSERT INTO {ks}.t (a, b, c, d) VALUES (0, {b}, {c}, {d})")
    q = f"SELECT b, c, d FROM {ks}.t WHERE a = 0"
    assert fetch(session, q + " AND (b, c, d) = (1, 1, 0)") == [(1, 1, 0)]
    assert fetch(session, q + " AND (b, c) = (0, 1)") == [(0, 1, 0), (0, 1, 1)]
    assert fetch(session, q + " AND (b, c) > (0, 1)") == [(1, 0, 0), (1, 1, 0), (1, 1, 1)]
    assert fetch(session, q + " AND (b, c, d) >= (0, 1, 1) AND (b, c, d) < (1, 1, 0)") == [
        (0, 1, 1), (1, 0, 0)]
    assert fetch(session, q + " AND (b, c) > (0, 0) AND (b) <= (0)") == [(0, 1, 0), (0, 1, 1)]
    assert fetch(session, q + " AND (b, c, d) IN ((1, 1, 1), (0, 0, 0), (5, 5, 5))") == [
        (0, 0, 0), (1, 1, 1)]
    assert fetch(session, q + " AND b = 1 AND (c, d) IN ((1, 0), (0, 0))") == [(1, 0, 0), (1, 1, 0)]
    assert fetch(session, q + " AND b = 1 AND (c, d) > (0, 0)") == [(1, 1, 0), (1, 1, 1)]
    assert fetch(session, q + " AND (b, c) = (0, 1) AND d > 0") == [(0, 1, 1)]
    prepared = session.prepare(f"SELECT b, c, d FROM {ks}.t WHERE a = 0 AND (b, c) IN ?")
    assert fetch(session, prepared, ([(0, 0), (1, 1)],)) == [(0, 0, 0), (1, 1, 0), (1, 1, 1)]
    prepared = session.prepare(f"SELECT b, c, d FROM {ks}.t WHERE a = 0 AND (b, c) > (?, ?)")
    assert fetch(session, prepared, (1, 0)) == [(1, 1, 0), (1, 1, 1)]


def test_multi_column_slices_with_mixed_clustering_order(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (a int, b int, c int, d int, PRIMARY KEY (a, b, c, d)) "
                    "WITH CLUSTERING ORDER BY (b ASC, c DESC, d ASC)")
    triples = [(b, c, d) for b in range(3) for c in range(3) for d in range(2)]
    for b, c, d in triples:
        session.execute(f"INSERT INTO {ks}.t (a, b, c, d) VALUES (0, {b}, {c}, {d})")
    table_order = sorted(triples, key=lambda t: (t[0], -t[1], t[2]))
    q = f"SELECT b, c, d FROM {ks}.t WHERE a = 0"
    assert fetch(session, q) == table_order
    # Tuple relations compare values, whatever each column's clustering order; rows keep the
    # table's order.
    for relation, keep in [
        ("(b, c) > (1, 1)", lambda t: (t[0], t[1]) > (1, 1)),
        ("(b, c, d) <= (1, 0, 0)", lambda t: t <= (1, 0, 0)),
        ("(b, c, d) > (0, 2, 0) AND (b, c, d) < (2, 1, 1)", lambda t: (0, 2, 0) < t < (2, 1, 1)),
        ("b = 1 AND (c, d) >= (1, 1)", lambda t: t[0] == 1 and (t[1], t[2]) >= (1, 1)),
    ]:
        assert fetch(session, f"{q} AND {relation}") == [t for t in table_order if keep(t)], relation
        assert fetch(session, f"{q} AND {relation} ORDER BY b DESC") == \
            [t for t in table_order if keep(t)][::-1], relation


# --- CONTAINS and filtering ----------------------------------------------------------------------


def test_contains_and_contains_key_with_allow_filtering(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, tags set<text>, l list<int>, "
                    "m map<text, int>, f frozen<list<int>>)")
    session.execute(f"INSERT INTO {ks}.t (k, tags, l, m, f) VALUES (1, {{'a', 'b'}}, [1, 2], "
                    "{'x': 1}, [7])")
    session.execute(f"INSERT INTO {ks}.t (k, tags, l, m, f) VALUES (2, {{'b'}}, [3], "
                    "{'y': 1, 'z': 2}, [8, 7])")
    session.execute(f"INSERT INTO {ks}.t (k) VALUES (3)")

    def keys(where):
        return sorted(r[0] for r in fetch(session, f"SELECT k FROM {ks}.t WHERE {where} "
                                                   "ALLOW FILTERING"))
    assert keys("tags CONTAINS 'b'") == [1, 2]
    assert keys("tags CONTAINS 'a'") == [1]
    assert keys("l CONTAINS 3") == [2]
    assert keys("m CONTAINS 1") == [1, 2]
    assert keys("m CONTAINS KEY 'z'") == [2]
    assert keys("m CONTAINS KEY 'y' AND m CONTAINS 2") == [2]
    assert keys("tags CONTAINS 'b' AND tags CONTAINS 'a'") == [1]
    assert keys("m['y'] = 1") == [2]
    assert keys("k = 1 AND tags CONTAINS 'b'") == [1]


def test_filtering_on_regular_static_and_clustering_columns(session, wide):
    def got(where):
        return sorted((r[0], r[1], r[2]) for r in fetch(
            session, f"SELECT k, c1, c2 FROM {wide} WHERE {where} ALLOW FILTERING"))
    every = [(k, c1, c2) for k in range(5) for c1 in range(3) for c2 in range(3)]
    value = {t: 100 * t[0] + 10 * t[1] + t[2] for t in every}
    assert got("v = 212") == [(2, 1, 2)]
    assert got("v > 400") == [t for t in every if value[t] > 400]
    assert got("v >= 100 AND v < 110") == [t for t in every if 100 <= value[t] < 110]
    assert got("v IN (101)") == [(1, 0, 1)]  # one value: an equality (4.1 lets it slide)
    assert got("s = 3") == [t for t in every if t[0] == 3]
    assert got("s > 2 AND c2 = 0") == [t for t in every if t[0] > 2 and t[2] == 0]
    assert got("c2 = 1") == [t for t in every if t[2] == 1]
    assert got("c1 = 1 AND c2 > 0 AND v < 200") == [
        t for t in every if t[1] == 1 and t[2] > 0 and value[t] < 200]
    assert got("k > 2") == [t for t in every if t[0] > 2]
    assert got("k = 4 AND v < 405") == [t for t in every if t[0] == 4 and value[t] < 405]
    assert got("k IN (1, 4) AND c2 = 2") == [t for t in every if t[0] in (1, 4) and t[2] == 2]


def test_filtering_drops_partitions_with_only_static_content(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c int, s int STATIC, v int, PRIMARY KEY (k, c))")
    session.execute(f"INSERT INTO {ks}.t (k, s) VALUES (1, 5)")
    session.execute(f"INSERT INTO {ks}.t (k, c, s, v) VALUES (2, 1, 5, 1)")
    # A partition without rows reads as its static row alone, unless rows are restricted.
    assert sorted(fetch(session, f"SELECT k, c, s FROM {ks}.t")) == [(1, None, 5), (2, 1, 5)]
    assert fetch(session, f"SELECT k, c, s FROM {ks}.t WHERE v = 1 ALLOW FILTERING") == [(2, 1, 5)]
    assert fetch(session, f"SELECT k, c FROM {ks}.t WHERE k = 1 AND c > 0") == []


# --- the seeds' queries --------------------------------------------------------------------------

USER = uuid.UUID("550e8400-e29b-41d4-a716-446655440000")
OTHER_USER = uuid.UUID("2506535a-4999-438d-8682-d5a739596343")


def ts(text: str) -> datetime.datetime:
    return datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")


def test_seed_user_activities_by_user_type_and_month(session, ks):
    session.execute(f"CREATE TABLE {ks}.user_activities (user_id uuid, activity_timestamp timestamp, "
                    "activity_type text, activity_data text, device_info text, ip_address text, "
                    "PRIMARY KEY (user_id, activity_timestamp)) "
                    "WITH CLUSTERING ORDER BY (activity_timestamp DESC)")
    session.execute(f"CREATE TABLE {ks}.user_activities_by_type (user_id uuid, activity_type text, "
                    "activity_timestamp timestamp, activity_data text, device_info text, "
                    "ip_address text, PRIMARY KEY ((user_id, activity_type), activity_timestamp)) "
                    "WITH CLUSTERING ORDER BY (activity_timestamp DESC)")
    session.execute(f"CREATE TABLE {ks}.user_activities_by_month (user_id uuid, year_month text, "
                    "activity_timestamp timestamp, activity_type text, activity_data text, "
                    "device_info text, ip_address text, "
                    "PRIMARY KEY ((user_id, year_month), activity_timestamp)) "
                    "WITH CLUSTERING ORDER BY (activity_timestamp DESC)")
    activities = []
    for day in range(1, 31):
        for user in (USER, OTHER_USER):
            kind = ("login", "purchase", "view")[day % 3]
            at = ts(f"2026-01-{day:02d} 10:30:00")
            activities.append((user, at, kind))
    activities.append((USER, ts("2026-02-02 09:00:00"), "purchase"))
    for user, at, kind in activities:
        month = at.strftime("%Y-%m")
        session.execute(f"INSERT INTO {ks}.user_activities (user_id, activity_timestamp, "
                        "activity_type, activity_data) VALUES (%s, %s, %s, %s)",
                        (user, at, kind, f"{kind}@{at}"))
        session.execute(f"INSERT INTO {ks}.user_activities_by_type (user_id, activity_type, "
                        "activity_timestamp, activity_data) VALUES (%s, %s, %s, %s)",
                        (user, kind, at, f"{kind}@{at}"))
        session.execute(f"INSERT INTO {ks}.user_activities_by_month (user_id, year_month, "
                        "activity_timestamp, activity_type) VALUES (%s, %s, %s, %s)",
                        (user, month, at, kind))
    mine = sorted((a for a in activities if a[0] == USER), key=lambda a: a[1], reverse=True)

    latest = fetch(session, f"SELECT * FROM {ks}.user_activities "
                            f"WHERE user_id = {USER} LIMIT 20")
    assert [r[1] for r in latest] == [a[1] for a in mine[:20]]
    assert all(r[0] == USER for r in latest)

    purchases = fetch(session, f"SELECT activity_timestamp FROM {ks}.user_activities_by_type "
                               f"WHERE user_id = {USER} AND activity_type = 'purchase' LIMIT 50")
    assert [r[0] for r in purchases] == [a[1] for a in mine if a[2] == "purchase"]
    prepared = session.prepare(f"SELECT activity_type FROM {ks}.user_activities_by_type "
                               "WHERE user_id = ? AND activity_type = 'purchase'")
    assert {r[0] for r in fetch(session, prepared, (USER,))} == {"purchase"}

    window = fetch(session, f"SELECT activity_timestamp FROM {ks}.user_activities_by_month "
                            f"WHERE user_id = {USER} AND year_month = '2026-01' "
                            "AND activity_timestamp >= '2026-01-15 00:00:00' "
                            "AND activity_timestamp < '2026-01-20 00:00:00'")
    assert [r[0] for r in window] == [ts(f"2026-01-{d:02d} 10:30:00") for d in (19, 18, 17, 16, 15)]

    # The seed's "BAD" query: it works with ALLOW FILTERING and scans everything.
    filtered = fetch(session, f"SELECT user_id, activity_timestamp FROM {ks}.user_activities "
                              "WHERE activity_type = 'purchase' ALLOW FILTERING")
    assert sorted(filtered) == sorted((a[0], a[1]) for a in activities if a[2] == "purchase")


def test_seed_latest_videos(session, ks):
    session.execute(f"CREATE TABLE {ks}.latest_videos (yyyyymmdd text, added_date timestamp, "
                    "videoid uuid, userid uuid, name text, preview_image_location text, "
                    "PRIMARY KEY (yyyyymmdd, added_date, videoid)) "
                    "WITH CLUSTERING ORDER BY (added_date DESC, videoid ASC)")
    ids = [uuid.UUID(int=i) for i in range(1, 7)]
    videos = [("20260126", ts("2026-01-26 08:00:00"), ids[0]),
              ("20260126", ts("2026-01-26 12:00:00"), ids[2]),
              ("20260126", ts("2026-01-26 12:00:00"), ids[1]),
              ("20260126", ts("2026-01-26 18:00:00"), ids[3]),
              ("20260125", ts("2026-01-25 23:00:00"), ids[4])]
    for day, added, vid in videos:
        session.execute(f"INSERT INTO {ks}.latest_videos (yyyyymmdd, added_date, videoid, name) "
                        "VALUES (%s, %s, %s, %s)", (day, added, vid, f"video {vid.int}"))
    got = fetch(session, f"SELECT added_date, videoid, name FROM {ks}.latest_videos "
                         "WHERE yyyyymmdd = '20260126' LIMIT 3")
    assert got == [(ts("2026-01-26 18:00:00"), ids[3], "video 4"),
                   (ts("2026-01-26 12:00:00"), ids[1], "video 2"),
                   (ts("2026-01-26 12:00:00"), ids[2], "video 3")]
    paged = fetch(session, f"SELECT videoid FROM {ks}.latest_videos WHERE yyyyymmdd IN "
                           "('20260126', '20260125') AND added_date < '2026-01-26 12:00:00'",
                  fetch_size=1)
    assert paged == [(ids[4],), (ids[0],)]


def test_seed_comments_by_user_with_totimestamp(session, ks):
    session.execute(f"CREATE TABLE {ks}.comments_by_user (userid uuid, commentid timeuuid, "
                    "videoid uuid, comment text, PRIMARY KEY (userid, commentid)) "
                    "WITH CLUSTERING ORDER BY (commentid DESC)")
    minutes = [5, 1, 9, 3]
    for m in minutes:
        session.execute(f"INSERT INTO {ks}.comments_by_user (userid, commentid, videoid, comment) "
                        f"VALUES ({OTHER_USER}, maxTimeuuid('2026-01-26 10:{m:02d}:00+0000'), "
                        f"{USER}, 'comment {m}')")
    query = (f"SELECT commentid, toTimestamp(commentid) AS timestamp, videoid, comment "
             f"FROM {ks}.comments_by_user WHERE userid = {OTHER_USER} LIMIT 3")
    result = session.execute(query)
    assert list(result.column_names) == ["commentid", "timestamp", "videoid", "comment"]
    got = [tuple(r) for r in result]
    # maxTimeuuid is the last UUID of its millisecond, so toTimestamp gives the millisecond back.
    assert [(r[1], r[2], r[3]) for r in got] == [
        (ts(f"2026-01-26 10:{m:02d}:00"), USER, f"comment {m}") for m in (9, 5, 3)]
    # A version 1 (time) UUID; maxTimeuuid's clock bits (0x7f...) leave it without the RFC 4122
    # variant, so uuid.UUID.version is None: read the version nibble itself.
    assert all((r[0].int >> 76) & 0xF == 1 for r in got)
