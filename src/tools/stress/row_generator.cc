#include "tools/stress/row_generator.h"

#include "common/check.h"

namespace sibyl::tools {

namespace {
// Distinct windows into the value pool: values differ between rows without
// generating bytes per operation.
constexpr size_t kSlack = 251;
// Keeps Uniform's choices apart from the sequential order.
constexpr uint64_t kUniformSalt = 0x5eed5eed5eed5eedULL;
}  // namespace

uint64_t MixBits(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

RowGenerator::RowGenerator(uint64_t partitions, uint64_t rows_per_partition, int value_size)
    : partitions_(partitions),
      rows_per_partition_(rows_per_partition),
      rows_(partitions * rows_per_partition),
      value_size_(static_cast<size_t>(value_size)) {
  SIBYL_CHECK(partitions >= 1 && rows_per_partition >= 1 && value_size >= 0);
  pool_.resize(value_size_ + kSlack);
  for (size_t i = 0; i < pool_.size(); ++i) pool_[i] = static_cast<char>(MixBits(i));
}

RowKey RowGenerator::KeyOfRow(uint64_t row) const {
  return RowKey{static_cast<int64_t>(row / rows_per_partition_),
                static_cast<int64_t>(row % rows_per_partition_)};
}

RowKey RowGenerator::Sequential(uint64_t n) const { return KeyOfRow(n % rows_); }

RowKey RowGenerator::Uniform(uint64_t n) const {
  return KeyOfRow(MixBits(n ^ kUniformSalt) % rows_);
}

int64_t RowGenerator::UniformPartition(uint64_t n) const {
  return static_cast<int64_t>(MixBits(n ^ kUniformSalt) % partitions_);
}

BytesView RowGenerator::Value(const RowKey& key, int column) const {
  const uint64_t h =
      MixBits(static_cast<uint64_t>(key.partition) * 0x9e3779b97f4a7c15ULL ^
              static_cast<uint64_t>(key.clustering) << 20 ^ static_cast<uint64_t>(column));
  return BytesView(pool_).substr(h % kSlack, value_size_);
}

}  // namespace sibyl::tools
