#!/usr/bin/env python3
"""Checks the source layout rules of docs/dev/layout.md:

  1. the layers of src/ include each other one way only (LAYERS below);
  2. inside src/query/ and src/storage/, the concept folders include each
     other one way only (CONCEPT_FOLDERS below, lowest first), and every
     file lives in one of them;
  3. no two C++ files of the project (src/, fuzz/, bench/) share a stem (a
     file name without its extension) unless they are one concept's header
     and source.

Tests, test helpers (*_test.cc, *_test_util.h) and main.cc may include anything.
Prints every violation and exits 1 if there is one. Usage:
  check_layout.py [SRC_DIR]   (default: the src/ beside this script's folder)
"""

import os
import re
import sys

# Each layer with the layers it may include (besides itself).
LAYERS = {
    "common": [],
    "metrics": ["common"],
    "types": ["common"],
    "dht": ["common", "types"],
    "locator": ["common", "types", "dht"],
    "messaging": ["common", "types"],
    "storage": ["common", "types", "dht"],
    "index": ["common", "types", "dht", "storage"],
    "protocol": ["common", "types"],
    "cql": ["common", "types"],
    "guardrails": ["common", "types", "protocol"],
    "schema": ["common", "types", "dht", "storage", "protocol", "cql", "guardrails"],
    "metadata": ["common", "types", "dht", "storage", "protocol", "cql", "schema", "guardrails"],
    "cluster": ["common", "types", "dht", "locator", "messaging", "storage", "index", "protocol",
                "cql", "schema", "metadata", "guardrails"],
    "query": ["common", "types", "dht", "locator", "storage", "cluster", "protocol", "cql",
              "schema", "guardrails"],
    "server": ["common", "types", "dht", "locator", "messaging", "storage", "index", "cluster",
               "protocol", "cql", "schema", "metadata", "query", "guardrails", "metrics"],
    "client": ["common", "types", "protocol"],
    # Clients like any other: never the server (the executable joins them, cli/).
    "tools": ["common", "types", "dht", "locator", "protocol", "client", "cql", "storage",
              "index", "cluster", "schema", "metadata", "query", "guardrails", "metrics"],
    # The sibyl executable's commands: the server and the tools.
    "cli": ["common", "types", "dht", "locator", "messaging", "storage", "index", "cluster",
            "protocol", "cql", "schema", "metadata", "query", "guardrails", "metrics", "server",
            "client", "tools"],
}

# The concept folders of the layers grouped by concept, lowest first: a
# folder may include its own files and those of the folders before it. ""
# is the layer's own folder: in query/ the entry points (processor,
# prepared cache, client state); in storage/ the Engine interface, which
# the engines below implement.
CONCEPT_FOLDERS = {
    "query": [
        "functions",
        "terms",
        "restrictions",
        "read",
        "selection",
        "statements",
        "statements/ddl",
        "",
    ],
    "storage": [
        "stats",       # latency histograms and their buckets
        "data",        # cells, Mutation, ReadCommand, table layouts: what is stored
        "codec",       # key and value encodings
        "cells",       # reconciliation, counters, merging mutations
        "read",        # the table readers, digests, read repair's diff
        "compaction",  # the merge operator and the compaction filter
        "ledger",      # the large-data ledger
        "",            # engine.h (the storage interface), partition locks
        "rocksdb",     # the RocksDB engine, its column families, the commit log
        "reference",   # the reference engine
    ],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def is_exempt(path):
    """Tests and test helpers, and main.cc (the executable, which links every layer)."""
    name = os.path.basename(path)
    return name.endswith("_test.cc") or name.endswith("_test_util.h") or name == "main.cc"


def source_files(src):
    for root, _, files in os.walk(src):
        for name in sorted(files):
            if name.endswith((".h", ".cc")):
                yield os.path.relpath(os.path.join(root, name), src)


def concept_folder(path):
    """The CONCEPT_FOLDERS entry of a path in a layer grouped by concept, or None."""
    parts = path.split("/")
    folders = CONCEPT_FOLDERS.get(parts[0])
    if folders is None:
        return None
    folder = "/".join(parts[1:-1])
    return folder if folder in folders else None


def check(src):
    problems = []
    stems = {}
    for path in source_files(src):
        stem = os.path.splitext(os.path.basename(path))[0]
        stems.setdefault(stem, set()).add(os.path.dirname(path))
        layer = path.split("/")[0]
        if is_exempt(path) or layer not in LAYERS:
            continue
        with open(os.path.join(src, path), encoding="utf-8") as f:
            includes = INCLUDE.findall(f.read())
        for included in includes:
            target_layer = included.split("/")[0]
            if target_layer not in LAYERS or target_layer == layer:
                pass
            elif target_layer not in LAYERS[layer]:
                problems.append(f"{path}: layer {layer}/ includes {included} "
                                f"({layer}/ may include {', '.join(LAYERS[layer]) or 'nothing'})")
                continue
            folders = CONCEPT_FOLDERS.get(layer)
            if folders is None or target_layer != layer:
                continue
            own, target = concept_folder(path), concept_folder(included)
            if own is None or target is None:
                problems.append(f"{path}: includes {included}: a file of {layer}/ lives in one "
                                f"of its concept folders ({', '.join(f for f in folders if f)}) "
                                f"or in {layer}/ itself")
            elif folders.index(target) > folders.index(own):
                order = ' <- '.join(f or '.' for f in folders)
                problems.append(f"{path}: {layer}/{own or '.'} includes {included}, which is "
                                f"above it (order: {order})")
    for sibling in ("fuzz", "bench"):
        other = os.path.join(src, "..", sibling)
        if not os.path.isdir(other):
            continue
        for path in source_files(other):
            stem = os.path.splitext(os.path.basename(path))[0]
            stems.setdefault(stem, set()).add(os.path.join("..", sibling, os.path.dirname(path)))
    for stem, folders in sorted(stems.items()):
        if len(folders) > 1:
            problems.append(f"stem '{stem}' names files in {', '.join(sorted(folders))}: "
                            "rename one so each name says its concept")
    return problems


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "src")
    problems = check(src)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} layout problem(s); see docs/dev/layout.md")
        return 1
    print("layout ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
