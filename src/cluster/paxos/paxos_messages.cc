#include "cluster/paxos/paxos_messages.h"

#include <stdexcept>
#include <string>

#include "storage/codec/read_command_codec.h"
#include "types/vint.h"

namespace sibyl::cluster::paxos {

namespace {

constexpr size_t kBallotBytes = 16;
constexpr uint8_t kPromised = 1;
constexpr uint8_t kHasAccepted = 2;
constexpr uint8_t kHasCommitted = 4;
constexpr uint8_t kHasReads = 8;

BytesView Take(BytesView& in, size_t n, const char* what) {
  if (in.size() < n) throw std::runtime_error(std::string("Truncated ") + what);
  BytesView taken = in.substr(0, n);
  in.remove_prefix(n);
  return taken;
}

void AppendLengthPrefixed(BytesView bytes, Bytes& out) {
  types::AppendUnsignedVint(out, bytes.size());
  out += bytes;
}

void AppendLengthPrefixed(const Proposal& proposal, Bytes& out) {
  AppendLengthPrefixed(EncodeProposal(proposal), out);
}

uint64_t TakeVint(BytesView& in, const char* what) {
  const auto value = types::ReadUnsignedVint(in);
  if (!value) throw std::runtime_error(std::string("Truncated ") + what);
  in.remove_prefix(value->size);
  return value->value;
}

BytesView TakeLengthPrefixedBytes(BytesView& in, const char* what) {
  const uint64_t length = TakeVint(in, what);
  if (length > in.size()) throw std::runtime_error(std::string("Truncated ") + what);
  return Take(in, static_cast<size_t>(length), what);
}

Proposal TakeLengthPrefixed(BytesView& in, const char* what = "Paxos prepare reply") {
  return DecodeProposal(TakeLengthPrefixedBytes(in, what));
}

// A count of length-prefixed items, each at least its length's byte: no
// count larger than the bytes left can be honest (nor reserve memory).
size_t TakeCount(BytesView& in, const char* what) {
  const uint64_t count = TakeVint(in, what);
  if (count > in.size()) throw std::runtime_error(std::string("Truncated ") + what);
  return static_cast<size_t>(count);
}

void AppendInt64(int64_t value, Bytes& out) {
  for (int shift = 56; shift >= 0; shift -= 8) {
    out.push_back(static_cast<char>((static_cast<uint64_t>(value) >> shift) & 0xff));
  }
}

int64_t TakeInt64(BytesView& in, const char* what) {
  const BytesView bytes = Take(in, 8, what);
  uint64_t value = 0;
  for (const char byte : bytes) value = (value << 8) | static_cast<uint8_t>(byte);
  return static_cast<int64_t>(value);
}

}  // namespace

void EncodeBallot(const Ballot& ballot, Bytes& out) {
  if (ballot.is_null()) {
    out.append(kBallotBytes, '\0');
  } else {
    out += ballot.ToUuid().ToBytes();
  }
}

Ballot DecodeBallot(BytesView bytes) {
  if (bytes.size() != kBallotBytes) throw std::runtime_error("A ballot is 16 bytes");
  if (bytes.find_first_not_of('\0') == BytesView::npos) return Ballot();
  const std::optional<Ballot> ballot = Ballot::FromUuid(types::Uuid::FromBytes(bytes));
  if (!ballot) throw std::runtime_error("Not a ballot (a version 1 timeuuid)");
  return *ballot;
}

void EncodeProposal(const Proposal& proposal, Bytes& out) {
  EncodeBallot(proposal.ballot, out);
  proposal.update.SerializeTo(out);
}

Bytes EncodeProposal(const Proposal& proposal) {
  Bytes out;
  EncodeProposal(proposal, out);
  return out;
}

Proposal DecodeProposal(BytesView bytes) {
  Proposal proposal;
  proposal.ballot = DecodeBallot(Take(bytes, kBallotBytes, "Paxos proposal"));
  if (proposal.ballot.is_null()) throw std::runtime_error("A Paxos proposal without a ballot");
  proposal.update = storage::Mutation::Deserialize(bytes);
  return proposal;
}

Bytes EncodePrepareResponse(const PrepareResponse& response) {
  Bytes out;
  uint8_t flags = 0;
  if (response.promised) flags |= kPromised;
  if (response.accepted) flags |= kHasAccepted;
  if (response.committed) flags |= kHasCommitted;
  if (!response.reads.empty()) flags |= kHasReads;
  out.push_back(static_cast<char>(flags));
  EncodeBallot(response.refused_by, out);
  if (response.accepted) AppendLengthPrefixed(*response.accepted, out);
  if (response.committed) AppendLengthPrefixed(*response.committed, out);
  if (!response.reads.empty()) {
    types::AppendUnsignedVint(out, response.reads.size());
    for (const Bytes& read : response.reads) AppendLengthPrefixed(read, out);
  }
  return out;
}

PrepareResponse DecodePrepareResponse(BytesView bytes) {
  const auto flags = static_cast<uint8_t>(Take(bytes, 1, "Paxos prepare reply")[0]);
  if ((flags & ~(kPromised | kHasAccepted | kHasCommitted | kHasReads)) != 0) {
    throw std::runtime_error("Unknown flags in a Paxos prepare reply");
  }
  PrepareResponse response;
  response.promised = (flags & kPromised) != 0;
  response.refused_by = DecodeBallot(Take(bytes, kBallotBytes, "Paxos prepare reply"));
  if ((flags & kHasAccepted) != 0) response.accepted = TakeLengthPrefixed(bytes);
  if ((flags & kHasCommitted) != 0) response.committed = TakeLengthPrefixed(bytes);
  if ((flags & kHasReads) != 0) {
    constexpr const char* kWhat = "Paxos prepare reply";
    const size_t count = TakeCount(bytes, kWhat);
    if (count == 0) throw std::runtime_error("A Paxos prepare reply flags reads but has none");
    response.reads.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      response.reads.emplace_back(TakeLengthPrefixedBytes(bytes, kWhat));
    }
  }
  if (!bytes.empty()) throw std::runtime_error("Bytes left over in a Paxos prepare reply");
  return response;
}

Bytes EncodePrepareAndReadRequest(const Proposal& prepare,
                                  const std::vector<storage::ReadCommand>& reads) {
  Bytes out;
  AppendLengthPrefixed(prepare, out);
  types::AppendUnsignedVint(out, reads.size());
  Bytes command;
  for (const storage::ReadCommand& read : reads) {
    command.clear();
    storage::SerializeReadCommand(read, command);
    AppendLengthPrefixed(command, out);
  }
  return out;
}

PrepareAndReadRequest DecodePrepareAndReadRequest(BytesView bytes) {
  constexpr const char* kWhat = "Paxos prepare-and-read request";
  PrepareAndReadRequest request;
  request.prepare = TakeLengthPrefixed(bytes, kWhat);
  const size_t count = TakeCount(bytes, kWhat);
  request.reads.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    request.reads.push_back(storage::DeserializeReadCommand(TakeLengthPrefixedBytes(bytes, kWhat)));
  }
  if (!bytes.empty())
    throw std::runtime_error("Bytes left over in a Paxos prepare-and-read request");
  return request;
}

Bytes EncodeProposeResponse(const ProposeResponse& response) {
  Bytes out;
  out.push_back(response.accepted ? '\1' : '\0');
  EncodeBallot(response.refused_by, out);
  return out;
}

ProposeResponse DecodeProposeResponse(BytesView bytes) {
  if (bytes.size() != 1 + kBallotBytes || static_cast<uint8_t>(bytes[0]) > 1) {
    throw std::runtime_error("Not a Paxos propose reply");
  }
  return {.accepted = bytes[0] == '\1', .refused_by = DecodeBallot(bytes.substr(1))};
}

Bytes EncodeUncommittedRequest(const UncommittedRequest& request) {
  Bytes out = request.table_id.ToBytes();
  AppendInt64(request.range.start, out);
  AppendInt64(request.range.end, out);
  return out;
}

UncommittedRequest DecodeUncommittedRequest(BytesView bytes) {
  constexpr const char* kWhat = "Paxos uncommitted request";
  UncommittedRequest request;
  request.table_id = types::Uuid::FromBytes(Take(bytes, 16, kWhat));
  request.range.start = TakeInt64(bytes, kWhat);
  request.range.end = TakeInt64(bytes, kWhat);
  if (!bytes.empty()) throw std::runtime_error("Bytes left over in a Paxos uncommitted request");
  return request;
}

Bytes EncodeUncommittedResponse(const std::vector<storage::PartitionKey>& keys) {
  Bytes out;
  for (const storage::PartitionKey& key : keys) {
    AppendInt64(key.token, out);
    types::AppendUnsignedVint(out, key.key.size());
    out += key.key;
  }
  return out;
}

std::vector<storage::PartitionKey> DecodeUncommittedResponse(BytesView bytes) {
  constexpr const char* kWhat = "Paxos uncommitted reply";
  std::vector<storage::PartitionKey> keys;
  while (!bytes.empty()) {
    storage::PartitionKey key;
    key.token = TakeInt64(bytes, kWhat);
    const auto length = types::ReadUnsignedVint(bytes);
    if (!length) throw std::runtime_error("Truncated Paxos uncommitted reply");
    bytes.remove_prefix(length->size);
    if (length->value > bytes.size()) throw std::runtime_error("Truncated Paxos uncommitted reply");
    key.key = Bytes(Take(bytes, static_cast<size_t>(length->value), kWhat));
    keys.push_back(std::move(key));
  }
  return keys;
}

}  // namespace sibyl::cluster::paxos
