"""`sibyl admin flush | tablestats | tablehistograms`: nodetool's flush and
table views, on one node and on every node of a ring, read over CQL from the
nodes' system_views.flushes, table_stats and table_latencies; and those
tables (and Cassandra 4.1's local_read_latency, local_write_latency,
disk_usage) read and written directly."""

from __future__ import annotations

import re
import subprocess
from typing import Iterator

import pytest
from cassandra import InvalidRequest

from cluster_process import RunningCluster, running_cluster, wait_for
from driver_session import connected, create_keyspace
from sibyl_process import SibylServer, sibyl_binary

KS = "admin_tables"


def admin(port: int, *args: str, host: str = "127.0.0.1") -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "admin", "--host", host, "--port", str(port),
                           *args], capture_output=True, text=True, timeout=120)


def sections(output: str) -> dict[str, str]:
    """Node address → the text under its header (without the empty line
    separating it from the next node's)."""
    found = {}
    parts = re.split(r"^Node: (\S+)\n=+\n", output, flags=re.M)
    assert parts[0] == "", output
    for address, text in zip(parts[1::2], parts[2::2]):
        found[address] = text.rstrip("\n") + "\n"
    return found


def table_figures(text: str, table: str) -> dict[str, str]:
    """The "\t\tLabel: value" lines of `table` in one node's tablestats."""
    figures: dict[str, str] = {}
    inside = False
    for line in text.splitlines():
        if line.startswith("\t\tTable"):
            inside = line.split(": ", 1)[1] == table
            continue
        if inside and line.startswith("\t\t"):
            label, value = line[2:].split(": ", 1)
            figures[label] = value
    assert figures, f"no table {table} in:\n{text}"
    return figures


@pytest.fixture(scope="module")
def loaded(sibyl: SibylServer) -> Iterator[SibylServer]:
    with connected(sibyl) as session:
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE {KS}.t (k int, c int, v text, PRIMARY KEY (k, c))")
        session.execute(f"CREATE TABLE {KS}.idle (k int PRIMARY KEY)")
        for k in range(20):
            for c in range(3):
                session.execute(f"INSERT INTO {KS}.t (k, c, v) VALUES (%s, %s, %s)",
                                (k, c, "x" * 50))
        for k in range(7):
            session.execute(f"SELECT * FROM {KS}.t WHERE k = %s", (k,))
    yield sibyl


def one_node_stats(port: int, *selection: str) -> str:
    result = admin(port, "tablestats", *selection)
    assert result.returncode == 0, result.stderr
    nodes = sections(result.stdout)
    assert list(nodes) == ["127.0.0.1"], result.stdout
    return nodes["127.0.0.1"]


def test_tablestats_shows_writes_reads_then_flush_moves_the_memtable(loaded) -> None:
    before = one_node_stats(loaded.port, f"{KS}.t")
    assert "Total number of tables: " in before
    assert f"Keyspace : {KS}\n\tRead Count: 7\n" in before, before
    assert "\tWrite Count: 60\n" in before, before
    figures = table_figures(before, "t")
    assert figures["Local write count"] == "60"
    assert figures["Local read count"] == "7"
    assert re.fullmatch(r"\d+\.\d{3} ms", figures["Local read latency"]), figures
    assert re.fullmatch(r"\d+\.\d{3} ms", figures["Local write latency"]), figures
    assert figures["SSTable count"] == "0"
    assert int(figures["Memtable cell count"]) >= 60
    assert int(figures["Memtable data size"]) > 0
    assert figures["Space used (live)"] == "0"
    # Only the table asked for.
    assert "Table: idle" not in before

    flushed = admin(loaded.port, "flush", KS, "t")
    assert flushed.returncode == 0, flushed.stderr
    assert sections(flushed.stdout) == {"127.0.0.1": f"Flushed 1 table of {KS}.t\n"}

    after = table_figures(one_node_stats(loaded.port, f"{KS}.t"), "t")
    assert after["SSTable count"] == "1", after
    assert after["Memtable cell count"] == "0"
    assert int(after["Space used (live)"]) > 0
    assert int(after["Bloom filter space used"]) > 0
    assert float(after["SSTable Compression Ratio"]) > 0
    assert after["Local write count"] == "60"

    with connected(loaded) as session:
        rows = {row.table_name: row for row in session.execute(
            "SELECT * FROM system_views.flushes WHERE keyspace_name = %s", [KS])}
        assert "t" in rows and rows["t"].flushed_at is not None
        stats = session.execute("SELECT sstables, read_count, write_count FROM "
                                "system_views.table_stats WHERE keyspace_name = %s "
                                "AND table_name = 't'", [KS]).one()
        assert (stats.sstables, stats.read_count, stats.write_count) == (1, 7, 60)
        usage = session.execute("SELECT mebibytes FROM system_views.disk_usage "
                                "WHERE keyspace_name = %s AND table_name = 't'", [KS]).one()
        assert usage.mebibytes == 1  # rounded up, as 4.1
        reads = session.execute("SELECT count, \"50th_ms\" AS p50, \"99th_ms\" AS p99, max_ms, "
                                "per_second FROM system_views.local_read_latency "
                                "WHERE keyspace_name = %s AND table_name = 't'", [KS]).one()
        assert reads.count == 7
        assert 0 < reads.p50 <= reads.p99 <= reads.max_ms
        assert reads.per_second is None
        writes = session.execute("SELECT count FROM system_views.local_write_latency "
                                 "WHERE keyspace_name = %s AND table_name = 't'", [KS]).one()
        assert writes.count == 60


def test_flush_of_a_keyspace_and_of_everything(loaded) -> None:
    result = admin(loaded.port, "flush", KS)
    assert result.returncode == 0, result.stderr
    assert sections(result.stdout) == {"127.0.0.1": f"Flushed 2 tables of {KS}\n"}
    everything = admin(loaded.port, "flush")
    assert everything.returncode == 0, everything.stderr
    assert re.fullmatch(r"Flushed \d+ tables of every keyspace\n",
                        sections(everything.stdout)["127.0.0.1"]), everything.stdout


def test_tablehistograms_prints_the_latency_rows(loaded) -> None:
    for args in (("tablehistograms", KS, "t"), ("tablehistograms", f"{KS}.t")):
        result = admin(loaded.port, *args)
        assert result.returncode == 0, result.stderr
        text = sections(result.stdout)["127.0.0.1"]
        lines = text.splitlines()
        # Without partition_stats data nodetool's line comes first.
        if lines[0].startswith("No SSTables exists"):
            lines = lines[1:]
        assert lines[0] == f"{KS}/t histograms"
        assert lines[1].split() == ["Percentile", "Write", "Latency", "Read", "Latency",
                                    "Partition", "Size", "Cell", "Count"]
        assert lines[2].split() == ["(micros)", "(micros)", "(bytes)"]
        rows = {line.split()[0]: line.split()[1:] for line in lines[3:10]}
        assert list(rows) == ["50%", "75%", "95%", "98%", "99%", "Min", "Max"]
        write = [float(row[0]) for row in rows.values()]
        read = [float(row[1]) for row in rows.values()]
        for figures in (write, read):
            assert all(f > 0 for f in figures), text
            assert figures[0] <= figures[1] <= figures[2] <= figures[3] <= figures[4] <= figures[6]
            assert figures[5] <= figures[0]


def test_unknown_keyspace_or_table_in_nodetools_words(loaded) -> None:
    cases = [
        (("flush", "nosuch"), "Keyspace nosuch does not exist"),
        (("flush", KS, "t", "nosuch"), f"Unknown keyspace/cf pair ({KS}.nosuch)"),
        (("tablestats", "nosuch"), "Unknown keyspace: nosuch"),
        (("tablestats", f"{KS}.nosuch"), f"Unknown tables: [nosuch] in keyspace: {KS}"),
        (("tablehistograms", KS, "nosuch"), f"Unknown keyspace/cf pair ({KS}.nosuch)"),
    ]
    for args, message in cases:
        result = admin(loaded.port, *args)
        assert result.returncode == 1, (args, result.stdout)
        assert f"Error: {message}" in result.stderr, (args, result.stderr)
    usage = admin(loaded.port, "tablehistograms", KS)
    assert usage.returncode == 2
    assert "tablehistograms requires keyspace and table name arguments" in usage.stderr


def test_bad_inserts_into_flushes_are_invalid_requests(loaded) -> None:
    with connected(loaded) as session:
        for statement, message in [
            ("INSERT INTO system_views.flushes (keyspace_name, table_name) "
             "VALUES ('nosuch', 't')", "Keyspace nosuch does not exist"),
            (f"INSERT INTO system_views.flushes (keyspace_name, table_name) "
             f"VALUES ('{KS}', 'nosuch')", f"Unknown keyspace/cf pair ({KS}.nosuch)"),
            (f"INSERT INTO system_views.flushes (keyspace_name, table_name, flushed_at) "
             f"VALUES ('{KS}', 't', 0)", "Only INSERT of keyspace_name and table_name"),
            (f"DELETE FROM system_views.flushes WHERE keyspace_name = '{KS}'", ""),
            ("INSERT INTO system_views.flushes (keyspace_name, table_name) "
             "VALUES ('system_views', 'flushes')", "Keyspace system_views does not exist"),
            ("INSERT INTO system_views.table_stats (keyspace_name, table_name) "
             f"VALUES ('{KS}', 't')", "Modification is not supported"),
        ]:
            with pytest.raises(InvalidRequest, match=re.escape(message)):
                session.execute(statement)
        # A table of a system keyspace the engine does not store: nothing to flush.
        session.execute("INSERT INTO system_views.flushes (keyspace_name, table_name) "
                        "VALUES ('system', 'local')")
    assert loaded.alive()


@pytest.fixture(scope="module")
def two_nodes() -> Iterator[RunningCluster]:
    with running_cluster(nodes=2) as running:
        with running.connect() as c:
            session = c.connect()
            session.execute(f"CREATE KEYSPACE {KS} WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 2}")
            session.execute(f"CREATE TABLE {KS}.t (k int PRIMARY KEY, v text)")
            for k in range(40):
                session.execute(f"INSERT INTO {KS}.t (k, v) VALUES (%s, %s)", (k, "y" * 40))
        yield running


def test_flush_reaches_every_node_of_a_ring(two_nodes: RunningCluster) -> None:
    before = admin(two_nodes.native_port, "tablestats", f"{KS}.t")
    assert before.returncode == 0, before.stderr
    nodes = sections(before.stdout)
    assert sorted(nodes) == ["127.0.0.1", "127.0.0.2"], before.stdout
    for text in nodes.values():
        figures = table_figures(text, "t")
        assert figures["SSTable count"] == "0"
        assert figures["Local write count"] == "40"  # RF 2 on 2 nodes: every write

    result = admin(two_nodes.native_port, "flush", KS)
    assert result.returncode == 0, result.stderr
    assert sections(result.stdout) == {"127.0.0.1": f"Flushed 1 table of {KS}\n",
                                       "127.0.0.2": f"Flushed 1 table of {KS}\n"}

    after = admin(two_nodes.native_port, "tablestats", f"{KS}.t", host="127.0.0.2")
    assert after.returncode == 0, after.stderr
    for text in sections(after.stdout).values():
        figures = table_figures(text, "t")
        assert figures["SSTable count"] == "1", text
        assert figures["Memtable cell count"] == "0", text

    histograms = admin(two_nodes.native_port, "tablehistograms", KS, "t")
    assert histograms.returncode == 0, histograms.stderr
    assert sorted(sections(histograms.stdout)) == ["127.0.0.1", "127.0.0.2"]


def test_a_node_down_is_not_asked(two_nodes: RunningCluster) -> None:
    two_nodes.kill_node(2)

    def shown_down() -> bool:
        result = admin(two_nodes.native_port, "flush", KS)
        return result.returncode == 1 and \
            sections(result.stdout).get("127.0.0.2") == "DOWN: not asked\n"

    wait_for(shown_down, 20, "127.0.0.2 not asked")
