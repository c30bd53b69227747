#include "storage/rocksdb/table_family_options.h"

#include <rocksdb/convenience.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/table.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "storage/codec/key_codec.h"
#include "storage/compaction/cell_merge_operator.h"
#include "storage/ledger/ledger_properties_collector.h"

namespace sibyl::storage {
namespace {

class PartitionPrefixTransform final : public rocksdb::SliceTransform {
 public:
  // Stored in the database's OPTIONS: do not change it.
  const char* Name() const override { return "SibylPartitionPrefix"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return {key.data(), PartitionPrefixLength(BytesView(key.data(), key.size()))};
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return PartitionPrefixLength(BytesView(key.data(), key.size())) != 0;
  }
};

}  // namespace

std::shared_ptr<const rocksdb::SliceTransform> PartitionPrefixExtractor() {
  static const auto extractor = std::make_shared<PartitionPrefixTransform>();
  return extractor;
}

rocksdb::CompressionType CompressionFor(const std::string& compression) {
  rocksdb::CompressionType type;
  if (compression == "lz4") {
    type = rocksdb::kLZ4Compression;
  } else if (compression == "snappy") {
    type = rocksdb::kSnappyCompression;
  } else if (compression == "zstd") {
    type = rocksdb::kZSTD;
  } else if (compression == "deflate") {
    type = rocksdb::kZlibCompression;
  } else if (compression == "none" || compression.empty()) {
    return rocksdb::kNoCompression;
  } else {
    throw std::runtime_error("unknown compression " + compression);
  }
  auto supported = rocksdb::GetSupportedCompressions();
  if (std::find(supported.begin(), supported.end(), type) == supported.end()) {
    throw std::runtime_error("compression " + compression + " is not available in this build");
  }
  return type;
}

std::string CompressionOptionValue(const std::string& compression) {
  switch (CompressionFor(compression)) {
    case rocksdb::kLZ4Compression:
      return "kLZ4Compression";
    case rocksdb::kSnappyCompression:
      return "kSnappyCompression";
    case rocksdb::kZSTD:
      return "kZSTD";
    case rocksdb::kZlibCompression:
      return "kZlibCompression";
    default:
      return "kNoCompression";
  }
}

rocksdb::ColumnFamilyOptions TableFamilyOptions(const StorageOptions& options,
                                                const std::shared_ptr<rocksdb::Cache>& cache,
                                                std::shared_ptr<TablePurgeState> purge_state) {
  static const auto merge_operator = std::make_shared<CellMergeOperator>();
  rocksdb::ColumnFamilyOptions family;
  family.merge_operator = merge_operator;
  family.table_properties_collector_factories.push_back(
      std::make_shared<ledger::LedgerPropertiesCollectorFactory>(purge_state));
  family.compaction_filter_factory =
      std::make_shared<PurgeCompactionFilterFactory>(std::move(purge_state));
  family.prefix_extractor = PartitionPrefixExtractor();
  family.memtable_prefix_bloom_size_ratio = 0.02;
  if (options.compaction == "leveled") {
    family.compaction_style = rocksdb::kCompactionStyleLevel;
  } else if (options.compaction == "size_tiered" || options.compaction == "time_window") {
    family.compaction_style = rocksdb::kCompactionStyleUniversal;
  } else {
    throw std::runtime_error("unknown compaction " + options.compaction);
  }
  family.compression = CompressionFor(options.compression);

  rocksdb::BlockBasedTableOptions table;
  table.block_cache = cache;
  table.block_size = static_cast<size_t>(std::max(options.chunk_length_kb, 1)) * 1024;
  table.whole_key_filtering = false;  // reads seek by partition prefix
  if (options.bloom_filter_fp_chance > 0 && options.bloom_filter_fp_chance < 1.0) {
    // Optimal bits per key for a false-positive chance p: -ln(p) / ln(2)^2.
    double bits = -std::log(options.bloom_filter_fp_chance) / (std::log(2.0) * std::log(2.0));
    table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(std::max(1.0, bits)));
  }
  family.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
  return family;
}

Bytes EncodeStorageOptions(const StorageOptions& options) {
  std::ostringstream out;
  out.precision(17);
  out << "v1 " << options.gc_grace_seconds << ' ' << options.bloom_filter_fp_chance << ' '
      << options.compaction << ' '
      << (options.compression.empty() ? std::string("none") : options.compression) << ' '
      << options.chunk_length_kb;
  return out.str();
}

std::optional<StorageOptions> DecodeStorageOptions(BytesView bytes) {
  std::istringstream in{std::string(bytes)};
  std::string version;
  StorageOptions options;
  if (!(in >> version) || version != "v1") return std::nullopt;
  if (!(in >> options.gc_grace_seconds >> options.bloom_filter_fp_chance >> options.compaction >>
        options.compression >> options.chunk_length_kb)) {
    return std::nullopt;
  }
  return options;
}

}  // namespace sibyl::storage
