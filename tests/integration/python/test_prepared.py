"""Prepared statements through the DataStax Python driver and on the wire:
bind markers inside tuple and UDT literals (and Cassandra 4.1's refusal of
them inside list, set and map literals), and the statements a schema change
evicts, whose next EXECUTE is answered Unprepared (0x2500) so that the driver
prepares them again and learns the new metadata."""

from __future__ import annotations

import itertools
import struct
from typing import Iterator

import pytest
from cassandra import InvalidRequest, ProtocolVersion
from cassandra.cluster import Session
from cassandra.query import UNSET_VALUE

import cql_wire
from driver_session import connected_cluster


@pytest.fixture(scope="module", params=[ProtocolVersion.V4, ProtocolVersion.V5],
                ids=["v4", "v5"])
def session(request, sibyl) -> Iterator[Session]:
    with connected_cluster(sibyl, protocol_version=request.param) as (_, session):
        yield session


_keyspace_numbers = itertools.count()


@pytest.fixture
def ks(session) -> Iterator[str]:
    name = f"prepared_{next(_keyspace_numbers)}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")


def bind_names(prepared) -> list[tuple[str, str]]:
    return [(c.name, c.type.cql_parameterized_type()) for c in prepared.column_metadata]


# --- bind markers inside literals --------------------------------------------------------------


def test_markers_inside_tuple_and_udt_literals(session, ks):
    session.execute(f"CREATE TYPE {ks}.pair (a int, b text)")
    session.execute(f"CREATE TABLE {ks}.t (id int PRIMARY KEY, tup tuple<int, text, boolean>, "
                    "p frozen<pair>, np pair, l list<int>)")
    insert = session.prepare(f"INSERT INTO {ks}.t (id, tup) VALUES (?, (?, ?, ?))")
    assert bind_names(insert) == [("id", "int"), ("tup[0]", "int"), ("tup[1]", "varchar"),
                                  ("tup[2]", "boolean")]
    assert insert.routing_key_indexes == [0]
    session.execute(insert, (1, 7, "seven", True))
    assert session.execute(f"SELECT tup FROM {ks}.t WHERE id = 1").one().tup == (7, "seven", True)

    update = session.prepare(f"UPDATE {ks}.t SET p = {{b: ?, a: ?}}, np = {{a: ?}} WHERE id = ?")
    assert bind_names(update) == [("p.b", "varchar"), ("p.a", "int"), ("np.a", "int"), ("id", "int")]
    session.execute(update, ("one", 1, 2, 1))
    row = session.execute(f"SELECT p, np FROM {ks}.t WHERE id = 1").one()
    assert (row.p.a, row.p.b) == (1, "one")
    assert (row.np.a, row.np.b) == (2, None)

    # A condition and a function call with markers inside literals.
    conditional = session.prepare(
        f"UPDATE {ks}.t SET l = [1] WHERE id = ? IF tup = (?, ?, ?)")
    assert session.execute(conditional, (1, 7, "seven", False)).one()[0] is False
    assert session.execute(conditional, (1, 7, "seven", True)).one()[0] is True
    call = session.prepare(f"INSERT INTO {ks}.t (id, tup) VALUES (2, ((int)? + 1, 'x', true))")
    session.execute(call, (41,))
    assert session.execute(f"SELECT tup FROM {ks}.t WHERE id = 2").one().tup == (42, "x", True)


def test_markers_inside_a_tuple_key(session, ks):
    session.execute(f"CREATE TABLE {ks}.k (k frozen<tuple<int, int>>, c int, v int, "
                    "PRIMARY KEY (k, c))")
    session.execute(f"INSERT INTO {ks}.k (k, c, v) VALUES ((1, 2), 1, 10)")
    session.execute(f"INSERT INTO {ks}.k (k, c, v) VALUES ((3, 4), 1, 30)")
    select = session.prepare(f"SELECT v FROM {ks}.k WHERE k = (?, ?)")
    assert bind_names(select) == [("k[0]", "int"), ("k[1]", "int")]
    assert [r.v for r in session.execute(select, (3, 4))] == [30]
    select_in = session.prepare(f"SELECT v FROM {ks}.k WHERE k IN ((?, ?), (3, 4))")
    assert sorted(r.v for r in session.execute(select_in, (1, 2))) == [10, 30]


def test_markers_inside_collection_literals_are_refused(session, ks):
    session.execute(f"CREATE TABLE {ks}.c (id int PRIMARY KEY, l list<int>, s set<int>, "
                    "m map<text, int>, lt list<frozen<tuple<int, int>>>)")
    for query, kind, column in [
            (f"INSERT INTO {ks}.c (id, l) VALUES (?, [?, ?])", "list", "l"),
            (f"UPDATE {ks}.c SET l = l + [?] WHERE id = 1", "list", "l"),
            (f"INSERT INTO {ks}.c (id, s) VALUES (1, {{?}})", "set", "s"),
            (f"INSERT INTO {ks}.c (id, m) VALUES (1, {{?: ?}})", "map", "m"),
            (f"INSERT INTO {ks}.c (id, lt) VALUES (1, [(1, ?)])", "list", "lt")]:
        with pytest.raises(InvalidRequest) as error:
            session.prepare(query)
        assert (f"Invalid {kind} literal for {column}: bind variables are not supported inside "
                "collection literals") in str(error.value), query


def test_unset_and_null_elements(session, ks):
    session.execute(f"CREATE TYPE {ks}.pair (a int, b text)")
    session.execute(f"CREATE TABLE {ks}.t (id int PRIMARY KEY, tup tuple<int, text>, "
                    "p frozen<pair>, l list<int>)")
    insert = session.prepare(f"INSERT INTO {ks}.t (id, tup) VALUES (?, (?, ?))")
    with pytest.raises(InvalidRequest, match="Invalid unset value for tuple field number 1"):
        session.execute(insert, (1, 1, UNSET_VALUE))
    session.execute(insert, (1, 1, None))
    assert session.execute(f"SELECT tup FROM {ks}.t WHERE id = 1").one().tup == (1, None)
    udt = session.prepare(f"INSERT INTO {ks}.t (id, p) VALUES (?, {{a: ?, b: ?}})")
    with pytest.raises(InvalidRequest,
                       match="Invalid unset value for field 'a' of user defined type pair"):
        session.execute(udt, (1, UNSET_VALUE, "x"))
    with pytest.raises(InvalidRequest, match="null is not supported inside collections"):
        session.execute(f"INSERT INTO {ks}.t (id, l) VALUES (1, [1, blobAsInt(null)])")


# --- eviction on schema changes ----------------------------------------------------------------


def test_select_star_after_alter_table_add(session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, a text)")
    session.execute(f"INSERT INTO {ks}.t (k, a) VALUES (1, 'x')")
    select = session.prepare(f"SELECT * FROM {ks}.t WHERE k = ?")
    assert tuple(session.execute(select, (1,)).one()) == (1, "x")
    session.execute(f"ALTER TABLE {ks}.t ADD b int")
    session.execute(f"UPDATE {ks}.t SET b = 7 WHERE k = 1")
    # Unprepared, prepared again by the driver, then the rows with b.
    assert tuple(session.execute(select, (1,)).one()) == (1, "x", 7)


def test_select_after_drop_and_create_with_another_type(session, ks):
    session.execute(f"CREATE TABLE {ks}.typed (k int PRIMARY KEY, v int)")
    session.execute(f"INSERT INTO {ks}.typed (k, v) VALUES (1, 5)")
    select = session.prepare(f"SELECT v FROM {ks}.typed WHERE k = ?")
    assert session.execute(select, (1,)).one().v == 5
    session.execute(f"DROP TABLE {ks}.typed")
    session.execute(f"CREATE TABLE {ks}.typed (k int PRIMARY KEY, v text)")
    session.execute(f"INSERT INTO {ks}.typed (k, v) VALUES (1, 'hello')")
    assert session.execute(select, (1,)).one().v == "hello"


# On the wire (protocol v4): PREPARE, a schema change, then EXECUTE.

UNPREPARED = 0x2500
PREPARE = 0x09
EXECUTE = 0x0A


class WireSession:
    def __init__(self, port: int):
        self.sock = cql_wire.connect(port)
        self.stream = 0
        response = self.request(cql_wire.STARTUP, cql_wire.startup_body())
        assert response.opcode == cql_wire.READY

    def request(self, opcode: int, body: bytes) -> cql_wire.Frame:
        self.stream += 1
        self.sock.sendall(cql_wire.frame(4, opcode, body, self.stream))
        while True:
            response = cql_wire.read_frame(self.sock)
            if response.stream == self.stream:
                return response

    def prepare(self, query: str) -> bytes:
        data = query.encode()
        response = self.request(PREPARE, struct.pack(">i", len(data)) + data)
        assert response.opcode == cql_wire.RESULT, cql_wire.parse_error(response.body)
        kind, length = struct.unpack_from(">iH", response.body)
        assert kind == 4
        return response.body[6:6 + length]

    def execute(self, statement_id: bytes, values: list[bytes]) -> cql_wire.Frame:
        body = struct.pack(">H", len(statement_id)) + statement_id
        body += struct.pack(">HB", 0x0001, 0x01 | 0x02)  # ONE; values, skip metadata
        body += struct.pack(">H", len(values))
        body += b"".join(struct.pack(">i", len(v)) + v for v in values)
        return self.request(EXECUTE, body)

    def close(self) -> None:
        self.sock.close()


def unprepared_id(response: cql_wire.Frame) -> bytes | None:
    if response.opcode != cql_wire.ERROR:
        return None
    code, message = cql_wire.parse_error(response.body)
    if code != UNPREPARED:
        return None
    offset = 6 + len(message.encode())
    (length,) = struct.unpack_from(">H", response.body, offset)
    return response.body[offset + 2:offset + 2 + length]


def test_schema_changes_answer_unprepared_on_the_wire(sibyl, session, ks):
    session.execute(f"CREATE TABLE {ks}.t (k int PRIMARY KEY, a text)")
    session.execute(f"CREATE TABLE {ks}.other (k int PRIMARY KEY, v int)")
    wire = WireSession(sibyl.port)
    try:
        one = struct.pack(">i", 1)
        select_t = wire.prepare(f"SELECT * FROM {ks}.t WHERE k = ?")
        insert_t = wire.prepare(f"INSERT INTO {ks}.t (k, a) VALUES (?, 'a')")
        select_other = wire.prepare(f"SELECT * FROM {ks}.other WHERE k = ?")

        # Options that do not change what statements do keep them.
        session.execute(f"ALTER TABLE {ks}.t WITH comment = 'kept'")
        assert wire.execute(select_t, [one]).opcode == cql_wire.RESULT

        session.execute(f"ALTER TABLE {ks}.t ADD b int")
        assert unprepared_id(wire.execute(select_t, [one])) == select_t
        assert unprepared_id(wire.execute(insert_t, [one])) == insert_t
        assert wire.execute(select_other, [one]).opcode == cql_wire.RESULT
        # Prepared again under the same id, it runs.
        assert wire.prepare(f"SELECT * FROM {ks}.t WHERE k = ?") == select_t
        assert wire.execute(select_t, [one]).opcode == cql_wire.RESULT

        session.execute(f"DROP KEYSPACE {ks}")
        assert unprepared_id(wire.execute(select_t, [one])) == select_t
        assert unprepared_id(wire.execute(select_other, [one])) == select_other
    finally:
        wire.close()
