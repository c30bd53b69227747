#include "storage/codec/cell_codec.h"

namespace sibyl::storage {
namespace {

constexpr size_t kCellHeaderSize = 1 + 1 + 8 + 4 + 4;
constexpr size_t kDeletionSize = 1 + 8 + 4;
constexpr size_t kLivenessSize = 1 + 8 + 4 + 4;

int32_t LoadI32(const char* p) { return static_cast<int32_t>(LoadBE32(p)); }
int64_t LoadI64(const char* p) { return static_cast<int64_t>(LoadBE64(p)); }

}  // namespace

std::optional<ValueTag> PeekValueTag(BytesView value) {
  if (value.empty()) return std::nullopt;
  switch (static_cast<ValueTag>(value[0])) {
    case ValueTag::kCell:
    case ValueTag::kDeletion:
    case ValueTag::kLiveness:
      return static_cast<ValueTag>(value[0]);
  }
  return std::nullopt;
}

void EncodeCell(const StoredCell& cell, Bytes& out) {
  out.reserve(out.size() + kCellHeaderSize + cell.value.size());
  out.push_back(static_cast<char>(ValueTag::kCell));
  AppendU8(out, static_cast<uint8_t>(cell.kind));
  AppendBE64(out, static_cast<uint64_t>(cell.timestamp));
  AppendBE32(out, static_cast<uint32_t>(cell.ttl));
  AppendBE32(out, static_cast<uint32_t>(cell.local_deletion_time));
  out.append(cell.value);
}

std::optional<StoredCell> DecodeCell(BytesView value) {
  if (value.size() < kCellHeaderSize || value[0] != static_cast<char>(ValueTag::kCell)) {
    return std::nullopt;
  }
  auto kind = static_cast<uint8_t>(value[1]);
  if (kind > static_cast<uint8_t>(Cell::Kind::kCounter)) return std::nullopt;
  StoredCell cell;
  cell.kind = static_cast<Cell::Kind>(kind);
  cell.timestamp = LoadI64(value.data() + 2);
  cell.ttl = LoadI32(value.data() + 10);
  cell.local_deletion_time = LoadI32(value.data() + 14);
  cell.value = value.substr(kCellHeaderSize);
  return cell;
}

void EncodeDeletion(const DeletionTime& deletion, Bytes& out) {
  out.push_back(static_cast<char>(ValueTag::kDeletion));
  AppendBE64(out, static_cast<uint64_t>(deletion.marked_for_delete_at));
  AppendBE32(out, static_cast<uint32_t>(deletion.local_deletion_time));
}

std::optional<DeletionTime> DecodeDeletion(BytesView value) {
  if (value.size() != kDeletionSize || value[0] != static_cast<char>(ValueTag::kDeletion)) {
    return std::nullopt;
  }
  return DeletionTime{LoadI64(value.data() + 1), LoadI32(value.data() + 9)};
}

void EncodeLiveness(const LivenessInfo& liveness, Bytes& out) {
  out.push_back(static_cast<char>(ValueTag::kLiveness));
  AppendBE64(out, static_cast<uint64_t>(liveness.timestamp));
  AppendBE32(out, static_cast<uint32_t>(liveness.ttl));
  AppendBE32(out, static_cast<uint32_t>(liveness.local_expiration_time));
}

std::optional<LivenessInfo> DecodeLiveness(BytesView value) {
  if (value.size() != kLivenessSize || value[0] != static_cast<char>(ValueTag::kLiveness)) {
    return std::nullopt;
  }
  return LivenessInfo{LoadI64(value.data() + 1), LoadI32(value.data() + 9),
                      LoadI32(value.data() + 13)};
}

}  // namespace sibyl::storage
