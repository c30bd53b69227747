#pragma once
// The read path of one ReadCommand over one table's column family: named
// partitions (each read with the partition's prefix bloom filter) or a token
// range (one total-order scan), every partition read as its deletion, its
// range tombstones, its static row and the rows of each slice, each an
// iterator range. Limits, paging resumption and reversed order as in
// read_command.h. Reads see one snapshot.

#include <rocksdb/db.h>

#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// Throws std::runtime_error when RocksDB fails or a stored record is
// malformed.
ReadResult ReadTable(const TableLayout& table, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family,
                     const ReadCommand& command);

}  // namespace sibyl::storage
