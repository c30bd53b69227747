"""`sibyl shell` on a terminal (a pseudo-terminal the test types into): the
banner and prompts, tab completion, history across sessions, ---MORE---
between pages, Ctrl-C at the prompt and during a query, and reconnecting
after the node restarts."""

from __future__ import annotations

import pytest

from driver_session import connected, create_keyspace
from shell_process import shell_terminal
from sibyl_process import running_server

KS = "terminal_ks"


@pytest.fixture(scope="module")
def keyspace(sibyl):
    with connected(sibyl) as session:
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE IF NOT EXISTS {KS}.uniquely_named (k int, c int, "
                        "v text, PRIMARY KEY (k, c))")
        session.execute(f"TRUNCATE {KS}.uniquely_named")
        for c in range(5):
            session.execute(f"INSERT INTO {KS}.uniquely_named (k, c, v) VALUES (1, {c}, 'r{c}')")
    return KS


@pytest.fixture
def terminal(sibyl, tmp_path):
    opened = []

    def open_terminal(*args: str):
        t = shell_terminal(sibyl, tmp_path, "--no-color", *args)
        opened.append(t)
        return t

    yield open_terminal
    for t in opened:
        t.close()


def test_banner_prompts_and_exit(sibyl, keyspace, terminal):
    t = terminal()
    t.expect(f"at {sibyl.host}:{sibyl.port}")
    t.expect("| Native protocol v5]")
    t.expect("Use HELP for help.")
    t.expect("sibyl> ")
    t.send(f"USE {keyspace};\n")
    t.expect(f"sibyl:{keyspace}> ")
    t.send("SELECT v\n")
    t.expect(" " * len(keyspace) + "    ... ")  # the continuation prompt
    t.send("FROM uniquely_named WHERE k = 1 AND c = 3;\n")
    t.expect(" r3\n\n(1 rows)")
    t.send("EXIT\n")
    assert t.wait() == 0


def test_tab_completes_keywords_tables_and_columns(sibyl, keyspace, terminal):
    t = terminal("-k", keyspace)
    t.expect(f"sibyl:{keyspace}> ")
    # SEL<tab> -> "SELECT ", uniq<tab> -> "uniquely_named ", c<tab> stays
    # ambiguous with keywords, so the column is typed out.
    t.send("SEL\t v FROM uniq\tWHERE k = 1 AND c = 4;\n")
    t.expect(" r4\n\n(1 rows)")
    t.send("SELECT * FROM uniquely_named WHERE k = 1 AND c = 2 AND v = 'r2' ALLO\tFIL\t;\n")
    t.expect("(1 rows)")
    t.send("EXIT\n")
    assert t.wait() == 0


def test_typed_unicode_reaches_the_node_intact(sibyl, keyspace, terminal):
    t = terminal("-k", keyspace)
    t.expect(f"sibyl:{keyspace}> ")
    t.send("INSERT INTO uniquely_named (k, c, v) VALUES (2, 1, 'ünïcödé ✓ 日本');\n")
    t.expect(f"sibyl:{keyspace}> ")
    t.send("SELECT v FROM uniquely_named WHERE k = 2;\n")
    t.expect(" ünïcödé ✓ 日本\n")
    t.send("EXIT\n")
    assert t.wait() == 0


def test_history_persists_across_sessions(sibyl, keyspace, terminal):
    first = terminal()
    first.expect("sibyl> ")
    first.send(f"SELECT v FROM {keyspace}.uniquely_named WHERE k = 1 AND c = 1;\n")
    first.expect(" r1\n")
    first.send("EXIT\n")
    assert first.wait() == 0
    second = terminal()
    second.expect("sibyl> ")
    second.send("\x1b[A\x1b[A\n")  # up twice: before the EXIT, the SELECT
    second.expect(" r1\n\n(1 rows)")
    second.send("EXIT\n")
    assert second.wait() == 0


def test_paging_pauses_at_more(sibyl, keyspace, terminal):
    t = terminal()
    t.expect("sibyl> ")
    t.send("PAGING 2\n")
    t.expect("Page size: 2")
    t.send(f"SELECT c FROM {keyspace}.uniquely_named WHERE k = 1;\n")
    first = t.expect("---MORE---")
    assert " 0\n 1\n" in first and " 2\n" not in first
    t.send("\n")
    second = t.expect("---MORE---")
    assert " c\n---\n 2\n 3\n" in second  # on a terminal every page has its header
    t.send("\n")
    t.expect(" 4\n\n(5 rows)")
    # Ctrl-C at ---MORE--- drops the rest.
    t.send(f"SELECT c FROM {keyspace}.uniquely_named WHERE k = 1;\n")
    t.expect("---MORE---")
    t.interrupt()
    t.expect("sibyl> ")
    t.send("SHOW HOST\n")
    chunk = t.expect("Connected to")
    assert "(5 rows)" not in chunk
    t.send("EXIT\n")
    assert t.wait() == 0


def answers_next_query_and_exits(t):
    # After a Ctrl-C the shell answers the next query with its own reply:
    # the abandoned query's late reply (system.local's "bootstrapped") is
    # dropped, not shown in its place.
    t.send("SELECT cluster_name FROM system.local;\n")
    chunk = t.expect("(1 rows)")
    assert "bootstrapped" not in chunk, chunk
    t.send("EXIT\n")
    assert t.wait() == 0


def test_ctrl_c_abandons_a_line_and_a_running_query(sibyl, keyspace, tmp_path):
    with running_server() as server:
        # A request timeout far past the waits below: only Ctrl-C can bring
        # the prompt back while the node is stopped.
        t = shell_terminal(server, tmp_path, "--no-color", "--request-timeout", "600")
        try:
            t.expect("sibyl> ")
            t.send("SELECT *\n")
            t.expect("   ... ")
            t.interrupt()
            t.expect("sibyl> ")
            t.send("SHOW HOST\n")
            t.expect("Connected to")
            # Its prompt too, so that the one awaited below is a new one.
            t.expect("sibyl> ")
            # A node that does not answer: Ctrl-C gives the prompt back.
            with server.paused():
                t.send("SELECT * FROM system.local;\n")
                server.wait_for_unread_request()  # the shell waits for its reply
                t.interrupt()
                chunk = t.expect("sibyl> ", timeout=30)
                assert "rows)" not in chunk and "Exception" not in chunk, chunk
                assert "OperationTimedOut" not in chunk and "NoHostAvailable" not in chunk, chunk
            answers_next_query_and_exits(t)
        finally:
            t.close()


def test_ctrl_c_just_after_enter_is_not_lost(tmp_path):
    # Ctrl-C typed as soon as the line is read, before or while its request
    # goes out. The moment varies from try to try, so a shell that forgets
    # such a Ctrl-C (the node is stopped: it would wait for the request
    # timeout) fails some of them.
    with running_server() as server:
        t = shell_terminal(server, tmp_path, "--no-color", "--request-timeout", "600")
        try:
            t.expect("sibyl> ")
            with server.paused():
                for _ in range(5):
                    t.send("SELECT * FROM system.local;\n")
                    t.expect("system.local;\n")
                    t.interrupt()
                    chunk = t.expect("sibyl> ", timeout=30)
                    assert "rows)" not in chunk and "OperationTimedOut" not in chunk, chunk
            answers_next_query_and_exits(t)
        finally:
            t.close()


def test_ctrl_c_drops_the_rest_of_the_line(tmp_path):
    # As cqlsh: one Ctrl-C stops the line, not only its first statement.
    with running_server() as server:
        t = shell_terminal(server, tmp_path, "--no-color", "--request-timeout", "600")
        try:
            t.expect("sibyl> ")
            with server.paused():
                t.send("SELECT * FROM system.local; SELECT cluster_name FROM system.local;\n")
                server.wait_for_unread_request()
                t.interrupt()
                t.expect("sibyl> ", timeout=30)
            t.send("SELECT release_version FROM system.local;\n")
            chunk = t.expect("(1 rows)")
            assert "cluster_name" not in chunk and "bootstrapped" not in chunk, chunk
            t.send("EXIT\n")
            assert t.wait() == 0
        finally:
            t.close()

def test_reconnects_after_the_node_restarts(tmp_path):
    with running_server() as server:
        t = shell_terminal(server, tmp_path, "--no-color")
        try:
            t.expect("sibyl> ")
            t.send("SELECT cluster_name FROM system.local;\n")
            t.expect("(1 rows)")
            server.stop_cleanly()
            server._spawn()  # the same port and data directory
            ready, why = server._wait_ready()
            assert ready, why
            t.send("SELECT cluster_name FROM system.local;\n")
            chunk = t.expect("(1 rows)")
            assert f"Reconnected to {server.host}:{server.port}." in chunk
            t.send("EXIT\n")
            assert t.wait() == 0
        finally:
            t.close()


def test_colours_on_a_colour_terminal(sibyl, keyspace, tmp_path):
    from shell_process import ShellTerminal
    from sibyl_process import sibyl_binary
    t = ShellTerminal([str(sibyl_binary()), "shell", sibyl.host, str(sibyl.port)], tmp_path)
    try:
        t.expect("sibyl> ")
        t.send(f"SELECT k, c, v FROM {keyspace}.uniquely_named WHERE k = 1 AND c = 0;\n")
        t.expect("(1 rows)")
        t.send("SELECT nonsense;\n")
        t.expect("SyntaxException")
    finally:
        t.close()
    red, cyan, magenta = "\x1b[0;1;31m", "\x1b[0;1;36m", "\x1b[0;1;35m"
    green, yellow, reset = "\x1b[0;1;32m", "\x1b[0;1;33m", "\x1b[0m"
    # As cqlsh: partition key names red, clustering cyan, others magenta;
    # numbers green, text yellow; errors red.
    assert f"{red}k{reset}" in t.raw and f"{cyan}c{reset}" in t.raw
    assert f"{magenta}v{reset}" in t.raw
    assert f"{green}1{reset}" in t.raw and f"{yellow}r0{reset}" in t.raw
    assert f"{red}SyntaxException" in t.raw
