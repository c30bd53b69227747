#pragma once
// What the node has told its clients about their data model: each rule a
// statement broke (a guardrail's warning or failure, the large-data
// ledger's partition rules, the tombstone, batch and aggregation warnings
// Cassandra sends), counted per rule and table, with the last statement
// that broke it and when it was first and last broken.
// system_views.model_warnings shows it (schema/model_warnings_table.h).
//
//   model_warnings.RecordWarnings(client_warnings, "ks", "t", statement_text, now_millis);
//
// Kept in memory since the node started, at most kMaxEntries (rule, table)
// pairs (later pairs are not kept; their counts go to existing ones only).
//
// Thread-safety: every method may be called from any thread. Recording takes
// a mutex, and only requests that drew a warning record.

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace sibyl::guardrails {

struct ModelWarning {
  std::string rule;  // a guardrail's name, or the setting a Cassandra warning names
  std::string keyspace;
  std::string table;  // empty when the statement had no single table (a batch over several)
  uint64_t count = 0;
  std::string example;       // the last statement that broke it
  std::string last_message;  // what the client was told
  int64_t first_seen_millis = 0;
  int64_t last_seen_millis = 0;
};

class ModelWarnings {
 public:
  static constexpr size_t kMaxEntries = 10000;
  static constexpr size_t kMaxExampleLength = 1000;

  // The rule a client warning (or a guardrail's error text) reports; nullopt
  // for a warning that reports no rule of the data model (e.g. tracing).
  static std::optional<std::string> RuleOf(std::string_view message);

  // Records each of `messages` that reports a rule (RuleOf).
  void RecordWarnings(const std::vector<std::string>& messages, std::string_view keyspace,
                      std::string_view table, std::string_view statement, int64_t now_millis);

  // Every entry, by rule, keyspace and table.
  std::vector<ModelWarning> Entries() const;

 private:
  using Key = std::tuple<std::string, std::string, std::string>;
  mutable std::mutex mutex_;
  std::map<Key, ModelWarning> entries_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::guardrails
