#pragma once
// Counts one partition's write acknowledgements the way its consistency
// level counts them (Cassandra's WriteResponseHandler,
// DatacenterWriteResponseHandler, DatacenterSyncWriteResponseHandler) and
// completes once, with:
//   - success when enough replicas acknowledged: block_for of them (only the
//     local datacenter's for LOCAL_ONE / LOCAL_QUORUM; each datacenter's
//     local quorum for EACH_QUORUM under NetworkTopologyStrategy);
//   - WriteFailure (0x1500) as soon as so many counted replicas failed that
//     block_for can no longer be reached;
//   - WriteTimeout when its timer fires first: "Operation timed out -
//     received only N responses.", N below block_for.
//
//   auto handler = std::make_shared<WriteResponseHandler>(counting, done);
//   handler->ArmTimeout(scheduler, timeout);
//   ... handler->OnAck(dc) / handler->OnFailure(dc, from, reason) per reply
//
// Thread-safety: every method may be called from any thread. `done` runs
// exactly once, on the thread that completed the handler, with no lock held.
// Invariant: once completed_ is set (under mutex_) the counts never change
// the outcome and the timer is cancelled.

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cluster/coordinator_types.h"
#include "messaging/failure_reason.h"
#include "messaging/peer_address.h"
#include "messaging/scheduler.h"

namespace sibyl::cluster {

// How one partition's write is counted, from the consistency level and the
// replicas alive when it was sent.
struct WriteCounting {
  uint16_t consistency = kConsistencyOne;
  WriteType type = WriteType::kSimple;
  int block_for = 1;
  std::string local_dc;
  // EACH_QUORUM under NetworkTopologyStrategy: each datacenter's quorum.
  // Empty otherwise: block_for counts acknowledgements from anywhere (or
  // from the local datacenter, for the DC-local levels).
  std::map<std::string, int, std::less<>> quorum_per_dc;
  // The counted replicas the write was sent to (or applied on), per
  // datacenter: how many may fail before block_for is out of reach.
  std::map<std::string, int, std::less<>> candidates_per_dc;
};

class WriteResponseHandler : public std::enable_shared_from_this<WriteResponseHandler> {
 public:
  using Done = std::function<void(std::exception_ptr error)>;

  WriteResponseHandler(WriteCounting counting, Done done);

  // Times the write out after `timeout` unless it completed before.
  // REQUIRES: called once; the scheduler outlives the timer.
  void ArmTimeout(messaging::Scheduler& scheduler, messaging::Duration timeout);
  // A replica of datacenter `dc` applied the write (or, for ANY, a hint was
  // written for it).
  void OnAck(std::string_view dc);
  // A replica answered with a failure.
  void OnFailure(std::string_view dc, const messaging::PeerAddress& from,
                 messaging::FailureReason reason);
  void OnTimeout();

  bool completed() const;

 private:
  // REQUIRES: mutex_ held.
  bool Counts(std::string_view dc) const;
  bool Satisfied() const;
  bool FailureIsCertain() const;
  std::exception_ptr TimeoutError() const;
  std::exception_ptr FailureError() const;
  // Completes with `error` (REQUIRES: mutex_ held, not completed); returns
  // what the caller must run after unlocking.
  Done TakeDone();
  void Finish(Done done, std::exception_ptr error);

  const WriteCounting counting_;

  mutable std::mutex mutex_;
  messaging::Scheduler* scheduler_ = nullptr;             // GUARDED_BY(mutex_)
  bool completed_ = false;                                // GUARDED_BY(mutex_)
  Done done_;                                             // GUARDED_BY(mutex_)
  messaging::TimerHandle timer_;                          // GUARDED_BY(mutex_)
  int acks_ = 0;                                          // GUARDED_BY(mutex_)
  std::map<std::string, int, std::less<>> acks_per_dc_;   // GUARDED_BY(mutex_)
  std::map<std::string, int, std::less<>> fails_per_dc_;  // GUARDED_BY(mutex_)
  std::vector<std::pair<messaging::PeerAddress, messaging::FailureReason>>
      failures_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::cluster
