// Mutation's binary form (batch log, later hints and messaging). Integers
// are Cassandra-style vints (types/vint.h); timestamps are stored as the
// distance from the smallest timestamp in the mutation, which keeps them to
// a byte or two in the common case where one statement wrote everything.
//
//   mutation  := version(1 byte = 1) table_id(16) token(8, big-endian)
//                bytes(key) flags(1) [base_timestamp: svint]
//                [deletion: partition_deletion]
//                uvint(n) range_tombstone*n  uvint(n) row*n
//   flags     := 1: has partition deletion, 2: has timestamps (base follows)
//   deletion  := timestamp(marked_for_delete_at) local_time(local_deletion_time)
//   local_time := uvint(kNoDeletionTime - t, modulo 2^32): "none" is one byte
//   timestamp := uvint: 0 for none (kNoTimestamp), else 1 + (ts - base)
//   bound     := uvint(values << 1 | inclusive) bytes(value)*values
//   range_tombstone := bound(start) bound(end) deletion
//   row       := row_flags(1) uvint(n) bytes(value)*n
//                [marker: timestamp svint(ttl) local_time(local_expiration_time)]
//                [deletion] uvint(n) (bytes(column) deletion)*n  uvint(n) cell*n
//   row_flags := 1: static, 2: has marker, 4: has row deletion
//   cell      := cell_flags(1) bytes(column) [bytes(path)] [timestamp]
//                [svint(ttl)] [local_time(local_deletion_time)] [bytes(value)]
//   cell_flags := kind (bits 0-1), 4: path, 8: timestamp, 16: ttl,
//                 32: local deletion time, 64: value
//   bytes     := uvint(length) length bytes
//
// Absent fields hold their defaults (no timestamp, no TTL, no deletion time,
// empty value). The version byte changes whenever this layout does; readers
// keep accepting every older version.

#include "storage/data/mutation.h"

#include <limits>
#include <stdexcept>
#include <string>

#include "storage/data/serial_reader.h"
#include "types/vint.h"

namespace sibyl::storage {
namespace {

constexpr uint8_t kMutationFormatVersion = 1;

constexpr uint8_t kHasPartitionDeletion = 1;
constexpr uint8_t kHasTimestamps = 2;

constexpr uint8_t kRowStatic = 1;
constexpr uint8_t kRowHasMarker = 2;
constexpr uint8_t kRowHasDeletion = 4;

constexpr uint8_t kCellKindMask = 3;
constexpr uint8_t kCellWriteHasPath = 4;
constexpr uint8_t kCellHasTimestamp = 8;
constexpr uint8_t kCellHasTtl = 16;
constexpr uint8_t kCellHasDeletionTime = 32;
constexpr uint8_t kCellHasValue = 64;

// ---- writing ----

class Writer {
 public:
  Writer(Bytes& out, int64_t base) : out_(out), base_(base) {}

  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void Unsigned(uint64_t v) { types::AppendUnsignedVint(out_, v); }
  void Signed(int64_t v) { types::AppendSignedVint(out_, v); }
  void Blob(BytesView v) {
    Unsigned(v.size());
    out_.append(v);
  }
  // 0 for no timestamp, else 1 + the distance from the base. REQUIRES: ts >=
  // base (the base is the smallest timestamp, itself never kNoTimestamp).
  void Timestamp(int64_t ts) {
    Unsigned(ts == kNoTimestamp ? 0 : static_cast<uint64_t>(ts) - static_cast<uint64_t>(base_) + 1);
  }
  // Distance below kNoDeletionTime, so "none" takes one byte.
  void LocalTime(int32_t t) {
    Unsigned(static_cast<uint32_t>(kNoDeletionTime) - static_cast<uint32_t>(t));
  }
  void Deletion(const DeletionTime& d) {
    Timestamp(d.marked_for_delete_at);
    LocalTime(d.local_deletion_time);
  }
  void Bound(const ClusteringBound& bound) {
    Unsigned(uint64_t{bound.prefix.size()} << 1 | (bound.inclusive ? 1 : 0));
    for (const auto& value : bound.prefix) Blob(value);
  }

 private:
  Bytes& out_;
  int64_t base_;
};

// The smallest timestamp anywhere in `m`, if any.
std::optional<int64_t> MinTimestamp(const Mutation& m) {
  std::optional<int64_t> min;
  auto see = [&min](int64_t ts) {
    if (ts != kNoTimestamp && (!min || ts < *min)) min = ts;
  };
  see(m.partition_deletion.marked_for_delete_at);
  for (const auto& rt : m.range_tombstones) see(rt.deletion.marked_for_delete_at);
  for (const auto& row : m.rows) {
    see(row.marker.timestamp);
    see(row.deletion.marked_for_delete_at);
    for (const auto& cd : row.collection_deletions) see(cd.deletion.marked_for_delete_at);
    for (const auto& cw : row.cells) see(cw.cell.timestamp);
  }
  return min;
}

// ---- reading ----

class MutationReader : public SerialReader {
 public:
  explicit MutationReader(BytesView in) : SerialReader(in, "mutation") {}

  void set_base(int64_t base) { base_ = base; }

  int64_t Timestamp() {
    const uint64_t v = Unsigned();
    if (v == 0) return kNoTimestamp;
    if (!base_) Fail("a timestamp without a base");
    return static_cast<int64_t>(static_cast<uint64_t>(*base_) + (v - 1));
  }
  int32_t LocalTime() {
    const uint64_t v = Unsigned();
    if (v > std::numeric_limits<uint32_t>::max()) Fail("a local time out of range");
    return static_cast<int32_t>(static_cast<uint32_t>(kNoDeletionTime) - static_cast<uint32_t>(v));
  }
  DeletionTime Deletion() {
    DeletionTime d;
    d.marked_for_delete_at = Timestamp();
    d.local_deletion_time = LocalTime();
    return d;
  }
  ClusteringBound Bound() {
    const uint64_t header = Unsigned();
    ClusteringBound bound;
    bound.inclusive = header & 1;
    const uint64_t values = header >> 1;
    if (values > remaining()) Fail("a count beyond the input");
    for (uint64_t i = 0; i < values; ++i) bound.prefix.push_back(Blob());
    return bound;
  }

  // For the decoding functions outside the reader.
  [[noreturn]] static void Fail(const std::string& why) {
    throw std::runtime_error("Malformed serialized mutation: " + why);
  }

 private:
  std::optional<int64_t> base_;
};

CellWrite ReadCell(MutationReader& in) {
  CellWrite cw;
  const uint8_t flags = in.U8();
  if (flags & 0x80) MutationReader::Fail("unknown cell flags");
  cw.cell.kind = static_cast<Cell::Kind>(flags & kCellKindMask);
  cw.column = in.Blob();
  if (flags & kCellWriteHasPath) cw.path = in.Blob();
  if (flags & kCellHasTimestamp) cw.cell.timestamp = in.Timestamp();
  if (flags & kCellHasTtl) cw.cell.ttl = in.Int32();
  if (flags & kCellHasDeletionTime) cw.cell.local_deletion_time = in.LocalTime();
  if (flags & kCellHasValue) cw.cell.value = in.Blob();
  return cw;
}

RowWrite ReadRowWrite(MutationReader& in) {
  RowWrite row;
  const uint8_t flags = in.U8();
  if (flags & ~(kRowStatic | kRowHasMarker | kRowHasDeletion))
    MutationReader::Fail("unknown row flags");
  row.is_static = flags & kRowStatic;
  const size_t values = in.Count();
  for (size_t i = 0; i < values; ++i) row.clustering.push_back(in.Blob());
  if (flags & kRowHasMarker) {
    row.marker.timestamp = in.Timestamp();
    row.marker.ttl = in.Int32();
    row.marker.local_expiration_time = in.LocalTime();
  }
  if (flags & kRowHasDeletion) row.deletion = in.Deletion();
  const size_t deletions = in.Count();
  for (size_t i = 0; i < deletions; ++i) {
    CollectionDeletion cd;
    cd.column = in.Blob();
    cd.deletion = in.Deletion();
    row.collection_deletions.push_back(std::move(cd));
  }
  const size_t cells = in.Count();
  row.cells.reserve(cells);
  for (size_t i = 0; i < cells; ++i) row.cells.push_back(ReadCell(in));
  return row;
}

}  // namespace

void Mutation::SerializeTo(Bytes& out) const {
  const std::optional<int64_t> base = MinTimestamp(*this);
  Writer w(out, base.value_or(0));
  w.U8(kMutationFormatVersion);
  out.append(table_id.View());
  AppendBE64(out, static_cast<uint64_t>(partition.token));
  w.Blob(partition.key);
  const bool has_partition_deletion = partition_deletion != DeletionTime{};
  w.U8(static_cast<uint8_t>((has_partition_deletion ? kHasPartitionDeletion : 0) |
                            (base ? kHasTimestamps : 0)));
  if (base) w.Signed(*base);
  if (has_partition_deletion) w.Deletion(partition_deletion);

  w.Unsigned(range_tombstones.size());
  for (const auto& rt : range_tombstones) {
    w.Bound(rt.start);
    w.Bound(rt.end);
    w.Deletion(rt.deletion);
  }

  w.Unsigned(rows.size());
  for (const auto& row : rows) {
    const bool has_marker = row.marker != LivenessInfo{};
    const bool has_deletion = row.deletion != DeletionTime{};
    w.U8(static_cast<uint8_t>((row.is_static ? kRowStatic : 0) | (has_marker ? kRowHasMarker : 0) |
                              (has_deletion ? kRowHasDeletion : 0)));
    w.Unsigned(row.clustering.size());
    for (const auto& value : row.clustering) w.Blob(value);
    if (has_marker) {
      w.Timestamp(row.marker.timestamp);
      w.Signed(row.marker.ttl);
      w.LocalTime(row.marker.local_expiration_time);
    }
    if (has_deletion) w.Deletion(row.deletion);
    w.Unsigned(row.collection_deletions.size());
    for (const auto& cd : row.collection_deletions) {
      w.Blob(cd.column);
      w.Deletion(cd.deletion);
    }
    w.Unsigned(row.cells.size());
    for (const auto& cw : row.cells) {
      const Cell& c = cw.cell;
      const bool has_ts = c.timestamp != kNoTimestamp;
      const bool has_ttl = c.ttl != 0;
      const bool has_ldt = c.local_deletion_time != kNoDeletionTime;
      const bool has_value = !c.value.empty();
      w.U8(static_cast<uint8_t>(static_cast<uint8_t>(c.kind) | (cw.path ? kCellWriteHasPath : 0) |
                                (has_ts ? kCellHasTimestamp : 0) | (has_ttl ? kCellHasTtl : 0) |
                                (has_ldt ? kCellHasDeletionTime : 0) |
                                (has_value ? kCellHasValue : 0)));
      w.Blob(cw.column);
      if (cw.path) w.Blob(*cw.path);
      if (has_ts) w.Timestamp(c.timestamp);
      if (has_ttl) w.Signed(c.ttl);
      if (has_ldt) w.LocalTime(c.local_deletion_time);
      if (has_value) w.Blob(c.value);
    }
  }
}

Mutation Mutation::Deserialize(BytesView bytes) {
  MutationReader in(bytes);
  const uint8_t version = in.U8();
  if (version != kMutationFormatVersion) {
    throw std::runtime_error("Unsupported serialized mutation version " + std::to_string(version) +
                             " (this Sibyl reads version " +
                             std::to_string(kMutationFormatVersion) + ")");
  }
  Mutation m;
  m.table_id = types::Uuid::FromBytes(in.Fixed(16));
  m.partition.token = static_cast<int64_t>(LoadBE64(in.Fixed(8).data()));
  m.partition.key = in.Blob();
  const uint8_t flags = in.U8();
  if (flags & ~(kHasPartitionDeletion | kHasTimestamps))
    MutationReader::Fail("unknown mutation flags");
  if (flags & kHasTimestamps) in.set_base(in.Signed());
  if (flags & kHasPartitionDeletion) m.partition_deletion = in.Deletion();
  const size_t range_tombstones = in.Count();
  for (size_t i = 0; i < range_tombstones; ++i) {
    RangeTombstone rt;
    rt.start = in.Bound();
    rt.end = in.Bound();
    rt.deletion = in.Deletion();
    m.range_tombstones.push_back(std::move(rt));
  }
  const size_t rows = in.Count();
  m.rows.reserve(rows);
  for (size_t i = 0; i < rows; ++i) m.rows.push_back(ReadRowWrite(in));
  if (!in.at_end()) MutationReader::Fail("trailing bytes");
  return m;
}

}  // namespace sibyl::storage
