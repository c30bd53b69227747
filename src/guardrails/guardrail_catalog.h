#pragma once
// Every guardrail Sibyl knows: Cassandra 4.1's and 5.0's (db/guardrails/
// Guardrails.java), with their names, cassandra.yaml keys, message texts and
// Sibyl's defaults, plus Sibyl's own (partition_rows). docs/guardrails.md
// lists them with where each is enforced.
//
// A guardrail is one of
//   - a threshold (max or min): `<stem>_warn_threshold` and
//     `<stem>_fail_threshold`, -1 (or empty, for sizes) disables;
//   - a flag: `<stem>_enabled`, false refuses the feature; some also have
//     `<stem>_warned`, true warns on each use (5.0's EnableFlag);
//   - a set of values: `<stem>_warned`, `_ignored`, `_disallowed`.
//
// Messages are Cassandra 5.0's: "Guardrail <name> violated: <text>", and a
// 5.0 guardrail's reason after it. Plain data, immutable: safe from any thread.

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sibyl::guardrails {

enum class GuardrailId : uint8_t {
  kKeyspaces,
  kTables,
  kColumnsPerTable,
  kSecondaryIndexesPerTable,
  kSecondaryIndexes,
  kMaterializedViewsPerTable,
  kTableProperties,
  kUserTimestamps,
  kGroupBy,
  kAlterTable,
  kDropTruncateTable,
  kDropKeyspace,
  kUncompressedTables,
  kCompactTables,
  kZeroTtlOnTwcs,
  kIntersectFilteringQuery,
  kPageSize,
  kPartitionKeysInSelect,
  kReadBeforeWriteListOperations,
  kAllowFiltering,
  kSimpleStrategy,
  kInSelectCartesianProduct,
  kReadConsistencyLevels,
  kWriteConsistencyLevels,
  kPartitionSize,
  kPartitionRows,
  kPartitionTombstones,
  kColumnValueSize,
  kCollectionSize,
  kItemsPerCollection,
  kFieldsPerUdt,
  kVectorType,
  kVectorDimensions,
  kLocalDataDiskUsage,
  kReplicaDiskUsage,
  kMinimumReplicationFactor,
  kMaximumReplicationFactor,
  kMaximumTimestamp,
  kMinimumTimestamp,
  kSaiSstableIndexesPerQuery,
  kSaiStringTermSize,
  kSaiFrozenTermSize,
  kSaiVectorTermSize,
  kNonPartitionRestrictedIndexQuery,
};
inline constexpr size_t kGuardrailCount =
    static_cast<size_t>(GuardrailId::kNonPartitionRestrictedIndexQuery) + 1;

enum class GuardrailKind : uint8_t {
  kMaxThreshold,  // value > threshold violates
  kMinThreshold,  // value < threshold violates
  kFlag,
  kValues,
};

// How a threshold's configured value reads and prints.
enum class ThresholdUnit : uint8_t {
  kCount,     // an integer, -1 disables, 0 refused
  kBytes,     // DataStorageSpec ("64KiB", "100B"); empty or null disables
  kDuration,  // DurationSpec in microseconds ("12h"); empty or null disables
  kPercent,   // 1..100, -1 disables; messages print "91%"
};

// A threshold's message: warning (true) or failure, with what was measured
// (`what`), its value and the threshold crossed, without the "Guardrail
// <name> violated: " prefix.
using ThresholdMessage = std::string (*)(bool warning, std::string_view what, int64_t value,
                                         int64_t threshold);

struct GuardrailDefinition {
  GuardrailId id = GuardrailId::kKeyspaces;
  std::string_view name;  // Guardrails.java's: "page_size", "allow_filtering", ...
  GuardrailKind kind = GuardrailKind::kMaxThreshold;
  // Keys are `<key_stem>_warn_threshold` etc. (see the header comment);
  // a flag's enabled key is `enabled_key`.
  std::string_view key_stem;
  ThresholdUnit unit = ThresholdUnit::kCount;
  ThresholdMessage message = nullptr;  // thresholds
  std::string_view feature;            // flags: "Querying with ALLOW FILTERING"
  std::string_view reason;             // Cassandra 5.0's, appended to messages; may be empty
  std::string_view enabled_key;        // flags
  bool has_warned_flag = false;        // flags with `<stem>_warned`
  bool has_ignored_values = false;     // values guardrails with `<stem>_ignored`
  // Sibyl's defaults, in cassandra.yaml's text form.
  std::string_view default_warn;  // thresholds ("-1", "100MiB", "" for a disabled size)
  std::string_view default_fail;
  bool default_enabled = true;  // flags
  bool default_warned = false;  // flags with `<stem>_warned`
  // Where Sibyl checks it, or why it cannot apply (docs, system_views.guardrails).
  std::string_view enforced;
};

// Every guardrail, in GuardrailId order.
std::span<const GuardrailDefinition> AllGuardrails();
const GuardrailDefinition& Definition(GuardrailId id);
const GuardrailDefinition* FindGuardrail(std::string_view name);

// Which setting of which guardrail a cassandra.yaml key names.
enum class GuardrailField : uint8_t {
  kWarnThreshold,
  kFailThreshold,
  kEnabled,
  kWarnedFlag,
  kWarnedValues,
  kIgnoredValues,
  kDisallowedValues,
  kMaxDiskSize,  // data_disk_usage_max_disk_size
};
struct GuardrailKey {
  GuardrailId id;
  GuardrailField field;
};
// The key's guardrail and field; nullopt when it is not a guardrail key.
// Also knows the older names Cassandra 5.0 still reads
// (compaction_large_partition_warning_threshold, ...).
std::optional<GuardrailKey> FindGuardrailKey(std::string_view key);
// The cassandra.yaml key of `field` (the current name).
std::string GuardrailKeyName(const GuardrailDefinition& definition, GuardrailField field);

}  // namespace sibyl::guardrails
