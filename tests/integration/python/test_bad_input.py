"""Malformed and hostile input over raw sockets.

Whatever arrives, the server answers with a protocol error or hangs up, never
crashes, never waits forever on a frame it cannot accept, and keeps serving
new clients afterwards.
"""

from __future__ import annotations

import socket
import struct
from typing import Iterator

import pytest
from cassandra.cluster import Cluster

import cql_wire as wire
from sibyl_process import SibylServer, running_server


@pytest.fixture(scope="module")
def server() -> Iterator[SibylServer]:
    # A server of its own, so that a crash here doesn't take the driver tests
    # with it; a 1 MiB frame limit keeps the oversized frames cheap to send.
    with running_server(["--native-transport-max-frame-size", "1MiB"]) as s:
        yield s


def expect_protocol_error_or_close(sock: socket.socket, what: str) -> str:
    """Waits for the server's reaction to bad input: 'error' or 'closed'."""
    try:
        response = wire.read_frame(sock)
    except wire.Closed:
        return "closed"
    except socket.timeout:
        pytest.fail(f"after {what}, the server neither answered nor closed the connection within "
                    f"{sock.gettimeout()} s")
    assert response.opcode == wire.ERROR, (
        f"after {what}, expected an ERROR or a closed connection, got opcode {response.opcode:#x}")
    code, message = wire.parse_error(response.body)
    assert code == wire.PROTOCOL_ERROR, f"after {what}: error {code:#06x} {message!r}"
    return "error"


def assert_still_serves(server: SibylServer) -> None:
    assert server.alive(), (f"sibyl died (exit code {server.proc.returncode})\n--- log ---\n"
                            f"{server.log_text()}")
    with wire.connect(server.port) as sock:
        sock.sendall(wire.frame(4, wire.OPTIONS, stream=1))
        response = wire.read_frame(sock)
        assert (response.version, response.opcode, response.stream) == (0x84, wire.SUPPORTED, 1)


def handshake_v4(sock: socket.socket) -> None:
    sock.sendall(wire.frame(4, wire.STARTUP, wire.startup_body()))
    response = wire.read_frame(sock)
    assert response.opcode == wire.READY, f"STARTUP answered with opcode {response.opcode:#x}"


def test_options_v4_gets_supported(server):
    with wire.connect(server.port) as sock:
        sock.sendall(wire.frame(4, wire.OPTIONS, stream=3))
        response = wire.read_frame(sock)
    assert (response.version, response.opcode, response.stream) == (0x84, wire.SUPPORTED, 3)
    options = wire.parse_string_multimap(response.body)
    assert "CQL_VERSION" in options and options["CQL_VERSION"]
    assert "COMPRESSION" in options


def test_unsupported_version_gets_protocol_error_then_close(server):
    with wire.connect(server.port) as sock:
        sock.sendall(wire.frame(0x42, wire.OPTIONS, stream=7))
        response = wire.read_frame(sock)
        assert response.opcode == wire.ERROR
        assert response.version in (0x84, 0x85), f"header version {response.version:#x}"
        # Cassandra rejects the version before reading the stream id, so it answers on stream 0.
        assert response.stream == 0
        code, message = wire.parse_error(response.body)
        assert code == wire.PROTOCOL_ERROR
        assert "Invalid or unsupported protocol version (66)" in message, message
        assert wire.wait_closed(sock), "connection still open after the version error"
    assert_still_serves(server)


def test_version_too_old_gets_protocol_error(server):
    # Cassandra answers a v1/v2 client in its own version, whose header is 8
    # bytes (a one-byte stream id); any other server version byte means 9.
    with wire.connect(server.port) as sock:
        sock.sendall(wire.frame(2, wire.OPTIONS, stream=1))
        version = wire.recv_exact(sock, 1)[0]
        if version == 0x82:
            _flags, _stream, opcode, length = struct.unpack(">BbBI", wire.recv_exact(sock, 7))
        else:
            _flags, _stream, opcode, length = struct.unpack(">BhBI", wire.recv_exact(sock, 8))
        assert version in (0x82, 0x84, 0x85), f"header version {version:#x}"
        code, message = wire.parse_error(wire.recv_exact(sock, length))
        assert (opcode, code) == (wire.ERROR, wire.PROTOCOL_ERROR)
        assert "Invalid or unsupported protocol version (2)" in message, message
    assert_still_serves(server)


def test_garbage_bytes(server):
    with wire.connect(server.port) as sock:
        wire.send_all_tolerant(sock, bytes(range(256)) * 4)
        expect_protocol_error_or_close(sock, "1 KiB of garbage")
    assert_still_serves(server)


def test_oversized_frame_is_discarded_then_refused(server):
    # As Cassandra: the frame's bytes are skipped, then an InvalidRequest on
    # its stream, and the connection goes on.
    length = 2 * 1024 * 1024
    with wire.connect(server.port) as sock:
        handshake_v4(sock)
        sock.sendall(wire.header(4, wire.QUERY, length, stream=2) + b"x" * length)
        response = wire.read_frame(sock)
        assert (response.opcode, response.stream) == (wire.ERROR, 2)
        code, message = wire.parse_error(response.body)
        assert code == wire.INVALID, f"{code:#06x} {message}"
        assert message == ("Request is too big: length 2097161 exceeds maximum allowed length "
                           "1048576.")
        sock.sendall(wire.frame(4, wire.OPTIONS, stream=3))
        response = wire.read_frame(sock)
        assert (response.opcode, response.stream) == (wire.SUPPORTED, 3)
    assert_still_serves(server)


SENT_OF_HUGE_FRAME = 128 * 1024 * 1024


def send_part_of_huge_frame(sock: socket.socket, head: bytes) -> None:
    """Sends a header claiming far more than the limit, then 128 MiB of its body."""
    chunk = b"\0" * (1 << 20)
    try:
        sock.sendall(head)
        for _ in range(SENT_OF_HUGE_FRAME // len(chunk)):
            sock.sendall(chunk)
    except (ConnectionResetError, BrokenPipeError):
        pass  # hanging up on such a frame is fine too


@pytest.mark.parametrize("length", [0x7FFFFFFF, 0x80000000, 0xFFFFFFFF])
@pytest.mark.parametrize("after_startup", [True, False], ids=["after-startup", "first-frame"])
def test_frame_declaring_gigabytes_is_not_buffered(server, length, after_startup):
    # The server may answer, hang up, or skip the bytes as they come (as
    # Cassandra does until the declared length has gone by); it must not keep
    # them, and must go on serving others meanwhile.
    before_kib = server.rss_kib()
    with wire.connect(server.port) as sock:
        if after_startup:
            handshake_v4(sock)
        opcode = wire.QUERY if after_startup else wire.STARTUP
        send_part_of_huge_frame(sock, wire.header(4, opcode, length, stream=2))
        assert_still_serves(server)
        grown_mib = (server.rss_kib() - before_kib) / 1024
    assert grown_mib < 64, (f"RSS grew by {grown_mib:.0f} MiB after {SENT_OF_HUGE_FRAME >> 20} MiB "
                            f"of a frame declaring {length} bytes")
    assert_still_serves(server)


@pytest.mark.parametrize("opcode", [0x33, 0xFF])
def test_unknown_opcode(server, opcode):
    with wire.connect(server.port) as sock:
        handshake_v4(sock)
        wire.send_all_tolerant(sock, wire.frame(4, opcode, b"", stream=5))
        expect_protocol_error_or_close(sock, f"unknown opcode {opcode:#x}")
    assert_still_serves(server)


def test_response_opcode_from_client(server):
    # READY is a server-to-client message; a client sending it is confused.
    with wire.connect(server.port) as sock:
        handshake_v4(sock)
        wire.send_all_tolerant(sock, wire.frame(4, wire.READY, b"", stream=5))
        expect_protocol_error_or_close(sock, "a READY sent by the client")
    assert_still_serves(server)


def test_query_body_shorter_than_its_contents(server):
    # The frame length is honest but the QUERY inside claims a 1 MiB string.
    body = (1 << 20).to_bytes(4, "big") + b"SELECT"
    with wire.connect(server.port) as sock:
        handshake_v4(sock)
        wire.send_all_tolerant(sock, wire.frame(4, wire.QUERY, body, stream=9))
        expect_protocol_error_or_close(sock, "a QUERY whose string runs past the body")
    assert_still_serves(server)


def query_body(query: bytes, version: int = 4) -> bytes:
    flags = b"\x00" if version < 5 else b"\x00\x00\x00\x00"
    return len(query).to_bytes(4, "big") + query + b"\x00\x01" + flags


@pytest.mark.parametrize("version, answer", [(3, "error"), (4, "rows"), (5, "rows")])
def test_custom_payload_flag(server, version, answer):
    """Frame flag 0x04: the body starts with a [bytes map], read and ignored
    (the Python driver refuses to send one in v3; Cassandra refuses it there)."""
    payload = b"\x00\x01" + wire.string("k") + (1).to_bytes(4, "big") + b"v"
    body = payload + query_body(b"SELECT key FROM system.local", version)
    with wire.connect(server.port) as sock:
        if version == 5:
            handshake_v5(sock)
            sock.sendall(wire.segment(wire.header(5, wire.QUERY, len(body), 3, flags=0x04) + body))
            response = wire.read_v5_envelope(sock)
        else:
            sock.sendall(wire.frame(version, wire.STARTUP, wire.startup_body()))
            assert wire.read_frame(sock).opcode == wire.READY
            sock.sendall(wire.header(version, wire.QUERY, len(body), 3, flags=0x04) + body)
            response = wire.read_frame(sock)
        assert response.stream == 3
        if answer == "error":
            assert wire.parse_error(response.body) == (
                wire.PROTOCOL_ERROR,
                "Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4")
        else:
            assert response.opcode == wire.RESULT
    assert_still_serves(server)


def test_query_that_is_not_utf8(server):
    """A [long string] that is not UTF-8 is refused as Cassandra's CBUtil refuses
    it, and the connection goes on."""
    with wire.connect(server.port) as sock:
        handshake_v4(sock)
        sock.sendall(wire.frame(4, wire.QUERY, query_body(b"SELECT \xc3\x28 FROM t"), stream=4))
        response = wire.read_frame(sock)
        assert wire.parse_error(response.body) == (
            wire.PROTOCOL_ERROR,
            "Cannot decode string as UTF8: 'c3282046524f4d2074'; "
            "java.nio.charset.MalformedInputException: Input length = 1")
        sock.sendall(wire.frame(4, wire.QUERY, query_body(b"SELECT key FROM system.local"),
                                stream=5))
        assert wire.read_frame(sock).opcode == wire.RESULT
    assert_still_serves(server)


@pytest.mark.parametrize("cut", [1, 5, 9, 20])
def test_truncated_frame_then_close(server, cut):
    query = b"SELECT * FROM system.local"
    body = len(query).to_bytes(4, "big") + query + b"\x00\x01\x00"
    data = wire.frame(4, wire.STARTUP, wire.startup_body()) + wire.frame(4, wire.QUERY, body, stream=1)
    startup_len = len(wire.frame(4, wire.STARTUP, wire.startup_body()))
    with wire.connect(server.port) as sock:
        wire.send_all_tolerant(sock, data[:startup_len + cut])
        sock.shutdown(socket.SHUT_WR)
    assert_still_serves(server)


def handshake_v5(sock: socket.socket) -> None:
    sock.sendall(wire.frame(5, wire.STARTUP, wire.startup_body()))
    response = wire.read_frame(sock)  # READY itself is not yet in a segment
    assert (response.version, response.opcode) == (0x85, wire.READY)


def test_v5_segment_round_trip(server):
    # The positive control for the corrupt-segment tests below.
    with wire.connect(server.port) as sock:
        handshake_v5(sock)
        sock.sendall(wire.segment(wire.frame(5, wire.OPTIONS, stream=4)))
        response = wire.read_v5_envelope(sock)
        assert (response.version, response.opcode, response.stream) == (0x85, wire.SUPPORTED, 4)


def expect_v5_error_or_close(sock: socket.socket, what: str) -> None:
    try:
        response = wire.read_v5_envelope(sock)
    except wire.Closed:
        return
    except socket.timeout:
        pytest.fail(f"after {what}, the server neither answered nor closed the connection")
    assert response.opcode == wire.ERROR, f"after {what}: opcode {response.opcode:#x}"
    code, message = wire.parse_error(response.body)
    assert code == wire.PROTOCOL_ERROR, f"after {what}: {code:#06x} {message}"
    assert wire.wait_closed(sock), f"connection still open after {what}"


def test_v5_segment_with_bad_header_crc(server):
    with wire.connect(server.port) as sock:
        handshake_v5(sock)
        good = wire.segment(wire.frame(5, wire.OPTIONS, stream=4))
        wire.send_all_tolerant(sock, good[:3] + bytes(b ^ 0xFF for b in good[3:6]) + good[6:])
        expect_v5_error_or_close(sock, "a v5 segment with a bad header CRC")
    assert_still_serves(server)


def test_v5_segment_with_bad_payload_crc(server):
    with wire.connect(server.port) as sock:
        handshake_v5(sock)
        good = wire.segment(wire.frame(5, wire.OPTIONS, stream=4))
        wire.send_all_tolerant(sock, good[:-4] + bytes(b ^ 0xFF for b in good[-4:]))
        expect_v5_error_or_close(sock, "a v5 segment with a bad payload CRC")
    assert_still_serves(server)


def test_many_half_open_connections_do_not_block_others(server):
    sockets = [wire.connect(server.port) for _ in range(50)]
    try:
        for sock in sockets:
            sock.sendall(wire.header(4, wire.OPTIONS, 0)[:4])
        assert_still_serves(server)
    finally:
        for sock in sockets:
            sock.close()


def test_driver_connects_after_all_that(server):
    assert_still_serves(server)
    cluster = Cluster(contact_points=[server.host], port=server.port)
    try:
        session = cluster.connect()
        row = session.execute("SELECT key FROM system.local").one()
        assert row.key == "local"
    finally:
        cluster.shutdown()
