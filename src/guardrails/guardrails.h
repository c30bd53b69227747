#pragma once
// The guardrails' live settings, and the checks statements make against them.
//
//   Guardrails guardrails;                              // Sibyl's defaults
//   guardrails.Set("page_size_fail_threshold", "5000"); // cassandra.yaml text
//   guardrails.Guard(GuardrailId::kPageSize, page_size, "t", &warnings);
//   guardrails.EnsureEnabled(GuardrailId::kAllowFiltering, &warnings);
//
// A check that warns appends "Guardrail <name> violated: ..." to the
// client's warnings; one that fails appends the same text (Cassandra sends
// it with the error too) and throws CqlError(kInvalid) with it, as 5.0's
// GuardrailViolatedException. Fail is checked before warn.
//
// Unlike Cassandra, whose query-time guardrails skip superusers and, with
// the default AllowAllAuthenticator, every client, Sibyl's apply to every
// client: they are how the database tells its users about the guides' rules.
//
// Thread-safety: checks may run on any thread while Set runs on another
// (an UPDATE of system_views.guardrails): each value is an atomic, and a
// check reads each once. The texts shown and the table-property sets are
// behind a mutex that no check on a read or write path takes.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "guardrails/disk_usage.h"
#include "guardrails/guardrail_catalog.h"

namespace sibyl::guardrails {

// A value a threshold never takes: the threshold is off.
inline constexpr int64_t kDisabled = -1;

class Guardrails {
 public:
  Guardrails();
  Guardrails(const Guardrails&) = delete;
  Guardrails& operator=(const Guardrails&) = delete;

  // Sets a cassandra.yaml guardrail key from its text ("5000", "64KiB",
  // "true", "ALL, ANY" or "[ALL, ANY]"). Throws std::invalid_argument with
  // GuardrailsOptions' message for a bad value, or for a warn threshold
  // that would pass its fail threshold (ValidatePair).
  void Set(std::string_view key, std::string_view value);
  // Sets several keys at once, all or none: a configuration file's keys, or
  // one UPDATE's columns (a warn and a fail threshold are checked as a pair
  // after both changed, so their order does not matter).
  void Apply(const std::vector<std::pair<std::string, std::string>>& settings);
  // Checks one key's value alone, as Set would, without changing anything
  // (and without the pair check, which needs every key of a file).
  static void CheckValue(std::string_view key, std::string_view value);
  // The value of `key` as cassandra.yaml would spell it; nullopt for a
  // disabled size or duration (Cassandra's null).
  std::optional<std::string> Get(std::string_view key) const;
  // Every guardrail key with its value, sorted by key (system_views.settings).
  std::vector<std::pair<std::string, std::optional<std::string>>> AllSettings() const;

  // Thresholds ----------------------------------------------------------
  // The threshold values now (kDisabled when off); a guardrail's warn and
  // fail come from one Set, but a check may see one from before it.
  int64_t WarnThreshold(GuardrailId id) const { return Slot(id).warn.load(kRelaxed); }
  int64_t FailThreshold(GuardrailId id) const { return Slot(id).fail.load(kRelaxed); }
  // True when either threshold is on, so a caller can skip measuring.
  bool Active(GuardrailId id) const {
    return WarnThreshold(id) != kDisabled || FailThreshold(id) != kDisabled;
  }
  // Checks `value` against the thresholds (above them for a max threshold,
  // below for a min one). `what` is the message's subject ("t", "ks").
  void Guard(GuardrailId id, int64_t value, std::string_view what,
             std::vector<std::string>* warnings) const;
  // As Guard, against thresholds the caller derived from the settings (the
  // timestamp guardrails compare with now ± the configured duration).
  // A threshold of nullopt is off.
  void GuardAgainst(GuardrailId id, int64_t value, std::string_view what,
                    std::optional<int64_t> warn_threshold, std::optional<int64_t> fail_threshold,
                    std::vector<std::string>* warnings) const;

  // Flags ------------------------------------------------------------------
  bool Enabled(GuardrailId id) const { return Slot(id).enabled.load(kRelaxed); }
  // Fails when the feature is disabled ("<feature> is not allowed"), warns
  // when `<stem>_warned` is true ("<feature> is not recommended").
  // `feature` replaces the catalog's text where Cassandra's call site does.
  void EnsureEnabled(GuardrailId id, std::vector<std::string>* warnings,
                     std::string_view feature = {}) const;

  // Values -----------------------------------------------------------------
  // read_consistency_levels / write_consistency_levels with the levels of
  // one request (protocol codes, e.g. the consistency and the serial
  // consistency of a write).
  void GuardConsistencyLevels(GuardrailId id, std::span<const uint16_t> levels,
                              std::vector<std::string>* warnings) const;
  // table_properties with the property names a statement's WITH sets; returns
  // those to ignore (table_properties_ignored), after warning about them.
  std::set<std::string> GuardTableProperties(const std::set<std::string>& properties,
                                             std::vector<std::string>* warnings) const;

  // Disk usage (disk_usage.h) ----------------------------------------------
  // data_disk_usage_max_disk_size in bytes; nullopt when not set.
  std::optional<uint64_t> MaxDiskSize() const;
  // The size of the data directory's file system: from now on a
  // data_disk_usage_max_disk_size over it is refused, with Cassandra's
  // message. Zero (the default): not known, not checked.
  void SetDiskCapacity(uint64_t bytes);
  // The state local_data_disk_usage's thresholds give a usage of `percent`.
  DiskUsageState ClassifyDiskUsage(int64_t percent) const;
  // local_data_disk_usage checked with no client to tell (the node's disk
  // usage monitor): the decorated message to log, or nullopt when under the
  // thresholds or when told within the notify interval. Never throws.
  struct Violation {
    bool failed = false;
    std::string message;
  };
  std::optional<Violation> CheckLocalDiskUsage(int64_t percent) const;
  // replica_disk_usage for one replica of a write, in the state its
  // heartbeats (or, for this node, its monitor) last gave: fails when FULL,
  // warns when STUFFED.
  void GuardReplicaDiskUsage(DiskUsageState replica, std::vector<std::string>* warnings) const;

  // Cassandra's minNotifyIntervalInMs: the guardrail tells its warnings, and
  // the text of its failures, at most once per interval, whoever the client
  // (a failure still fails). Zero, the default: every time. The node gives
  // the disk usage guardrails disk_usage_notify_interval, as Cassandra gives
  // them cassandra.disk_usage.notify_interval_ms (30 minutes).
  void SetMinNotifyInterval(GuardrailId id, std::chrono::milliseconds interval);

  // "Guardrail <name> violated: <message>" with the guardrail's reason.
  static std::string Decorate(const GuardrailDefinition& definition, std::string_view message);

 private:
  static constexpr std::memory_order kRelaxed = std::memory_order_relaxed;

  struct State {
    std::atomic<int64_t> warn{kDisabled};
    std::atomic<int64_t> fail{kDisabled};
    std::atomic<bool> enabled{true};
    std::atomic<bool> warned{false};
    // Consistency levels as bits of their protocol codes.
    std::atomic<uint32_t> warned_levels{0};
    std::atomic<uint32_t> disallowed_levels{0};
    // The notify interval, and when (steady clock, ms) a warning and a
    // failure were last told; kNever before the first.
    std::atomic<int64_t> min_notify_interval_ms{0};
    mutable std::atomic<int64_t> last_warn_ms{kNever};
    mutable std::atomic<int64_t> last_fail_ms{kNever};
  };
  static constexpr int64_t kNever = INT64_MIN / 2;

  // The text each key was last given, as Get shows it, and the value sets;
  // under mutex_.
  struct Texts {
    std::string warn, fail;
    std::set<std::string> warned, ignored, disallowed;
  };

  const State& Slot(GuardrailId id) const { return states_[static_cast<size_t>(id)]; }
  State& Slot(GuardrailId id) { return states_[static_cast<size_t>(id)]; }
  // Whether a warning (or a failure's text) of `id` is told now; records it.
  bool ShouldNotify(GuardrailId id, bool warning) const;
  void Warn(const GuardrailDefinition& definition, std::string_view message,
            std::vector<std::string>* warnings) const;
  [[noreturn]] void Fail(const GuardrailDefinition& definition, std::string_view message,
                         std::vector<std::string>* warnings) const;

  std::array<State, kGuardrailCount> states_;
  mutable std::mutex mutex_;
  std::array<Texts, kGuardrailCount> texts_;  // guarded by mutex_
  std::string max_disk_size_;                 // data_disk_usage_max_disk_size; guarded by mutex_
  std::atomic<int64_t> max_disk_size_bytes_{kDisabled};  // the same in bytes
  std::atomic<uint64_t> disk_capacity_bytes_{0};
};

}  // namespace sibyl::guardrails
