// CREATE [CUSTOM] INDEX and DROP INDEX, as Cassandra 4.1's
// CreateIndexStatement and DropIndexStatement: the checks in 4.1's order
// and words, the default name, the stored target and the SCHEMA_CHANGE
// UPDATED TABLE both announce.
//
// CUSTOM indexes: the storage-attached index (SAI, Cassandra 5.0's
// StorageAttachedIndex, by its class name or an alias) is served by the
// same local index as a plain one and stored as CUSTOM with its full class
// name; SASI is refused as 4.1 refuses it by default (sasi_indexes_enabled:
// false); any other class is refused, Sibyl having no such implementation.

#include <algorithm>
#include <cctype>
#include <memory>
#include <set>

#include "common/ascii_case.h"
#include "common/error.h"
#include "query/statements/ddl/ddl_guardrails.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "schema/index_target.h"
#include "schema/schema_names.h"
#include "schema/user_types.h"
#include "schema/view_lookup.h"

namespace sibyl::query::ddl {
namespace {

using protocol::SchemaChange;
using schema::ColumnMetadata;
using schema::IndexMetadata;
using schema::IndexTargetSpec;
using schema::KeyspaceMetadata;
using schema::TableMetadata;

constexpr std::string_view kSaiClass = "org.apache.cassandra.index.sai.StorageAttachedIndex";
constexpr std::string_view kSasiClass = "org.apache.cassandra.index.sasi.SASIIndex";
constexpr std::string_view kTargetOption = "target";
constexpr std::string_view kClassNameOption = "class_name";

// The class_name stored for USING 'cls' when Sibyl has the index: SAI by its
// full class name or one of 5.0's aliases ('sai', 'StorageAttachedIndex',
// any case).
std::optional<std::string> SupportedIndexClass(std::string_view cls) {
  const std::string lower = AsciiLower(cls);
  if (lower == "sai" || lower == "storageattachedindex" || lower == AsciiLower(kSaiClass)) {
    return std::string(kSaiClass);
  }
  return std::nullopt;
}

bool IsWordChar(unsigned char c) { return std::isalnum(c) != 0 || c == '_'; }

// IndexMetadata.generateDefaultIndexName: `base` without its non-word
// characters (Java's \W, so every byte of a non-ASCII character too).
std::string WithoutNonWordChars(std::string_view base) {
  std::string out;
  for (char c : base) {
    if (IsWordChar(static_cast<unsigned char>(c))) out += c;
  }
  return out;
}

// KeyspaceMetadata.findIndexedTable: index names are unique per keyspace.
const TableMetadata* FindIndexedTable(const KeyspaceMetadata& keyspace, std::string_view name) {
  for (const auto& [table_name, table] : keyspace.tables) {
    for (const IndexMetadata& index : table->indexes) {
      if (index.name == name) return table.get();
    }
  }
  return nullptr;
}

bool HasIndex(const KeyspaceMetadata& keyspace, std::string_view name) {
  return FindIndexedTable(keyspace, name) != nullptr;
}

// KeyspaceMetadata.findAvailableIndexName: `base`, else base_1, base_2, ...
std::string AvailableIndexName(const KeyspaceMetadata& keyspace, const std::string& base) {
  if (!HasIndex(keyspace, base)) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (!HasIndex(keyspace, name)) return name;
  }
}

IndexTargetSpec::Kind ToSpecKind(cql::IndexTarget::Kind kind) {
  switch (kind) {
    case cql::IndexTarget::Kind::kSimple:
      return IndexTargetSpec::Kind::kSimple;
    case cql::IndexTarget::Kind::kValues:
      return IndexTargetSpec::Kind::kValues;
    case cql::IndexTarget::Kind::kKeys:
      return IndexTargetSpec::Kind::kKeys;
    case cql::IndexTarget::Kind::kEntries:
      return IndexTargetSpec::Kind::kEntries;
    case cql::IndexTarget::Kind::kFull:
      return IndexTargetSpec::Kind::kFull;
  }
  return IndexTargetSpec::Kind::kSimple;
}

// IndexTarget.Raw.prepare: the column must exist ("Undefined column name");
// a plain target on a collection indexes its values.
IndexTargetSpec PrepareTarget(const TableMetadata& table, const cql::IndexTarget& raw) {
  const ColumnMetadata& column = table.columns[table.ExistingColumnIndex(raw.column)];
  IndexTargetSpec target{ToSpecKind(raw.kind), column.name};
  if (target.kind == IndexTargetSpec::Kind::kSimple && column.type->is_collection()) {
    target.kind = IndexTargetSpec::Kind::kValues;
  }
  return target;
}

std::string TypeFunction(IndexTargetSpec::Kind kind) {
  return std::string(schema::IndexTargetFunction(kind));
}

void CheckNoDuration(const types::CqlType& type) {
  if (!schema::ReferencesDuration(type)) return;
  if (type.is_collection()) {
    ThrowInvalid("Secondary indexes are not supported on collections containing durations");
  }
  if (type.kind() == types::Kind::kTuple) {
    ThrowInvalid("Secondary indexes are not supported on tuples containing durations");
  }
  if (type.kind() == types::Kind::kUdt) {
    ThrowInvalid("Secondary indexes are not supported on UDTs containing durations");
  }
  ThrowInvalid("Secondary indexes are not supported on duration columns");
}

// CreateIndexStatement.validateIndexTarget.
void ValidateTarget(const TableMetadata& table, const IndexTargetSpec& target) {
  using Kind = IndexTargetSpec::Kind;
  const ColumnMetadata& column = *table.FindColumn(target.column);
  const types::CqlType& type = *column.type;
  const std::string& name = column.name;
  CheckNoDuration(type);
  if (column.kind == schema::ColumnKind::kPartitionKey && table.partition_key_size() == 1) {
    ThrowInvalid("Cannot create secondary index on the only partition key column " + name);
  }
  const bool multi_cell = schema::IsMultiCell(type);
  const bool frozen_collection = type.is_collection() && !multi_cell;
  if (frozen_collection && target.kind != Kind::kFull) {
    ThrowInvalid("Cannot create " + TypeFunction(target.kind) + "() index on frozen column " +
                 name +
                 ". Frozen collections are immutable and must be fully indexed by using the "
                 "'full(" +
                 name + ")' modifier");
  }
  if (!frozen_collection && target.kind == Kind::kFull) {
    ThrowInvalid("full() indexes can only be created on frozen collections");
  }
  if (!type.is_collection() && target.kind != Kind::kSimple) {
    ThrowInvalid("Cannot create " + TypeFunction(target.kind) + "() index on " + name +
                 ". Non-collection columns only support simple indexes");
  }
  const bool multi_cell_map = type.kind() == types::Kind::kMap && multi_cell;
  if (!multi_cell_map && (target.kind == Kind::kKeys || target.kind == Kind::kEntries)) {
    ThrowInvalid("Cannot create index on " + TypeFunction(target.kind) + " of column " + name +
                 " with non-map type");
  }
  if (type.kind() == types::Kind::kUdt && multi_cell) {
    ThrowInvalid("Cannot create index on non-frozen UDT column " + name);
  }
}

// The UPDATED TABLE change CREATE and DROP INDEX announce.
SchemaChange TableUpdated(const std::string& keyspace, const std::string& table) {
  return MakeChange(SchemaChange::Type::kUpdated, SchemaChange::Target::kTable, keyspace, table);
}

// `keyspace` with `table` replaced by `altered`.
schema::Schema::KeyspaceMap WithTable(const schema::Schema& current,
                                      const KeyspaceMetadata& keyspace,
                                      std::shared_ptr<TableMetadata> altered) {
  auto keyspace_copy = std::make_shared<KeyspaceMetadata>(keyspace);
  keyspace_copy->tables[altered->name] = std::move(altered);
  schema::Schema::KeyspaceMap next = current.keyspaces();
  next[keyspace.name] = std::move(keyspace_copy);
  return next;
}

class CreateIndex final : public SchemaAlteration {
 public:
  CreateIndex(const cql::CreateIndexStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)),
        statement_(s),
        attributes_(ToProperties(s.options)) {}

  void Authorize() const override {
    EnsureTablePermission(keyspace(), statement_.table.name, Permission::kAlter);
  }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    const std::map<std::string, std::string> user_options = ValidateAttributes();
    if (statement_.custom && *statement_.custom_class == kSasiClass) {
      ThrowInvalid("SASI indexes are disabled. Enable in cassandra.yaml to use.");
    }
    const KeyspaceMetadata* ks = current.FindKeyspace(keyspace());
    if (ks == nullptr) ThrowInvalid("Keyspace '" + keyspace() + "' doesn't exist");
    const schema::TablePtr found = schema::FindTableOrView(*ks, statement_.table.name);
    if (found == nullptr) ThrowInvalid("Table '" + statement_.table.name + "' doesn't exist");
    const TableMetadata& table = *found;
    if (statement_.index_name && HasIndex(*ks, *statement_.index_name)) {
      if (statement_.if_not_exists) return std::nullopt;
      ThrowInvalid("Index '" + *statement_.index_name + "' already exists");
    }
    if (table.flags.count("counter") > 0) {
      ThrowInvalid("Secondary indexes on counter tables aren't supported");
    }
    if (table.is_view()) ThrowInvalid("Secondary indexes on materialized views aren't supported");
    const std::vector<IndexTargetSpec> targets = PrepareTargets(table);
    for (const IndexTargetSpec& target : targets) ValidateTarget(table, target);
    GuardFeature(guardrails::GuardrailId::kSecondaryIndexes, context, "Creating secondary indexes");
    // An unnamed index is "on table t" in 5.0's message.
    GuardCount(guardrails::GuardrailId::kSecondaryIndexesPerTable,
               static_cast<int64_t>(table.indexes.size()) + 1,
               (statement_.index_name ? *statement_.index_name + " " : std::string()) +
                   "on table " + table.name,
               context);

    IndexMetadata index;
    index.name = statement_.index_name ? *statement_.index_name : DefaultName(*ks, targets);
    index.kind = statement_.custom ? "CUSTOM" : "COMPOSITES";
    if (statement_.custom) {
      index.options = user_options;
      index.options[std::string(kClassNameOption)] =
          SupportedIndexClass(*statement_.custom_class).value_or(*statement_.custom_class);
    }
    index.options[std::string(kTargetOption)] = TargetOption(targets);
    for (const IndexMetadata& existing : table.indexes) {
      if (existing.kind == index.kind && existing.options == index.options) {
        if (statement_.if_not_exists) return std::nullopt;
        ThrowInvalid("Index " + index.name + " is a duplicate of existing index " + existing.name);
      }
    }
    ValidateIndex(index, targets);
    index.id = types::Uuid::Random();
    auto altered = std::make_shared<TableMetadata>(table);
    altered->indexes.push_back(std::move(index));
    return WithTable(current, *ks, std::move(altered));
  }

  SchemaChange Change(const schema::Schema&) const override {
    return TableUpdated(keyspace(), statement_.table.name);
  }

 private:
  // IndexAttributes.validate; the WITH OPTIONS map.
  std::map<std::string, std::string> ValidateAttributes() const {
    attributes_.Validate({"options"});
    if (statement_.custom && !statement_.custom_class) {
      ThrowInvalid("CUSTOM index requires specifiying the index class");
    }
    if (!statement_.custom && statement_.custom_class) {
      ThrowInvalid("Cannot specify index class for a non-CUSTOM index");
    }
    if (!statement_.custom && !attributes_.empty()) {
      ThrowInvalid("Cannot specify options for a non-CUSTOM index");
    }
    std::map<std::string, std::string> options;
    if (auto map = attributes_.GetMap("options")) options.insert(map->begin(), map->end());
    for (std::string_view reserved : {kClassNameOption, kTargetOption}) {
      if (options.count(std::string(reserved)) > 0) {
        ThrowInvalid("Cannot specify " + std::string(reserved) + " as a CUSTOM option");
      }
    }
    return options;
  }

  std::vector<IndexTargetSpec> PrepareTargets(const TableMetadata& table) const {
    std::vector<IndexTargetSpec> targets;
    for (const cql::IndexTarget& raw : statement_.targets) {
      targets.push_back(PrepareTarget(table, raw));
    }
    if (targets.empty() && !statement_.custom) {
      ThrowInvalid("Only CUSTOM indexes can be created without specifying a target column");
    }
    if (targets.size() > 1) {
      if (!statement_.custom) ThrowInvalid("Only CUSTOM indexes support multiple columns");
      std::set<std::string> columns;
      for (const IndexTargetSpec& target : targets) {
        if (!columns.insert(target.column).second) {
          ThrowInvalid("Duplicate column '" + target.column + "' in index target list");
        }
      }
    }
    return targets;
  }

  std::string DefaultName(const KeyspaceMetadata& ks,
                          const std::vector<IndexTargetSpec>& targets) const {
    const std::string& table = statement_.table.name;
    const std::string base =
        targets.size() == 1 ? table + "_" + targets[0].column + "_idx" : table + "_idx";
    return AvailableIndexName(ks, WithoutNonWordChars(base));
  }

  // IndexMetadata.fromIndexTargets: the targets joined by ", ".
  static std::string TargetOption(const std::vector<IndexTargetSpec>& targets) {
    std::string out;
    for (const IndexTargetSpec& target : targets) {
      if (!out.empty()) out += ", ";
      out += schema::FormatIndexTarget(target);
    }
    return out;
  }

  // IndexMetadata.validate (run by TableMetadata.validate): the name, then
  // the class, which here must be one Sibyl implements.
  void ValidateIndex(const IndexMetadata& index,
                     const std::vector<IndexTargetSpec>& targets) const {
    const bool valid_name =
        !index.name.empty() && std::all_of(index.name.begin(), index.name.end(), [](char c) {
          return IsWordChar(static_cast<unsigned char>(c));
        });
    if (!valid_name) ThrowConfig("Illegal index name " + index.name);
    if (!statement_.custom) return;
    const std::optional<std::string> cls = SupportedIndexClass(*statement_.custom_class);
    if (!cls) {
      ThrowInvalid("Sibyl has no implementation of the custom index class '" +
                   *statement_.custom_class +
                   "'; it serves the storage-attached index ('sai', "
                   "'StorageAttachedIndex', '" +
                   std::string(kSaiClass) + "') and CREATE INDEX");
    }
    if (targets.size() != 1) {
      ThrowInvalid("Sibyl's storage-attached index indexes exactly one column");
    }
  }

  cql::CreateIndexStatement statement_;
  schema::PropertyDefinitions attributes_;
};

class DropIndex final : public SchemaAlteration {
 public:
  DropIndex(const cql::DropIndexStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), index_(s.index.name), if_exists_(s.if_exists) {}

  // Cassandra checks ALTER on the index's table when there is one; no table
  // of a system keyspace has an index, so there is nothing to refuse here.
  void Authorize() const override {}

  std::optional<schema::Schema::KeyspaceMap> Apply(const schema::Schema& current,
                                                   const SchemaChangeContext&) const override {
    const KeyspaceMetadata* ks = current.FindKeyspace(keyspace());
    const TableMetadata* table = ks == nullptr ? nullptr : FindIndexedTable(*ks, index_);
    if (table == nullptr) {
      if (if_exists_) return std::nullopt;
      // The stray quote at the end is 4.1's.
      ThrowInvalid("Index '" + keyspace() + "." + index_ + "' doesn't exist'");
    }
    auto altered = std::make_shared<TableMetadata>(*table);
    std::erase_if(altered->indexes, [&](const IndexMetadata& i) { return i.name == index_; });
    return WithTable(current, *ks, std::move(altered));
  }

  SchemaChange Change(const schema::Schema& before) const override {
    const KeyspaceMetadata* ks = before.FindKeyspace(keyspace());
    const TableMetadata* table = ks == nullptr ? nullptr : FindIndexedTable(*ks, index_);
    return TableUpdated(keyspace(), table == nullptr ? std::string() : table->name);
  }

 private:
  std::string index_;
  bool if_exists_;
};

}  // namespace

std::vector<std::string> DependentIndexes(const TableMetadata& table, std::string_view column) {
  std::vector<std::string> names;
  for (const IndexMetadata& index : table.indexes) {
    auto target = index.options.find(std::string(kTargetOption));
    std::optional<IndexTargetSpec> spec;
    if (target != index.options.end()) spec = schema::ParseIndexTarget(target->second);
    if (!spec || spec->column == column) names.push_back(index.name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

SchemaAlterationPtr PrepareCreateIndex(const cql::CreateIndexStatement& s,
                                       std::optional<std::string_view> keyspace) {
  return std::make_shared<CreateIndex>(s, ResolveKeyspace(s.table, keyspace));
}

SchemaAlterationPtr PrepareDropIndex(const cql::DropIndexStatement& s,
                                     std::optional<std::string_view> keyspace) {
  return std::make_shared<DropIndex>(s, ResolveKeyspace(s.index, keyspace));
}

}  // namespace sibyl::query::ddl
