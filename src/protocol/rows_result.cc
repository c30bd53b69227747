// ROWS and PREPARED results: result metadata, prepared metadata, row streaming.

#include "protocol/response.h"
#include "protocol/wire_format.h"

namespace sibyl::protocol {

namespace {

constexpr int32_t kPreparedFlagGlobalTablesSpec = 0x0001;

// Cassandra sends one table spec for all columns when they share it.
bool AllInSameTable(const std::vector<ColumnSpec>& columns) {
  if (columns.empty()) return false;
  for (const ColumnSpec& c : columns) {
    if (c.keyspace != columns.front().keyspace || c.table != columns.front().table) return false;
  }
  return true;
}

void EncodeColumnSpecs(Bytes& out, const std::vector<ColumnSpec>& columns, bool global) {
  if (global) {
    AppendString(out, columns.front().keyspace);
    AppendString(out, columns.front().table);
  }
  for (const ColumnSpec& c : columns) {
    if (!global) {
      AppendString(out, c.keyspace);
      AppendString(out, c.table);
    }
    AppendString(out, c.name);
    c.type->EncodeOption(out);
  }
}

}  // namespace

void EncodeResultMetadata(Bytes& out, const std::vector<ColumnSpec>& columns, int version,
                          int32_t extra_flags, std::optional<BytesView> paging_state,
                          std::optional<BytesView> new_metadata_id) {
  int32_t flags = extra_flags;
  if (paging_state) flags |= kRowsFlagHasMorePages;
  // A changed result metadata id (v5) always comes with the full metadata.
  if (new_metadata_id && version >= 5) {
    flags |= kRowsFlagMetadataChanged;
    flags &= ~kRowsFlagNoMetadata;
  }
  const bool no_metadata = flags & kRowsFlagNoMetadata;
  const bool global = !no_metadata && AllInSameTable(columns);
  if (global) flags |= kRowsFlagGlobalTablesSpec;
  AppendBE32(out, static_cast<uint32_t>(flags));
  AppendBE32(out, static_cast<uint32_t>(columns.size()));
  if (paging_state) AppendBytes(out, *paging_state);
  if (flags & kRowsFlagMetadataChanged) AppendShortBytes(out, *new_metadata_id);
  if (!no_metadata) EncodeColumnSpecs(out, columns, global);
}

RowsWriter::RowsWriter(Bytes& out, const std::vector<ColumnSpec>& columns, int version,
                       bool skip_metadata, std::optional<BytesView> paging_state,
                       std::optional<BytesView> new_metadata_id)
    : out_(out), columns_(columns.size()) {
  AppendBE32(out_, static_cast<uint32_t>(ResultKind::kRows));
  EncodeResultMetadata(out_, columns, version, skip_metadata ? kRowsFlagNoMetadata : 0,
                       paging_state, new_metadata_id);
  count_offset_ = out_.size();
  AppendBE32(out_, 0);
}

void RowsWriter::AddValue(BytesView value) {
  AppendBytes(out_, value);
  if (++values_in_row_ == columns_) {
    values_in_row_ = 0;
    ++rows_;
  }
}

void RowsWriter::AddNull() {
  AppendNullBytes(out_);
  if (++values_in_row_ == columns_) {
    values_in_row_ = 0;
    ++rows_;
  }
}

void RowsWriter::Finish() { StoreBE32(out_.data() + count_offset_, static_cast<uint32_t>(rows_)); }

void EncodePreparedResult(Bytes& out, const PreparedResult& prepared, int version) {
  AppendBE32(out, static_cast<uint32_t>(ResultKind::kPrepared));
  AppendShortBytes(out, prepared.id);
  if (version >= 5) AppendShortBytes(out, prepared.result_metadata_id);

  // Prepared metadata: <flags><columns_count>[<pk_count><pk_index>... v4+][specs].
  const bool global = AllInSameTable(prepared.bind_variables);
  AppendBE32(out, static_cast<uint32_t>(global ? kPreparedFlagGlobalTablesSpec : 0));
  AppendBE32(out, static_cast<uint32_t>(prepared.bind_variables.size()));
  if (version >= 4) {
    AppendBE32(out, static_cast<uint32_t>(prepared.partition_key_indexes.size()));
    for (uint16_t index : prepared.partition_key_indexes) AppendBE16(out, index);
  }
  EncodeColumnSpecs(out, prepared.bind_variables, global);

  // Result metadata; a statement without result columns sends NO_METADATA
  // with no columns (Cassandra's ResultMetadata.EMPTY).
  if (prepared.result_columns.empty()) {
    AppendBE32(out, static_cast<uint32_t>(kRowsFlagNoMetadata));
    AppendBE32(out, 0);
  } else {
    EncodeResultMetadata(out, prepared.result_columns, version, 0, std::nullopt);
  }
}

}  // namespace sibyl::protocol
