"""The Prometheus metrics endpoint (docs/metrics.md): a node serves GET
/metrics on prometheus_port; the counts move by exactly the statements run,
under the right table labels, with errors under their CQL error code; the
text parses with Prometheus' own parser (python3-prometheus-client);
prometheus_enabled: false means nothing listens; a taken port stops the
node with one line naming the key; and docs/grafana-dashboard.json loads."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from cassandra import InvalidRequest
from cassandra.protocol import SyntaxException
from cassandra.query import BatchStatement, SimpleStatement
from prometheus_client.parser import text_string_to_metric_families

from driver_session import connected, create_keyspace
from sibyl_process import REPO, SibylServer, free_port, running_server, sibyl_binary

KEYSPACE = "metrics_it"


@pytest.fixture(scope="module")
def node() -> Iterator[SibylServer]:
    # Its own node: the shared one counts every other test's statements too.
    with running_server() as server:
        yield server


def scrape(server: SibylServer, path: str = "/metrics") -> str:
    with urllib.request.urlopen(f"http://{server.host}:{server.metrics_port}{path}",
                                timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        return response.read().decode("utf-8")


class Samples:
    """One scrape, parsed: sample values by name and labels."""

    def __init__(self, text: str):
        self.families = {f.name: f for f in text_string_to_metric_families(text)}
        self.values: dict[tuple[str, frozenset], float] = {}
        for family in self.families.values():
            for sample in family.samples:
                self.values[(sample.name, frozenset(sample.labels.items()))] = sample.value

    def get(self, name: str, **labels: str) -> float:
        """The sample with exactly these labels; 0 when absent (error series
        appear with their first error)."""
        return self.values.get((name, frozenset(labels.items())), 0.0)


def table_labels(kind: str) -> dict[str, str]:
    return {"keyspace": KEYSPACE, "table": "kv", "kind": kind}


def test_counts_move_by_what_was_run(node):
    with connected(node) as session:
        create_keyspace(session, KEYSPACE)
        session.execute(f"CREATE TABLE IF NOT EXISTS {KEYSPACE}.kv (k int PRIMARY KEY, v text)")
        insert = session.prepare(f"INSERT INTO {KEYSPACE}.kv (k, v) VALUES (?, ?)")
        select = session.prepare(f"SELECT v FROM {KEYSPACE}.kv WHERE k = ?")

        before = Samples(scrape(node))
        for k in range(7):
            session.execute(insert, (k, f"value {k}"))                   # 7 EXECUTE writes
        for k in range(4):
            assert session.execute(select, (k,)).one().v == f"value {k}"  # 4 EXECUTE reads
        for k in range(3):                                                # 3 QUERY reads
            session.execute(SimpleStatement(f"SELECT v FROM {KEYSPACE}.kv WHERE k = {k}"))
        batch = BatchStatement()
        batch.add(insert, (100, "a"))
        batch.add(insert, (101, "b"))
        session.execute(batch)                                            # 1 BATCH write
        with pytest.raises(InvalidRequest):
            session.execute(select, (None,))  # 1 EXECUTE read failing: INVALID, null key
        with pytest.raises(SyntaxException):
            session.execute("SELEKT nothing")  # 1 QUERY failing: SYNTAX_ERROR, no table
        after = Samples(scrape(node))

    def moved(name, **labels):
        return after.get(name, **labels) - before.get(name, **labels)

    # Per table, exactly what ran against metrics_it.kv.
    assert moved("sibyl_cql_table_requests_total", **table_labels("write")) == 8
    assert moved("sibyl_cql_table_requests_total", **table_labels("read")) == 8
    assert moved("sibyl_cql_table_request_errors_total", code="INVALID",
                 **table_labels("read")) == 1
    assert moved("sibyl_cql_table_request_errors_total", code="INVALID",
                 **table_labels("write")) == 0
    assert moved("sibyl_cql_table_request_duration_seconds_count", **table_labels("read")) == 8
    assert moved("sibyl_cql_table_request_duration_seconds_bucket", le="+Inf",
                 **table_labels("write")) == 8
    # Per operation: the driver itself never sends EXECUTE or BATCH.
    assert moved("sibyl_cql_requests_total", operation="execute") == 12
    assert moved("sibyl_cql_requests_total", operation="batch") == 1
    assert moved("sibyl_cql_request_errors_total", operation="execute", code="INVALID") == 1
    assert moved("sibyl_cql_request_errors_total", operation="query", code="SYNTAX_ERROR") == 1
    assert moved("sibyl_cql_request_duration_seconds_count", operation="execute") == 12
    # QUERY: ours, plus whatever the driver's control connection asked meanwhile.
    assert moved("sibyl_cql_requests_total", operation="query") >= 4

    # The text is typed as documented.
    assert after.families["sibyl_cql_requests"].type == "counter"
    assert after.families["sibyl_cql_request_duration_seconds"].type == "histogram"
    assert after.families["sibyl_cql_connections"].type == "gauge"
    assert after.get("sibyl_cql_connections") >= 1
    assert after.get("sibyl_cql_connections_opened_total") >= 1
    # Storage, per table: the writes sit in the memtable.
    assert after.get("sibyl_storage_memtable_bytes", keyspace=KEYSPACE, table="kv") > 0
    assert after.get("sibyl_storage_block_cache_capacity_bytes") > 0
    assert ("sibyl_storage_sstables", frozenset(
        {"keyspace": KEYSPACE, "table": "kv", "level": "0"}.items())) in after.values


def test_histogram_buckets_are_cumulative(node):
    samples = Samples(scrape(node))
    family = samples.families["sibyl_cql_request_duration_seconds"]
    buckets = [s for s in family.samples
               if s.name.endswith("_bucket") and s.labels["operation"] == "query"]
    bounds = [s.labels["le"] for s in buckets]
    assert bounds == ["0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025",
                      "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"]
    counts = [s.value for s in buckets]
    assert counts == sorted(counts)
    assert counts[-1] == samples.get("sibyl_cql_request_duration_seconds_count",
                                     operation="query")


def test_other_paths_and_methods(node):
    with pytest.raises(urllib.error.HTTPError) as missing:
        scrape(node, "/")
    assert missing.value.code == 404
    request = urllib.request.Request(f"http://{node.host}:{node.metrics_port}/metrics",
                                     data=b"x", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 405
    assert node.alive()


def test_disabled_endpoint_listens_nowhere():
    with running_server(["--prometheus-enabled", "false"]) as server:
        with pytest.raises(OSError):
            socket.create_connection((server.host, server.metrics_port), timeout=2).close()
        assert "Prometheus" not in server.log_text()


def test_taken_port_stops_start_up_naming_the_key(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = subprocess.run(
            [str(sibyl_binary()), "start", "--data-dir", str(tmp_path / "data"),
             "--listen-address", "127.0.0.1", "--native-transport-port", str(free_port()),
             "--prometheus-port", str(port)],
            capture_output=True, text=True, timeout=30, cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert re.search(rf"127\.0\.0\.1:{port}\b.*in use.*prometheus_port", lines[0]), lines[0]


def test_grafana_dashboard_loads_and_uses_documented_metrics():
    dashboard = json.loads((REPO / "docs" / "grafana-dashboard.json").read_text())
    documented = (REPO / "docs" / "metrics.md").read_text()
    expressions = [target["expr"] for panel in dashboard["panels"]
                   for target in panel.get("targets", [])]
    assert expressions
    for expr in expressions:
        for name in re.findall(r"\bsibyl_[a-z_]+", expr):
            family = re.sub(r"_(bucket|sum|count)$", "", name)
            assert family in documented, f"{name} (in {expr}) is not in docs/metrics.md"
    titles = " ".join(panel["title"].lower() for panel in dashboard["panels"])
    for topic in ("request rate", "error", "latency", "connections", "memtable", "sstable",
                  "hints"):
        assert topic in titles, f"no panel about {topic}"


def test_every_node_of_a_cluster_serves_its_own_metrics_with_hints_and_paxos():
    from cluster_process import running_cluster  # etcd: only this test needs it

    with running_cluster(nodes=2) as cluster:
        for address in ("127.0.0.1", "127.0.0.2"):
            url = f"http://{address}:{cluster.metrics_port}/metrics"
            with urllib.request.urlopen(url, timeout=10) as response:
                samples = Samples(response.read().decode("utf-8"))
            assert samples.families["sibyl_hints_pending_bytes"].type == "gauge"
            assert samples.get("sibyl_hints_pending_bytes") == 0
            assert samples.get("sibyl_hints_stored_total") == 0
            assert samples.families["sibyl_paxos_rounds"].type == "counter"
        # A lightweight transaction coordinated by the first node counts there only.
        with cluster.connect("127.0.0.1", only=True) as driver:
            session = driver.connect()
            session.execute("CREATE KEYSPACE lwt WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 2}")
            session.execute("CREATE TABLE lwt.t (k int PRIMARY KEY, v int)")
            assert session.execute("INSERT INTO lwt.t (k, v) VALUES (1, 1) IF NOT EXISTS").one()[0]
        for address, transactions in (("127.0.0.1", 1), ("127.0.0.2", 0)):
            url = f"http://{address}:{cluster.metrics_port}/metrics"
            with urllib.request.urlopen(url, timeout=10) as response:
                samples = Samples(response.read().decode("utf-8"))
            assert samples.get("sibyl_paxos_operations_total",
                               operation="transaction") == transactions
            assert samples.get("sibyl_paxos_rounds_total", phase="prepare") == transactions
            assert samples.get("sibyl_paxos_rounds_total", phase="commit") == transactions
            # paxos_variant v2, the default: decided on the reads its promises carried.
            assert samples.get("sibyl_paxos_decided_at_prepare_total",
                               operation="transaction") == transactions
