// Writes fuzz_protocol seeds: real handshakes and requests of every kind in
// every version, compressed bodies, v5 segments. Usage:
//   make_protocol_seeds <output folder>

#include <cstdio>
#include <fstream>
#include <string>

#include "fuzz_protocol.h"
#include "protocol/compression.h"
#include "protocol/test_frames.h"

namespace {

using sibyl::AppendBE16;
using sibyl::AppendBE32;
using sibyl::AppendBE64;
using sibyl::AppendU8;
using sibyl::Bytes;
using namespace sibyl::protocol;
using namespace sibyl::protocol::testing;
using namespace sibyl::fuzz;

int written = 0;

void Write(const std::string& dir, const std::string& name, uint8_t mode, uint8_t knobs,
           const Bytes& bytes) {
  std::ofstream out(dir + "/" + name, std::ios::binary);
  out.put(static_cast<char>(mode));
  out.put(static_cast<char>(knobs));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ++written;
}

void Flags(Bytes& out, uint32_t flags, int version) {
  if (version >= 5) {
    AppendBE32(out, flags);
  } else {
    AppendU8(out, static_cast<uint8_t>(flags));
  }
}

Bytes FullQuery(int version) {
  Bytes b;
  AppendLongString(b, "SELECT * FROM ks.t WHERE k = ? AND c > :c");
  AppendBE16(b, 0x0006);
  uint32_t flags = 0x01 | 0x04 | 0x08 | 0x10 | 0x20;
  if (version >= 5) flags |= 0x80 | 0x100;
  Flags(b, flags, version);
  AppendBE16(b, 2);
  AppendBytes(b, Bytes("\0\0\0\1", 4));
  AppendBE32(b, 0xFFFFFFFE);
  AppendBE32(b, 100);
  AppendBytes(b, "paging");
  AppendBE16(b, 0x0009);
  AppendBE64(b, 1700000000000000);
  if (version >= 5) {
    AppendString(b, "ks");
    AppendBE32(b, 1700000000);
  }
  return b;
}

Bytes Prepare(int version) {
  Bytes b;
  AppendLongString(b, "INSERT INTO ks.t (k, v) VALUES (?, ?)");
  if (version >= 5) {
    AppendBE32(b, 1);
    AppendString(b, "ks");
  }
  return b;
}

Bytes Execute(int version) {
  Bytes b;
  AppendShortBytes(b, "0123456789abcdef");
  if (version >= 5) AppendShortBytes(b, "fedcba9876543210");
  AppendBE16(b, 1);
  Flags(b, 0x01 | 0x02 | 0x40, version);
  AppendBE16(b, 1);
  AppendString(b, "k");
  AppendBytes(b, "v");
  return b;
}

Bytes Batch(int version) {
  Bytes b;
  AppendU8(b, 0);
  AppendBE16(b, 2);
  AppendU8(b, 0);
  AppendLongString(b, "INSERT INTO ks.t (k) VALUES (?)");
  AppendBE16(b, 1);
  AppendBytes(b, "a");
  AppendU8(b, 1);
  AppendShortBytes(b, "0123456789abcdef");
  AppendBE16(b, 0);
  AppendBE16(b, 0x0001);
  Flags(b, 0x20, version);
  AppendBE64(b, 42);
  return b;
}

Bytes Register() {
  Bytes b;
  AppendBE16(b, 3);
  AppendString(b, "TOPOLOGY_CHANGE");
  AppendString(b, "STATUS_CHANGE");
  AppendString(b, "SCHEMA_CHANGE");
  return b;
}

Bytes AuthResponse() {
  Bytes b;
  AppendBytes(b, Bytes("\0cassandra\0cassandra", 20));
  return b;
}

// Every request after the handshake, as envelopes of `version`.
Bytes Requests(int version, uint8_t flags = 0, Compression c = Compression::kNone) {
  auto frame = [&](int16_t stream, uint8_t opcode, const Bytes& body) {
    if (c == Compression::kNone) return RequestFrame(version, flags, stream, opcode, body);
    Bytes compressed;
    CompressBody(c, body, compressed);
    return RequestFrame(version, kFlagCompression, stream, opcode, compressed);
  };
  return frame(2, 0x07, FullQuery(version)) + frame(3, 0x09, Prepare(version)) +
         frame(4, 0x0A, Execute(version)) + frame(5, 0x0D, Batch(version)) +
         frame(6, 0x0B, Register()) + frame(7, 0x0F, AuthResponse()) + frame(8, 0x05, "");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output folder>\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  for (int version : {3, 4, 5}) {
    const std::string v = std::to_string(version);
    const Bytes options = RequestFrame(version, 0, 0, 0x05, "");
    const Bytes startup = RequestFrame(version, 0, 1, 0x01, StartupBody());
    Write(dir, "handshake_v" + v, kUnframedConnection, 0x00, options + startup + Requests(version));
    // Requests as bare bodies.
    Write(dir, "query_v" + v, kRequestBody, static_cast<uint8_t>(((version - 3) << 3) | 3),
          FullQuery(version));
    Write(dir, "prepare_v" + v, kRequestBody, static_cast<uint8_t>(((version - 3) << 3) | 4),
          Prepare(version));
    Write(dir, "execute_v" + v, kRequestBody, static_cast<uint8_t>(((version - 3) << 3) | 5),
          Execute(version));
    Write(dir, "batch_v" + v, kRequestBody, static_cast<uint8_t>(((version - 3) << 3) | 7),
          Batch(version));
  }
  Write(dir, "startup_body", kRequestBody, 0x00,
        StartupBody({{"CQL_VERSION", "3.4.7"}, {"COMPRESSION", "lz4"}, {"DRIVER_NAME", "fuzz"}}));
  Write(dir, "register_body", kRequestBody, 0x06, Register());
  Write(dir, "auth_body", kRequestBody, 0x40, AuthResponse());

  // Compressed v4 connections (knobs 0x10 = lz4, 0x20 = snappy after STARTUP).
  struct CompressedCase {
    const char* name;
    uint8_t knobs;
    Compression c;
  };
  for (const CompressedCase& cc : {CompressedCase{"lz4", 0x10, Compression::kLz4},
                                   CompressedCase{"snappy", 0x20, Compression::kSnappy}}) {
    const char* name = cc.name;
    const uint8_t knobs = cc.knobs;
    const Compression c = cc.c;
    const Bytes startup =
        RequestFrame(4, 0, 1, 0x01, StartupBody({{"CQL_VERSION", "3.0.0"}, {"COMPRESSION", name}}));
    Write(dir, std::string("handshake_v4_") + name, kUnframedConnection, knobs,
          startup + Requests(4, 0, c));
  }
  // Python's first attempt (0x42), an old version, and a frame over a small limit.
  Write(dir, "dse_version", kUnframedConnection, 0x00, RequestFrame(0x42, 0, 0, 0x05, ""));
  Write(dir, "v2_frame", kUnframedConnection, 0x00, Bytes("\x02\x00\x00\x05\x00\x00\x00\x00", 8));
  Write(dir, "too_big", kUnframedConnection, 0x80,
        RequestFrame(4, 0, 1, 0x01, StartupBody()) + RequestFrame(4, 0, 2, 0x07, Bytes(200, 'x')) +
            RequestFrame(4, 0, 3, 0x05, ""));
  Write(dir, "bad_opcodes", kUnframedConnection, 0x00,
        RequestFrame(4, 0, 1, 0x01, StartupBody()) + RequestFrame(4, 0, 2, 0x33, "x") +
            RequestFrame(4, 0, 3, 0x08, "") + RequestFrame(3, 0, 4, 0x05, ""));
  // A v5 connection: handshake, then framed requests (plain and lz4), and a
  // large envelope across segments.
  {
    const Bytes handshake =
        RequestFrame(5, 0, 0, 0x05, "") + RequestFrame(5, 0, 1, 0x01, StartupBody());
    Write(dir, "v5_switch", kUnframedConnection, 0x00, handshake + Segments(Requests(5), false));
    Write(dir, "v5_switch_lz4", kUnframedConnection, 0x10, handshake + Segments(Requests(5), true));
  }
  for (bool lz4 : {false, true}) {
    const uint8_t knobs = lz4 ? kKnobLz4 : 0;
    const std::string suffix = lz4 ? "_lz4" : "";
    Write(dir, "framed" + suffix, kFramedConnection, knobs, Segments(Requests(5), lz4));
    Bytes large;
    AppendLongString(large, Bytes(140000, 'a'));
    AppendBE16(large, 1);
    AppendBE32(large, 0);
    Write(dir, "framed_large" + suffix, kFramedConnection, knobs,
          Segments(RequestFrame(5, 0, 9, 0x07, large) + Requests(5), lz4));
    Write(dir, "raw_segments" + suffix, kRawDecoders, knobs, Segments(Requests(5), lz4));
  }
  Bytes lz4_body;
  CompressBody(Compression::kLz4, FullQuery(4), lz4_body);
  Write(dir, "raw_lz4_body", kRawDecoders, 0x20, lz4_body);
  Bytes snappy_body;
  CompressBody(Compression::kSnappy, FullQuery(4), snappy_body);
  Write(dir, "raw_snappy_body", kRawDecoders, 0x20, snappy_body);
  std::printf("wrote %d seeds to %s\n", written, dir.c_str());
  return 0;
}
