#pragma once
// The RocksDB merge operator that reconciles the versions of one key
// (reconcile.h). Every write is a Merge, so applying a mutation reads
// nothing first; RocksDB folds the versions together on reads, flushes and
// compactions. Never throws (RocksDB callbacks must not).

#include <rocksdb/merge_operator.h>

#include <memory>

namespace sibyl::storage {

class CellMergeOperator final : public rocksdb::AssociativeMergeOperator {
 public:
  // A name stored in the database's OPTIONS: do not change it.
  const char* Name() const override { return "SibylCellMergeOperator"; }
  bool Merge(const rocksdb::Slice& key, const rocksdb::Slice* existing_value,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger* logger) const override;
  // A key written once and not yet compacted (every point read of fresh
  // data) merges one operand and no base: the result is that operand, handed
  // back by reference instead of copied.
  bool FullMergeV2(const MergeOperationInput& merge_in,
                   MergeOperationOutput* merge_out) const override;
};

}  // namespace sibyl::storage
