#pragma once
// The rows of stored tables, read from the storage engine through the
// coordinator. A SELECT's bound restrictions narrow the read:
//   - every partition key column bound by = or IN: those partitions (the
//     cartesian product of the values, up to kMaxNamedPartitions), else a
//     scan of the whole token ring;
//   - clustering columns bound by = or IN from the first one on, then
//     optionally a slice (<, <=, >, >=) on the next: one clustering slice
//     per prefix; anything else reads the whole partition.
// What is not narrowed here is filtered by the SELECT itself (RowFilter), so
// the source may return more rows than match, never fewer.
//
// Rows come back in TableMetadata::columns layout: key values decoded from
// the partition key and clustering, static values repeated on every row of
// the partition, and each non-frozen collection or UDT rebuilt from its
// per-element cells into the serialized value a client expects (list
// elements in their timeuuid order, set elements and map entries in the key
// type's order, UDT fields by position, missing fields null). Cells of a
// dropped column written before the drop are ignored, so a column added
// again under the same name starts empty.

#include <cstddef>
#include <optional>

#include "cluster/coordinator.h"
#include "query/row_source.h"
#include "storage/read_command.h"

namespace sibyl::query {

class StorageRowSource final : public RowSource {
 public:
  // Above this many partitions from IN values, the read scans the ring.
  static constexpr size_t kMaxNamedPartitions = 10000;
  // Above this many clustering prefixes from IN values, the read takes whole partitions.
  static constexpr size_t kMaxClusteringSlices = 10000;

  // `coordinator` must outlive the source.
  explicit StorageRowSource(cluster::Coordinator& coordinator) : coordinator_(coordinator) {}

  std::vector<schema::Row> Read(const ReadRequest& request) const override;

  // The engine read for `request`; nullopt when nothing can match (`k IN ()`).
  // Exposed for tests.
  [[nodiscard]] static std::optional<storage::ReadCommand> MakeReadCommand(
      const ReadRequest& request, int32_t now_seconds);
  // The rows of `result` for `request` (exposed for tests).
  [[nodiscard]] static std::vector<schema::Row> ToRows(const ReadRequest& request,
                                                       const storage::ReadResult& result);

 private:
  cluster::Coordinator& coordinator_;
};

}  // namespace sibyl::query
