#pragma once
// Builds one row as an unfiltered read returns it (Engine::ReadUnfiltered)
// from the row's stored records in key order (deletion, marker, then cells
// by column and path, each collection's deletion before its elements):
// what decides the row, tombstones included, without what the row's own
// deletions shadow or what is purgeable (unfiltered_purger.h).
//
// Thread-safety: one builder serves one read, on one thread.

#include <optional>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "storage/codec/key_codec.h"
#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"
#include "storage/read/unfiltered_purger.h"

namespace sibyl::storage {

class UnfilteredRowBuilder {
 public:
  // `columns`: the columns asked for (nullopt: all). The static row keeps
  // only the static ones asked for; a regular row keeps every regular
  // column, since any of them can keep the row alive.
  UnfilteredRowBuilder(const TableLayout& table,
                       const std::optional<std::vector<std::string>>& columns,
                       const UnfilteredPurger& purger);

  // Starts a row; `shadow` is the partition deletion and, for a regular
  // row, the range tombstones covering it.
  void Start(const DeletionTime& shadow, bool is_static);
  // One record of the row: its row-part key (key_codec.h) and stored value.
  // Throws std::runtime_error on a malformed record.
  void Add(BytesView row_part_key, BytesView value);
  // The row with `clustering`, or nullopt when nothing of it is left.
  std::optional<RowWrite> Finish(Clustering clustering);

 private:
  bool Wanted(const ColumnLayout& column) const;
  void AddCell(const RowPartKey& part, BytesView value);

  const TableLayout& table_;
  const std::optional<std::vector<std::string>>& columns_;
  const UnfilteredPurger& purger_;
  // Current row.
  RowWrite row_;
  DeletionTime shadow_;
  DeletionTime row_deletion_;  // shadow merged with the row's own deletion
  std::string column_;
  DeletionTime column_deletion_;
};

}  // namespace sibyl::storage
