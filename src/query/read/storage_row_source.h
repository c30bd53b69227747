#pragma once
// The rows of stored tables, read from the storage engine through the
// coordinator. The request's ReadPlan narrows the read: named partitions are
// read one after the other in the plan's order (one engine read each, so
// `k IN (...)` answers in the IN's sorted order, not in token order), a
// token range in one engine read; clustering slices, reversal, the pushed
// down columns, the limits and the resume position go to the engine as they
// are, so a page costs what its rows cost, whatever the partition's size.
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
#include "query/read/row_source.h"
#include "storage/data/read_command.h"

namespace sibyl::query {

class StorageRowSource final : public RowSource {
 public:
  // `coordinator` must outlive the source.
  explicit StorageRowSource(cluster::Coordinator& coordinator) : coordinator_(coordinator) {}

  [[nodiscard]] RowPage Read(const ReadRequest& request) const override;

  // The engine read for `request` over the plan's token range or the named
  // partitions it sets itself (exposed for tests).
  [[nodiscard]] static storage::ReadCommand MakeReadCommand(const ReadRequest& request,
                                                            int32_t now_seconds);
  // The rows of `result` for `request` (exposed for tests).
  [[nodiscard]] static std::vector<schema::Row> ToRows(const ReadRequest& request,
                                                       const storage::ReadResult& result);

 private:
  cluster::Coordinator& coordinator_;
};

}  // namespace sibyl::query
