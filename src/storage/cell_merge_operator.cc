#include "storage/cell_merge_operator.h"

#include <rocksdb/env.h>

#include "storage/reconcile.h"

namespace sibyl::storage {

bool CellMergeOperator::Merge(const rocksdb::Slice& /*key*/, const rocksdb::Slice* existing_value,
                              const rocksdb::Slice& value, std::string* new_value,
                              rocksdb::Logger* logger) const {
  if (existing_value == nullptr) {
    new_value->assign(value.data(), value.size());
    return true;
  }
  if (!ReconcileValues(BytesView(existing_value->data(), existing_value->size()),
                       BytesView(value.data(), value.size()), *new_value)) {
    if (logger != nullptr) {
      rocksdb::Log(rocksdb::InfoLogLevel::ERROR_LEVEL, logger,
                   "sibyl: cannot reconcile malformed or mismatched values");
    }
    return false;
  }
  return true;
}

}  // namespace sibyl::storage
