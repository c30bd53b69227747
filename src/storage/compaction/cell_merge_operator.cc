#include "storage/compaction/cell_merge_operator.h"

#include <rocksdb/env.h>

#include "storage/cells/reconcile.h"

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

bool CellMergeOperator::FullMergeV2(const MergeOperationInput& merge_in,
                                    MergeOperationOutput* merge_out) const {
  const auto& operands = merge_in.operand_list;
  if (merge_in.existing_value == nullptr && operands.size() == 1) {
    merge_out->existing_operand = operands.front();
    return true;
  }
  // Otherwise fold the versions from the oldest, pairwise.
  std::string& result = merge_out->new_value;
  size_t next = 0;
  if (merge_in.existing_value != nullptr) {
    result.assign(merge_in.existing_value->data(), merge_in.existing_value->size());
  } else if (!operands.empty()) {
    result.assign(operands.front().data(), operands.front().size());
    next = 1;
  }
  std::string merged;
  for (; next < operands.size(); ++next) {
    const rocksdb::Slice so_far(result);
    if (!Merge(merge_in.key, &so_far, operands[next], &merged, merge_in.logger)) return false;
    result.swap(merged);
  }
  return true;
}

}  // namespace sibyl::storage
