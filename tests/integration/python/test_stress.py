"""`sibyl stress` against a running node: the JSON report, and its errors.

Short runs (--ops, no warm-up) so the whole file takes a few seconds.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from cluster_process import ADDRESSES, running_cluster
from sibyl_process import SibylServer, die_with_parent, refused_port, sibyl_binary

RUN_TIMEOUT_S = 60
KEYSPACE = "stress_it"


def stress(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "stress", *args], cwd=cwd,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S, preexec_fn=die_with_parent)


def stress_json(server: SibylServer, args: list[str], cwd: Path) -> dict:
    result = stress([*args, "--port", str(server.port), "--keyspace", KEYSPACE,
                     "--warmup", "0s", "--connections", "2", "--concurrency", "8", "--json"],
                    cwd)
    assert result.returncode == 0, f"stderr: {result.stderr}\nstdout: {result.stdout}"
    report = json.loads(result.stdout)  # exactly one JSON object on stdout
    assert report["errors"] == 0, report
    assert report["timeouts"] == 0, report
    latency = report["latency_ms"]
    assert set(latency) == {"mean", "p50", "p90", "p99", "p999", "max"}
    assert 0 < latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["p999"] \
        <= latency["max"] < 5000, latency
    assert 0 < latency["mean"] <= latency["max"]
    assert report["duration_s"] > 0
    assert report["ops_per_s"] > 0
    assert report["connections"] == 2 and report["concurrency"] == 8
    assert report["token_aware"] is False and report["consistency"] == "ONE"
    return report


def test_write_then_read(sibyl, tmp_path):
    write = stress_json(sibyl, ["write", "--ops", "2000", "--partitions", "2000"], tmp_path)
    assert write["workload"] == "write"
    assert write["ops"] == 2000
    assert write["rate"] is None
    assert abs(write["ops_per_s"] - 2000 / write["duration_s"]) < 0.01 * write["ops_per_s"]

    # Every partition was written, so every point read finds its row.
    read = stress_json(sibyl, ["read", "--ops", "1000", "--partitions", "2000", "--no-schema"],
                       tmp_path)
    assert read["workload"] == "read"
    assert read["ops"] == 1000
    assert read["rows"] == 1000


def test_populate_slice_mixed_counter_scan(sibyl, tmp_path):
    common = ["--table", "clustered", "--partitions", "50", "--rows-per-partition", "10"]
    sliced = stress_json(sibyl, ["read", *common, "--slice", "4", "--populate", "--ops", "200"],
                         tmp_path)
    assert sliced["ops"] == 200
    assert sliced["rows"] == 800  # --populate wrote 10 rows in each partition

    mixed = stress_json(sibyl, ["mixed", *common, "--ratio", "1:3", "--ops", "400"], tmp_path)
    assert mixed["ops"] == 400
    # Reported apart too: operation n is a write when n % 4 < 1.
    assert mixed["writes"]["ops"] == 100
    assert mixed["reads"]["ops"] == 300
    assert mixed["reads"]["latency_ms"]["p50"] > 0

    counter = stress_json(sibyl, ["counter", "--partitions", "100", "--ops", "300"], tmp_path)
    assert counter["workload"] == "counter"
    assert counter["ops"] == 300

    # 500 rows in pages of 1000: one page per scan; 6 pages read the table 6 times.
    scan = stress_json(sibyl, ["scan", *common, "--ops", "6"], tmp_path)
    assert scan["ops"] == 6
    assert scan["rows"] == 6 * 500


def test_fixed_rate_paces_the_run(sibyl, tmp_path):
    report = stress_json(sibyl, ["write", "--ops", "600", "--rate", "2000/s"], tmp_path)
    assert report["ops"] == 600
    assert report["rate"] == 2000
    # 600 operations at 2000/s are due over 0.3 s: the run cannot be faster.
    assert report["duration_s"] >= 0.29
    assert report["ops_per_s"] <= 2100


def test_text_report_and_live_lines(sibyl, tmp_path):
    result = stress(["write", "--port", str(sibyl.port), "--keyspace", KEYSPACE,
                     "--duration", "1.2s", "--warmup", "0s", "--connections", "1"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "throughput" in result.stdout and "latency (ms)" in result.stdout
    live = [line for line in result.stderr.splitlines() if line.startswith("write")]
    assert live, result.stderr
    assert "ops/s" in live[0] and "p99.9" in live[0] and "timeouts" in live[0]


def test_no_schema_with_a_missing_table_fails_clearly(sibyl, tmp_path):
    stress_json(sibyl, ["write", "--ops", "1"], tmp_path)  # the keyspace exists
    result = stress(["read", "--port", str(sibyl.port), "--keyspace", KEYSPACE,
                     "--table", "no_such_table", "--no-schema", "--ops", "10"], tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        f"sibyl stress: table {KEYSPACE}.no_such_table does not exist (--no-schema uses an "
        "existing keyspace and table; leave it out to create them)")
    result = stress(["read", "--port", str(sibyl.port), "--keyspace", "no_such_keyspace",
                     "--no-schema", "--ops", "10"], tmp_path)
    assert result.returncode == 1
    assert "keyspace no_such_keyspace does not exist" in result.stderr


def test_server_down_fails_fast(tmp_path):
    with refused_port() as port:  # nothing listens there
        started = time.monotonic()
        result = stress(["write", "--port", str(port), "--ops", "10"], tmp_path)
        assert time.monotonic() - started < 5
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"sibyl stress: cannot connect to 127.0.0.1:{port}"), lines[0]
    assert result.stdout == ""


def test_bad_command_line(tmp_path):
    result = stress(["write", "--duration", "5s", "--ops", "10"], tmp_path)
    assert result.returncode == 2
    assert "--duration and --ops cannot both be given" in result.stderr
    result = stress(["--help"], tmp_path)
    assert result.returncode == 0
    assert "--concurrency" in result.stdout


def test_several_hosts_route_token_aware_over_the_whole_ring(tmp_path):
    """Given two of three nodes, stress reads the ring from the first, connects
    to all three and writes at QUORUM with RF 3; every row then reads back at
    ALL, and each node holds the data (every node is a replica)."""
    with running_cluster() as cluster:
        common = ["--host", ",".join(ADDRESSES[:2]), "--port", str(cluster.native_port),
                  "--keyspace", KEYSPACE, "--warmup", "0s", "--connections", "1",
                  "--concurrency", "8", "--partitions", "3000", "--json"]
        write = stress(["write", "--ops", "3000", "--replication-factor", "3",
                        "--consistency", "QUORUM", *common], tmp_path)
        assert write.returncode == 0, write.stderr
        assert "token-aware over 3 nodes (ring from 127.0.0.1), 3 connections" in write.stderr
        report = json.loads(write.stdout)
        assert (report["ops"], report["errors"], report["timeouts"]) == (3000, 0, 0), report
        assert (report["token_aware"], report["consistency"]) == (True, "QUORUM"), report

        read = stress(["read", "--ops", "3000", "--consistency", "ALL", "--no-schema", *common],
                      tmp_path)
        assert read.returncode == 0, read.stderr
        report = json.loads(read.stdout)
        assert (report["ops"], report["rows"], report["errors"]) == (3000, 3000, 0), report

        with cluster.connect(ADDRESSES[2], only=True) as c:
            session = c.connect()
            replication = session.execute(
                "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = %s",
                (KEYSPACE,)).one()[0]
            assert replication["replication_factor"] == "3"
        # The first host down: the ring comes from the next one.
        cluster.kill_node(1)
        fallback = stress(["write", "--host", f"{ADDRESSES[0]},{ADDRESSES[1]}", "--port",
                           str(cluster.native_port), "--keyspace", KEYSPACE, "--ops", "10",
                           "--warmup", "0s", "--timeout", "2s"], tmp_path)
        # Node 1 is still in the ring, so connecting to it fails the run, naming it.
        assert fallback.returncode == 1
        assert "127.0.0.1" in fallback.stderr
