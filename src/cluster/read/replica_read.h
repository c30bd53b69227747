#pragma once
// One step of a read — one partition, or one ring range of a scan — from
// its replicas (Cassandra's AbstractReadExecutor, ReadCallback,
// DigestResolver, DataResolver and BlockingReadRepair for one command):
//
//   1. block_for == 1: a data request to the first contact; its answer is
//      the step's. Counter tables read like the others: their replicas
//      hold the leaders' shards (storage/cells/counter_context.h), which merge
//      and repair without counting anything twice.
//   2. above ONE: a data request to the first contact, digest requests to
//      the next block_for - 1, all with the same (limited) command; every
//      digest equal to the data's answers the data — for a scan's range
//      too: replicas that agree answer a page at the cost of reading it.
//      Speculative retry (speculative_retry.h, partitions only) may ask
//      one contact more; then the first block_for answers (one of them
//      data) decide.
//   3. a mismatch: every asked contact's unfiltered data, the first
//      block_for answers reconciled (replica_reconciliation.h) and the
//      command answered from them. For a scan this reads the whole range
//      of each replica (Engine::ReadUnfiltered ignores limits), which
//      also spares Cassandra's short-read protection. Each of those
//      replicas that lacks some of the merge — of a scan, up to the end of
//      the page answered — gets it as READ_REPAIR, one per partition: with
//      read_repair 'BLOCKING' the step answers once every repair is
//      acknowledged, with 'NONE' nothing is sent.
//
// Errors (CqlError): ReadTimeout at the deadline — "Operation timed out -
// received only N responses.", N the answers of the phase it was in
// (repairs acknowledged, counted as block_for minus those pending, in
// phase 3's repair); ReadFailure as soon as a replica's failure leaves
// fewer than block_for possible answers.
//
// Thread-safety: replies and the deadline may arrive on any thread; state
// is under one mutex, never held while calling out (sending, the callback).
// The callback runs exactly once.

#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "cluster/cluster_services.h"
#include "cluster/read/read_replica_plan.h"
#include "cluster/read/speculative_retry.h"
#include "messaging/verb.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"
#include "storage/engine.h"

namespace sibyl::cluster {

// What every step of one read shares.
struct ReadContext {
  const ClusterServices* services = nullptr;
  storage::Engine* engine = nullptr;  // this node's: its replica reads go there directly
  ClusterViewPtr view;
  storage::TableLayout layout;
  uint16_t consistency = 0;
  bool blocking_repair = true;         // read_repair = 'BLOCKING'; false: 'NONE'
  SpeculativeRetry speculative_retry;  // the table's option (partition reads only)
  messaging::TimePoint deadline;       // the read's timeout, from its start
};

using ReadStepCallback = std::function<void(storage::ReadResult result, std::exception_ptr error)>;

// Reads `command` (one partition for Verb::kRead, one ring range for
// kRangeRead) from `plan`'s contacts. `done` may run before this returns
// only for an error found at once.
void ReadFromReplicas(std::shared_ptr<const ReadContext> context, messaging::Verb verb,
                      storage::ReadCommand command, ReadReplicaPlan plan, ReadStepCallback done);

}  // namespace sibyl::cluster
