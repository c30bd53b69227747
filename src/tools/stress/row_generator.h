#pragma once
// Which row an operation touches and what the row holds, as pure functions of
// the operation number, so that two runs with the same options write and read
// the same data (a read run finds what a write run wrote).
//
// The key space is partitions × rows_per_partition rows, numbered
// partition-major: row r is partition r / K, clustering r % K. The partition
// key and clustering column hold those numbers as bigints.

#include <cstdint>

#include "common/bytes.h"

namespace sibyl::tools {

struct RowKey {
  int64_t partition = 0;
  int64_t clustering = 0;
  bool operator==(const RowKey&) const = default;
};

// splitmix64's finalizer: a bijection on 64-bit integers with good spread.
[[nodiscard]] uint64_t MixBits(uint64_t x);

class RowGenerator {
 public:
  // REQUIRES: partitions >= 1, rows_per_partition >= 1, their product < 2^63,
  // value_size >= 0.
  RowGenerator(uint64_t partitions, uint64_t rows_per_partition, int value_size);

  uint64_t rows() const { return rows_; }
  // Row n mod rows(): operations 0, 1, 2, ... visit every row once in order.
  [[nodiscard]] RowKey Sequential(uint64_t n) const;
  // A row chosen uniformly (by hashing n) over the key space.
  [[nodiscard]] RowKey Uniform(uint64_t n) const;
  // A partition chosen uniformly (by hashing n).
  [[nodiscard]] int64_t UniformPartition(uint64_t n) const;
  // The value of `column` in the row `key`: value_size bytes that depend only
  // on the key and the column. A view into the generator's pool.
  [[nodiscard]] BytesView Value(const RowKey& key, int column) const;

 private:
  RowKey KeyOfRow(uint64_t row) const;

  uint64_t partitions_;
  uint64_t rows_per_partition_;
  uint64_t rows_;
  size_t value_size_;
  // value_size + kSlack deterministic bytes; a value is a window into it.
  Bytes pool_;
};

}  // namespace sibyl::tools
