"""`sibyl admin status | ring | describering`: nodetool's views of a cluster,
read over CQL from one node, checked against what the Python driver sees;
`sibyl admin indexes`: every node's secondary index builds."""

from __future__ import annotations

import re
import subprocess
import time
from typing import Iterator

import pytest

from cluster_process import ADDRESSES, NODES, RunningCluster, running_cluster, wait_for
from driver_session import connected, create_keyspace
from sibyl_process import SHARED_NUM_TOKENS, SibylServer, refused_port, sibyl_binary

# A status line: "UN  127.0.0.1  70.52 KiB  16      100.0%            <host id>  rack1".
STATUS_LINE = re.compile(
    r"^([UD?])N\s+(\S+)\s+(\?|[\d.]+ (?:bytes|KiB|MiB|GiB|TiB))\s+(\d+)\s+(\S+)\s+"
    r"([0-9a-f-]{36})\s+(\S+)\s*$")


def admin(port: int, *args: str, host: str = "127.0.0.1") -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), "admin", "--host", host, "--port", str(port),
                           *args], capture_output=True, text=True, timeout=60)


def status_lines(output: str) -> dict[str, tuple[str, ...]]:
    """Address → (status, load, tokens, owns, host id, rack) of each node line."""
    lines = {}
    for line in output.splitlines():
        match = STATUS_LINE.match(line)
        if match:
            status, address, load, tokens, owns, host_id, rack = match.groups()
            lines[address] = (status, load, tokens, owns, host_id, rack)
    return lines


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with running_cluster() as running:
        with running.connect() as c:
            session = c.connect()
            session.execute("CREATE KEYSPACE admin_rf3 WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 3}")
            session.execute("CREATE TABLE admin_rf3.t (k int PRIMARY KEY, v text)")
            for k in range(200):
                session.execute("INSERT INTO admin_rf3.t (k, v) VALUES (%s, %s)", (k, "x" * 100))
        yield running


def index_tables(output: str) -> dict[str, list[str] | list[tuple[str, ...]]]:
    """Node address → its rows (keyspace, table, index, status, partitions built, last
    token, failure) of `sibyl admin indexes`, or the one line shown instead of them."""
    nodes: dict = {}
    lines = output.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("Node: "):
            address = lines[i][len("Node: "):]
            assert lines[i + 1] == "=" * len(lines[i]), output
            i += 2
            if lines[i].startswith("Keyspace "):
                header = lines[i]
                starts = [header.index(name) for name in
                          ("Keyspace", "Table", "Index", "Status", "Partitions built",
                           "Last token", "Failure")]
                rows = []
                i += 1
                while i < len(lines) and lines[i]:
                    line = lines[i]
                    cells = [line[a:b].strip() for a, b in zip(starts, starts[1:] + [None])]
                    rows.append(tuple(cells))
                    i += 1
                nodes[address] = rows
            else:
                nodes[address] = [lines[i]]
        i += 1
    return nodes


def wait_index_built(session, keyspace: str, index: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = list(session.execute("SELECT index_name, status FROM system_views.index_builds "
                                    "WHERE keyspace_name = %s", [keyspace]))
        if any(row[0] == index and row[1] == "built" for row in rows):
            return
        time.sleep(0.05)
    pytest.fail(f"index {keyspace}.{index} not built within {timeout} s")


def host_ids(cluster: RunningCluster) -> dict[str, str]:
    with cluster.connect("127.0.0.1", only=True) as c:
        session = c.connect()
        ids = {"127.0.0.1": str(session.execute("SELECT host_id FROM system.local").one()[0])}
        for row in session.execute("SELECT peer, host_id FROM system.peers"):
            ids[str(row.peer)] = str(row.host_id)
        return ids


def test_status_shows_every_node_up_and_normal(cluster: RunningCluster) -> None:
    result = admin(cluster.native_port, "status", "admin_rf3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Datacenter: datacenter1\n=======================\n"
                                    "Status=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n")
    assert "Owns (effective)" in result.stdout
    lines = status_lines(result.stdout)
    assert sorted(lines) == ADDRESSES
    ids = host_ids(cluster)
    for address, (status, load, tokens, owns, host_id, rack) in lines.items():
        assert status == "U", result.stdout
        assert tokens == "16"
        assert owns == "100.0%"  # RF 3 on 3 nodes
        assert host_id == ids[address]
        assert rack == "rack1"
        # Every node carries its load in its heartbeats, so node 1 knows them all.
        assert load != "?", result.stdout


def test_ring_lists_every_token_with_its_owner(cluster: RunningCluster) -> None:
    result = admin(cluster.native_port, "ring")
    assert result.returncode == 0, result.stderr
    listed = {}
    for line in result.stdout.splitlines():
        fields = line.split()
        # address, rack, status, state, load (a number and its unit, or ?), owns, token
        if len(fields) >= 7 and fields[2] in ("Up", "Down", "?") and fields[3] == "Normal":
            listed[int(fields[-1])] = fields[0]
    assert "Warning: \"nodetool ring\" is used to output all the tokens of a node." in result.stdout
    with cluster.connect() as c:
        c.connect()
        owners = {token.value: str(host.address)
                  for token, host in c.metadata.token_map.token_to_host_owner.items()}
    assert len(listed) == 16 * NODES
    assert listed == owners


def test_describering_matches_the_drivers_replicas(cluster: RunningCluster) -> None:
    with cluster.connect() as c:
        session = c.connect()
        session.execute("CREATE KEYSPACE admin_rf2 WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 2}")
        c.refresh_schema_metadata()
        result = admin(cluster.native_port, "describering", "admin_rf2", host="127.0.0.2")
        assert result.returncode == 0, result.stderr
        lines = result.stdout.splitlines()
        local_version = session.execute("SELECT schema_version FROM system.local").one()[0]
        assert lines[0] == f"Schema Version:{local_version}"
        assert lines[1] == "TokenRange: "
        ranges = [re.match(r"\tTokenRange\(start_token:(-?\d+), end_token:(-?\d+), "
                           r"endpoints:\[([^\]]*)\], rpc_endpoints:\[([^\]]*)\], "
                           r"endpoint_details:\[(.*)\]\)$", line) for line in lines[2:]]
        assert all(ranges), lines
        assert len(ranges) == 16 * NODES
        token_map = c.metadata.token_map
        for match in ranges:
            end = int(match.group(2))
            endpoints = match.group(3).split(", ")
            expected = [str(h.address) for h in token_map.get_replicas(
                "admin_rf2", token_map.token_class(end))]
            assert endpoints == expected, match.group(0)
            assert match.group(4).split(", ") == endpoints  # native address = listen address here
            assert "datacenter:datacenter1, rack:rack1" in match.group(5)


def test_unknown_keyspace_is_an_error(cluster: RunningCluster) -> None:
    result = admin(cluster.native_port, "describering", "nosuch")
    assert result.returncode == 1
    assert "Error: The keyspace nosuch, does not exist" in result.stderr


def test_indexes_shows_every_nodes_builds(cluster: RunningCluster) -> None:
    with cluster.connect() as c:
        session = c.connect()
        session.execute("CREATE INDEX rf3_v ON admin_rf3.t (v)")
        for address in ADDRESSES:
            with cluster.connect(address, only=True) as one:
                wait_index_built(one.connect(), "admin_rf3", "rf3_v")
    result = admin(cluster.native_port, "indexes", "admin_rf3", host="127.0.0.2")
    assert result.returncode == 0, result.stderr
    tables = index_tables(result.stdout)
    assert sorted(tables) == ADDRESSES, result.stdout
    for address in ADDRESSES:
        # RF 3 on 3 nodes: every node holds the 200 partitions.
        assert tables[address] == [("admin_rf3", "t", "rf3_v", "built", "200", "", "")], \
            result.stdout


def test_a_killed_node_shows_down_within_15_seconds(cluster: RunningCluster) -> None:
    victim = 3
    cluster.kill_node(victim)

    def victim_down() -> bool:
        result = admin(cluster.native_port, "status")
        lines = status_lines(result.stdout)
        return result.returncode == 0 and lines.get(ADDRESSES[victim - 1], ("",))[0] == "D"

    wait_for(victim_down, 15, f"{ADDRESSES[victim - 1]} shown DN")
    lines = status_lines(admin(cluster.native_port, "status").stdout)
    assert [lines[a][0] for a in ADDRESSES[:victim - 1]] == ["U"] * (victim - 1)
    # indexes asks every member: the one down gets a line, the others their table.
    result = admin(cluster.native_port, "indexes", "admin_rf3")
    assert result.returncode == 0, result.stderr
    tables = index_tables(result.stdout)
    assert tables[ADDRESSES[victim - 1]] == ["DOWN: not asked"], result.stdout
    for address in ADDRESSES[:victim - 1]:
        assert tables[address][0][:4] == ("admin_rf3", "t", "rf3_v", "built"), result.stdout


def test_a_single_node_prints_one_up_line(sibyl: SibylServer) -> None:
    result = admin(sibyl.port, "status")
    assert result.returncode == 0, result.stderr
    lines = status_lines(result.stdout)
    assert list(lines) == ["127.0.0.1"]
    assert lines["127.0.0.1"][0] == "U"
    ring = admin(sibyl.port, "ring")
    assert ring.returncode == 0, ring.stderr
    token_lines = [line for line in ring.stdout.splitlines()
                   if line.startswith("127.0.0.1 ") and " Up " in line]
    assert len(token_lines) == SHARED_NUM_TOKENS


def test_indexes_on_a_single_node(sibyl: SibylServer) -> None:
    with connected(sibyl) as session:
        create_keyspace(session, "admin_idx")
        create_keyspace(session, "admin_idx_other")
        session.execute("CREATE TABLE IF NOT EXISTS admin_idx.t (k int PRIMARY KEY, v int, w text)")
        session.execute("CREATE TABLE IF NOT EXISTS admin_idx_other.u (k int PRIMARY KEY, v int)")
        for k in range(75):
            session.execute("INSERT INTO admin_idx.t (k, v, w) VALUES (%s, %s, %s)",
                            (k, k % 5, f"w{k}"))
        session.execute("INSERT INTO admin_idx_other.u (k, v) VALUES (1, 1)")
        session.execute("CREATE INDEX IF NOT EXISTS t_w ON admin_idx.t (w)")
        session.execute("CREATE INDEX IF NOT EXISTS t_v ON admin_idx.t (v)")
        session.execute("CREATE INDEX IF NOT EXISTS u_v ON admin_idx_other.u (v)")
        for keyspace, index in (("admin_idx", "t_v"), ("admin_idx", "t_w"),
                                ("admin_idx_other", "u_v")):
            wait_index_built(session, keyspace, index)

    everything = admin(sibyl.port, "indexes")
    assert everything.returncode == 0, everything.stderr
    assert everything.stdout.startswith("Node: 127.0.0.1\n===============\n"), everything.stdout
    tables = index_tables(everything.stdout)
    assert list(tables) == ["127.0.0.1"]
    rows = tables["127.0.0.1"]
    assert rows == sorted(rows, key=lambda row: row[:3]), everything.stdout
    mine = [row for row in rows if row[0].startswith("admin_idx")]
    assert mine == [("admin_idx", "t", "t_v", "built", "75", "", ""),
                    ("admin_idx", "t", "t_w", "built", "75", "", ""),
                    ("admin_idx_other", "u", "u_v", "built", "1", "", "")], everything.stdout

    one = admin(sibyl.port, "indexes", "admin_idx")
    assert one.returncode == 0, one.stderr
    assert index_tables(one.stdout) == {"127.0.0.1": mine[:2]}, one.stdout

    with connected(sibyl) as session:
        create_keyspace(session, "admin_idx_none")
    empty = admin(sibyl.port, "indexes", "admin_idx_none")
    assert empty.returncode == 0, empty.stderr
    assert empty.stdout == ("Node: 127.0.0.1\n===============\n"
                            "No secondary indexes in admin_idx_none\n")

    unknown = admin(sibyl.port, "indexes", "nosuch")
    assert unknown.returncode == 1
    assert unknown.stdout == ""
    assert "Error: The keyspace nosuch, does not exist" in unknown.stderr


def test_a_node_that_is_not_there_is_named() -> None:
    with refused_port() as port:  # nothing listens there
        result = admin(port, "status")
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == f"Error: cannot connect to 127.0.0.1:{port}: Connection refused"
