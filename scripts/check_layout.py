#!/usr/bin/env python3
"""Checks the source layout rules of docs/dev/layout.md:

  1. the layers of src/ include each other one way only (LAYERS below);
  2. inside src/query/, the concept folders include each other one way only
     (QUERY_FOLDERS below, lowest first);
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
    "tools": ["common", "types", "dht", "locator", "protocol", "client", "cql", "server", "storage",
              "index", "cluster", "schema", "metadata", "query", "guardrails", "metrics"],
}

# The concept folders of src/query/, lowest first: a folder may include its
# own files and those of the folders before it. "" is query/ itself (the
# entry points: processor, prepared cache, client state).
QUERY_FOLDERS = [
    "functions",
    "terms",
    "restrictions",
    "read",
    "selection",
    "statements",
    "statements/ddl",
    "",
]

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


def query_folder(path):
    """The QUERY_FOLDERS entry of a path under query/, or None."""
    parts = path.split("/")
    if parts[0] != "query":
        return None
    folder = "/".join(parts[1:-1])
    return folder if folder in QUERY_FOLDERS else None


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
            own, target = query_folder(path), query_folder(included)
            if layer == "query" and target_layer == "query":
                if own is None or target is None:
                    problems.append(f"{path}: includes {included}: a file of query/ lives in one "
                                    f"of its concept folders ({', '.join(QUERY_FOLDERS[:-1])}) "
                                    "or in query/ itself")
                elif QUERY_FOLDERS.index(target) > QUERY_FOLDERS.index(own):
                    problems.append(f"{path}: query/{own or '.'} includes {included}, which is "
                                    f"above it (order: {' <- '.join(f or '.' for f in QUERY_FOLDERS)})")
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
