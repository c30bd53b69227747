"""Lightweight transactions through the Python driver: IF NOT EXISTS, IF EXISTS
and IF conditions answer with Cassandra's [applied] result set, prepared or not
and in every protocol version, conditional batches on one partition, and
compare-and-set from many concurrent clients is linearizable."""

from __future__ import annotations

import threading
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session
from cassandra.query import BatchStatement

from driver_session import connected, create_keyspace


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as session:
        create_keyspace(session, "lwt")
        session.execute("CREATE TABLE IF NOT EXISTS lwt.accounts (owner text, id int, balance int, "
                        "note text, version int static, PRIMARY KEY (owner, id))")
        yield session


def test_insert_if_not_exists(session):
    first = session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('a', 1, 10) "
                            "IF NOT EXISTS")
    assert first.was_applied
    assert first.column_names == ["[applied]"]
    second = session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('a', 1, 99) "
                             "IF NOT EXISTS")
    assert not second.was_applied
    row = second.one()
    # The existing row, as SELECT * would show it (static columns are not read).
    assert (row.owner, row.id, row.balance, row.note, row.version) == ("a", 1, 10, None, None)
    assert session.execute("SELECT balance FROM lwt.accounts WHERE owner = 'a' AND id = 1"
                           ).one().balance == 10


def test_update_if_condition(session):
    session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('b', 1, 10)")
    missed = session.execute("UPDATE lwt.accounts SET balance = 5 WHERE owner = 'b' AND id = 1 "
                             "IF balance = 7")
    assert not missed.was_applied
    assert missed.column_names == ["[applied]", "balance"]
    assert missed.one().balance == 10
    assert session.execute("UPDATE lwt.accounts SET balance = 5 WHERE owner = 'b' AND id = 1 "
                           "IF balance = 10 AND note = null").was_applied
    assert not session.execute("DELETE FROM lwt.accounts WHERE owner = 'b' AND id = 2 "
                               "IF EXISTS").was_applied
    assert session.execute("DELETE FROM lwt.accounts WHERE owner = 'b' AND id = 1 "
                           "IF EXISTS").was_applied
    assert session.execute("SELECT * FROM lwt.accounts WHERE owner = 'b'").all() == []


@pytest.mark.parametrize("version", [3, 4, 5])
def test_prepared_conditional_update_sends_its_metadata(sibyl, session, version):
    owner = f"p{version}"
    session.execute(f"INSERT INTO lwt.accounts (owner, id, balance) VALUES ('{owner}', 1, 1)")
    with connected(sibyl, protocol_version=version) as s:
        cas = s.prepare("UPDATE lwt.accounts SET balance = ? WHERE owner = ? AND id = 1 "
                        "IF balance = ?")
        assert s.execute(cas, (2, owner, 1)).was_applied
        missed = s.execute(cas, (3, owner, 1))
        assert not missed.was_applied
        assert missed.one().balance == 2
        # After a not-applied answer with more columns, an applied one still decodes.
        assert s.execute(cas, (3, owner, 2)).was_applied


def test_conditional_batch_on_one_partition(session):
    session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('c', 1, 10)")
    session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('c', 2, 0)")
    batch = BatchStatement()
    batch.add("UPDATE lwt.accounts SET balance = 7 WHERE owner = 'c' AND id = 1 IF balance = 10")
    batch.add("UPDATE lwt.accounts SET balance = 3 WHERE owner = 'c' AND id = 2")
    assert session.execute(batch).was_applied
    assert [r.balance for r in session.execute(
        "SELECT balance FROM lwt.accounts WHERE owner = 'c'")] == [7, 3]
    wrong_partition = BatchStatement()
    wrong_partition.add("UPDATE lwt.accounts SET balance = 1 WHERE owner = 'c' AND id = 1 "
                        "IF balance = 7")
    wrong_partition.add("UPDATE lwt.accounts SET balance = 1 WHERE owner = 'd' AND id = 1")
    with pytest.raises(InvalidRequest, match="Batch with conditions cannot span multiple partitions"):
        session.execute(wrong_partition)


def test_refusals(session):
    with pytest.raises(InvalidRequest, match="Cannot provide custom timestamp for conditional updates"):
        session.execute("UPDATE lwt.accounts USING TIMESTAMP 5 SET balance = 1 "
                        "WHERE owner = 'e' AND id = 1 IF balance = 1")
    with pytest.raises(InvalidRequest, match="PRIMARY KEY column 'id' cannot have IF conditions"):
        session.execute("UPDATE lwt.accounts SET balance = 1 WHERE owner = 'e' AND id = 1 "
                        "IF id = 1")


def test_compare_and_set_from_many_clients_is_linearizable(sibyl, session):
    session.execute("INSERT INTO lwt.accounts (owner, id, balance) VALUES ('cas', 1, 0)")
    successes = []
    errors = []

    def worker() -> None:
        try:
            with connected(sibyl) as s:
                read = s.prepare("SELECT balance FROM lwt.accounts WHERE owner = 'cas' AND id = 1")
                cas = s.prepare("UPDATE lwt.accounts SET balance = ? WHERE owner = 'cas' AND id = 1 "
                                "IF balance = ?")
                done = 0
                for _ in range(40):
                    current = s.execute(read).one().balance
                    if s.execute(cas, (current + 1, current)).was_applied:
                        done += 1
                successes.append(done)
        except Exception as e:  # reported below: a thread's exception would be lost
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    final = session.execute("SELECT balance FROM lwt.accounts WHERE owner = 'cas' AND id = 1"
                            ).one().balance
    assert final == sum(successes)
    assert final > 0
