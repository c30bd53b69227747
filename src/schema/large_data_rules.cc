#include "schema/large_data_rules.h"

#include <array>
#include <cstdio>

#include "dht/token.h"
#include "schema/storage_layout.h"
#include "storage/codec/key_codec.h"
#include "types/cql_identifier.h"
#include "types/value_to_literal.h"

namespace sibyl::schema {
namespace {

using guardrails::GuardrailId;
using storage::ledger::PartitionFigures;

std::string Hex(BytesView bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out = "0x";
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::string Literal(const ColumnMetadata& column, BytesView value) {
  try {
    return types::ToCqlLiteral(*column.type, value);
  } catch (const std::exception&) {
    return Hex(value);
  }
}

// The columns of one kind, by position.
std::vector<const ColumnMetadata*> ColumnsOf(const TableMetadata& table, ColumnKind kind) {
  std::vector<const ColumnMetadata*> out;
  for (const ColumnMetadata& c : table.columns) {
    if (c.kind == kind) out.push_back(&c);
  }
  return out;
}

std::string NameList(const std::vector<const ColumnMetadata*>& columns) {
  std::string out;
  for (const ColumnMetadata* c : columns) {
    if (!out.empty()) out += ", ";
    out += types::MaybeQuoteIdentifier(c->name);
  }
  return out;
}

bool IsTimeLike(const ColumnMetadata& column) {
  const types::Kind kind = column.type->kind();
  return kind == types::Kind::kTimestamp || kind == types::Kind::kTimeuuid ||
         kind == types::Kind::kDate;
}

// The table's primary key with `bucket` added to the partition key.
std::string BucketedKey(const TableMetadata& table, std::string_view bucket) {
  const auto partition = ColumnsOf(table, ColumnKind::kPartitionKey);
  const auto clustering = ColumnsOf(table, ColumnKind::kClustering);
  std::string key = "PRIMARY KEY ((" + NameList(partition) + ", " + std::string(bucket) + ")";
  if (!clustering.empty()) key += ", " + NameList(clustering);
  return key + ")";
}

std::string_view ThresholdKind(bool failed) { return failed ? "fail" : "warning"; }

std::string Count(uint64_t n) {
  // 100000 -> "100,000", as the guides write their numbers.
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

}  // namespace

std::vector<BrokenRule> BrokenPartitionRules(const guardrails::Guardrails& guardrails,
                                             const PartitionFigures& partition) {
  std::vector<BrokenRule> broken;
  const std::array<std::pair<GuardrailId, uint64_t>, 4> measures = {{
      {GuardrailId::kPartitionSize, partition.bytes},
      {GuardrailId::kPartitionRows, partition.rows},
      {GuardrailId::kPartitionTombstones, partition.tombstones},
      {GuardrailId::kItemsPerCollection, partition.largest_collection_items},
  }};
  for (const auto& measure : measures) {
    // Not a structured binding: clang 14 cannot capture one in a lambda.
    const GuardrailId id = measure.first;
    const uint64_t value = measure.second;
    const int64_t fail = guardrails.FailThreshold(id);
    const int64_t warn = guardrails.WarnThreshold(id);
    const auto over = [&](int64_t threshold) {
      return threshold != guardrails::kDisabled && value > static_cast<uint64_t>(threshold);
    };
    if (over(fail)) {
      broken.push_back({id, true, value, fail});
    } else if (over(warn)) {
      broken.push_back({id, false, value, warn});
    }
  }
  return broken;
}

std::string LargePartitionMessage(const TableMetadata& table, BytesView prefix,
                                  const BrokenRule& rule) {
  const guardrails::GuardrailDefinition& definition = guardrails::Definition(rule.id);
  std::string evidence;
  switch (rule.id) {
    case GuardrailId::kPartitionSize:
      evidence = "has size " + DataSizeText(rule.value) + ", over the " +
                 std::string(ThresholdKind(rule.failed)) + " threshold of " +
                 DataSizeText(static_cast<uint64_t>(rule.threshold));
      break;
    case GuardrailId::kPartitionRows:
      evidence = "has " + Count(rule.value) + " rows";
      break;
    case GuardrailId::kPartitionTombstones:
      evidence = "has " + Count(rule.value) + " tombstones";
      break;
    default:
      evidence = "has a collection of " + Count(rule.value) + " items";
      break;
  }
  if (rule.id != GuardrailId::kPartitionSize) {
    evidence += ", over the " + std::string(ThresholdKind(rule.failed)) + " threshold of " +
                Count(static_cast<uint64_t>(rule.threshold));
  }
  return "Guardrail " + std::string(definition.name) + " violated: Partition " +
         table.QualifiedName() + " (" + PartitionPrefixText(table, prefix) + ") " + evidence +
         "; " + ModelFix(table, rule.id);
}

std::string PartitionKeyText(const TableMetadata& table, BytesView routing_key) {
  const auto columns = ColumnsOf(table, ColumnKind::kPartitionKey);
  std::vector<BytesView> values;
  if (columns.size() == 1) {
    values.push_back(routing_key);
  } else {
    values = dht::SplitCompositeRoutingKey(routing_key, columns.size());
    // A malformed key splits into empty components: shown raw instead.
    if (dht::CompositeRoutingKey(values) != routing_key) return Hex(routing_key);
  }
  if (values.size() != columns.size()) return Hex(routing_key);
  std::string out;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (!out.empty()) out += ", ";
    out += types::MaybeQuoteIdentifier(columns[i]->name) + "=" + Literal(*columns[i], values[i]);
  }
  return out;
}

std::string PartitionPrefixText(const TableMetadata& table, BytesView prefix) {
  const auto key = storage::DecodePartitionPrefix(prefix);
  return key ? PartitionKeyText(table, key->key) : Hex(prefix);
}

std::string ClusteringText(const TableMetadata& table, BytesView encoded) {
  if (encoded.empty()) return "";
  const auto columns = ColumnsOf(table, ColumnKind::kClustering);
  storage::Clustering values;
  try {
    values = storage::ReadClustering(MakeTableLayout(table), encoded);
  } catch (const std::exception&) {
    return Hex(encoded);
  }
  std::string out;
  for (size_t i = 0; i < values.size() && i < columns.size(); ++i) {
    if (!out.empty()) out += ", ";
    out += types::MaybeQuoteIdentifier(columns[i]->name) + "=" + Literal(*columns[i], values[i]);
  }
  return out;
}

std::string ModelFix(const TableMetadata& table, GuardrailId rule) {
  const auto clustering = ColumnsOf(table, ColumnKind::kClustering);
  const bool by_time = !clustering.empty() && IsTimeLike(*clustering.front());
  switch (rule) {
    case GuardrailId::kItemsPerCollection:
      return "collections should be small: store the items as rows, one per clustering key";
    case GuardrailId::kPartitionTombstones:
      if (by_time) {
        return "bucket it by time so old data leaves whole partitions: " +
               BucketedKey(table, "day");
      }
      return "delete whole partitions or clustering ranges, not rows and cells one by one, "
             "or split it: " +
             BucketedKey(table, "bucket");
    default:
      if (clustering.empty()) {
        return "keep large values out of one row: split them into chunks, one row per chunk";
      }
      if (by_time) return "bucket it by time: " + BucketedKey(table, "day");
      return "split it with a bucket in the partition key: " + BucketedKey(table, "bucket");
  }
}

std::string DataSizeText(uint64_t bytes) {
  static constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  uint64_t scale = 1;
  while (unit + 1 < kUnits.size() && bytes >= scale * 1024) {
    scale *= 1024;
    ++unit;
  }
  const uint64_t whole = bytes / scale;
  const uint64_t tenths = (bytes % scale) * 10 / scale;
  std::string out = std::to_string(whole);
  if (whole < 100 && tenths != 0) out += "." + std::to_string(tenths);
  return out + kUnits[unit];
}

}  // namespace sibyl::schema
