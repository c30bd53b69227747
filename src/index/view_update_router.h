#pragma once
// Where the view updates a base replica derives must go. On one node every
// view update is applied in the base write's own batch. On a ring, base
// replica i of a partition sends the updates it derives to view replica i
// of the view partition (Cassandra's pairing): the cluster layer knows the
// ring, and implements this for the indexing engine (index/ does not
// depend on cluster/).
//
// Thread-safety: Route is called from any writing thread, under the base
// partition's lock; it must not block on I/O.

#include <string>
#include <vector>

#include "storage/data/mutation.h"
#include "types/uuid.h"

namespace sibyl::index {

class ViewUpdateRouter {
 public:
  virtual ~ViewUpdateRouter() = default;

  struct Targets {
    bool local = false;               // this node holds the view partition: apply here
    std::vector<types::Uuid> remote;  // host ids to send it to, through the outbox
    // This node replicates the base partition (a view check compares only
    // the view rows a node both derives and holds).
    bool base_replica = true;
  };
  // The view replicas that must receive an update of `view_partition`,
  // derived here from a write to `base_partition` of a table of `keyspace`.
  [[nodiscard]] virtual Targets Route(const std::string& keyspace,
                                      const storage::PartitionKey& base_partition,
                                      const storage::PartitionKey& view_partition) const = 0;
};

}  // namespace sibyl::index
