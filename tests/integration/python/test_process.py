"""The `sibyl` command line: help, version, configuration errors and signals."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
from pathlib import Path

import pytest

from sibyl_process import SibylServer, die_with_parent, free_port, running_server, sibyl_binary

RUN_TIMEOUT_S = 30


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(sibyl_binary()), *args], cwd=cwd, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                          preexec_fn=die_with_parent)


def start_args(tmp_path: Path, port: int | None = None) -> list[str]:
    return ["start", "--data-dir", str(tmp_path / "data"), "--listen-address", "127.0.0.1",
            "--native-transport-port", str(port if port is not None else free_port()),
            "--prometheus-port", "0"]


def assert_fails_with_one_line(result: subprocess.CompletedProcess, *expected_words: str) -> str:
    assert result.returncode != 0, f"exit code 0; stdout: {result.stdout!r}"
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {result.stderr!r}"
    for word in expected_words:
        assert word in lines[0], f"{word!r} not in {lines[0]!r}"
    return lines[0]


def test_version(tmp_path):
    result = run(["--version"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "sibyl" in result.stdout.lower()
    assert "4.1" in result.stdout  # the Cassandra release it is compatible with


def test_help(tmp_path):
    result = run(["--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    assert "start" in result.stdout
    assert "--version" in result.stdout


def test_no_command_prints_usage_and_fails(tmp_path):
    result = run([], tmp_path)
    assert result.returncode != 0
    assert "start" in result.stderr


def test_unknown_command(tmp_path):
    result = run(["frobnicate"], tmp_path)
    assert_fails_with_one_line(result, "frobnicate")


def test_start_help(tmp_path):
    result = run(["start", "--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    for option in ("--config", "--data-dir", "--listen-address", "--rpc-address",
                   "--native-transport-port", "--cluster-name", "--num-tokens",
                   "--native-transport-max-frame-size", "--commitlog-sync"):
        assert option in result.stdout, f"{option} missing from sibyl start --help"
    assert not (tmp_path / "sibyl-data").exists(), "--help must not create a data directory"


def test_unknown_flag(tmp_path):
    result = run([*start_args(tmp_path), "--no-such-option", "1"], tmp_path)
    assert_fails_with_one_line(result, "--no-such-option")


def test_unknown_key_in_config_file(tmp_path):
    config = tmp_path / "sibyl.yaml"
    config.write_text("cluster_name: 'x'\nno_such_key: 1\n")
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    assert_fails_with_one_line(result, "no_such_key")


@pytest.mark.parametrize("flag,value", [
    ("--native-transport-port", "notaport"),
    ("--native-transport-port", "70000"),
    ("--num-tokens", "0"),
    ("--commitlog-sync", "sometimes"),
    ("--native-transport-max-frame-size", "16parsecs"),
    ("--listen-address", "not-an-address"),
])
def test_bad_flag_value(tmp_path, flag, value):
    result = run([*start_args(tmp_path), flag, value], tmp_path)
    assert_fails_with_one_line(result, value)


def test_max_disk_size_over_the_disk_stops_start_up(tmp_path):
    result = run([*start_args(tmp_path), "--data-disk-usage-max-disk-size", "1000000000GiB"],
                 tmp_path)
    assert_fails_with_one_line(result, "Invalid value for data_disk_usage_max_disk_size: "
                                       "1000000000GiB specified, but only ",
                               "are actually available on disk")


def test_bad_value_in_config_file(tmp_path):
    config = tmp_path / "sibyl.yaml"
    config.write_text("num_tokens: many\n")
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    assert_fails_with_one_line(result, "num_tokens", "many")


def test_config_file_that_is_not_yaml(tmp_path):
    config = tmp_path / "sibyl.yaml"
    config.write_text("cluster_name: [unclosed\n")
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    assert_fails_with_one_line(result)


def test_missing_config_file(tmp_path):
    result = run([*start_args(tmp_path), "--config", str(tmp_path / "absent.yaml")], tmp_path)
    assert_fails_with_one_line(result, "absent.yaml")


def test_port_in_use(tmp_path):
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        result = run(start_args(tmp_path, port), tmp_path)
    assert_fails_with_one_line(result, str(port))


def test_data_dir_under_a_regular_file(tmp_path):
    # Root may write anywhere, so unwritable means "a file is in the way".
    blocker = tmp_path / "blocker"
    blocker.write_text("not a directory")
    args = start_args(tmp_path)
    args[args.index("--data-dir") + 1] = str(blocker / "data")
    result = run(args, tmp_path)
    assert_fails_with_one_line(result, str(blocker))


def test_data_dir_is_a_regular_file(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("not a directory")
    result = run(start_args(tmp_path), tmp_path)
    assert_fails_with_one_line(result, str(blocker))


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_signal_stops_cleanly(tmp_path, sig):
    server = SibylServer(tmp_path).start()
    try:
        server.stop_cleanly(sig)
    finally:
        server.kill()


@pytest.mark.parametrize("sig", [signal.SIGSEGV, signal.SIGABRT], ids=["SIGSEGV", "SIGABRT"])
def test_fatal_signal_leaves_a_symbolized_backtrace_in_the_log(tmp_path, sig):
    """A node that dies of a fatal signal says so in its log, with the
    backtrace of the thread that took it (functions, files and lines), and
    still dies of that signal (exit status, core)."""
    server = SibylServer(tmp_path).start()
    try:
        server.proc.send_signal(sig)
        code = server.proc.wait(timeout=30)
    finally:
        server.kill()
    log = server.log_text()
    assert code == -sig, f"exit code {code}\n--- log ---\n{log}"
    name = signal.Signals(sig).name
    assert f"Fatal signal {name}" in log, log
    assert "Stack trace" in log, log
    # Symbolized: our own functions, with their source files.
    assert re.search(r"in (\S*::)?RunNode\b", log) and "node.cc" in log, log


def test_restart_on_same_data_dir(tmp_path):
    # The data directory a clean stop leaves behind must be usable again
    # (no stale lock file).
    for _ in range(2):
        server = SibylServer(tmp_path).start()
        try:
            server.stop_cleanly()
        finally:
            server.kill()


@pytest.mark.parametrize("args,message", [
    (["--commitlog-sync", "group"], "Missing value for commitlog_sync_group_window."),
    (["--commitlog-sync", "batch", "--commitlog-sync-period", "5000ms"],
     "Batch sync specified, but commitlog_sync_period found."),
])
def test_commitlog_sync_settings_are_checked_as_cassandra_checks_them(tmp_path, args, message):
    result = run([*start_args(tmp_path), *args], tmp_path)
    assert_fails_with_one_line(result, message)


def test_gossiping_property_file_snitch_reads_cassandra_rackdc_properties(tmp_path):
    # As Cassandra, the file sits beside the configuration file.
    (tmp_path / "cassandra-rackdc.properties").write_text("# where this node is\ndc = dc7\nrack=r3\n")
    config = tmp_path / "sibyl.yaml"
    config.write_text("endpoint_snitch: org.apache.cassandra.locator.GossipingPropertyFileSnitch\n")
    from cassandra.cluster import Cluster
    from cassandra.policies import DCAwareRoundRobinPolicy
    with running_server(["--config", str(config)]) as server:
        cluster = Cluster(["127.0.0.1"], port=server.port, protocol_version=4,
                          load_balancing_policy=DCAwareRoundRobinPolicy(local_dc="dc7"))
        try:
            session = cluster.connect()
            row = session.execute("SELECT data_center, rack FROM system.local").one()
            assert (row.data_center, row.rack) == ("dc7", "r3")
            setting = session.execute(
                "SELECT value FROM system_views.settings WHERE name = 'endpoint_snitch'").one()
            assert setting.value == "GossipingPropertyFileSnitch"
        finally:
            cluster.shutdown()


def test_gossiping_property_file_snitch_without_its_file_refuses_to_start(tmp_path):
    result = run([*start_args(tmp_path), "--endpoint-snitch", "GossipingPropertyFileSnitch",
                  "--rackdc-properties", str(tmp_path / "absent.properties")], tmp_path)
    assert_fails_with_one_line(result, "DC or rack not found in snitch properties",
                               "absent.properties")


def test_unsupported_snitch_is_named(tmp_path):
    result = run([*start_args(tmp_path), "--endpoint-snitch", "Ec2Snitch"], tmp_path)
    assert_fails_with_one_line(result, "Ec2Snitch", "SimpleSnitch", "GossipingPropertyFileSnitch")


@pytest.mark.parametrize("yaml,key", [
    ("authenticator: PasswordAuthenticator\n", "authenticator"),
    ("authorizer: CassandraAuthorizer\n", "authorizer"),
    ("client_encryption_options:\n  enabled: true\n  keystore: conf/.keystore\n",
     "client_encryption_options"),
])
def test_a_security_setting_sibyl_lacks_stops_start_up(tmp_path, yaml, key):
    """A node that would be open to everyone, or in plaintext, against what its
    operator asked, does not start."""
    config = tmp_path / "sibyl.yaml"
    config.write_text(yaml)
    result = run([*start_args(tmp_path), "--config", str(config)], tmp_path)
    line = assert_fails_with_one_line(result, key, "is not supported yet")
    assert line.startswith(f"sibyl: {key}: ")
