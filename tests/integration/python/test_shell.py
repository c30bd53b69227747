"""`sibyl shell` in batch mode (-e, -f, piped input): what it prints must be
what cqlsh 4.1 prints for the same statements, and COPY must round-trip a
table of every type. Interactive use is in test_shell_terminal.py."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from driver_session import connected, create_keyspace
from shell_process import run_shell

KS = "shell_ks"


@pytest.fixture(scope="module")
def keyspace(sibyl):
    with connected(sibyl) as session:
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE IF NOT EXISTS {KS}.kv (k int, c int, v text, "
                        "PRIMARY KEY (k, c))")
        session.execute(f"TRUNCATE {KS}.kv")
        for c in range(1, 4):
            session.execute(f"INSERT INTO {KS}.kv (k, c, v) VALUES (1, {c}, 'v{c}')")
    return KS


def test_rows_print_as_cqlsh_prints_them(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"SELECT * FROM {keyspace}.kv")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("\n"
                             " k | c | v\n"
                             "---+---+----\n"
                             " 1 | 1 | v1\n"
                             " 1 | 2 | v2\n"
                             " 1 | 3 | v3\n"
                             "\n"
                             "(3 rows)\n")
    assert result.stderr == ""


def test_empty_results_and_writes(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"INSERT INTO {keyspace}.kv (k, c) VALUES (9, 9); "
                                    f"DELETE FROM {keyspace}.kv WHERE k = 9; "
                                    f"SELECT v FROM {keyspace}.kv WHERE k = 9")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "\n v\n---\n\n\n(0 rows)\n"


def test_expanded_output(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"EXPAND ON; SELECT c, v FROM {keyspace}.kv WHERE k = 1 "
                                    "LIMIT 2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ("Now Expanded output is enabled\n"
                             "\n"
                             "@ Row 1\n"
                             "---+----\n"
                             " c | 1\n"
                             " v | v1\n"
                             "\n"
                             "@ Row 2\n"
                             "---+----\n"
                             " c | 2\n"
                             " v | v2\n"
                             "\n"
                             "\n"
                             "(2 rows)\n")


def test_every_page_is_fetched_without_pausing(sibyl, keyspace):
    result = run_shell(sibyl, input=f"PAGING 2\nSELECT c FROM {keyspace}.kv WHERE k = 1;\n")
    assert result.returncode == 0, result.stderr
    assert "---MORE---" not in result.stdout
    assert result.stdout == ("Page size: 2\n"
                             "\n"
                             " c\n"
                             "---\n"
                             " 1\n"
                             " 2\n"
                             " 3\n"
                             "\n"
                             "(3 rows)\n")


def test_errors_as_cqlsh_prints_them(sibyl, keyspace):
    invalid = run_shell(sibyl, "-e", f"SELECT * FROM {keyspace}.nope")
    assert invalid.returncode == 2
    assert invalid.stdout == ""
    assert invalid.stderr == ("<stdin>:1:InvalidRequest: Error from server: code=2200 "
                              "[Invalid query] message=\"table nope does not exist\"\n")
    syntax = run_shell(sibyl, "-e", "SELEC * FROM t")
    assert syntax.returncode == 2
    assert syntax.stderr.startswith("<stdin>:1:SyntaxException: line 1:0 ")
    exists = run_shell(sibyl, "-e", f"CREATE TABLE {keyspace}.kv (k int PRIMARY KEY)")
    assert exists.stderr == f"<stdin>:1:AlreadyExists: Table '{keyspace}.kv' already exists\n"
    ks_exists = run_shell(sibyl, "-e", f"CREATE KEYSPACE {keyspace} WITH replication = "
                                       "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    assert ks_exists.stderr == f"<stdin>:1:AlreadyExists: Keyspace '{keyspace}' already exists\n"


def test_a_file_names_its_lines_and_goes_on_after_errors(sibyl, keyspace, tmp_path):
    script = tmp_path / "script.cql"
    script.write_text(f"USE {keyspace};\n"
                      "SELECT * FROM\n"
                      "  nope;\n"
                      "SELECT count(*) FROM kv\n"
                      "  WHERE k = 1;\n")
    result = run_shell(sibyl, "-f", str(script))
    assert result.returncode == 2
    assert result.stderr == (f"{script}:3:InvalidRequest: Error from server: code=2200 "
                             "[Invalid query] message=\"table nope does not exist\"\n")
    assert "\n count\n-------\n     3\n" in result.stdout
    missing = run_shell(sibyl, "-f", str(tmp_path / "missing.cql"))
    assert missing.returncode == 1
    assert "missing.cql" in missing.stderr


def test_piped_statements_span_lines_and_batches_hold_semicolons(sibyl, keyspace):
    script = (f"USE {keyspace};\n"
              "BEGIN BATCH\n"
              "  INSERT INTO kv (k, c, v) VALUES (2, 1, 'a;b');\n"
              "  INSERT INTO kv (k, c, v) VALUES (2, 2, $$x;\n"
              "y$$);\n"
              "APPLY BATCH;\n"
              "SELECT v FROM kv -- a comment; still one\n"
              "  WHERE k = 2;\n")
    result = run_shell(sibyl, input=script)
    assert result.returncode == 0, result.stderr
    assert " a;b\n" in result.stdout
    assert " x;\\ny\n" in result.stdout  # cqlsh shows a newline in text as \n
    assert "(2 rows)" in result.stdout


def test_server_warnings_follow_the_result(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"SELECT count(*) FROM {keyspace}.kv")
    assert result.returncode == 0, result.stderr
    assert result.stdout.endswith("(1 rows)\n\nWarnings :\n"
                                  "Aggregation query used without partition key\n\n")


def test_shell_command_messages(sibyl, keyspace):
    commands = ("EXPAND\nEXPAND OFF\nPAGING\nPAGING OFF\nCONSISTENCY\nCONSISTENCY local_quorum\n"
                "CONSISTENCY\nSERIAL CONSISTENCY\nSERIAL CONSISTENCY LOCAL_SERIAL\n"
                "TRACING\nSHOW HOST\n")
    result = run_shell(sibyl, input=commands)
    assert result.stdout == (
        "Expanded output is currently disabled. Use EXPAND ON to enable.\n"
        "Query paging is currently enabled. Use PAGING OFF to disable\n"
        "Page size: 100\n"
        "Disabled Query paging.\n"
        "Current consistency level is ONE.\n"
        "Consistency level set to LOCAL_QUORUM.\n"
        "Current consistency level is LOCAL_QUORUM.\n"
        "Current serial consistency level is SERIAL.\n"
        "Serial consistency level set to LOCAL_SERIAL.\n"
        "Tracing is currently disabled. Use TRACING ON to enable.\n"
        f"Connected to {sibyl_cluster_name()} at {sibyl.host}:{sibyl.port}\n")
    assert result.stderr == "<stdin>:2:Expanded output is not enabled.\n"
    assert result.returncode == 2
    refusals = run_shell(sibyl, input="TRACING ON\nCONSISTENCY SOMETIMES\nSERIAL CONSISTENCY ONE\n"
                                      "HELP NOTHING\n")
    assert refusals.stderr.splitlines() == [
        "<stdin>:1:Tracing is not supported by Sibyl yet: statements run untraced.",
        "<stdin>:2:Improper CONSISTENCY command.",
        "<stdin>:3:Improper SERIAL CONSISTENCY command.",
        "<stdin>:4:*** No help on NOTHING",
    ]


def sibyl_cluster_name() -> str:
    from sibyl_process import SHARED_CLUSTER_NAME
    return SHARED_CLUSTER_NAME


def test_consistency_reaches_the_node(sibyl, keyspace):
    # SERIAL is not a level for reads or writes: the node's refusal proves
    # the shell sent the level it was given.
    result = run_shell(sibyl, input=f"CONSISTENCY SERIAL\nINSERT INTO {keyspace}.kv (k, c) "
                                    "VALUES (5, 5);\n")
    assert result.stderr == ("<stdin>:2:InvalidRequest: Error from server: code=2200 "
                             "[Invalid query] message=\"You must use conditional updates for "
                             "serializable writes\"\n")


def test_show_version_and_help(sibyl):
    result = run_shell(sibyl, "-e", "SHOW VERSION; HELP; HELP EXPAND")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("[sibyl shell ") and "| CQL spec 3.4." in lines[0]
    assert lines[0].endswith("| Native protocol v5]")
    assert "Documented shell commands:" in result.stdout
    assert "===========================" in result.stdout
    assert "CQL help topics:" in result.stdout
    assert "EXPAND [ON | OFF]" in result.stdout


def test_describe_prints_as_cqlsh_41(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"DESCRIBE KEYSPACES; USE {keyspace}; DESC TABLES; "
                                    "DESC TABLE kv; DESC TABLE nope")
    assert result.returncode == 2
    assert f"\n{keyspace}" in result.stdout or f" {keyspace} " in result.stdout
    assert f"\nKeyspace {keyspace}\n---------{'-' * len(keyspace)}\nkv\n" in result.stdout
    assert f"\nCREATE TABLE {keyspace}.kv (\n    k int,\n" in result.stdout
    # An error prints only the server's message, as cqlsh's do_describe does.
    assert result.stderr.startswith("<stdin>:1:")
    assert "Error from server" not in result.stderr and "nope" in result.stderr


def test_source_and_capture(sibyl, keyspace, tmp_path):
    sourced = tmp_path / "sourced.cql"
    sourced.write_text(f"SELECT v FROM {keyspace}.kv WHERE k = 1 AND c = 2;\nSELECT nonsense;\n")
    captured = tmp_path / "captured.txt"
    result = run_shell(sibyl, input=f"CAPTURE '{captured}'\nSOURCE '{sourced}'\nCAPTURE\n"
                                    "CAPTURE OFF\nCAPTURE OFF\n")
    assert result.stdout == (f"Now capturing query output to '{captured}'.\n"
                             f"Currently capturing query output to '{captured}'.\n"
                             f"Stopped capture. Output saved in '{captured}'.\n")
    assert captured.read_text() == "\n v\n----\n v2\n\n(1 rows)\n"
    errors = result.stderr.splitlines()
    assert errors[0].startswith(f"{sourced}:2:SyntaxException")
    assert errors[1] == "<stdin>:5:Not currently capturing output."


def test_connection_errors(sibyl):
    from sibyl_process import refused_port, sibyl_binary
    import subprocess
    with refused_port() as port:  # nothing listens there
        result = subprocess.run([str(sibyl_binary()), "shell", "127.0.0.1", str(port),
                                 "-e", "SHOW HOST"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 1
    assert result.stderr.startswith("Connection error: ('Unable to connect to any servers'")
    usage = subprocess.run([str(sibyl_binary()), "shell", "--ssl"], capture_output=True,
                           text=True, timeout=30)
    assert usage.returncode == 2 and "TLS" in usage.stderr


EVERY_TYPE = ("k int PRIMARY KEY, a ascii, b bigint, bl blob, bo boolean, d date, de decimal, "
              "db double, du duration, f float, i inet, s smallint, t text, tm time, "
              "ts timestamp, tu timeuuid, ti tinyint, u uuid, vi varint, l list<text>, "
              "st set<int>, mp map<text, double>, tp tuple<int, text>, fl frozen<list<int>>, "
              "ad frozen<address>, ve vector<float, 3>")

TEXT_VALUES = ["plain", "", "comma, inside", 'say "hi"', "two\nlines", "back\\slash",
               "ünïcödé ✓ 日本", "'quoted'", "NULL", " padded "]


def test_copy_round_trips_every_type(sibyl, keyspace, tmp_path):
    with connected(sibyl) as session:
        session.execute(f"CREATE TYPE IF NOT EXISTS {keyspace}.address (street text, zip int)")
        for table in ("every", "every_copy"):
            session.execute(f"DROP TABLE IF EXISTS {keyspace}.{table}")
            session.execute(f"CREATE TABLE {keyspace}.{table} ({EVERY_TYPE})")
        session.execute(
            f"INSERT INTO {keyspace}.every (k, a, b, bl, bo, d, de, db, du, f, i, s, t, tm, ts, tu,"
            " ti, u, vi, l, st, mp, tp, fl, ad, ve) VALUES (0, 'asc', -9223372036854775808, "
            "0xcafe00, true, '2024-02-29', -1.50, 3.141592653589793, 1y2mo3d4h5m6s7ms8us9ns, "
            "1.5, '2001:db8::1', -7, 'all', '23:59:59.999999999', '1969-07-20 20:17:40.123+0000', "
            "now(), -128, 550e8400-e29b-41d4-a716-446655440000, -123456789012345678901234567890, "
            "['a', 'b''c', 'd, e'], {1, 2}, {'x': 0.1, 'y': -2.5e10}, (1, 'z'), [1, 2], "
            "{street: 'Rue \"X\"', zip: 75001}, [0.5, -1.25, 3.0])")
        for n, text in enumerate(TEXT_VALUES, start=1):
            session.execute(f"INSERT INTO {keyspace}.every (k, t, a) VALUES (%s, %s, %s)",
                            (n, text, "x"))
        session.execute(f"INSERT INTO {keyspace}.every (k) VALUES (99)")  # every column null
    exported = tmp_path / "every.csv"
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.every TO '{exported}' WITH HEADER = true; "
                                    f"COPY {keyspace}.every_copy FROM '{exported}' "
                                    "WITH HEADER = true")
    assert result.returncode == 0, result.stderr
    assert f"{len(TEXT_VALUES) + 2} rows exported to 1 files in " in result.stdout
    assert f"{len(TEXT_VALUES) + 2} rows imported from 1 files in " in result.stdout
    assert "(0 skipped)." in result.stdout
    header = next(csv.reader(io.StringIO(exported.read_text())))
    assert header[:3] == ["k", "a", "ad"]
    with connected(sibyl) as session:
        original = {row.k: row for row in session.execute(f"SELECT * FROM {keyspace}.every")}
        copied = {row.k: row for row in session.execute(f"SELECT * FROM {keyspace}.every_copy")}
    assert copied == original
    assert copied[2].t == "" and copied[99].t is None  # empty is not null
    assert copied[7].t == "ünïcödé ✓ 日本"


def test_copy_options_and_failed_rows(sibyl, keyspace, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("k|c|v\n7|1|one\n7|x|bad int\n7|3|NULL\n7|4|\"NULL\"\n7|5|five\n")
    errors = tmp_path / "failed.err"
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.kv (k, c, v) FROM '{source}' WITH "
                                    f"DELIMITER = '|' AND HEADER = true AND NULL = 'NULL' AND "
                                    f"ERRFILE = '{errors}' AND MAXROWS = 4")
    assert result.returncode == 2
    assert "3 rows imported from 1 files" in result.stdout
    assert "Failed to import 1 rows: ParseError - Unable to make int from 'x'" in result.stderr
    assert f"Failed to process 1 rows; failed rows written to {errors}" in result.stderr
    assert errors.read_text() == "7|x|bad int\n"
    with connected(sibyl) as session:
        rows = {r.c: r.v for r in session.execute(f"SELECT c, v FROM {keyspace}.kv WHERE k = 7")}
    assert rows == {1: "one", 3: None, 4: "NULL"}
    unknown = run_shell(sibyl, "-e", f"COPY {keyspace}.kv TO '{tmp_path / 'x.csv'}' WITH "
                                     "CHUNKSIZE = 5")
    assert unknown.stderr == "<stdin>:1:Unrecognized COPY TO options: chunksize\n"


COPY_FAILURE = "Failed to import 1 rows: {} - {},  given up without retries"


def test_copy_from_skips_rows_and_logs_every_failure(sibyl, keyspace, tmp_path):
    with connected(sibyl) as session:
        session.execute(f"DROP TABLE IF EXISTS {keyspace}.imported")
        session.execute(f"CREATE TABLE {keyspace}.imported (k int, c int, v text, "
                        "PRIMARY KEY (k, c))")
    source = tmp_path / "in.csv"
    source.write_text("skipped,by,SKIPROWS\n\n1,1,one\n1,2\n1,3,three,extra\nNULL,4,null key\n"
                      "\n1,5,five\n2,x,bad\n1,6,\"open\n")
    errors = tmp_path / "failed.err"
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.imported (k, c, v) FROM '{source}' WITH "
                                    f"SKIPROWS = 1 AND NULL = 'NULL' AND TTL = 3600 AND "
                                    f"ERRFILE = '{errors}'")
    assert result.returncode == 2
    assert result.stdout.startswith(
        f"\nStarting copy of {keyspace}.imported with columns [k, c, v].\n")
    assert "\n2 rows imported from 1 files in " in result.stdout
    assert result.stdout.endswith(" seconds (1 skipped).\n")
    # Parse errors as the rows are read, insert errors as the node answers.
    assert result.stderr.splitlines() == [
        COPY_FAILURE.format("ParseError", "Invalid row length 2 should be 3"),
        COPY_FAILURE.format("ParseError", "Invalid row length 4 should be 3"),
        COPY_FAILURE.format("ParseError", "Unable to make int from 'x'"),
        COPY_FAILURE.format("ParseError", "unterminated quoted field"),
        COPY_FAILURE.format("InvalidRequest", "Invalid null value in condition for column k"),
        f"Failed to process 5 rows; failed rows written to {errors}",
    ]
    assert errors.read_text() == '1,2\n1,3,three,extra\n2,x,bad\n1,6,"open\n\nNULL,4,null key\n'
    with connected(sibyl) as session:
        rows = sorted(tuple(row) for row in
                      session.execute(f"SELECT k, c, v, ttl(v) FROM {keyspace}.imported"))
    assert [row[:3] for row in rows] == [(1, 1, "one"), (1, 5, "five")]
    assert all(3500 < row[3] <= 3600 for row in rows)


def test_copy_from_limits_and_inputs(sibyl, keyspace, tmp_path):
    with connected(sibyl) as session:
        session.execute(f"DROP TABLE IF EXISTS {keyspace}.limited")
        session.execute(f"CREATE TABLE {keyspace}.limited (k int, c int, v text, "
                        "PRIMARY KEY (k, c))")
    errors = tmp_path / "failed.err"
    source = tmp_path / "in.csv"
    source.write_text("header,is,data\n1,1,one\n1,2\n1,3,three\n")
    stopped = run_shell(sibyl, "-e", f"COPY {keyspace}.limited FROM '{source}' WITH "
                                     f"MAXPARSEERRORS = 1 AND ERRFILE = '{errors}'")
    assert stopped.returncode == 2
    assert "\n1 rows imported from 1 files in " in stopped.stdout
    assert stopped.stderr.splitlines() == [
        COPY_FAILURE.format("ParseError", "Unable to make int from 'header'"),
        COPY_FAILURE.format("ParseError", "Invalid row length 2 should be 3"),
        f"Failed to process 2 rows; failed rows written to {errors}",
        "<stdin>:1:Exceeded maximum number of parse errors 1",
    ]
    assert errors.read_text() == "header,is,data\n1,2\n"

    # Every failed row goes to the error file, the first twenty to stderr too.
    many = tmp_path / "many.csv"
    short_rows = "".join(f"{i},{i}\n" for i in range(23))
    many.write_text(short_rows)
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.limited FROM '{many}' WITH "
                                    f"ERRFILE = '{errors}'")
    assert result.returncode == 2
    assert result.stderr.splitlines() == (
        [COPY_FAILURE.format("ParseError", "Invalid row length 2 should be 3")] * 20 +
        [f"(more failures are written to {errors} only)",
         f"Failed to process 23 rows; failed rows written to {errors}"])
    assert errors.read_text() == short_rows

    missing = tmp_path / "missing.csv"
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.limited FROM '{missing}'")
    assert result.returncode == 2
    assert result.stdout == f"\nStarting copy of {keyspace}.limited with columns [k, c, v].\n"
    assert result.stderr == (f"<stdin>:1:Can't open '{missing}' for reading: "
                             "No such file or directory\n")

    result = run_shell(sibyl, "-e", f"COPY {keyspace}.limited (k, c) FROM STDIN WITH MAXROWS = 2",
                       input="4,1\n4,2\n4,3\n")
    assert result.returncode == 0, result.stderr
    assert "\n2 rows imported from 1 files in " in result.stdout
    with connected(sibyl) as session:
        rows = session.execute(f"SELECT c FROM {keyspace}.limited WHERE k = 4")
        assert [row.c for row in rows] == [1, 2]


def test_copy_to_stdout(sibyl, keyspace):
    result = run_shell(sibyl, "-e", f"COPY {keyspace}.kv (c, v) TO STDOUT")
    assert result.returncode == 0, result.stderr
    assert "1,v1\n2,v2\n3,v3\n" in result.stdout


def test_every_type_shows_as_cqlsh_shows_it(sibyl, keyspace):
    with connected(sibyl) as session:
        session.execute(f"CREATE TYPE IF NOT EXISTS {keyspace}.address (street text, zip int)")
        session.execute(f"DROP TABLE IF EXISTS {keyspace}.shown")
        session.execute(f"CREATE TABLE {keyspace}.shown ({EVERY_TYPE})")
        session.execute(
            f"INSERT INTO {keyspace}.shown (k, a, b, bl, bo, d, de, db, du, f, i, s, t, tm, ts, tu,"
            " ti, u, vi, l, st, mp, tp, fl, ad, ve) VALUES (0, 'asc', 9223372036854775807, 0xcafe,"
            " true, '2024-01-02', 1.50, 3.141592653589793, 1h30m, 1.5, '127.0.0.1', 7, 'it''s',"
            " '03:04:05.000000006', '2024-01-02 03:04:05.678+0000', "
            "d2177dd0-eaa2-11de-a572-001b779c76e3, 3, 550e8400-e29b-41d4-a716-446655440000, "
            "12345678901234567890, ['a', 'b''c'], {2, 1}, {'x': 0.1}, (1, 'z'), [1, 2], "
            "{street: 'Main', zip: null}, [1.5, 2, 3.25])")
        session.execute(f"INSERT INTO {keyspace}.shown (k) VALUES (1)")
    result = run_shell(sibyl, "-e", f"EXPAND ON; SELECT * FROM {keyspace}.shown WHERE k = 0; "
                                    f"SELECT a, t FROM {keyspace}.shown WHERE k = 1")
    assert result.returncode == 0, result.stderr
    shown = {}
    for line in result.stdout.splitlines():
        name, sep, value = line.partition(" | ")
        if sep and not line.startswith("-"):
            shown.setdefault(name.strip(), value)
    assert shown == {
        "k": "0",
        "a": "asc",
        "ad": "{street: 'Main', zip: null}",
        "b": "9223372036854775807",
        "bl": "0xcafe",
        "bo": "True",
        "d": "2024-01-02",
        "db": "3.14159",
        "de": "1.50",
        "du": "1h30m",
        "f": "1.5",
        "fl": "[1, 2]",
        "i": "127.0.0.1",
        "l": "['a', 'b''c']",
        "mp": "{'x': 0.1}",
        "s": "7",
        "st": "{1, 2}",
        "t": "it's",
        "ti": "3",
        "tm": "03:04:05.000000006",
        "tp": "(1, 'z')",
        "ts": "2024-01-02 03:04:05.678000+0000",
        "tu": "d2177dd0-eaa2-11de-a572-001b779c76e3",
        "u": "550e8400-e29b-41d4-a716-446655440000",
        "ve": "[1.5, 2, 3.25]",
        "vi": "12345678901234567890",
    }, result.stdout
    assert result.stdout.endswith("@ Row 1\n---+------\n a | null\n t | null\n\n\n(1 rows)\n")
