#pragma once
// Builds one row as a read returns it from the row's stored records (in key
// order: deletion, marker, then cells by column and path), applying the
// deletions in force and TTL expiry at the read's `now`.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

class RowBuilder {
 public:
  // `columns`: the regular/static columns to return (nullopt: all). Cells of
  // other columns still make a row live, as Cassandra fetches every column
  // to decide row liveness.
  RowBuilder(const TableLayout& table, const std::optional<std::vector<std::string>>& columns,
             int32_t now_seconds);

  // Starts a row; `shadow` is the partition deletion and the range
  // tombstones covering it.
  void Start(const DeletionTime& shadow);
  // One record of the row: its row-part key (key_codec.h) and stored value.
  // Throws std::runtime_error on a malformed record.
  void Add(BytesView row_part_key, BytesView value);
  // The live row (with `clustering`), or nullopt when nothing of it lives:
  // a regular row lives by its marker or any live cell; the static row only
  // by a live cell of a requested column (INSERT writes it no marker).
  std::optional<ReadRow> Finish(Clustering clustering, bool is_static);

  // Deleted or expired things seen so far (Cassandra's tombstone count).
  int64_t tombstones() const { return tombstones_; }

 private:
  bool Wanted(const std::string& column) const;

  const TableLayout& table_;
  const std::optional<std::vector<std::string>>& columns_;
  int32_t now_;
  int64_t tombstones_ = 0;
  // Current row.
  DeletionTime row_deletion_;  // shadow merged with the row's own deletion
  LivenessInfo marker_;
  bool has_live_cell_ = false;
  std::vector<ReadCell> cells_;
  std::string column_;
  DeletionTime column_deletion_;
};

}  // namespace sibyl::storage
