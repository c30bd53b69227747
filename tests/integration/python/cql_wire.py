"""Just enough of the CQL native protocol to send hand-made (and broken) frames.

Protocol v3/v4 frames and v5 envelopes share a 9-byte header:
  version:u8 (0x80 bit set on responses), flags:u8, stream:i16, opcode:u8,
  body length:u32, all big-endian.
"""

from __future__ import annotations

import socket
import struct
import time
import zlib
from dataclasses import dataclass

HEADER = struct.Struct(">BBhBI")

ERROR = 0x00
STARTUP = 0x01
READY = 0x02
OPTIONS = 0x05
SUPPORTED = 0x06
QUERY = 0x07
RESULT = 0x08
REGISTER = 0x0B
EVENT = 0x0C

PROTOCOL_ERROR = 0x000A
INVALID = 0x2200


@dataclass
class Frame:
    version: int
    flags: int
    stream: int
    opcode: int
    body: bytes


def header(version: int, opcode: int, length: int, stream: int = 0, flags: int = 0) -> bytes:
    return HEADER.pack(version, flags, stream, opcode, length)


def frame(version: int, opcode: int, body: bytes = b"", stream: int = 0) -> bytes:
    return header(version, opcode, len(body), stream) + body


def string(value: str) -> bytes:
    data = value.encode()
    return struct.pack(">H", len(data)) + data


def string_map(values: dict[str, str]) -> bytes:
    return struct.pack(">H", len(values)) + b"".join(string(k) + string(v) for k, v in values.items())


def startup_body(cql_version: str = "3.0.0") -> bytes:
    return string_map({"CQL_VERSION": cql_version})


def connect(port: int, host: str = "127.0.0.1", timeout: float = 5.0) -> socket.socket:
    sock = socket.create_connection((host, port), timeout=timeout)
    sock.settimeout(timeout)
    return sock


class Closed(Exception):
    """The server closed (or reset) the connection."""


def recv_exact(sock: socket.socket, n: int) -> bytes:
    """Reads n bytes; raises Closed on EOF or reset, socket.timeout on silence."""
    chunks = []
    while n > 0:
        try:
            chunk = sock.recv(n)
        except (ConnectionResetError, BrokenPipeError) as e:
            raise Closed(str(e)) from e
        if not chunk:
            raise Closed("EOF")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def read_frame(sock: socket.socket) -> Frame:
    version, flags, stream, opcode, length = HEADER.unpack(recv_exact(sock, HEADER.size))
    if length > 64 * 1024 * 1024:
        raise AssertionError(f"server sent a frame header claiming {length} bytes")
    return Frame(version, flags, stream, opcode, recv_exact(sock, length))


def string_list(values: list[str]) -> bytes:
    return struct.pack(">H", len(values)) + b"".join(string(v) for v in values)


def parse_strings(body: bytes) -> list[str]:
    """A body made of [string]s only (an EVENT's), as a list."""
    out, pos = [], 0
    while pos < len(body):
        (n,) = struct.unpack_from(">H", body, pos)
        out.append(body[pos + 2:pos + 2 + n].decode())
        pos += 2 + n
    return out


def parse_error(body: bytes) -> tuple[int, str]:
    code, length = struct.unpack_from(">iH", body)
    return code, body[6:6 + length].decode(errors="replace")


def parse_string_multimap(body: bytes) -> dict[str, list[str]]:
    def read_string(pos: int) -> tuple[str, int]:
        (n,) = struct.unpack_from(">H", body, pos)
        return body[pos + 2:pos + 2 + n].decode(), pos + 2 + n

    (count,) = struct.unpack_from(">H", body)
    pos = 2
    result: dict[str, list[str]] = {}
    for _ in range(count):
        key, pos = read_string(pos)
        (n,) = struct.unpack_from(">H", body, pos)
        pos += 2
        values = []
        for _ in range(n):
            value, pos = read_string(pos)
            values.append(value)
        result[key] = values
    return result


def wait_closed(sock: socket.socket, timeout: float = 5.0) -> bool:
    """True if the server closes the connection within `timeout` (data is discarded)."""
    deadline = time.monotonic() + timeout
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        sock.settimeout(remaining)
        try:
            if not sock.recv(65536):
                return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False


def send_all_tolerant(sock: socket.socket, data: bytes) -> None:
    """Sends, ignoring a reset: a server may hang up before reading everything."""
    try:
        sock.sendall(data)
    except (ConnectionResetError, BrokenPipeError):
        pass


# --- protocol v5 segments (after READY on a v5 connection) ---------------------------------------
#
# Uncompressed segment: 3-byte little-endian header (payload length in bits
# 0-16, self-contained flag in bit 17), CRC24 of those 3 bytes (3 bytes,
# little-endian), the payload, CRC32 of the payload (4 bytes, little-endian).

CRC24_INIT = 0x875060
CRC24_POLY = 0x1974F0B
CRC32_SEED = zlib.crc32(b"\xfa\x2d\x55\xca")


def crc24(value: int, length: int) -> int:
    crc = CRC24_INIT
    for _ in range(length):
        crc ^= (value & 0xFF) << 16
        value >>= 8
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= CRC24_POLY
    return crc


def segment(payload: bytes, self_contained: bool = True) -> bytes:
    header = len(payload) | (int(self_contained) << 17)
    return (header.to_bytes(3, "little") + crc24(header, 3).to_bytes(3, "little") + payload +
            zlib.crc32(payload, CRC32_SEED).to_bytes(4, "little"))


def read_segment(sock: socket.socket) -> bytes:
    """Reads one uncompressed segment, checks both CRCs, returns its payload."""
    head = recv_exact(sock, 6)
    header = int.from_bytes(head[:3], "little")
    assert int.from_bytes(head[3:], "little") == crc24(header, 3), "bad segment header CRC from server"
    payload = recv_exact(sock, header & 0x1FFFF)
    crc = int.from_bytes(recv_exact(sock, 4), "little")
    assert crc == zlib.crc32(payload, CRC32_SEED), "bad segment payload CRC from server"
    return payload


def read_v5_envelope(sock: socket.socket) -> Frame:
    """Reads a response envelope carried in one self-contained segment."""
    payload = read_segment(sock)
    version, flags, stream, opcode, length = HEADER.unpack_from(payload)
    return Frame(version, flags, stream, opcode, payload[HEADER.size:HEADER.size + length])
