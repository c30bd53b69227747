#pragma once
// What a node's Paxos coordinator did since it started, for its /metrics
// (sibyl_paxos_*, docs/metrics.md): Cassandra's CASWrite / CASRead client
// request metrics (contention, timeouts, unavailables, unknown results,
// unfinished commits, conditions not met) and the rounds it sent.
//
// Thread-safety: every method from any thread; each count is one relaxed
// atomic add, and a reader sees each count's latest value, in no promised
// order between them.

#include <atomic>
#include <cstdint>

namespace sibyl::cluster::paxos {

// The kinds of operation Paxos runs for.
enum class PaxosOperation { kTransaction, kSerialRead, kSerialScan };
inline constexpr int kPaxosOperations = 3;
// The messages of a round.
enum class PaxosPhase { kPrepare, kPropose, kCommit };
inline constexpr int kPaxosPhases = 3;

struct PaxosOperationCounts {
  uint64_t started = 0;
  uint64_t contentions = 0;         // attempts lost to another proposer, retried
  uint64_t timeouts = 0;            // ended with a CAS WriteTimeout, or a ReadTimeout
  uint64_t unavailables = 0;        // refused: too few replicas alive
  uint64_t unknown_results = 0;     // CAS_WRITE_UNKNOWN
  uint64_t unfinished_commits = 0;  // another proposer's round finished first
  uint64_t conditions_not_met = 0;  // transactions only: [applied] false
  // Paxos v2: attempts decided on the reads the promises carried, nothing
  // in flight (no QUORUM read; no proposal for a read or failed condition).
  uint64_t decided_at_prepare = 0;
};

class PaxosMetrics {
 public:
  enum class Count {
    kStarted,
    kContention,
    kTimeout,
    kUnavailable,
    kUnknownResult,
    kUnfinishedCommit,
    kConditionNotMet,
    kDecidedAtPrepare
  };

  void Add(PaxosOperation operation, Count count) noexcept {
    counts_[static_cast<int>(operation)][static_cast<int>(count)].fetch_add(
        1, std::memory_order_relaxed);
  }
  void AddRound(PaxosPhase phase) noexcept {
    rounds_[static_cast<int>(phase)].fetch_add(1, std::memory_order_relaxed);
  }

  PaxosOperationCounts Counts(PaxosOperation operation) const noexcept {
    const auto& c = counts_[static_cast<int>(operation)];
    auto get = [&](Count count) {
      return c[static_cast<int>(count)].load(std::memory_order_relaxed);
    };
    return {get(Count::kStarted),         get(Count::kContention),
            get(Count::kTimeout),         get(Count::kUnavailable),
            get(Count::kUnknownResult),   get(Count::kUnfinishedCommit),
            get(Count::kConditionNotMet), get(Count::kDecidedAtPrepare)};
  }
  uint64_t Rounds(PaxosPhase phase) const noexcept {
    return rounds_[static_cast<int>(phase)].load(std::memory_order_relaxed);
  }

 private:
  static constexpr int kCounts = 8;
  std::atomic<uint64_t> counts_[kPaxosOperations][kCounts] = {};
  std::atomic<uint64_t> rounds_[kPaxosPhases] = {};
};

}  // namespace sibyl::cluster::paxos
