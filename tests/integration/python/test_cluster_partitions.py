"""The network partition scenarios of test_cluster_faults.py (its docstring
says what every scenario checks: QUORUM's promises, no acknowledged write
lost, hints, convergence), in a file of their own so that pytest-xdist
(--dist loadfile) runs them beside the other fault scenarios, not after
them.

The test runs itself again under `unshare -n` (a private network
namespace, so rules there touch nothing else), starts its cluster inside,
and drops with nftables every packet between the victim's address and the
others' on the storage (internode) port. Client traffic (the driver talks to
the other nodes only) and etcd (every node reaches it from 127.0.0.1) are
left alone: it is the replicas that are cut apart. And a one-way partition:
only the others' connections to the victim are cut, so it is heard (its
heartbeats arrive, it is never convicted) but not reached. Skipped when not
root or when unshare, ip or nft is missing. SIBYL_LONG_FAULT_TESTS=1 adds
the partition on five nodes; SIBYL_FAULT_SEED replays a run's choices.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cluster_process import RunningCluster, running_cluster
from test_cluster_faults import SEED, Fault, address, long_test, not_sanitized, run_scenario

HERE = Path(__file__).resolve().parent
IN_NETNS_ENV = "SIBYL_FAULTS_IN_NETNS"  # set: running inside; its value: where clusters go
NETNS_NODES_ENV = "SIBYL_FAULTS_NETNS_NODES"
NETNS_ONE_WAY_ENV = "SIBYL_FAULTS_NETNS_ONE_WAY"


# --- network partition ----------------------------------------------------------------

def network_namespace_unavailable() -> str | None:
    """Why a partition cannot be made here, or None."""
    if os.geteuid() != 0:
        return "needs root for unshare -n and nft"
    for tool in ("unshare", "ip", "nft"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    probe = subprocess.run(["unshare", "-n", "--", "sh", "-c",
                            "ip link set lo up && nft list ruleset"],
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        return f"cannot use a private network namespace: {probe.stderr.strip()}"
    return None


def run_inside_network_namespace(tmp_path: Path, nodes: int, one_way: bool = False) -> None:
    """Runs test_partition_inside_network_namespace on `nodes` nodes (with
    a `one_way` partition or not) under `unshare -n`, where nftables rules
    cannot touch anything but the test's cluster, and fails with its output
    if it fails."""
    why_not = network_namespace_unavailable()
    if why_not:
        pytest.skip(why_not)
    print(f"SIBYL_FAULT_SEED={SEED}")
    env = dict(os.environ, **{IN_NETNS_ENV: str(tmp_path), NETNS_NODES_ENV: str(nodes),
                              NETNS_ONE_WAY_ENV: "1" if one_way else "",
                              "SIBYL_FAULT_SEED": str(SEED)})
    # The inner run's temporary directories go under this test's, not into
    # the numbered ones under the system's temporary directory that pytest
    # (and every worker of pytest-xdist) shares.
    command = ["unshare", "-n", "--", "sh", "-c", 'ip link set lo up && exec "$@"', "sh",
               sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-s",
               f"--basetemp={tmp_path / 'inner-pytest'}",
               f"{Path(__file__).name}::test_partition_inside_network_namespace"]
    try:
        inner = subprocess.run(command, cwd=HERE, env=env, capture_output=True, text=True,
                               timeout=240)
    finally:
        # Whatever the inner run left behind (it may have been killed, and
        # `sibyl cluster start` makes its nodes and etcd daemons that
        # outlive it).
        for directory in tmp_path.glob("sibyl-cluster-test-*/cluster*"):
            RunningCluster(directory, 0, 0, 0, 0).command("stop")
    output = inner.stdout + inner.stderr
    print(output)
    assert inner.returncode == 0 and " passed" in output, (
        f"the partition test failed inside its network namespace (seed {SEED}):\n{output}")


def test_a_partitioned_replica_loses_nothing_and_converges(tmp_path: Path) -> None:
    run_inside_network_namespace(tmp_path, 3)


@not_sanitized
def test_a_replica_others_cannot_reach_but_hear_loses_nothing(tmp_path: Path) -> None:
    """A one-way partition: the victim's own connections work, so its
    heartbeats arrive and the others never convict it, but nothing they send
    reaches it. Requests to it time out; what it missed is hinted to a node
    believed alive, and delivered once the link heals."""
    run_inside_network_namespace(tmp_path, 3, one_way=True)


@long_test
def test_a_partitioned_replica_of_five_loses_nothing_and_converges(tmp_path: Path) -> None:
    run_inside_network_namespace(tmp_path, 5)


def test_partition_inside_network_namespace() -> None:
    """The partition scenario proper; runs only inside the namespace that
    run_inside_network_namespace made."""
    parent = os.environ.get(IN_NETNS_ENV)
    if not parent:
        pytest.skip("runs inside a private network namespace only (started by "
                    "test_a_partitioned_replica_loses_nothing_and_converges)")
    nodes = int(os.environ.get(NETNS_NODES_ENV, "3"))
    one_way = os.environ.get(NETNS_ONE_WAY_ENV) == "1"
    with running_cluster(nodes=nodes, parent=Path(parent)) as cluster:
        run_scenario(cluster, nodes, "partitioned", partition(cluster, nodes, one_way),
                     SEED + (6 if one_way else 2))


def partition(cluster: RunningCluster, nodes: int, one_way: bool = False) -> Fault:
    """Drops, in the input hook, silently (as a lost link would), every
    packet between the victim's address and the others' to or from the
    storage port: both directions of the connections both ways (each node
    binds its outgoing internode sockets to its listen address, and sends
    its messages, replies included, over its own outgoing connections).
    `one_way`: only the others' connections to the victim are cut (their
    packets to its storage port), so the victim is heard but not reached."""
    def cut(victim: int) -> None:
        others = ", ".join(address(i) for i in range(1, nodes + 1) if i != victim)
        port = cluster.storage_port
        if one_way:
            rules = [f"    ip saddr {{ {others} }} ip daddr {address(victim)} tcp dport {port} drop"]
        else:
            rules = [f"    ip saddr {src} ip daddr {dst} tcp {direction} {port} drop"
                     for src, dst in ((address(victim), f"{{ {others} }}"),
                                      (f"{{ {others} }}", address(victim)))
                     for direction in ("dport", "sport")]
        ruleset = ("table inet sibyl_partition {\n"
                   "  chain input {\n"
                   "    type filter hook input priority 0; policy accept;\n"
                   + "\n".join(rules) + "\n  }\n}\n")
        subprocess.run(["nft", "-f", "-"], input=ruleset, text=True, check=True, timeout=30)

    def heal(victim: int) -> None:
        subprocess.run(["nft", "delete", "table", "inet", "sibyl_partition"], check=True,
                       timeout=30)
    if one_way:
        return Fault("one-way nftables partition", cut, heal, convicted=False, seconds=(7.0, 9.0))
    return Fault("nftables partition", cut, heal)
