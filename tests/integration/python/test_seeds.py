"""The CQL of the seed documents, run through the DataStax Python driver.

seed_cql/<stem>.cql holds every CQL statement of the seed document
../shared/seeds/<stem>.txt, in document order and as written there, so that the
test needs no file outside the repository. The format:

- Statements end at a ';' outside quotes and comments; a batch runs from BEGIN ...
  BATCH to its APPLY BATCH;. A statement's text starts at its first token, so
  the comment lines before it are documentation; comments inside it are sent.
- A comment line `-- expect: <outcome>` just before a statement says how it must
  end. Without one it must succeed (a SELECT's rows are read to the end).
      -- expect: SyntaxException
      -- expect: InvalidRequest <substring of the message>
      -- expect: AlreadyExists
      -- expect: not supported   (an InvalidRequest saying "not supported by Sibyl yet")
- A statement with '?' bind markers is prepared and executed with sample values
  chosen from the types of its bind variables (SAMPLE_SCALARS).

When the seed documents are present (not in CI's clean clone) two more tests
check that every seed has its .cql file and that each statement appears verbatim
in its seed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import re
import uuid
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import AlreadyExists, InvalidRequest
from cassandra.cluster import EXEC_PROFILE_DEFAULT, Cluster, ExecutionProfile, Session
from cassandra.policies import RoundRobinPolicy
from cassandra.protocol import SyntaxException

from sibyl_process import REPO

SEED_CQL = Path(__file__).resolve().parent / "seed_cql"
SEED_DOCUMENTS = REPO.parent / "shared" / "seeds"
NOT_SUPPORTED = "not supported by Sibyl yet"


# --- the .cql format ---------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Expectation:
    """How a statement must end: kind is ok, SyntaxException, InvalidRequest,
    AlreadyExists or not supported; message is a substring for InvalidRequest."""

    kind: str = "ok"
    message: str = ""

    KINDS = ("SyntaxException", "InvalidRequest", "AlreadyExists", "not supported")

    @classmethod
    def parse(cls, directive: str) -> "Expectation":
        for kind in cls.KINDS:
            if directive == kind or directive.startswith(kind + " "):
                message = directive[len(kind):].strip()
                if message and kind != "InvalidRequest":
                    raise ValueError(f"'{kind}' takes no message: {directive!r}")
                return cls(kind, message)
        raise ValueError(f"unknown expectation {directive!r}; one of {cls.KINDS}")

    def mismatch(self, error: Exception | None) -> str | None:
        """None when `error` (None = success) is what was expected, else why not."""
        got = "success" if error is None else f"{type(error).__name__}: {error}"
        if self.kind == "ok":
            return None if error is None else f"expected success, got {got}"
        if self.kind == "SyntaxException":
            ok = isinstance(error, SyntaxException)
        elif self.kind == "AlreadyExists":
            ok = isinstance(error, AlreadyExists)
        elif self.kind == "not supported":
            ok = isinstance(error, InvalidRequest) and NOT_SUPPORTED in str(error)
        else:
            ok = isinstance(error, InvalidRequest) and self.message in str(error)
        if ok:
            return None
        wanted = f"{self.kind} {self.message}".strip()
        return f"expected {wanted}, got {got}"


@dataclasses.dataclass(frozen=True)
class SeedStatement:
    text: str
    line: int  # where the statement starts in its .cql file, counting from 1
    expect: Expectation
    has_bind_markers: bool


EXPECT_DIRECTIVE = re.compile(r"--\s*expect:\s*(.*?)\s*$")
BATCH_START = re.compile(r"BEGIN\b", re.I)
BATCH_END = re.compile(r"\bAPPLY\s+BATCH\s*$", re.I)


def parse_cql(text: str) -> list[SeedStatement]:
    """Splits a .cql file into statements, honouring quotes, $$ strings and comments."""
    statements: list[SeedStatement] = []
    pending: Expectation | None = None
    start = -1  # index of the current statement's first token; -1 between statements
    markers = False
    i, n = 0, len(text)

    def line_of(index: int) -> int:
        return text.count("\n", 0, index) + 1

    while i < n:
        c = text[i]
        if text.startswith("--", i) or text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            directive = EXPECT_DIRECTIVE.match(text, i, end)
            if directive:
                if start >= 0:
                    raise ValueError(f"line {line_of(i)}: 'expect:' inside a statement")
                if pending is not None:
                    raise ValueError(f"line {line_of(i)}: two 'expect:' lines in a row")
                pending = Expectation.parse(directive.group(1))
            i = end
            continue
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError(f"line {line_of(i)}: unterminated /* comment")
            i = end + 2
            continue
        if c.isspace():
            i += 1
            continue
        if start < 0:
            start = i
        if c in "'\"" or text.startswith("$$", i):
            quote = "$$" if c == "$" else c
            j = i + len(quote)
            while True:
                j = text.find(quote, j)
                if j < 0:
                    raise ValueError(f"line {line_of(i)}: unterminated {quote}")
                if len(quote) == 1 and text.startswith(quote * 2, j):
                    j += 2  # '' or "" escapes the quote inside
                    continue
                break
            i = j + len(quote)
            continue
        if c == "?":
            markers = True
        if c == ";":
            body = text[start:i]
            if not (BATCH_START.match(body) and not BATCH_END.search(body)):
                statements.append(SeedStatement(text[start:i + 1], line_of(start),
                                                pending or Expectation(), markers))
                start, pending, markers = -1, None, False
        i += 1
    if start >= 0:
        raise ValueError(f"line {line_of(start)}: statement without a closing ';'")
    if pending is not None:
        raise ValueError("an 'expect:' line at the end of the file, with no statement")
    return statements


# --- values for bind markers ----------------------------------------------------------------------

SAMPLE_SCALARS = {
    "ascii": "seed",
    "bigint": 1,
    "blob": b"seed",
    "boolean": True,
    "counter": 1,
    "date": datetime.date(2026, 1, 26),
    "decimal": decimal.Decimal("99.99"),
    "double": 99.99,
    "float": 1.5,
    "inet": "192.168.1.100",
    "int": 1,
    "smallint": 1,
    "text": "seed",
    "timestamp": datetime.datetime(2026, 1, 26, 10, 0, 0),
    "timeuuid": uuid.UUID("8e8ea5c2-b56b-11e9-a2a3-2a2ae2dbcce4"),
    "tinyint": 1,
    "uuid": uuid.UUID("550e8400-e29b-41d4-a716-446655440000"),
    "varchar": "seed",
    "varint": 1,
}


def sample_value(cql_type):
    """A fixed value of a driver type class (cassandra.cqltypes), for a bind marker."""
    name = cql_type.typename
    if name == "frozen":
        return sample_value(cql_type.subtypes[0])
    if name == "map":
        key, value = cql_type.subtypes
        return {sample_value(key): sample_value(value)}
    if name == "set":
        return {sample_value(cql_type.subtypes[0])}
    if name == "list":
        return [sample_value(cql_type.subtypes[0])]
    if name == "tuple":
        return tuple(sample_value(t) for t in cql_type.subtypes)
    if name not in SAMPLE_SCALARS:
        raise AssertionError(f"no sample value for bind markers of type {name}")
    return SAMPLE_SCALARS[name]


def run_statement(session: Session, statement: SeedStatement) -> None:
    if statement.has_bind_markers:
        prepared = session.prepare(statement.text)
        values = [sample_value(column.type) for column in prepared.column_metadata]
        result = session.execute(prepared, values)
    else:
        result = session.execute(statement.text)
    for _ in result:  # a SELECT must also deliver its rows (every page)
        pass


# --- running the files -------------------------------------------------------------------------


def cql_files() -> list[Path]:
    return sorted(SEED_CQL.glob("*.cql"))


def statements_of(path: Path) -> list[SeedStatement]:
    return parse_cql(path.read_text())


# The seeds' examples name no keyspace: they create unqualified tables (users,
# videos, groups...) in the current one, and two documents may reuse a name. So
# every file runs in a keyspace of its own, seed_<stem>, created fresh and made
# current with USE before its first statement and dropped after its last; files
# cannot see each other's tables whatever order they run in. A statement that
# names a keyspace itself would escape that, so such a file is refused:
# qualify nothing, or teach the runner to rename the keyspace.
KEYSPACE_STATEMENT = re.compile(r"(CREATE|ALTER|DROP)\s+KEYSPACE\b|USE\b", re.I)


def keyspace_for(path: Path) -> str:
    return "seed_" + re.sub(r"[^a-z0-9_]", "_", path.stem.lower())


@pytest.fixture(scope="module")
def cluster(sibyl) -> Iterator[Cluster]:
    profile = ExecutionProfile(load_balancing_policy=RoundRobinPolicy())
    cluster = Cluster(contact_points=[sibyl.host], port=sibyl.port,
                      execution_profiles={EXEC_PROFILE_DEFAULT: profile})
    try:
        yield cluster
    finally:
        cluster.shutdown()


@contextlib.contextmanager
def fresh_keyspace(cluster: Cluster, name: str) -> Iterator[Session]:
    session = cluster.connect()
    try:
        session.execute(f"DROP KEYSPACE IF EXISTS {name}")
        session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.set_keyspace(name)
        yield session
        session.execute(f"DROP KEYSPACE {name}")
    finally:
        session.shutdown()


FILES_WITH_STATEMENTS = [p for p in cql_files() if statements_of(p)]


@pytest.mark.parametrize("path", FILES_WITH_STATEMENTS, ids=lambda p: p.stem)
def test_seed_statements_run_as_expected(cluster, path):
    statements = statements_of(path)
    for statement in statements:
        assert not KEYSPACE_STATEMENT.match(statement.text), \
            f"{path.name}:{statement.line} names a keyspace; see keyspace_for()"
    problems = []
    with fresh_keyspace(cluster, keyspace_for(path)) as session:
        for statement in statements:
            try:
                run_statement(session, statement)
                error = None
            except Exception as e:  # the expectation decides which errors are right
                error = e
            problem = statement.expect.mismatch(error)
            if problem:
                first_line = statement.text.splitlines()[0]
                problems.append(f"{path.name}:{statement.line} {first_line!r}: {problem}")
    assert not problems, "\n".join(problems)


def test_there_are_seed_statements_of_every_kind():
    statements = [s for p in cql_files() for s in statements_of(p)]
    kinds = {" ".join(s.text.split()[:2]).upper() for s in statements}
    assert {"CREATE TABLE", "CREATE TYPE", "BEGIN BATCH", "INSERT INTO", "SELECT *"} <= kinds
    assert any(s.text.upper().startswith("UPDATE ") for s in statements)
    assert any(s.has_bind_markers for s in statements)


# --- the format itself --------------------------------------------------------------------------


def test_parse_cql_splits_statements_batches_and_expectations():
    text = """-- a comment; with a semicolon
        SELECT 'a;''b' FROM t WHERE k = ?;  -- trailing; comment
        -- expect: InvalidRequest no such; thing
        BEGIN BATCH
          INSERT INTO t (k) VALUES (1);  /* ; */
          UPDATE t SET "v;" = $$x;y$$ WHERE k = 2;
        APPLY BATCH;
        -- expect: not supported
        CREATE INDEX ON t (v);"""
    statements = parse_cql(text)
    assert [s.text.split()[0] for s in statements] == ["SELECT", "BEGIN", "CREATE"]
    assert statements[0].text == "SELECT 'a;''b' FROM t WHERE k = ?;"
    assert statements[0].has_bind_markers and not statements[1].has_bind_markers
    assert statements[1].text.endswith("APPLY BATCH;")
    assert (statements[0].line, statements[1].line) == (2, 4)
    assert [s.expect for s in statements] == [
        Expectation(), Expectation("InvalidRequest", "no such; thing"),
        Expectation("not supported")]


def test_parse_cql_refuses_a_dangling_expectation_or_statement():
    with pytest.raises(ValueError, match="no statement"):
        parse_cql("SELECT 1 FROM t;\n-- expect: SyntaxException\n")
    with pytest.raises(ValueError, match="without a closing"):
        parse_cql("SELECT 1 FROM t")
    with pytest.raises(ValueError, match="unknown expectation"):
        parse_cql("-- expect: Fails\nSELECT 1 FROM t;")


# --- agreement with the seed documents (only where they are present) -----------------------------

SEED_TEXTS = sorted(SEED_DOCUMENTS.glob("*.txt")) if SEED_DOCUMENTS.is_dir() else []
needs_seeds = pytest.mark.skipif(not SEED_TEXTS, reason=f"no seed documents at {SEED_DOCUMENTS}")


def squeezed(text: str) -> str:
    return " ".join(text.split())


@needs_seeds
def test_every_seed_document_has_a_cql_file():
    assert sorted(p.stem for p in SEED_TEXTS) == sorted(p.stem for p in cql_files())


@needs_seeds
def test_statements_are_as_written_in_their_seed():
    for path in cql_files():
        seed = (SEED_DOCUMENTS / f"{path.stem}.txt").read_text()
        # A statement taken from a Java example is its string literals joined.
        seed = squeezed(re.sub(r'"\s*\+\s*"', "", seed))
        for statement in statements_of(path):
            text = squeezed(statement.text)
            assert text in seed or text.rstrip(";") in seed, \
                f"{path.name}:{statement.line} is not in {path.stem}.txt as written"
