#pragma once
// How a table's options (StorageOptions) map onto its column family, and how
// they are remembered between runs (a column family's compaction style can
// only be chosen when it is opened, so Open needs them before opening).
//
//   compaction    size_tiered, time_window -> universal; leveled -> level
//   compression   lz4, snappy, zstd, deflate (zlib), none
//   chunk_length_kb                 -> block size
//   bloom_filter_fp_chance          -> bloom filter bits per key on the
//                                      partition prefix (1.0: no filter)
//
// Every table's family also gets the cell merge operator, the purge
// compaction filter and the partition prefix extractor.

#include <rocksdb/cache.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>

#include <memory>
#include <optional>

#include "common/bytes.h"
#include "storage/compaction/purge_compaction_filter.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage {

// The prefix extractor: a key's partition prefix (key_codec.h).
std::shared_ptr<const rocksdb::SliceTransform> PartitionPrefixExtractor();

// Throws std::runtime_error for an option RocksDB cannot honour (unknown
// compaction or compression, a compression this RocksDB was built without).
rocksdb::ColumnFamilyOptions TableFamilyOptions(const StorageOptions& options,
                                                const std::shared_ptr<rocksdb::Cache>& cache,
                                                std::shared_ptr<TablePurgeState> purge_state);

rocksdb::CompressionType CompressionFor(const std::string& compression);
// The same as DB::SetOptions spells it ("kLZ4Compression", ...).
std::string CompressionOptionValue(const std::string& compression);

// The stored form of a table's options (kept in the default column family).
Bytes EncodeStorageOptions(const StorageOptions& options);
std::optional<StorageOptions> DecodeStorageOptions(BytesView bytes);

}  // namespace sibyl::storage
