"""Requests that once took a node down or broke a connection (issue 12), each
answered now as Cassandra 4.1 answers it, with the node still serving:

- INSERT JSON ... IF NOT EXISTS (the transaction read its keys from the
  request's values instead of the document's: a read past their end);
- the same statement prepared, after other transactions;
- non-deterministic functions in a transaction's key (evaluated once per
  execution: each execution writes the partition it read);
- frames with the custom payload flag (the body starts with a [bytes map]);
- a BATCH writing one cell twice at one timestamp (merged by the storage's
  reconciliation: the expiring cell wins, as Cells.reconcile decides);
- an error message quoting text that is not valid UTF-8 after truncation.
"""

from __future__ import annotations

import uuid
from typing import Iterator

import pytest
from cassandra import FunctionFailure, InvalidRequest
from cassandra.cluster import Session
from cassandra.query import BatchStatement, BatchType, SimpleStatement

from driver_session import connected, create_keyspace


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as session:
        create_keyspace(session, "robust")
        session.set_keyspace("robust")
        yield session
    assert sibyl.alive(), f"sibyl died\n--- log ---\n{sibyl.log_text()}"


def test_insert_json_if_not_exists(session, sibyl):
    session.execute("CREATE TABLE json_lwt (p int, c int, r int, PRIMARY KEY (p, c))")
    first = session.execute('INSERT INTO json_lwt JSON \'{"p": 1, "c": 1, "r": 1}\' IF NOT EXISTS')
    assert first.was_applied
    second = session.execute('INSERT INTO json_lwt JSON \'{"p": 1, "c": 1, "r": 2}\' IF NOT EXISTS')
    assert not second.was_applied
    assert (second.one().p, second.one().c, second.one().r) == (1, 1, 1)
    prepared = session.prepare("INSERT INTO json_lwt JSON ? IF NOT EXISTS")
    assert session.execute(prepared, ['{"p": 1, "c": 2, "r": 3}']).was_applied
    assert not session.execute(prepared, ['{"p": 1, "c": 2, "r": 4}']).was_applied
    rows = session.execute("SELECT c, r FROM json_lwt WHERE p = 1").all()
    assert [(row.c, row.r) for row in rows] == [(1, 1), (2, 3)]
    # A document without the key is refused as Cassandra refuses it.
    with pytest.raises(InvalidRequest, match="Invalid null value in condition for column p"):
        session.execute('INSERT INTO json_lwt JSON \'{"c": 1}\' IF NOT EXISTS')
    assert sibyl.alive()


def test_prepared_uuid_key_after_other_transactions(session, sibyl):
    session.execute("CREATE TABLE uuid_lwt (pk uuid PRIMARY KEY, v int)")
    session.execute("CREATE TABLE counters_lwt (k int PRIMARY KEY, n int)")
    session.execute("INSERT INTO counters_lwt (k, n) VALUES (0, 0)")
    for n in range(5):
        assert session.execute("UPDATE counters_lwt SET n = %s WHERE k = 0 IF n = %s",
                               (n + 1, n)).was_applied
    prepared = session.prepare("INSERT INTO uuid_lwt (pk) VALUES (uuid()) IF NOT EXISTS")
    for _ in range(5):
        assert session.execute(prepared).was_applied
    assert len(session.execute("SELECT pk FROM uuid_lwt").all()) == 5
    assert sibyl.alive()


@pytest.mark.parametrize("key_type, function", [
    ("uuid", "uuid()"),
    ("timeuuid", "now()"),
    ("timeuuid", "currenttimeuuid()"),
    ("timestamp", "currenttimestamp()"),
    ("time", "currenttime()"),
])
def test_non_deterministic_key_in_transaction(session, key_type, function):
    table = f"nondeterministic_{function.rstrip('()')}"
    session.execute(f"CREATE TABLE {table} (pk {key_type} PRIMARY KEY, v int)")
    # uuid(), now() and currenttimeuuid() never repeat: each execution inserts
    # a row. A clock reading may (currenttimestamp() is in milliseconds): a
    # repeat finds the row an earlier execution wrote. Either way each
    # execution wrote the partition it read.
    unique = key_type in ("uuid", "timeuuid")
    applied = 0
    for _ in range(10):
        result = session.execute(f"INSERT INTO {table} (pk, v) VALUES ({function}, 1) "
                                 "IF NOT EXISTS")
        assert result.was_applied or not unique
        applied += result.was_applied
    assert len(session.execute(f"SELECT pk FROM {table}").all()) == applied
    assert applied == 10 if unique else applied >= 1


def test_custom_payload_is_read_and_ignored(session, sibyl):
    session.execute("CREATE TABLE payload (k int PRIMARY KEY, v text)")
    payload = {"k": b"v", "empty": b"", "other": b"\x00\xff"}
    session.execute("INSERT INTO payload (k, v) VALUES (1, 'one')", custom_payload=payload)
    rows = session.execute("SELECT v FROM payload WHERE k = 1", custom_payload=payload).all()
    assert [row.v for row in rows] == ["one"]
    prepared = session.prepare("SELECT v FROM payload WHERE k = ?", custom_payload=payload)
    assert session.execute(prepared, [1], custom_payload=payload).one().v == "one"
    batch = BatchStatement()
    batch.add("INSERT INTO payload (k, v) VALUES (2, 'two')")
    session.execute(batch, custom_payload=payload)
    assert session.execute("SELECT v FROM payload WHERE k = 2").one().v == "two"
    assert sibyl.alive()


def test_batch_reconciles_a_cell_written_twice(session):
    session.execute("CREATE TABLE batch_merge (k int PRIMARY KEY, v int)")
    statements = ["UPDATE batch_merge USING TTL 1000 SET v = 1 WHERE k = {k}",
                  "UPDATE batch_merge SET v = 2 WHERE k = {k}"]
    # In either order, as one batch (one timestamp) or as two statements at
    # one USING TIMESTAMP: the expiring cell wins the tie (Cells.reconcile).
    for k, order in enumerate([statements, statements[::-1]]):
        batch = BatchStatement(batch_type=BatchType.UNLOGGED)
        for text in order:
            batch.add(SimpleStatement(text.format(k=k)))
        session.execute(batch)
        row = session.execute(f"SELECT v, ttl(v) FROM batch_merge WHERE k = {k}").one()
        assert row.v == 1
        assert 0 < row.ttl_v <= 1000
    separate = ["UPDATE batch_merge USING TTL 1000 AND TIMESTAMP 5 SET v = 1 WHERE k = {k}",
                "UPDATE batch_merge USING TIMESTAMP 5 SET v = 2 WHERE k = {k}"]
    for k, order in enumerate([separate, separate[::-1]], start=10):
        for text in order:
            session.execute(text.format(k=k))
        row = session.execute(f"SELECT v, ttl(v) FROM batch_merge WHERE k = {k}").one()
        assert row.v == 1
        assert 0 < row.ttl_v <= 1000


def test_error_quoting_invalid_text_keeps_the_connection(session, sibyl):
    session.execute("CREATE TABLE json_text (k int PRIMARY KEY, asciival ascii)")
    prepared = session.prepare("INSERT INTO json_text (k, asciival) VALUES (?, fromJson(?))")
    in_flight = [session.execute_async("SELECT * FROM json_text") for _ in range(20)]
    # FromJsonFct's failure: a FunctionFailure quoting the text.
    with pytest.raises(FunctionFailure) as error:
        session.execute(prepared, [0, "ΎΔδϠ"])
    assert "Could not decode JSON string" in str(error.value)
    # The connection survived: the requests in flight on it, and later ones, are answered.
    for future in in_flight:
        future.result()
    assert session.execute("SELECT * FROM json_text").all() == []
    assert sibyl.alive()
