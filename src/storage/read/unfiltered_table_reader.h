#pragma once
// The unfiltered read (Engine::ReadUnfiltered, whose header states what it
// returns) of one table's column family: named partitions, each read with
// the partition's prefix bloom filter, or a token range in one total-order
// scan; in each partition its deletion, its range tombstones, its static
// row and the rows of each slice. Reads see one snapshot.

#include <rocksdb/db.h>

#include <vector>

#include "storage/data/mutation.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// Throws std::runtime_error when RocksDB fails or a stored record is
// malformed.
std::vector<Mutation> ReadTableUnfiltered(const TableLayout& table, rocksdb::DB& db,
                                          rocksdb::ColumnFamilyHandle* family,
                                          const ReadCommand& command);

}  // namespace sibyl::storage
