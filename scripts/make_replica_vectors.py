#!/usr/bin/python3
"""Writes src/locator/testdata/replica_vectors.txt: replica placements computed
by an independent implementation, the DataStax Python driver's (Debian's
python3-cassandra, cassandra/metadata.py: SimpleStrategy and
NetworkTopologyStrategy.make_token_replica_map, which token-aware routing
relies on). src/locator/replication_strategy_test.cc checks Sibyl's
placement against them.

Run with Debian's interpreter (/usr/bin/python3), which has the driver:
  scripts/make_replica_vectors.py > src/locator/testdata/replica_vectors.txt

Format, one item a line:
  case <name>
  simple <replication_factor>          or   nts <dc>=<rf> ...
  node <n> <datacenter> <rack> <token> ...   (node numbers are test-local)
  range <ring token> <replica node> ...      (replicas of the range it closes)
  key <token> <replica node> ...             (a key token's replicas)
  end
The driver lists SimpleStrategy replicas in Cassandra's order. For NTS it
lists them datacenter by datacenter (Cassandra interleaves datacenters in
ring order), so the test compares the primary and the set. When a host was
skipped twice on the way (vnodes), the driver 3.25 lists it twice and comes up
short; such ranges are left out and counted in the header.
"""

import bisect
import random
import sys

from cassandra.metadata import NetworkTopologyStrategy, SimpleStrategy

INT64_MIN = -(1 << 63)


class Host:
    def __init__(self, number, datacenter, rack):
        self.number = number
        self.datacenter = datacenter
        self.rack = rack

    def __repr__(self):
        return str(self.number)


def random_token(rng):
    token = rng.randrange(INT64_MIN, 1 << 63)
    return token + 1 if token == INT64_MIN else token


def make_ring(rng, layout, vnodes):
    """layout: [(dc, rack), ...] one per host."""
    hosts = [Host(i, dc, rack) for i, (dc, rack) in enumerate(layout)]
    owner = {}
    for host in hosts:
        for _ in range(rng.randint(1, vnodes)):
            owner[random_token(rng)] = host
    return hosts, owner, sorted(owner)


def emit_case(out, name, strategy_line, strategy, hosts, owner, ring, rng, skipped):
    replica_map = strategy.make_token_replica_map(owner, ring)
    out.append("case " + name)
    out.append(strategy_line)
    for host in hosts:
        tokens = sorted(t for t, h in owner.items() if h is host)
        out.append("node %d %s %s %s" % (host.number, host.datacenter, host.rack,
                                         " ".join(map(str, tokens))))
    sample = ring if len(ring) <= 12 else rng.sample(ring, 12)
    for token in sorted(sample):
        replicas = replica_map[token]
        if len(set(replicas)) != len(replicas):
            skipped[0] += 1
            continue
        out.append("range %d %s" % (token, " ".join(str(h.number) for h in replicas)))
    for _ in range(3):
        key = random_token(rng)
        ring_token = ring[bisect.bisect_left(ring, key) % len(ring)]
        replicas = replica_map[ring_token]
        if len(set(replicas)) == len(replicas):
            out.append("key %d %s" % (key, " ".join(str(h.number) for h in replicas)))
    out.append("end")


def simple_cases(rng, out, skipped):
    for i in range(12):
        nodes = rng.randint(1, 7)
        rf = rng.choice([1, 2, 3, 3, 5])
        hosts, owner, ring = make_ring(rng, [("datacenter1", "rack1")] * nodes, rng.choice([1, 4, 8]))
        emit_case(out, "simple-%d" % i, "simple %d" % rf,
                  SimpleStrategy({"replication_factor": str(rf)}), hosts, owner, ring, rng, skipped)


def nts_cases(rng, out, skipped):
    for i in range(28):
        dc_count = rng.randint(1, 3)
        layout = []
        for d in range(dc_count):
            racks = rng.randint(1, 4)
            for _ in range(rng.randint(1, 7)):
                layout.append(("dc%d" % d, "r%d" % rng.randrange(racks)))
        rng.shuffle(layout)
        factors = {}
        for d in range(dc_count + 1):  # the last datacenter has no node
            if rng.random() < 0.85:
                factors["dc%d" % d] = rng.choice([1, 2, 3, 3, 4, 5])
        if not factors:
            factors["dc0"] = 3
        hosts, owner, ring = make_ring(rng, layout, rng.choice([1, 2, 4, 8]))
        line = "nts " + " ".join("%s=%d" % kv for kv in sorted(factors.items()))
        strategy = NetworkTopologyStrategy({dc: str(rf) for dc, rf in factors.items()})
        emit_case(out, "nts-%d" % i, line, strategy, hosts, owner, ring, rng, skipped)


def main():
    rng = random.Random(15)
    out = []
    skipped = [0]
    simple_cases(rng, out, skipped)
    nts_cases(rng, out, skipped)
    sys.stdout.write("# Made by scripts/make_replica_vectors.py with python3-cassandra's metadata.py.\n")
    sys.stdout.write("# Ranges left out (the driver listed a host twice): %d\n" % skipped[0])
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
