#pragma once
// The read path of a coordinator in a cluster (Cassandra's
// StorageProxy.read / readRegular / getRangeSlice, AbstractReadExecutor,
// DigestResolver, DataResolver, BlockingReadRepair):
//   - a partition read: the live replicas of the partition sorted by
//     proximity (this node, its datacenter, the others), Unavailable when
//     fewer than block_for; a data request to the first, digest requests to
//     the others; matching digests answer; a mismatch reads every contacted
//     replica's unfiltered data, reconciles it, repairs the replicas that
//     differ (read_repair = 'BLOCKING' waits for them, 'NONE' does not) and
//     answers the reconciled rows; ReadTimeout (received, block_for,
//     data_present) after read_request_timeout; speculative retry per the
//     table's option. Several named partitions are read one after the
//     other, answered in token order as the engine answers them;
//   - a range read: the ring's ranges covering the command's token range, in
//     token order, each read at the consistency level from its replicas,
//     merged, with paging and limits across them (range_request_timeout).
//
// The pieces, in read/:
//   read_replica_plan      which replicas, Unavailable
//   replica_read           one partition or ring range from its replicas:
//                          digests, reconciliation, repair, speculation,
//                          ReadTimeout / ReadFailure
//   replica_reconciliation merge of unfiltered answers, repair diffs
//   stepwise_read, read_result_accumulator
//                          partitions / ranges one after the other, limits
//   ring_ranges            a token range split along the ring
//   speculative_retry      the table option
//   read_request_codec, replica_read_handler
//                          the READ / RANGE_READ / READ_REPAIR verbs
//   table_lookup           a table of the schema by its id
//
// The replica side (READ, RANGE_READ and READ_REPAIR handlers) is
// registered by RegisterReplicaHandlers.
//
// Thread-safety: Read may be called from any thread; callbacks run on
// messaging or scheduler threads and must not block. A read whose replica
// is this node reads the local engine on a scheduler thread (a task
// posted to it), as a remote replica's handler does on a messaging thread.
// The callback runs exactly once; on an error found before any request is
// sent (Unavailable, an unknown table) it runs inside Read.

#include <exception>
#include <functional>

#include "cluster/cluster_services.h"
#include "common/clock.h"
#include "storage/data/read_command.h"
#include "storage/engine.h"

namespace sibyl::cluster {

class ReadCoordinator {
 public:
  // `error` is null on success (then `result` is the answer), else the
  // CqlError (Unavailable, ReadTimeout, ReadFailure, ...) the client gets.
  using Callback = std::function<void(storage::ReadResult result, std::exception_ptr error)>;

  // All must outlive the coordinator.
  ReadCoordinator(const ClusterServices& services, storage::Engine& engine, Clock& clock);

  void Read(storage::ReadCommand command, uint16_t consistency, Callback done);

  // The replica side of reads, for this node's messaging service.
  // REQUIRES: before messaging.Start().
  static void RegisterReplicaHandlers(messaging::MessagingService& messaging,
                                      storage::Engine& engine);

 private:
  ClusterServices services_;
  storage::Engine& engine_;
  Clock& clock_;
};

}  // namespace sibyl::cluster
