#include "guardrails/model_warnings.h"

namespace sibyl::guardrails {
namespace {

// Cassandra's warnings that carry no guardrail name, by how they start or
// what they contain, and the setting (or rule) each reports.
struct KnownWarning {
  std::string_view text;
  bool prefix;  // else: contained anywhere
  std::string_view rule;
};
constexpr KnownWarning kKnownWarnings[] = {
    {"tombstone warnings for query", false, "tombstone_warn_threshold"},
    {"(see tombstone_failure_threshold)", false, "tombstone_failure_threshold"},
    {"Batch for ", true, "batch_size_warn_threshold"},
    {"Unlogged batch covering ", true, "unlogged_batch_across_partitions_warn_threshold"},
    {"Executing a LOGGED BATCH on ", true, "logged_batch_with_gc_grace_seconds_0"},
    {"Aggregation query used without partition key", true, "aggregation_without_partition_key"},
    {"Aggregation query used on multiple partition keys", true,
     "aggregation_on_multiple_partition_keys"},
};

}  // namespace

std::optional<std::string> ModelWarnings::RuleOf(std::string_view message) {
  constexpr std::string_view kGuardrail = "Guardrail ";
  constexpr std::string_view kViolated = " violated";
  if (message.starts_with(kGuardrail)) {
    const size_t end = message.find(kViolated, kGuardrail.size());
    if (end != std::string_view::npos) {
      return std::string(message.substr(kGuardrail.size(), end - kGuardrail.size()));
    }
  }
  for (const KnownWarning& known : kKnownWarnings) {
    const bool matches = known.prefix ? message.starts_with(known.text)
                                      : message.find(known.text) != std::string_view::npos;
    if (matches) return std::string(known.rule);
  }
  return std::nullopt;
}

void ModelWarnings::RecordWarnings(const std::vector<std::string>& messages,
                                   std::string_view keyspace, std::string_view table,
                                   std::string_view statement, int64_t now_millis) {
  for (const std::string& message : messages) {
    std::optional<std::string> rule = RuleOf(message);
    if (!rule) continue;
    std::lock_guard lock(mutex_);
    Key key{*rule, std::string(keyspace), std::string(table)};
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      if (entries_.size() >= kMaxEntries) continue;
      it = entries_.emplace(key, ModelWarning{}).first;
      it->second.rule = std::move(*rule);
      it->second.keyspace = keyspace;
      it->second.table = table;
      it->second.first_seen_millis = now_millis;
    }
    ModelWarning& entry = it->second;
    ++entry.count;
    entry.example = statement.substr(0, kMaxExampleLength);
    entry.last_message = message;
    entry.last_seen_millis = now_millis;
  }
}

std::vector<ModelWarning> ModelWarnings::Entries() const {
  std::lock_guard lock(mutex_);
  std::vector<ModelWarning> out;
  out.reserve(entries_.size());
  for (const auto& [key, entry] : entries_) out.push_back(entry);
  return out;
}

}  // namespace sibyl::guardrails
