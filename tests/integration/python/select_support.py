"""Shared pieces of the SELECT tests (test_select_*.py): a session on the
shared server, a fresh keyspace per test, and helpers that read rows, read
pages one at a time, and check Cassandra 4.1's exact refusal messages.

Import the fixtures into a test module with
    from select_support import session, ks  # noqa: F401  (pytest fixtures)
"""

from __future__ import annotations

import itertools
import re
from typing import Iterator, Sequence

import pytest
from cassandra import InvalidRequest
from cassandra.cluster import Session
from cassandra.metadata import Murmur3Token
from cassandra.query import SimpleStatement, tuple_factory

from driver_session import connected as connected_session
from sibyl_process import SibylServer

# StatementRestrictions.REQUIRES_ALLOW_FILTERING_MESSAGE.
REQUIRES_ALLOW_FILTERING = (
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING")

# SelectStatement.execute: post-query ordering (IN + ORDER BY) cannot be paged.
CANNOT_PAGE_ORDER_BY_WITH_IN = (
    "Cannot page queries with both ORDER BY and a IN restriction on the partition key; you must "
    "either remove the ORDER BY or the IN and sort client side, or disable paging for this query")

# The driver's default page size; tests that read "everything in one go" say fetch_size=None.
DRIVER_DEFAULT_FETCH_SIZE = 5000


def connected(server: SibylServer, **cluster_options):
    """A session whose rows are plain tuples (column names via ResultSet.column_names)."""
    return connected_session(server, row_factory=tuple_factory, **cluster_options)


@pytest.fixture(scope="module")
def session(sibyl) -> Iterator[Session]:
    with connected(sibyl) as s:
        yield s


_keyspace_numbers = itertools.count()


@pytest.fixture
def ks(session) -> Iterator[str]:
    """A fresh keyspace for one test, dropped afterwards."""
    name = f"sel_{next(_keyspace_numbers)}"
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    yield name
    session.execute(f"DROP KEYSPACE IF EXISTS {name}")


_UNSET = object()


def statement(query: str, fetch_size=_UNSET) -> SimpleStatement:
    """A simple statement; fetch_size=None turns paging off, an int sets the page size."""
    if fetch_size is _UNSET:
        return SimpleStatement(query)
    return SimpleStatement(query, fetch_size=fetch_size)


def fetch(session: Session, query, params: Sequence | None = None, fetch_size=_UNSET) -> list[tuple]:
    """Every row of `query` (the driver follows the pages), as tuples."""
    if isinstance(query, str):
        query = statement(query, fetch_size)
    elif fetch_size is not _UNSET:
        query.fetch_size = fetch_size
    return [tuple(r) for r in session.execute(query, params)]


def fetch_pages(session: Session, query: str, params: Sequence | None = None,
                fetch_size: int = 10, prepared: bool = False) -> list[list[tuple]]:
    """The pages of `query`, each a list of rows, following paging_state by hand."""
    stmt = session.prepare(query) if prepared else SimpleStatement(query)
    stmt.fetch_size = fetch_size
    pages: list[list[tuple]] = []
    paging_state = None
    while True:
        result = session.execute(stmt, params, paging_state=paging_state)
        pages.append([tuple(r) for r in result.current_rows])
        paging_state = result.paging_state
        if paging_state is None:
            return pages
        assert len(pages) < 100_000, "paging does not end"


def columns(session: Session, query: str, params: Sequence | None = None) -> list[str]:
    return list(session.execute(query, params).column_names)


def column_types(session: Session, query: str, params: Sequence | None = None) -> list[str]:
    """The result's CQL type names as the driver reads them ('int', 'bigint', 'set<int>').

    Text is 'text': the protocol has one code for it (0x000D, which the driver calls varchar)."""
    names = [t.cql_parameterized_type() for t in session.execute(query, params).column_types]
    return [re.sub(r"\bvarchar\b", "text", name) for name in names]


_SERVER_MESSAGE = re.compile(r'message="(.*)"$', re.S)


def server_message(error: Exception) -> str:
    """The message the server sent, without the driver's 'Error from server: ...' frame."""
    text = str(error)
    match = _SERVER_MESSAGE.search(text)
    return match.group(1) if match else text


def assert_invalid(session: Session, query, message: str, params: Sequence | None = None,
                   fetch_size=_UNSET, exact: bool = True) -> None:
    """`query` fails with InvalidRequest carrying `message` (exactly, or as a substring)."""
    if isinstance(query, str):
        query = statement(query, fetch_size)
    with pytest.raises(InvalidRequest) as error:
        session.execute(query, params)
    got = server_message(error.value)
    if exact:
        assert got == message, f"for {query}"
    else:
        assert message in got, f"for {query}"


def warnings_of(session: Session, query, params: Sequence | None = None,
                fetch_size=_UNSET) -> list[str]:
    """The client warnings of the first page of `query` (empty when there are none)."""
    if isinstance(query, str):
        query = statement(query, fetch_size)
    future = session.execute_async(query, params)
    future.result()
    return list(future.warnings or [])


def int_token(value: int) -> int:
    """Murmur3 token of a one-column int partition key, as the driver computes it."""
    return Murmur3Token.from_key(value.to_bytes(4, "big", signed=True)).value


def composite_routing_key(*components: bytes) -> bytes:
    """Cassandra's CompositeType key: per component [u16 length][bytes][0x00]."""
    return b"".join(len(c).to_bytes(2, "big") + c + b"\x00" for c in components)


def composite_token(*components: bytes) -> int:
    return Murmur3Token.from_key(composite_routing_key(*components)).value


def int_bytes(value: int) -> bytes:
    return value.to_bytes(4, "big", signed=True)
