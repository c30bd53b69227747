#pragma once
// The guides' rules the large-data ledger measures (storage/ledger/), read
// against the live guardrails, and how the database says a partition breaks
// one: the rule, the key, the evidence and the fix in the guides' words.
//
//   for (const auto& broken : BrokenPartitionRules(guardrails, figures))
//     warnings.push_back(LargePartitionMessage(table, figures.prefix, broken));
//   // "Guardrail partition_size violated: Partition iot.readings (sensor=42)
//   //  has size 131MiB, over the warning threshold of 100MiB; bucket it by
//   //  time: PRIMARY KEY ((sensor, day), ts)"
//
// Rules and thresholds:
//   partition_size        the partition's bytes      partition_size_warn/fail_threshold
//   partition_rows        its rows                   partition_rows_warn/fail_threshold
//   partition_tombstones  its tombstones             partition_tombstones_warn/fail_threshold
//   items_per_collection  its largest collection     items_per_collection_warn/fail_threshold
// The measure is the ledger's: the partition summed over the table's live
// SSTables (large_data_ledger.h).

#include <cstdint>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "guardrails/guardrails.h"
#include "schema/table_metadata.h"
#include "storage/data/mutation.h"
#include "storage/ledger/partition_figures.h"

namespace sibyl::schema {

struct BrokenRule {
  guardrails::GuardrailId id;
  bool failed = false;  // over the fail threshold (else over the warn one)
  uint64_t value = 0;
  int64_t threshold = 0;
};

// The rules `partition` breaks under the guardrails now, in the order above.
[[nodiscard]] std::vector<BrokenRule> BrokenPartitionRules(
    const guardrails::Guardrails& guardrails, const storage::ledger::PartitionFigures& partition);

// The client warning (or, `failed`, the error) for a partition that breaks `rule`.
// `prefix` is the partition's key prefix as the ledger keeps it.
[[nodiscard]] std::string LargePartitionMessage(const TableMetadata& table, BytesView prefix,
                                                const BrokenRule& rule);

// "sensor=42", "a=1, b='x'": a partition key's columns and values as CQL
// literals; the raw key in hex when it does not decode.
[[nodiscard]] std::string PartitionKeyText(const TableMetadata& table, BytesView routing_key);
// The same from a ledger key prefix (token + escaped routing key).
[[nodiscard]] std::string PartitionPrefixText(const TableMetadata& table, BytesView prefix);
// "ts='2024-01-02T03:04:05.000Z'" from an encoded clustering (storage's
// byte-comparable form); "" for none (the static row).
[[nodiscard]] std::string ClusteringText(const TableMetadata& table, BytesView encoded);

// What the guides advise for a table breaking `rule`, e.g. "bucket it by
// time: PRIMARY KEY ((sensor, day), ts)".
[[nodiscard]] std::string ModelFix(const TableMetadata& table, guardrails::GuardrailId rule);

// "131MiB", "512KiB", "100B": sizes as cassandra.yaml spells them (whole
// units, rounded down, the largest unit that keeps a whole number >= 1).
[[nodiscard]] std::string DataSizeText(uint64_t bytes);

}  // namespace sibyl::schema
