"""Selectors beyond plain columns, as Cassandra 4.1 names, types and computes
them: writetime(), ttl(), token(), CAST, map element and set/map slice
selection, UDT fields, SELECT JSON / toJson / fromJson, the time and id
functions (only their deterministic facts), and arithmetic between numeric
columns.
"""

from __future__ import annotations

import datetime
import json

import pytest
from cassandra import InvalidRequest
from cassandra.util import Date, Time

from select_support import (assert_invalid, column_types, columns, fetch, int_token, ks,  # noqa: F401
                            session)

# --- writetime, ttl, token -----------------------------------------------------------------------


def test_writetime_and_ttl(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int, w int, tags set<int>)")
    session.execute(f"INSERT INTO {ks}.t (k, v) VALUES (1, 10) USING TIMESTAMP 12345")
    session.execute(f"UPDATE {ks}.t USING TTL 1000 AND TIMESTAMP 20000 SET w = 5 WHERE k = 1")
    query = f"SELECT writetime(v), ttl(v), writetime(w), ttl(w) AS left FROM {ks}.t WHERE k = 1"
    assert columns(session, query) == ["writetime(v)", "ttl(v)", "writetime(w)", "left"]
    assert column_types(session, query) == ["bigint", "int", "bigint", "int"]
    writetime_v, ttl_v, writetime_w, ttl_w = fetch(session, query)[0]
    assert (writetime_v, ttl_v, writetime_w) == (12345, None, 20000)
    assert 990 <= ttl_w <= 1000
    assert_invalid(session, f"SELECT writetime(k) FROM {ks}.t",
                   "Cannot use selection function writeTime on PRIMARY KEY part k")
    assert_invalid(session, f"SELECT ttl(k) FROM {ks}.t",
                   "Cannot use selection function ttl on PRIMARY KEY part k")


def test_token_selector(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v int)")
    for k in (1, 2, 3):
        session.execute(f"INSERT INTO {ks}.t (k, v) VALUES ({k}, {k})")
    query = f"SELECT token(k), k FROM {ks}.t WHERE k = 1"
    assert columns(session, query) == ["system.token(k)", "k"]
    assert column_types(session, query) == ["bigint", "int"]
    assert fetch(session, query) == [(-4069959284402364209, 1)]
    assert fetch(session, f"SELECT k, token(k) FROM {ks}.t") == sorted(
        [(k, int_token(k)) for k in (1, 2, 3)], key=lambda r: r[1])


# --- CAST ----------------------------------------------------------------------------------------


def test_cast(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, i int, d double, t timestamp, "
                    "b bigint)")
    session.execute(f"INSERT INTO {ks}.t (k, i, d, t, b) VALUES "
                    "(1, 42, 2.5, '2013-01-01 00:00:00+0000', 7)")
    query = (f"SELECT CAST(i AS text), CAST(i AS double), CAST(d AS int), CAST(t AS date), "
             f"CAST(b AS varint), CAST(i AS int) FROM {ks}.t WHERE k = 1")
    # CAST to the column's own type selects the column itself.
    assert columns(session, query) == ["cast(i as text)", "cast(i as double)", "cast(d as int)",
                                       "cast(t as date)", "cast(b as varint)", "i"]
    assert column_types(session, query) == ["text", "double", "int", "date", "varint", "int"]
    assert fetch(session, query) == [("42", 42.0, 2, Date(datetime.date(2013, 1, 1)), 7, 42)]


# --- collection elements and slices, UDT fields --------------------------------------------------


@pytest.fixture
def collections_table(session, ks):
    session.execute(f"CREATE TYPE {ks}.address (street text, zip int)")
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, s set<int>, m map<text, int>, "
                    "fm frozen<map<int, text>>, a address, fa frozen<address>)")
    session.execute(f"INSERT INTO {ks}.t (k, s, m, fm, a, fa) VALUES (1, {{1, 3, 5, 7}}, "
                    "{'a': 1, 'c': 3, 'e': 5}, {1: 'one', 2: 'two'}, "
                    "{street: 'main', zip: 1000}, {street: 'side', zip: 2000})")
    session.execute(f"INSERT INTO {ks}.t (k) VALUES (2)")
    return f"{ks}.t"


def test_map_element_and_slices(session, collections_table):
    t = collections_table
    query = f"SELECT m['c'], m['zz'], fm[2] FROM {t} WHERE k = 1"
    assert columns(session, query) == ["m['c']", "m['zz']", "fm[2]"]
    assert column_types(session, query) == ["int", "int", "text"]
    assert fetch(session, query) == [(3, None, "two")]
    got = fetch(session, f"SELECT s[3..5], s[4..], s[..3], m['b'..'e'], m[..'a'] FROM {t} "
                         "WHERE k = 1")[0]
    assert list(got[0]) == [3, 5]
    assert list(got[1]) == [5, 7]
    assert list(got[2]) == [1, 3]
    assert dict(got[3]) == {"c": 3, "e": 5}
    assert dict(got[4]) == {"a": 1}
    assert fetch(session, f"SELECT m['a'], s[1..2] FROM {t} WHERE k = 2") == [(None, None)]


def test_udt_field_selection(session, collections_table):
    t = collections_table
    query = f"SELECT a.street, fa.zip, a.zip AS z FROM {t} WHERE k = 1"
    assert columns(session, query) == ["a.street", "fa.zip", "z"]
    assert column_types(session, query) == ["text", "int", "int"]
    assert fetch(session, query) == [("main", 2000, 1000)]
    with pytest.raises(InvalidRequest):
        session.execute(f"SELECT a.nope FROM {t}")


# --- JSON ----------------------------------------------------------------------------------------


def test_select_json(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int, c text, v int, \"Quoted\" int, tags set<int>, "
                    "m map<int, text>, b boolean, PRIMARY KEY (k, c))")
    session.execute(f"INSERT INTO {ks}.t (k, c, v, \"Quoted\", tags, m, b) VALUES "
                    "(1, 'x', 10, 5, {2, 1}, {3: 'three'}, true)")
    session.execute(f"INSERT INTO {ks}.t (k, c) VALUES (1, 'y')")
    result = session.execute(f"SELECT JSON * FROM {ks}.t WHERE k = 1")
    assert list(result.column_names) == ["[json]"]
    assert column_types(session, f"SELECT JSON * FROM {ks}.t WHERE k = 1") == ["text"]
    documents = [json.loads(r[0]) for r in result]
    assert documents == [
        {"k": 1, "c": "x", "\"Quoted\"": 5, "b": True, "m": {"3": "three"}, "tags": [1, 2],
         "v": 10},
        {"k": 1, "c": "y", "\"Quoted\"": None, "b": None, "m": None, "tags": None, "v": None}]
    # Keys appear in selection order.
    text = fetch(session, f"SELECT JSON v, k AS key, count(*) FROM {ks}.t WHERE k = 1")[0][0]
    assert text == '{"v": 10, "key": 1, "count": 2}'


def test_tojson_and_fromjson(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, v text, l list<int>, "
                    "m map<text, int>)")
    session.execute(f"INSERT INTO {ks}.t (k, v, l, m) VALUES "
                    "(fromJson('1'), fromJson('\"hello\"'), fromJson('[3, 1]'), "
                    "fromJson('{\"a\": 1}'))")
    query = f"SELECT toJson(k), toJson(v), toJson(l), toJson(m) FROM {ks}.t WHERE k = fromJson('1')"
    assert columns(session, query) == ["system.tojson(k)", "system.tojson(v)", "system.tojson(l)",
                                       "system.tojson(m)"]
    assert column_types(session, query) == ["text", "text", "text", "text"]
    assert fetch(session, query) == [("1", '"hello"', "[3, 1]", '{"a": 1}')]
    assert fetch(session, f"SELECT v FROM {ks}.t WHERE k IN (fromJson('1'), fromJson('2'))") == [
        ("hello",)]


# --- time and id functions -----------------------------------------------------------------------


def test_time_functions_deterministic_facts(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, u timeuuid, ts timestamp, d date)")
    session.execute(f"INSERT INTO {ks}.t (k, u, ts, d) VALUES (1, "
                    "minTimeuuid('2013-01-01 00:00+0000'), '2013-01-01 00:00:00+0000', "
                    "'2013-01-01')")
    midnight = datetime.datetime(2013, 1, 1)
    millis = 1356998400000
    got = fetch(session, f"SELECT toTimestamp(u), toUnixTimestamp(u), toDate(u), dateOf(u), "
                         f"unixTimestampOf(u), toTimestamp(d), toUnixTimestamp(d), toDate(ts), "
                         f"toUnixTimestamp(ts) FROM {ks}.t WHERE k = 1")
    assert got == [(midnight, millis, Date(datetime.date(2013, 1, 1)), midnight, millis, midnight,
                    millis, Date(datetime.date(2013, 1, 1)), millis)]
    assert columns(session, f"SELECT toTimestamp(u), dateOf(u) AS d FROM {ks}.t") == [
        "system.totimestamp(u)", "d"]
    assert column_types(session, f"SELECT toTimestamp(u), toUnixTimestamp(u), toDate(u), "
                                 f"dateOf(u), unixTimestampOf(u) FROM {ks}.t") == [
        "timestamp", "bigint", "date", "timestamp", "bigint"]
    # min/maxTimeuuid bound the UUIDs of their millisecond.
    session.execute(f"CREATE TABLE {ks}.events (k int, u timeuuid, PRIMARY KEY (k, u))")
    for second in range(5):
        session.execute(f"INSERT INTO {ks}.events (k, u) VALUES (1, "
                        f"maxTimeuuid('2013-01-01 00:00:0{second}+0000'))")
    window = fetch(session, f"SELECT toUnixTimestamp(u) FROM {ks}.events WHERE k = 1 "
                            "AND u > maxTimeuuid('2013-01-01 00:00:01+0000') "
                            "AND u < minTimeuuid('2013-01-01 00:00:04+0000')")
    assert window == [(millis + 2000,), (millis + 3000,)]


def test_current_time_functions_types(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY)")
    session.execute(f"INSERT INTO {ks}.t (k) VALUES (1)")
    query = (f"SELECT now(), currentTimestamp(), currentDate(), currentTime(), currentTimeUUID(), "
             f"uuid() FROM {ks}.t WHERE k = 1")
    assert columns(session, query) == ["system.now()", "system.currenttimestamp()",
                                       "system.currentdate()", "system.currenttime()",
                                       "system.currenttimeuuid()", "system.uuid()"]
    assert column_types(session, query) == ["timeuuid", "timestamp", "date", "time", "timeuuid",
                                            "uuid"]
    before = datetime.datetime.utcnow() - datetime.timedelta(seconds=5)
    now_uuid, current_ts, current_date, current_time, current_uuid, random_uuid = \
        fetch(session, query)[0]
    after = datetime.datetime.utcnow() + datetime.timedelta(seconds=5)
    assert now_uuid.version == 1 and current_uuid.version == 1 and random_uuid.version == 4
    assert before <= current_ts <= after
    assert isinstance(current_date, Date) and isinstance(current_time, Time)
    # now() in a write: its time is the write's.
    session.execute(f"CREATE TABLE {ks}.log (k int, u timeuuid, PRIMARY KEY (k, u))")
    session.execute(f"INSERT INTO {ks}.log (k, u) VALUES (1, now())")
    (written,) = fetch(session, f"SELECT toTimestamp(u) FROM {ks}.log WHERE k = 1")[0]
    assert before <= written <= after


# --- arithmetic ----------------------------------------------------------------------------------


def test_arithmetic_between_numeric_columns(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, a int, b int, c bigint, d double, "
                    "e smallint)")
    session.execute(f"INSERT INTO {ks}.t (k, a, b, c, d, e) VALUES (1, 7, 2, 10, 1.5, 3)")
    query = (f"SELECT a + b AS plus, a - b AS minus, a * b AS times, a / b AS quotient, "
             f"a % b AS remainder, a + c AS widened, d * a AS dbl, e + e AS small "
             f"FROM {ks}.t WHERE k = 1")
    assert column_types(session, query) == ["int", "int", "int", "int", "int", "bigint", "double",
                                            "smallint"]
    assert fetch(session, query) == [(9, 5, 14, 3, 1, 17, 10.5, 6)]
    session.execute(f"INSERT INTO {ks}.t (k, a) VALUES (2, 1)")
    assert fetch(session, f"SELECT a + b FROM {ks}.t WHERE k = 2") == [(None,)]
