#include "cluster/read/read_request_codec.h"

#include <stdexcept>

#include "storage/codec/read_command_codec.h"
#include "types/vint.h"

namespace sibyl::cluster {

namespace {

uint64_t TakeUnsignedVint(BytesView& in) {
  const auto decoded = types::ReadUnsignedVint(in);
  if (!decoded) throw std::runtime_error("Truncated unfiltered read reply");
  in.remove_prefix(decoded->size);
  return decoded->value;
}

}  // namespace

Bytes EncodeReadRequest(ReadRequestKind kind, const storage::ReadCommand& command) {
  Bytes out;
  out.push_back(static_cast<char>(kind));
  storage::SerializeReadCommand(command, out);
  return out;
}

ReadRequest DecodeReadRequest(BytesView payload) {
  if (payload.empty()) throw std::runtime_error("Empty read request");
  const uint8_t kind = static_cast<uint8_t>(payload[0]);
  if (kind > static_cast<uint8_t>(ReadRequestKind::kUnfiltered)) {
    throw std::runtime_error("Unknown read request kind " + std::to_string(kind));
  }
  return ReadRequest{static_cast<ReadRequestKind>(kind),
                     storage::DeserializeReadCommand(payload.substr(1))};
}

Bytes EncodeUnfiltered(const std::vector<storage::Mutation>& mutations) {
  Bytes out;
  types::AppendUnsignedVint(out, mutations.size());
  Bytes one;
  for (const storage::Mutation& mutation : mutations) {
    one.clear();
    mutation.SerializeTo(one);
    types::AppendUnsignedVint(out, one.size());
    out += one;
  }
  return out;
}

std::vector<storage::Mutation> DecodeUnfiltered(BytesView payload) {
  const uint64_t count = TakeUnsignedVint(payload);
  std::vector<storage::Mutation> mutations;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t length = TakeUnsignedVint(payload);
    if (length > payload.size()) throw std::runtime_error("Truncated unfiltered read reply");
    mutations.push_back(storage::Mutation::Deserialize(payload.substr(0, length)));
    payload.remove_prefix(length);
  }
  if (!payload.empty()) throw std::runtime_error("Bytes left over in an unfiltered read reply");
  return mutations;
}

}  // namespace sibyl::cluster
