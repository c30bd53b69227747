#pragma once
// What a node's system_views.partition_stats says of the partitions of its
// tables' flushed data, one row per table and measure:
//
//   system_views.partition_stats (keyspace_name text, table_name text,
//       measure text, partitions bigint, min bigint, p50 bigint, p75 bigint,
//       p95 bigint, p98 bigint, p99 bigint, max bigint,
//       PRIMARY KEY ((keyspace_name), table_name, measure))
//
// with measure 'bytes', 'rows', 'cells' or 'tombstones' (per partition); a
// table without flushed data has no rows. tablestats and tablehistograms
// show the 'bytes' and 'cells' measures. A node may not have the table
// (an older node): then nothing about partitions is known, which is not the
// same as a table without flushed data.

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace sibyl::tools::admin {

// A distribution as the node's tables give it: how many values, and their
// minimum, percentiles and maximum (partition_stats, table_latencies).
struct Percentiles {
  int64_t count = 0;
  int64_t min = 0;
  int64_t p50 = 0;
  int64_t p75 = 0;
  int64_t p95 = 0;
  int64_t p98 = 0;
  int64_t p99 = 0;
  int64_t max = 0;
};

// One row: the distribution of one measure over a table's partitions
// (count: the partitions).
using PartitionMeasure = Percentiles;

struct PartitionStats {
  // False when the node has no system_views.partition_stats.
  bool available = false;
  // (keyspace, table) → measure → its row.
  std::map<std::pair<std::string, std::string>, std::map<std::string, PartitionMeasure>> tables;

  // The row of `measure` for the table; nullptr when there is none.
  [[nodiscard]] const PartitionMeasure* Find(const std::string& keyspace, const std::string& table,
                                             const std::string& measure) const;
};

}  // namespace sibyl::tools::admin
