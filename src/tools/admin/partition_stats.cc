#include "tools/admin/partition_stats.h"

namespace sibyl::tools::admin {

const PartitionMeasure* PartitionStats::Find(const std::string& keyspace, const std::string& table,
                                             const std::string& measure) const {
  const auto it = tables.find({keyspace, table});
  if (it == tables.end()) return nullptr;
  const auto row = it->second.find(measure);
  return row == it->second.end() ? nullptr : &row->second;
}

}  // namespace sibyl::tools::admin
