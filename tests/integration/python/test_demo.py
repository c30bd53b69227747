"""`sibyl demo`: a throwaway node loaded with the guides' data models, whose
example queries answer, and which leaves no process and no file behind —
after EXIT, at the end of piped input, and after Ctrl-C or SIGTERM."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

from shell_process import ShellTerminal
from sibyl_process import die_with_parent, sibyl_binary


def demo_env(tmp: Path) -> dict:
    return dict(os.environ, TMPDIR=str(tmp), HOME=str(tmp))


def processes_under(tmp: Path) -> list[int]:
    """Processes whose command line names a path under `tmp` (the demo node's
    data dir is one); not merely a path that starts the same (another
    test's directory, of this worker or another)."""
    inside = f"{tmp}/"
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if inside in cmdline:
            found.append(int(entry.name))
    return found


def assert_nothing_left(tmp: Path) -> None:
    deadline = time.monotonic() + 10
    while processes_under(tmp) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_under(tmp) == []
    assert [p.name for p in tmp.iterdir() if p.name.startswith("sibyl-demo-")] == []


def example_queries(output: str) -> list[str]:
    return [line.strip() for line in output.splitlines() if line.strip().startswith("SELECT ")]


def test_demo_answers_its_examples_and_leaves_nothing(tmp_path):
    # First run: learn the example queries (they name today's date).
    listing = subprocess.run([str(sibyl_binary()), "demo", "-e", "SHOW HOST"],
                             capture_output=True, text=True, timeout=120, env=demo_env(tmp_path),
                             preexec_fn=die_with_parent)
    assert listing.returncode == 0, listing.stderr
    examples = example_queries(listing.stdout)
    assert len(examples) == 3
    assert "Connected to Test Cluster at 127.0.0.1:" in listing.stdout
    assert_nothing_left(tmp_path)

    result = subprocess.run([str(sibyl_binary()), "demo", "-e", " ".join(examples)],
                            capture_output=True, text=True, timeout=120, env=demo_env(tmp_path),
                            preexec_fn=die_with_parent)
    assert result.returncode == 0, result.stderr
    counts = [int(n) for n in re.findall(r"\((\d+) rows\)", result.stdout)]
    assert len(counts) == 3 and all(n > 0 for n in counts), result.stdout
    assert "toTimestamp(commentid)" not in result.stderr
    assert_nothing_left(tmp_path)


def test_demo_data_obeys_its_models(tmp_path):
    checks = ("SELECT count(*) FROM killrvideo.videos;"
              "SELECT count(*) FROM killrvideo.latest_videos;"
              "SELECT count(*) FROM killrvideo.user_videos;"
              "SELECT count(*) FROM killrvideo.comments_by_user;"
              "SELECT count(*) FROM killrvideo.comments_by_video;"
              "SELECT count(*) FROM user_activity.user_activities;"
              "SELECT count(*) FROM user_activity.user_activities_by_type;"
              "SELECT count(*) FROM user_activity.user_activities_by_month;")
    result = subprocess.run([str(sibyl_binary()), "demo", "-e", checks], capture_output=True,
                            text=True, timeout=120, env=demo_env(tmp_path),
                            preexec_fn=die_with_parent)
    assert result.returncode == 0, result.stderr
    counts = [int(n) for n in re.findall(r"^\s+(\d+)$", result.stdout, re.MULTILINE)]
    videos, latest, by_user, comments_u, comments_v, activities, by_type, by_month = counts
    # Each denormalized copy holds exactly what its source holds.
    assert videos == latest == by_user == 200
    assert comments_u == comments_v == 900
    assert activities == by_type == by_month > 500
    assert_nothing_left(tmp_path)


def test_demo_is_interactive_and_cleans_up_after_exit(tmp_path):
    t = ShellTerminal([str(sibyl_binary()), "demo", "--no-color"], tmp_path,
                      {"TMPDIR": str(tmp_path)})
    try:
        t.expect("Try:", timeout=60)
        t.expect("sibyl> ")
        t.send("SELECT count(*) FROM killrvideo.users;\n")
        t.expect("    50\n")
        t.send("EXIT\n")
        assert t.wait(30) == 0
    finally:
        t.close()
    assert_nothing_left(tmp_path)


def test_ctrl_c_or_sigterm_end_the_demo_cleanly(tmp_path):
    for sig in (signal.SIGINT, signal.SIGTERM):
        demo = subprocess.Popen([str(sibyl_binary()), "demo"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env=demo_env(tmp_path), preexec_fn=die_with_parent)
        try:
            seen = ""
            while "Type HELP" not in seen:
                line = demo.stdout.readline()
                assert line, seen
                seen += line
            assert processes_under(tmp_path), "the demo node should be running"
            demo.send_signal(sig)
            assert demo.wait(timeout=30) in (0, 130)
        finally:
            if demo.poll() is None:
                demo.kill()
            demo.wait()
        assert_nothing_left(tmp_path)
