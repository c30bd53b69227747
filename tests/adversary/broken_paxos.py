#!/usr/bin/python3
"""Shows that the LWT adversary (lwt_adversary.py) catches broken Paxos: for each variant below it
copies the committed tree (git archive HEAD), breaks one thing in it, builds that copy's `sibyl`,
runs the adversary against it, and expects a history that is not linearizable.

    tests/adversary/broken_paxos.py [variant ...] [--seconds 30] [--seed N]

exits 0 when every variant was caught. A variant that needs an unlucky moment (stale-condition-read)
is caught in some runs only: run it longer, or with several seeds. Each variant costs a build (mostly ccache hits: about a
minute) and a run; it is not part of CI, which runs the adversary against the real build
(test_lwt_adversary.py). A variant whose text is no longer in the source fails loudly: edit it to
break the same thing in the code as it is now.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


@dataclass(frozen=True)
class Variant:
    name: str
    what: str
    edits: tuple[tuple[str, str, str], ...]  # (file, text, replacement)
    faults: str = ""  # the adversary's faults while it runs
    paxos_variant: str = "v2"  # the nodes' paxos_variant: the one whose path it breaks


COORDINATOR = "src/cluster/paxos/paxos_coordinator.cc"
VARIANTS = [
    Variant("quorum-of-one", "a coordinator counts one promise or acceptance as a quorum",
            ((COORDINATOR, "required_ = participants / 2 + 1;", "required_ = 1;"),)),
    Variant("promise-ignored", "an acceptor accepts a proposal older than its promise",
            (("src/cluster/paxos/paxos_acceptor.cc",
              "if (proposal.ballot < state.promised || below_commit)", "if (below_commit)"),)),
    Variant("stale-condition-read",
            "a CAS reads its condition at ONE, and replicas that missed a commit are not "
            "brought up to date first",
            ((COORDINATOR, "op_.reads[i], QuorumLevel(),",
              "op_.reads[i], static_cast<uint16_t>(protocol::Consistency::kOne),"),
             (COORDINATOR, "if (!behind.empty()) return RepairBehind(",
              "if ((false)) return RepairBehind(")),
            faults="stop,partition", paxos_variant="v1"),
    Variant("v2-in-flight-ignored",
            "v2 decides on its promises' reads although one of them holds an accepted proposal "
            "newer than the last commit",
            ((COORDINATOR, "if (unfinished) return FinishInProgress(",
              "if (unfinished && !AgreedReads(promises)) return FinishInProgress("),),
            faults="stop,partition"),
    Variant("v2-stale-promiser-trusted",
            "v2 decides on the first promiser's read whatever the others read, and promisers "
            "that missed a commit are not brought up to date first",
            ((COORDINATOR, "if (promise.reads != first) return std::nullopt;", "(void)promise;"),
             (COORDINATOR, "if (!behind.empty()) return RepairBehind(",
              "if ((false)) return RepairBehind(")),
            faults="stop,partition"),
]


def broken_tree(variant: Variant, directory: Path) -> Path:
    """The committed tree in `directory`/src with `variant` applied."""
    source = directory / "src"
    source.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "HEAD"],
                             capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    for file, text, replacement in variant.edits:
        path = source / file
        code = path.read_text()
        if code.count(text) != 1:
            raise SystemExit(f"{variant.name}: {file} has {code.count(text)} copies of "
                             f"{text!r}, not one: update the variant")
        path.write_text(code.replace(text, replacement))
    return source


def build(source: Path) -> Path:
    env = dict(os.environ, SIBYL_TARGETS="sibyl", SIBYL_JOBS=os.environ.get("SIBYL_JOBS", "2"))
    subprocess.run([str(source / "scripts" / "build.sh"), "-DSIBYL_TESTS=OFF"], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    return source / "build" / "sibyl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variants", nargs="*", metavar="variant",
                        help="of: " + ", ".join(v.name for v in VARIANTS) + " (default all)")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    for name in args.variants:
        if name not in {v.name for v in VARIANTS}:
            parser.error(f"unknown variant {name!r}")
    chosen = [v for v in VARIANTS if not args.variants or v.name in args.variants]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    caught = []
    for variant in chosen:
        with tempfile.TemporaryDirectory(prefix=f"sibyl-broken-{variant.name}-") as tmp:
            print(f"--- {variant.name}: {variant.what}", flush=True)
            started = time.monotonic()
            binary = build(broken_tree(variant, Path(tmp)))
            built = time.monotonic()
            run = subprocess.run(
                [sys.executable, str(HERE / "lwt_adversary.py"), "--seconds", str(args.seconds),
                 "--faults", variant.faults, "--seed", str(seed),
                 "--paxos-variant", variant.paxos_variant],
                env=dict(os.environ, SIBYL_BIN=str(binary)), capture_output=True, text=True)
            print(run.stdout + run.stderr, flush=True)
            found = run.returncode == 1
            caught.append((variant.name, found, built - started, time.monotonic() - built))
    print("variant                  caught  build s  run s")
    for name, found, build_s, run_s in caught:
        print(f"{name:24} {'yes' if found else 'NO':6} {build_s:8.0f} {run_s:6.0f}")
    return 0 if all(found for _, found, _, _ in caught) else 1


if __name__ == "__main__":
    sys.exit(main())
