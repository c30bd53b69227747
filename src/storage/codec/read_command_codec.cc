#include "storage/codec/read_command_codec.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "storage/data/serial_reader.h"
#include "types/vint.h"

namespace sibyl::storage {
namespace {

constexpr uint8_t kReadCommandFormatVersion = 1;

constexpr uint8_t kCommandReversed = 1;
constexpr uint8_t kCommandHasColumns = 2;
constexpr uint8_t kCommandHasResume = 4;
constexpr uint8_t kCommandNamesPartitions = 8;
constexpr uint8_t kCommandHasIndex = 16;
constexpr uint8_t kCommandHasEntryValue = 32;  // only with kCommandHasIndex
constexpr uint8_t kCommandFlags = 63;

constexpr uint8_t kPositionHasLastRow = 1;
constexpr uint8_t kPositionLastWasStatic = 2;
constexpr uint8_t kPositionFlags = 3;

constexpr uint8_t kResultHasNext = 1;
constexpr uint8_t kPartitionHasStatic = 1;
constexpr uint8_t kReadCellHasPath = 1;

// ---- writing ----

void U8(Bytes& out, uint8_t v) { AppendU8(out, v); }
void Unsigned(Bytes& out, uint64_t v) { types::AppendUnsignedVint(out, v); }
void Signed(Bytes& out, int64_t v) { types::AppendSignedVint(out, v); }
void Blob(Bytes& out, BytesView v) {
  Unsigned(out, v.size());
  out.append(v);
}
void WriteKey(Bytes& out, const PartitionKey& key) {
  Signed(out, key.token);
  Blob(out, key.key);
}
void WriteValues(Bytes& out, const Clustering& values) {
  Unsigned(out, values.size());
  for (const auto& value : values) Blob(out, value);
}
void WriteBound(Bytes& out, const ClusteringBound& bound) {
  Unsigned(out, uint64_t{bound.prefix.size()} << 1 | (bound.inclusive ? 1 : 0));
  for (const auto& value : bound.prefix) Blob(out, value);
}
void WritePosition(Bytes& out, const ReadPosition& position) {
  U8(out, (position.last_row ? kPositionHasLastRow : 0) |
              (position.last_was_static ? kPositionLastWasStatic : 0));
  WriteKey(out, position.partition);
  if (position.last_row) WriteValues(out, *position.last_row);
  Signed(out, position.rows_in_partition);
}
void WriteRow(Bytes& out, const ReadRow& row) {
  WriteValues(out, row.clustering);
  Signed(out, row.marker.timestamp);
  Signed(out, row.marker.ttl);
  Signed(out, row.marker.local_expiration_time);
  Unsigned(out, row.cells.size());
  for (const ReadCell& cell : row.cells) {
    U8(out, cell.path ? kReadCellHasPath : 0);
    Blob(out, cell.column);
    if (cell.path) Blob(out, *cell.path);
    Blob(out, cell.value);
    Signed(out, cell.timestamp);
    Signed(out, cell.ttl);
    Signed(out, cell.local_expiration_time);
  }
}

// ---- reading ----

class ReadCommandReader : public SerialReader {
 public:
  ReadCommandReader(BytesView in, const char* what) : SerialReader(in, what) {}

  void Version() {
    const uint8_t version = U8();
    if (version != kReadCommandFormatVersion) Fail("unknown version " + std::to_string(version));
  }
  void End() const {
    if (!at_end()) Fail(std::to_string(remaining()) + " bytes left over");
  }
  uint8_t Flags(uint8_t known) {
    const uint8_t flags = U8();
    if ((flags & ~known) != 0) Fail("unknown flags");
    return flags;
  }

  PartitionKey Key() {
    PartitionKey key;
    key.token = Signed();
    key.key = Blob();
    return key;
  }
  Clustering Values() {
    Clustering values;
    for (size_t i = 0, n = Count(); i < n; ++i) values.push_back(Blob());
    return values;
  }
  ClusteringBound Bound() {
    const uint64_t header = Unsigned();
    ClusteringBound bound;
    bound.inclusive = (header & 1) != 0;
    if ((header >> 1) > remaining()) Fail("a count beyond the input");
    for (uint64_t i = 0; i < header >> 1; ++i) bound.prefix.push_back(Blob());
    return bound;
  }
  ReadPosition Position() {
    const uint8_t flags = Flags(kPositionFlags);
    ReadPosition position;
    position.last_was_static = (flags & kPositionLastWasStatic) != 0;
    position.partition = Key();
    if (flags & kPositionHasLastRow) position.last_row = Values();
    position.rows_in_partition = Int32();
    return position;
  }
  ReadRow Row() {
    ReadRow row;
    row.clustering = Values();
    row.marker.timestamp = Signed();
    row.marker.ttl = Int32();
    row.marker.local_expiration_time = Int32();
    for (size_t i = 0, n = Count(); i < n; ++i) {
      ReadCell& cell = row.cells.emplace_back();
      const uint8_t flags = Flags(kReadCellHasPath);
      cell.column = Blob();
      if (flags & kReadCellHasPath) cell.path = Blob();
      cell.value = Blob();
      cell.timestamp = Signed();
      cell.ttl = Int32();
      cell.local_expiration_time = Int32();
    }
    return row;
  }
};

}  // namespace

void SerializeReadCommand(const ReadCommand& command, Bytes& out) {
  U8(out, kReadCommandFormatVersion);
  out.append(command.table_id.View());
  const bool named = !command.partitions.empty();
  U8(out, (command.reversed ? kCommandReversed : 0) | (command.columns ? kCommandHasColumns : 0) |
              (command.resume_after ? kCommandHasResume : 0) |
              (named ? kCommandNamesPartitions : 0) | (command.index ? kCommandHasIndex : 0) |
              (command.index && command.index->entry_value ? kCommandHasEntryValue : 0));
  if (named) {
    Unsigned(out, command.partitions.size());
    for (const auto& key : command.partitions) WriteKey(out, key);
  } else {
    Signed(out, command.range.start);
    Signed(out, command.range.end);
  }
  Unsigned(out, command.slices.size());
  for (const auto& slice : command.slices) {
    WriteBound(out, slice.start);
    WriteBound(out, slice.end);
  }
  if (command.columns) {
    Unsigned(out, command.columns->size());
    for (const auto& column : *command.columns) Blob(out, column);
  }
  Signed(out, command.row_limit);
  Signed(out, command.per_partition_limit);
  Signed(out, command.partition_limit);
  if (command.resume_after) WritePosition(out, *command.resume_after);
  Signed(out, command.now_seconds);
  if (command.index) {
    out.append(command.index->index_id.View());
    Blob(out, command.index->value);
    if (command.index->entry_value) Blob(out, *command.index->entry_value);
  }
}

ReadCommand DeserializeReadCommand(BytesView bytes) {
  ReadCommandReader in(bytes, "read command");
  in.Version();
  ReadCommand command;
  command.table_id = types::Uuid::FromBytes(in.Fixed(16));
  const uint8_t flags = in.Flags(kCommandFlags);
  command.reversed = (flags & kCommandReversed) != 0;
  if (flags & kCommandNamesPartitions) {
    const size_t n = in.Count();
    if (n == 0) in.Fail("no partitions named");
    for (size_t i = 0; i < n; ++i) command.partitions.push_back(in.Key());
  } else {
    command.range.start = in.Signed();
    command.range.end = in.Signed();
  }
  for (size_t i = 0, n = in.Count(); i < n; ++i) {
    ClusteringSlice& slice = command.slices.emplace_back();
    slice.start = in.Bound();
    slice.end = in.Bound();
  }
  if (flags & kCommandHasColumns) {
    command.columns.emplace();
    for (size_t i = 0, n = in.Count(); i < n; ++i) command.columns->push_back(in.Blob());
  }
  command.row_limit = in.Int32();
  command.per_partition_limit = in.Int32();
  command.partition_limit = in.Int32();
  if (flags & kCommandHasResume) command.resume_after = in.Position();
  command.now_seconds = in.Int32();
  if (flags & kCommandHasIndex) {
    if (flags & kCommandNamesPartitions) in.Fail("an index read names partitions");
    IndexQuery& index = command.index.emplace();
    index.index_id = types::Uuid::FromBytes(in.Fixed(16));
    index.value = in.Blob();
    if (flags & kCommandHasEntryValue) index.entry_value = in.Blob();
  } else if (flags & kCommandHasEntryValue) {
    in.Fail("an entry value without an index");
  }
  in.End();
  return command;
}

void SerializeReadResult(const ReadResult& result, Bytes& out) {
  U8(out, kReadCommandFormatVersion);
  U8(out, result.next ? kResultHasNext : 0);
  Unsigned(out, result.partitions.size());
  for (const ReadPartition& partition : result.partitions) {
    WriteKey(out, partition.key);
    U8(out, partition.static_row ? kPartitionHasStatic : 0);
    if (partition.static_row) WriteRow(out, *partition.static_row);
    Unsigned(out, partition.rows.size());
    for (const ReadRow& row : partition.rows) WriteRow(out, row);
  }
  if (result.next) WritePosition(out, *result.next);
  Signed(out, result.tombstones_scanned);
}

ReadResult DeserializeReadResult(BytesView bytes) {
  ReadCommandReader in(bytes, "read result");
  in.Version();
  ReadResult result;
  const uint8_t flags = in.Flags(kResultHasNext);
  for (size_t i = 0, n = in.Count(); i < n; ++i) {
    ReadPartition& partition = result.partitions.emplace_back();
    partition.key = in.Key();
    if (in.Flags(kPartitionHasStatic) & kPartitionHasStatic) partition.static_row = in.Row();
    for (size_t j = 0, rows = in.Count(); j < rows; ++j) partition.rows.push_back(in.Row());
  }
  if (flags & kResultHasNext) result.next = in.Position();
  result.tombstones_scanned = in.Signed();
  in.End();
  return result;
}

}  // namespace sibyl::storage
