#pragma once
// Turns a Mutation into RocksDB Merge operations, one per record of the key
// layout (key_codec.h): nothing is read first, the merge operator reconciles
// with what is stored.

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "storage/data/mutation.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// Adds every change of `mutation` to `batch` for column family `family`.
// Throws std::invalid_argument (with reference_engine.h's messages) for a
// column the table does not have or of the wrong kind (static/regular), a
// path on a simple column or none on a multi-cell one, a counter delta in a
// non-counter column or a value in a counter column, or a clustering of the
// wrong size; nothing is added to the batch then.
void AddMutationToBatch(const TableLayout& table, rocksdb::ColumnFamilyHandle* family,
                        const Mutation& mutation, rocksdb::WriteBatch& batch);

}  // namespace sibyl::storage
