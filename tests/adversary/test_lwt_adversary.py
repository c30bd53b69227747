"""The LWT adversary (lwt_adversary.py) against the build under test: three real nodes, every
fault this machine can make (kill -9, SIGSTOP, nftables partitions in a private network
namespace, clock skew through faketime), and a history that must be linearizable.

About 75 s: 40 s of workload on paxos_variant v2, the default (SIBYL_ADVERSARY_SECONDS; 20 s in
the sanitizer build's run), and half as long on v1, each with the cluster's start and the check.
SIBYL_LONG_FAULT_TESTS=1 adds five nodes for three minutes. The seed is printed; run
`tests/adversary/lwt_adversary.py --seed N` (or set SIBYL_ADVERSARY_SEED) to replay its choices.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "integration" / "python"))

from cluster_process import RunningCluster  # noqa: E402
from lwt_adversary import FAULTS, unavailable_faults  # noqa: E402

# The sanitizer build's run is shorter: the same code, slower, and CI's time is bounded.
SANITIZED = os.environ.get("SIBYL_SANITIZED") == "1"
SECONDS = os.environ.get("SIBYL_ADVERSARY_SECONDS", "20" if SANITIZED else "40")
LONG = os.environ.get("SIBYL_LONG_FAULT_TESTS") == "1"


def possible_faults() -> tuple[str, ...]:
    """The faults this machine can make (each one's reason to be missing is printed)."""
    faults = []
    for fault in FAULTS:
        why = unavailable_faults((fault,))
        if why:
            print(f"without {fault}: {why[0]}")
        else:
            faults.append(fault)
    return tuple(faults)


def run_adversary(tmp_path: Path, nodes: int, seconds: str, paxos_variant: str = "v2") -> None:
    seed = int(os.environ.get("SIBYL_ADVERSARY_SEED") or random.SystemRandom().randrange(2**31))
    faults = possible_faults()
    if not faults:
        pytest.skip("this machine can make none of the adversary's faults")
    command = [sys.executable, str(HERE / "lwt_adversary.py"), "--nodes", str(nodes),
               "--seconds", seconds, "--faults", ",".join(faults), "--seed", str(seed),
               "--keep", str(tmp_path), "--paxos-variant", paxos_variant]
    try:
        run = subprocess.run(command, capture_output=True, text=True,
                             timeout=float(seconds) + 300)
    finally:
        # What a killed run left behind (`sibyl cluster start` makes nodes and
        # etcd that outlive it).
        for directory in tmp_path.glob("sibyl-cluster-test-*/cluster*"):
            RunningCluster(directory, 0, 0, 0, 0).command("stop")
    output = run.stdout + run.stderr
    print(output)
    assert run.returncode == 0, (
        f"the adversary's history is not linearizable, or the run failed (seed {seed}; "
        f"replay: tests/adversary/lwt_adversary.py --seed {seed} --nodes {nodes} "
        f"--faults {','.join(faults)} --paxos-variant {paxos_variant}):\n{output}")


def test_lightweight_transactions_stay_linearizable_under_faults(tmp_path: Path) -> None:
    run_adversary(tmp_path, 3, SECONDS)


def test_classic_paxos_stays_linearizable_under_faults(tmp_path: Path) -> None:
    """paxos_variant v1, which an operator may still choose: its own read and empty proposals."""
    run_adversary(tmp_path, 3, str(float(SECONDS) / 2), paxos_variant="v1")


@pytest.mark.skipif(not LONG, reason="set SIBYL_LONG_FAULT_TESTS=1 to run")
def test_lightweight_transactions_on_five_nodes_stay_linearizable_for_minutes(
        tmp_path: Path) -> None:
    run_adversary(tmp_path, 5, "180")
