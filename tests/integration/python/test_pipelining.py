"""Many requests in flight on one connection, over a raw socket.

The server answers a batch of pipelined requests from its read loop when the
socket takes the answers at once, and leaves the rest to its writer when the
socket is full; it stops reading while more than 8 MiB of answers wait for a
client that does not read. Whoever writes, every answer arrives, once, in
request order, and the connection keeps serving.
"""

from __future__ import annotations

import struct

import cql_wire as wire

RESULT = 0x08
ROWS = 0x0002


def query_body(cql: str) -> bytes:
    data = cql.encode()
    # <long string> query, consistency ONE, no flags
    return struct.pack(">i", len(data)) + data + struct.pack(">HB", 0x0001, 0)


def started(port: int):
    sock = wire.connect(port, timeout=20.0)
    sock.sendall(wire.frame(4, wire.STARTUP, wire.startup_body()))
    assert wire.read_frame(sock).opcode == wire.READY
    return sock


def send_pipelined(sock, cql: str, count: int) -> None:
    body = query_body(cql)
    sock.sendall(b"".join(wire.frame(4, wire.QUERY, body, stream=i) for i in range(count)))


def expect_rows_in_order(sock, count: int) -> int:
    """Reads `count` answers; they must be ROWS results for streams 0..count-1."""
    total = 0
    for expected in range(count):
        response = wire.read_frame(sock)
        assert response.opcode == RESULT, wire.parse_error(response.body)
        assert response.stream == expected
        assert struct.unpack_from(">i", response.body)[0] == ROWS
        total += len(response.body)
    return total


def test_small_pipelined_answers_arrive_in_order(sibyl):
    with started(sibyl.port) as sock:
        send_pipelined(sock, "SELECT release_version FROM system.local", 2000)
        expect_rows_in_order(sock, 2000)


def test_answers_that_fill_the_socket_arrive_in_order_once_the_client_reads(sibyl):
    # Each answer is the whole of system_schema.columns (tens of KiB): far
    # more than the socket buffers and the server's 8 MiB output limit, sent
    # before the client reads a byte.
    count = 400
    with started(sibyl.port) as sock:
        send_pipelined(sock, "SELECT * FROM system_schema.columns", count)
        total = expect_rows_in_order(sock, count)
        assert total > 8 * 1024 * 1024, total
        # The connection still serves.
        send_pipelined(sock, "SELECT release_version FROM system.local", 1)
        expect_rows_in_order(sock, 1)
