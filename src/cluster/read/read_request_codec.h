#pragma once
// The payloads of the read verbs (READ, RANGE_READ, READ_REPAIR) between a
// coordinator and its replicas. Integers are Cassandra-style vints
// (types/vint.h).
//
//   request      := kind(1 byte) command            -- READ and RANGE_READ
//   kind         := 0 data | 1 digest | 2 unfiltered   (do not change)
//   command      := read_command_codec.h's form
//   data reply   := read_command_codec.h's result
//   digest reply := the 16 bytes of ReadDigest(result)
//   unfiltered reply := uvint(n) (uvint(length) mutation)*n
//                       -- Engine::ReadUnfiltered's answer, Mutation::SerializeTo each
//   READ_REPAIR  := a serialized Mutation; its reply is empty
//
// Decoding trusts nothing: malformed bytes are std::runtime_error.

#include <cstdint>
#include <vector>

#include "common/bytes.h"
#include "storage/data/mutation.h"
#include "storage/data/read_command.h"

namespace sibyl::cluster {

enum class ReadRequestKind : uint8_t { kData = 0, kDigest = 1, kUnfiltered = 2 };

struct ReadRequest {
  ReadRequestKind kind = ReadRequestKind::kData;
  storage::ReadCommand command;
};

[[nodiscard]] Bytes EncodeReadRequest(ReadRequestKind kind, const storage::ReadCommand& command);
[[nodiscard]] ReadRequest DecodeReadRequest(BytesView payload);

[[nodiscard]] Bytes EncodeUnfiltered(const std::vector<storage::Mutation>& mutations);
[[nodiscard]] std::vector<storage::Mutation> DecodeUnfiltered(BytesView payload);

}  // namespace sibyl::cluster
