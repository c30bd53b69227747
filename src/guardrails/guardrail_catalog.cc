#include "guardrails/guardrail_catalog.h"

#include <map>

namespace sibyl::guardrails {
namespace {

std::string Str(int64_t value) { return std::to_string(value); }
std::string Level(bool warning) { return warning ? "warning" : "failure"; }

// The texts of Guardrails.java (5.0), one function a message shape.

std::string KeyspacesMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return warning ? "Creating keyspace " + std::string(what) + ", current number of keyspaces " +
                       Str(value) + " exceeds warning threshold of " + Str(threshold) + "."
                 : "Cannot have more than " + Str(threshold) +
                       " keyspaces, aborting the creation of keyspace " + std::string(what);
}
std::string TablesMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning ? "Creating table " + std::string(what) + ", current number of tables " +
                       Str(value) + " exceeds warning threshold of " + Str(threshold) + "."
                 : "Cannot have more than " + Str(threshold) +
                       " tables, aborting the creation of table " + std::string(what);
}
std::string ColumnsMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning ? "The table " + std::string(what) + " has " + Str(value) +
                       " columns, this exceeds the warning threshold of " + Str(threshold) + "."
                 : "Tables cannot have more than " + Str(threshold) + " columns, but " +
                       Str(value) + " provided for table " + std::string(what);
}
std::string IndexesMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning
             ? "Creating secondary index " + std::string(what) + ", current number of indexes " +
                   Str(value) + " exceeds warning threshold of " + Str(threshold) + "."
             : "Tables cannot have more than " + Str(threshold) +
                   " secondary indexes, aborting the creation of secondary index " +
                   std::string(what);
}
std::string ViewsMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning
             ? "Creating materialized view " + std::string(what) + ", current number of views " +
                   Str(value) + " exceeds warning threshold of " + Str(threshold) + "."
             : "Tables cannot have more than " + Str(threshold) +
                   " materialized views, aborting the creation of materialized view " +
                   std::string(what);
}
std::string PageSizeMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning ? "Query for table " + std::string(what) + " with page size " + Str(value) +
                       " exceeds warning threshold of " + Str(threshold) + "."
                 : "Aborting query for table " + std::string(what) + ", page size " + Str(value) +
                       " exceeds fail threshold of " + Str(threshold) + ".";
}
std::string PartitionKeysMessage(bool warning, std::string_view what, int64_t value,
                                 int64_t threshold) {
  return warning ? "Query with partition keys in IN clause on table " + std::string(what) +
                       ", with number of partition keys " + Str(value) +
                       " exceeds warning threshold of " + Str(threshold) + "."
                 : "Aborting query with partition keys in IN clause on table " + std::string(what) +
                       ", number of partition keys " + Str(value) + " exceeds fail threshold of " +
                       Str(threshold) + ".";
}
std::string CartesianMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return warning ? "The cartesian product of the IN restrictions on " + std::string(what) +
                       " produces " + Str(value) + " values, this exceeds warning threshold of " +
                       Str(threshold) + "."
                 : "Aborting query because the cartesian product of the IN restrictions on " +
                       std::string(what) + " produces " + Str(value) +
                       " values, this exceeds fail threshold of " + Str(threshold) + ".";
}
// Where the large-data ledger's rules apply (schema/large_data_rules.h,
// query/statements/large_partition_guard.h).
constexpr const char* kLedgerEnforced =
    "every statement touching a partition the large-data ledger measured over it: warns; over "
    "fail, refuses writes that add data";

std::string PartitionSizeMessage(bool warning, std::string_view what, int64_t value,
                                 int64_t threshold) {
  return "Partition " + std::string(what) + " has size " + Str(value) + ", this exceeds the " +
         Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string PartitionRowsMessage(bool warning, std::string_view what, int64_t value,
                                 int64_t threshold) {
  return "Partition " + std::string(what) + " has " + Str(value) + " rows, this exceeds the " +
         Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string PartitionTombstonesMessage(bool warning, std::string_view what, int64_t value,
                                       int64_t threshold) {
  return "Partition " + std::string(what) + " has " + Str(value) +
         " tombstones, this exceeds the " + Level(warning) + " threshold of " + Str(threshold) +
         ".";
}
std::string ValueSizeMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return "Value of column '" + std::string(what) + "' has size " + Str(value) +
         ", this exceeds the " + Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string CollectionSizeMessage(bool warning, std::string_view what, int64_t value,
                                  int64_t threshold) {
  return "Detected collection " + std::string(what) + " of size " + Str(value) +
         ", this exceeds the " + Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string CollectionItemsMessage(bool warning, std::string_view what, int64_t value,
                                   int64_t threshold) {
  return "Detected collection " + std::string(what) + " with " + Str(value) +
         " items, this exceeds the " + Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string FieldsMessage(bool warning, std::string_view what, int64_t value, int64_t threshold) {
  return warning ? "The user type " + std::string(what) + " has " + Str(value) +
                       " columns, this exceeds the warning threshold of " + Str(threshold) + "."
                 : "User types cannot have more than " + Str(threshold) + " columns, but " +
                       Str(value) + " provided for user type " + std::string(what) + ".";
}
std::string VectorDimensionsMessage(bool warning, std::string_view what, int64_t value,
                                    int64_t threshold) {
  return std::string(what) + " has a vector of " + Str(value) + " dimensions, this exceeds the " +
         Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string DiskUsageMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return "Local data disk usage " + Str(value) + "%(" + std::string(what) + ") exceeds " +
         (warning ? "warning threshold of " + Str(threshold) + "%"
                  : "failure threshold of " + Str(threshold) + "%, will stop accepting writes");
}
std::string MinimumRfMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return "The keyspace " + std::string(what) + " has a replication factor of " + Str(value) +
         ", below the " + Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string MaximumRfMessage(bool warning, std::string_view what, int64_t value,
                             int64_t threshold) {
  return "The keyspace " + std::string(what) + " has a replication factor of " + Str(value) +
         ", above the " + Level(warning) + " threshold of " + Str(threshold) + ".";
}
std::string MaximumTimestampMessage(bool warning, std::string_view what, int64_t value,
                                    int64_t threshold) {
  return "The modification to table " + std::string(what) + " has a timestamp " + Str(value) +
         " after the maximum allowable " + Level(warning) + " threshold " + Str(threshold);
}
std::string MinimumTimestampMessage(bool warning, std::string_view what, int64_t value,
                                    int64_t threshold) {
  return "The modification to table " + std::string(what) + " has a timestamp " + Str(value) +
         " before the minimum allowable " + Level(warning) + " threshold " + Str(threshold);
}
std::string SaiIndexesMessage(bool warning, std::string_view what, int64_t value,
                              int64_t threshold) {
  return "The number of SSTable indexes queried on index " + std::string(what) + " violated " +
         Level(warning) + " threshold value " + Str(threshold) + " with value " + Str(value);
}

constexpr std::string_view kNoSai =
    "not enforced: Sibyl has no storage-attached indexes (CREATE CUSTOM INDEX refuses them)";
constexpr std::string_view kNoVector = "not enforced: Sibyl has no vector type";

using K = GuardrailKind;
using U = ThresholdUnit;
using G = GuardrailId;

constexpr GuardrailDefinition Threshold(G id, std::string_view name, K kind, U unit,
                                        ThresholdMessage message, std::string_view enforced,
                                        std::string_view warn = "-1", std::string_view fail = "-1",
                                        std::string_view reason = {}) {
  const bool size_like = unit == U::kBytes || unit == U::kDuration;
  GuardrailDefinition d;
  d.id = id;
  d.name = name;
  d.kind = kind;
  d.key_stem = name;
  d.unit = unit;
  d.message = message;
  d.reason = reason;
  d.default_warn = warn == "-1" && size_like ? std::string_view() : warn;
  d.default_fail = fail == "-1" && size_like ? std::string_view() : fail;
  d.enforced = enforced;
  return d;
}

constexpr GuardrailDefinition Flag(G id, std::string_view name, std::string_view enabled_key,
                                   std::string_view feature, std::string_view enforced,
                                   std::string_view reason = {}, bool warned_flag = false,
                                   bool default_warned = false) {
  GuardrailDefinition d;
  d.id = id;
  d.name = name;
  d.kind = K::kFlag;
  // The `_warned` key's stem: the name without a trailing "_enabled".
  constexpr std::string_view kEnabled = "_enabled";
  d.key_stem = name.ends_with(kEnabled) ? name.substr(0, name.size() - kEnabled.size()) : name;
  d.feature = feature;
  d.reason = reason;
  d.enabled_key = enabled_key;
  d.has_warned_flag = warned_flag;
  d.default_warned = default_warned;
  d.enforced = enforced;
  return d;
}

constexpr GuardrailDefinition ValuesGuardrail(G id, std::string_view name, std::string_view what,
                                              bool ignored, std::string_view enforced) {
  GuardrailDefinition d;
  d.id = id;
  d.name = name;
  d.kind = K::kValues;
  d.key_stem = name;
  d.feature = what;
  d.has_ignored_values = ignored;
  d.enforced = enforced;
  return d;
}

// Every guardrail, in GuardrailId order (Definition() indexes it by id).
// constexpr, so it is built at compile time, before any static
// initializer elsewhere could read it.
constexpr std::array<GuardrailDefinition, kGuardrailCount> kGuardrailCatalog{
    Threshold(G::kKeyspaces, "keyspaces", K::kMaxThreshold, U::kCount, KeyspacesMessage,
              "CREATE KEYSPACE: the user keyspaces there would be"),
    Threshold(G::kTables, "tables", K::kMaxThreshold, U::kCount, TablesMessage,
              "CREATE TABLE: the user tables and views there would be"),
    Threshold(G::kColumnsPerTable, "columns_per_table", K::kMaxThreshold, U::kCount, ColumnsMessage,
              "CREATE TABLE, ALTER TABLE ADD: the table's columns"),
    Threshold(G::kSecondaryIndexesPerTable, "secondary_indexes_per_table", K::kMaxThreshold,
              U::kCount, IndexesMessage, "CREATE INDEX: the table's indexes there would be"),
    Flag(G::kSecondaryIndexes, "secondary_indexes", "secondary_indexes_enabled",
         "User creation of secondary indexes", "CREATE INDEX"),
    Threshold(G::kMaterializedViewsPerTable, "materialized_views_per_table", K::kMaxThreshold,
              U::kCount, ViewsMessage,
              "CREATE MATERIALIZED VIEW: the base table's views there would be"),
    ValuesGuardrail(G::kTableProperties, "table_properties", "Table Properties", true,
                    "CREATE and ALTER of tables and materialized views: the WITH properties"),
    Flag(G::kUserTimestamps, "user_timestamps", "user_timestamps_enabled",
         "User provided timestamps (USING TIMESTAMP)",
         "INSERT, UPDATE, DELETE (also in a BATCH) with USING TIMESTAMP"),
    Flag(G::kGroupBy, "group_by", "group_by_enabled", "GROUP BY functionality",
         "SELECT with GROUP BY, when prepared"),
    Flag(G::kAlterTable, "alter_table", "alter_table_enabled",
         "User access to ALTER TABLE statement for column mutation",
         "ALTER TABLE ADD, DROP and RENAME"),
    Flag(G::kDropTruncateTable, "drop_truncate_table_enabled", "drop_truncate_table_enabled",
         "DROP and TRUNCATE TABLE functionality", "DROP TABLE, TRUNCATE"),
    Flag(G::kDropKeyspace, "drop_keyspace_enabled", "drop_keyspace_enabled",
         "DROP KEYSPACE functionality", "DROP KEYSPACE"),
    Flag(G::kUncompressedTables, "uncompressed_tables_enabled", "uncompressed_tables_enabled",
         "Uncompressed table", "CREATE and ALTER TABLE with compression disabled"),
    Flag(G::kCompactTables, "compact_tables", "compact_tables_enabled",
         "Creation of new COMPACT STORAGE tables", "CREATE TABLE ... WITH COMPACT STORAGE"),
    Flag(G::kZeroTtlOnTwcs, "zero_ttl_on_twcs", "zero_ttl_on_twcs_enabled",
         "0 default_time_to_live on a table with TimeWindowCompactionStrategy compaction "
         "strategy",
         "CREATE and ALTER TABLE with TimeWindowCompactionStrategy and no default TTL",
         "It is suspicious to use default_time_to_live set to 0 with such compaction strategy. "
         "Please keep in mind that data will not start to automatically expire after they are "
         "older than a respective compaction window unit of a certain size. Please set TTL for "
         "your INSERT or UPDATE statements if you expect data to be expired as table settings "
         "will not do it. ",
         true, true),
    Flag(G::kIntersectFilteringQuery, "intersect_filtering_query",
         "intersect_filtering_query_enabled",
         "Filtering query with intersection on mutable columns at consistency level requiring "
         "coordinator reconciliation",
         "SELECT filtering on two or more regular columns at a level above ONE",
         "Filtering queries involving an intersection on multiple mutable (i.e. non-key) "
         "columns over unrepaired data at read consistency levels that would require "
         "coordinator reconciliation may violate the guarantees of those consistency levels.",
         true, true),
    Threshold(G::kPageSize, "page_size", K::kMaxThreshold, U::kCount, PageSizeMessage,
              "SELECT that pages: the page size"),
    Threshold(G::kPartitionKeysInSelect, "partition_keys_in_select", K::kMaxThreshold, U::kCount,
              PartitionKeysMessage,
              "SELECT with IN on the partition key: the partitions asked for"),
    Flag(G::kReadBeforeWriteListOperations, "read_before_write_list_operations",
         "read_before_write_list_operations_enabled", "List operation requiring read before write",
         "UPDATE and DELETE of list elements by index, and removal of list values"),
    // Sibyl warns on every ALLOW FILTERING by default (allow_filtering_warned).
    Flag(G::kAllowFiltering, "allow_filtering", "allow_filtering_enabled",
         "Querying with ALLOW FILTERING", "SELECT ... ALLOW FILTERING outside system keyspaces",
         "ALLOW FILTERING can potentially visit all the data in the table and have "
         "unpredictable performance.",
         true, true),
    Flag(G::kSimpleStrategy, "simplestrategy", "simplestrategy_enabled", "SimpleStrategy",
         "CREATE and ALTER KEYSPACE with SimpleStrategy"),
    Threshold(G::kInSelectCartesianProduct, "in_select_cartesian_product", K::kMaxThreshold,
              U::kCount, CartesianMessage,
              "SELECT, UPDATE, DELETE with IN: the keys the IN restrictions multiply into"),
    ValuesGuardrail(G::kReadConsistencyLevels, "read_consistency_levels", "read consistency levels",
                    false, "SELECT: its consistency level"),
    ValuesGuardrail(G::kWriteConsistencyLevels, "write_consistency_levels",
                    "write consistency levels", false,
                    "INSERT, UPDATE, DELETE, BATCH: the consistency and serial consistency"),
    Threshold(G::kPartitionSize, "partition_size", K::kMaxThreshold, U::kBytes,
              PartitionSizeMessage, kLedgerEnforced, "100MiB", "",
              "Too large partitions can cause performance problems."),
    Threshold(G::kPartitionRows, "partition_rows", K::kMaxThreshold, U::kCount,
              PartitionRowsMessage, kLedgerEnforced, "100000", "-1",
              "Partitions with too many rows can cause performance problems."),
    Threshold(G::kPartitionTombstones, "partition_tombstones", K::kMaxThreshold, U::kCount,
              PartitionTombstonesMessage, kLedgerEnforced, "10000", "-1",
              "Partitions with too many tombstones can cause performance problems."),
    Threshold(G::kColumnValueSize, "column_value_size", K::kMaxThreshold, U::kBytes,
              ValueSizeMessage, "INSERT, UPDATE: each regular and static value written"),
    Threshold(G::kCollectionSize, "collection_size", K::kMaxThreshold, U::kBytes,
              CollectionSizeMessage, "INSERT, UPDATE: the collection elements written"),
    Threshold(G::kItemsPerCollection, "items_per_collection", K::kMaxThreshold, U::kCount,
              CollectionItemsMessage,
              "INSERT, UPDATE: the collection elements written; every statement touching a "
              "partition whose largest collection the large-data ledger measured over it",
              "1000"),
    Threshold(G::kFieldsPerUdt, "fields_per_udt", K::kMaxThreshold, U::kCount, FieldsMessage,
              "CREATE TYPE, ALTER TYPE ADD"),
    Flag(G::kVectorType, "vector_type_enabled", "vector_type_enabled", "usage of the vector type",
         kNoVector),
    Threshold(G::kVectorDimensions, "vector_dimensions", K::kMaxThreshold, U::kCount,
              VectorDimensionsMessage, kNoVector),
    Threshold(G::kLocalDataDiskUsage, "local_data_disk_usage", K::kMaxThreshold, U::kPercent,
              DiskUsageMessage,
              "the node's disk usage monitor, every disk_usage_monitor_interval: logged, and "
              "the node's state (STUFFED, FULL) sent to the other nodes in its heartbeats"),
    Threshold(G::kReplicaDiskUsage, "replica_disk_usage", K::kMaxThreshold, U::kPercent, nullptr,
              "INSERT, UPDATE, DELETE, BATCH: each replica of each partition written (warns "
              "when STUFFED, fails when FULL; at most one warning per "
              "disk_usage_notify_interval)"),
    Threshold(G::kMinimumReplicationFactor, "minimum_replication_factor", K::kMinThreshold,
              U::kCount, MinimumRfMessage, "CREATE and ALTER KEYSPACE: each replication factor"),
    Threshold(G::kMaximumReplicationFactor, "maximum_replication_factor", K::kMaxThreshold,
              U::kCount, MaximumRfMessage, "CREATE and ALTER KEYSPACE: each replication factor"),
    Threshold(G::kMaximumTimestamp, "maximum_timestamp", K::kMaxThreshold, U::kDuration,
              MaximumTimestampMessage,
              "INSERT, UPDATE, DELETE with USING TIMESTAMP (not in a BATCH, as in 5.0)", "-1", "-1",
              "Timestamps too far in the future can lead to data that can't be easily "
              "overwritten"),
    Threshold(G::kMinimumTimestamp, "minimum_timestamp", K::kMinThreshold, U::kDuration,
              MinimumTimestampMessage,
              "INSERT, UPDATE, DELETE with USING TIMESTAMP (not in a BATCH, as in 5.0)", "-1", "-1",
              "Timestamps too far in the past can cause writes can be unexpectedly lost"),
    Threshold(G::kSaiSstableIndexesPerQuery, "sai_sstable_indexes_per_query", K::kMaxThreshold,
              U::kCount, SaiIndexesMessage, kNoSai, "32", "-1",
              "High number of referenced indexes per query may negatively effect performance"),
    Threshold(G::kSaiStringTermSize, "sai_string_term_size", K::kMaxThreshold, U::kBytes,
              ValueSizeMessage, kNoSai, "1KiB", "8KiB"),
    Threshold(G::kSaiFrozenTermSize, "sai_frozen_term_size", K::kMaxThreshold, U::kBytes,
              ValueSizeMessage, kNoSai, "1KiB", "8KiB"),
    Threshold(G::kSaiVectorTermSize, "sai_vector_term_size", K::kMaxThreshold, U::kBytes,
              ValueSizeMessage, kNoSai, "16KiB", "32KiB"),
    Flag(G::kNonPartitionRestrictedIndexQuery, "non_partition_restricted_index_query_enabled",
         "non_partition_restricted_index_query_enabled", "Non-partition key restricted query",
         "SELECT through a secondary index without a partition key",
         "Executing a query on secondary indexes without partition key restriction might "
         "degrade performance"),
};

constexpr bool CatalogFollowsGuardrailIds() {
  for (size_t i = 0; i < kGuardrailCatalog.size(); ++i) {
    if (static_cast<size_t>(kGuardrailCatalog[i].id) != i) return false;
  }
  return true;
}
static_assert(CatalogFollowsGuardrailIds(),
              "kGuardrailCatalog must list the guardrails in GuardrailId order");

// local_data_disk_usage's keys do not follow its name.
constexpr std::string_view kDiskUsageStem = "data_disk_usage_percentage";

std::string_view ThresholdStem(const GuardrailDefinition& definition) {
  return definition.id == G::kLocalDataDiskUsage ? kDiskUsageStem : definition.key_stem;
}

const std::map<std::string, GuardrailKey, std::less<>>& KeyIndex() {
  static const auto* kIndex = [] {
    auto* index = new std::map<std::string, GuardrailKey, std::less<>>;
    for (const GuardrailDefinition& d : kGuardrailCatalog) {
      const auto add = [&](GuardrailField field) {
        index->emplace(GuardrailKeyName(d, field), GuardrailKey{d.id, field});
      };
      switch (d.kind) {
        case K::kMaxThreshold:
        case K::kMinThreshold:
          if (d.id == G::kReplicaDiskUsage) break;  // derived from local_data_disk_usage
          add(GuardrailField::kWarnThreshold);
          add(GuardrailField::kFailThreshold);
          if (d.id == G::kLocalDataDiskUsage) add(GuardrailField::kMaxDiskSize);
          break;
        case K::kFlag:
          add(GuardrailField::kEnabled);
          if (d.has_warned_flag) add(GuardrailField::kWarnedFlag);
          break;
        case K::kValues:
          add(GuardrailField::kWarnedValues);
          add(GuardrailField::kDisallowedValues);
          if (d.has_ignored_values) add(GuardrailField::kIgnoredValues);
          break;
      }
    }
    // Older names Cassandra 5.0 still reads (@Replaces): 4.1's count
    // warnings and compaction-time partition warnings.
    index->emplace("table_count_warn_threshold",
                   GuardrailKey{G::kTables, GuardrailField::kWarnThreshold});
    index->emplace("keyspace_count_warn_threshold",
                   GuardrailKey{G::kKeyspaces, GuardrailField::kWarnThreshold});
    index->emplace("compaction_large_partition_warning_threshold",
                   GuardrailKey{G::kPartitionSize, GuardrailField::kWarnThreshold});
    index->emplace("compaction_tombstone_warning_threshold",
                   GuardrailKey{G::kPartitionTombstones, GuardrailField::kWarnThreshold});
    return index;
  }();
  return *kIndex;
}

}  // namespace

std::span<const GuardrailDefinition> AllGuardrails() { return kGuardrailCatalog; }

const GuardrailDefinition& Definition(GuardrailId id) {
  return kGuardrailCatalog[static_cast<size_t>(id)];
}

const GuardrailDefinition* FindGuardrail(std::string_view name) {
  for (const GuardrailDefinition& d : kGuardrailCatalog) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::optional<GuardrailKey> FindGuardrailKey(std::string_view key) {
  const auto& index = KeyIndex();
  auto it = index.find(key);
  if (it == index.end()) return std::nullopt;
  return it->second;
}

std::string GuardrailKeyName(const GuardrailDefinition& definition, GuardrailField field) {
  const std::string stem(ThresholdStem(definition));
  switch (field) {
    case GuardrailField::kWarnThreshold:
      return stem + "_warn_threshold";
    case GuardrailField::kFailThreshold:
      return stem + "_fail_threshold";
    case GuardrailField::kEnabled:
      return std::string(definition.enabled_key);
    case GuardrailField::kWarnedFlag:
    case GuardrailField::kWarnedValues:
      return std::string(definition.key_stem) + "_warned";
    case GuardrailField::kIgnoredValues:
      return std::string(definition.key_stem) + "_ignored";
    case GuardrailField::kDisallowedValues:
      return std::string(definition.key_stem) + "_disallowed";
    case GuardrailField::kMaxDiskSize:
      return "data_disk_usage_max_disk_size";
  }
  return stem;
}

}  // namespace sibyl::guardrails
