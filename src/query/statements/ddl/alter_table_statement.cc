// ALTER TABLE, as Cassandra 4.1's AlterTableStatement: ADD, DROP and RENAME
// of columns (not of those an index depends on), WITH options; ALTER ...
// TYPE and DROP COMPACT STORAGE are refused as 4.1 refuses them.

#include <memory>
#include <set>

#include "common/error.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "schema/table_options.h"
#include "schema/table_validation.h"
#include "schema/user_types.h"
#include "types/type_compatibility.h"

namespace sibyl::query::ddl {
namespace {

using protocol::SchemaChange;
using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;
using Kind = cql::AlterTableStatement::Kind;

const char* KindName(ColumnKind kind) {
  return kind == ColumnKind::kStatic ? "STATIC" : "REGULAR";  // ColumnMetadata.Kind's names
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

class AlterTable final : public SchemaAlteration {
 public:
  AlterTable(const cql::AlterTableStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), statement_(s) {
    if (s.kind == Kind::kWithOptions) attributes_ = ToProperties(s.options);
  }

  void Authorize() const override {
    EnsureTablePermission(keyspace(), statement_.table.name, Permission::kAlter);
  }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    const std::string& table_name = statement_.table.name;
    auto ks = current.keyspaces().find(keyspace());
    schema::TablePtr table;
    if (ks != current.keyspaces().end()) {
      auto it = ks->second->tables.find(table_name);
      if (it != ks->second->tables.end()) table = it->second;
    }
    if (!table) {
      if (statement_.if_exists) return std::nullopt;
      ThrowInvalid("Table '" + keyspace() + "." + table_name + "' doesn't exist");
    }
    auto altered = std::make_shared<TableMetadata>(*table);
    switch (statement_.kind) {
      case Kind::kAlterColumnType:
        ThrowInvalid("Altering column types is no longer supported");
      case Kind::kDropCompactStorage:
        ThrowInvalid("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.");
      case Kind::kAddColumns:
        AddColumns(*ks->second, *table, *altered);
        schema::ValidateTable(*altered);
        break;
      case Kind::kDropColumns:
        DropColumns(*table, *altered, context);
        break;
      case Kind::kRenameColumns:
        RenameColumns(*table, *altered);
        break;
      case Kind::kWithOptions:
        AlterOptions(*table, *altered);
        break;
    }
    auto keyspace_copy = std::make_shared<schema::KeyspaceMetadata>(*ks->second);
    keyspace_copy->tables[table_name] = std::move(altered);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(keyspace_copy);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kUpdated, SchemaChange::Target::kTable, keyspace(),
                      statement_.table.name);
  }

 private:
  void AddColumns(const schema::KeyspaceMetadata& ks, const TableMetadata& table,
                  TableMetadata& altered) const {
    for (const cql::ColumnDefinition& column : statement_.added_columns) {
      const types::TypePtr type =
          schema::ResolveUserTypes(types::ParseCqlType(column.type), keyspace(), ks.user_types);
      if (altered.FindColumn(column.name) != nullptr) {
        if (statement_.if_column_not_exists) continue;
        ThrowInvalid("Column with name '" + column.name + "' already exists");
      }
      if (column.is_static && table.clustering_size() == 0) {
        ThrowInvalid(
            "Static columns are only useful (and thus allowed) if the table has at least one "
            "clustering column");
      }
      if (type->kind() == types::Kind::kUdt && schema::IsMultiCell(*type)) {
        for (const auto& field : type->params()) {
          if (schema::IsMultiCell(*field)) {
            ThrowInvalid(
                "Non-frozen UDTs with nested non-frozen collections are not supported for column " +
                column.name);
          }
        }
      }
      const ColumnKind kind = column.is_static ? ColumnKind::kStatic : ColumnKind::kRegular;
      if (auto dropped = table.dropped_columns.find(column.name);
          dropped != table.dropped_columns.end()) {
        if (!types::IsSerializationCompatibleWith(*type, *dropped->second.type)) {
          ThrowInvalid("Cannot re-add previously dropped column '" + column.name + "' of type " +
                       type->ToCql() + ", incompatible with previous type " +
                       dropped->second.type->ToCql());
        }
        if (dropped->second.kind != kind) {
          ThrowInvalid("Cannot re-add previously dropped column '" + column.name + "' of kind " +
                       KindName(kind) + ", incompatible with previous kind " +
                       KindName(dropped->second.kind));
        }
        if (table.flags.count("counter") > 0) {
          ThrowInvalid("Cannot re-add previously dropped counter column " + column.name);
        }
      }
      altered.columns.push_back(
          ColumnMetadata{column.name, type, kind, -1, schema::ClusteringOrder::kNone});
      schema::SortColumns(altered);
    }
  }

  void DropColumns(const TableMetadata& table, TableMetadata& altered,
                   const SchemaChangeContext& context) const {
    const int64_t timestamp = statement_.drop_timestamp.value_or(context.now_micros);
    std::set<std::string> seen;
    for (const std::string& name : statement_.dropped_columns) {
      if (!seen.insert(name).second) continue;
      const ColumnMetadata* column = table.FindColumn(name);
      if (column == nullptr) {
        if (statement_.if_column_exists) continue;
        ThrowInvalid("Column " + name + " was not found in table '" + table.QualifiedName() + "'");
      }
      if (column->is_primary_key()) ThrowInvalid("Cannot drop PRIMARY KEY column " + name);
      if (column->type->kind() == types::Kind::kUdt && schema::IsMultiCell(*column->type)) {
        ThrowInvalid("Cannot drop non-frozen column " + name + " of user type " +
                     column->type->ToCql());
      }
      if (std::vector<std::string> indexes = DependentIndexes(table, name); !indexes.empty()) {
        ThrowInvalid("Cannot drop column " + name +
                     " because it has dependent secondary indexes (" + JoinNames(indexes) + ")");
      }
      schema::DroppedColumn dropped{name, types::ExpandUserTypes(column->type), column->kind,
                                    timestamp};
      altered.dropped_columns[name] = std::move(dropped);
      altered.columns.erase(altered.columns.begin() + altered.ColumnIndex(name));
    }
  }

  void RenameColumns(const TableMetadata& table, TableMetadata& altered) const {
    for (const auto& [from, to] : statement_.renames) {
      const ColumnMetadata* column = table.FindColumn(from);
      if (column == nullptr) {
        if (statement_.if_column_exists) continue;
        ThrowInvalid("Column " + from + " was not found in table " + table.QualifiedName());
      }
      if (!column->is_primary_key()) ThrowInvalid("Cannot rename non PRIMARY KEY column " + from);
      if (table.FindColumn(to) != nullptr) {
        ThrowInvalid("Cannot rename column " + from + " to " + to + " in table '" +
                     table.QualifiedName() + "'; another column with that name already exists");
      }
      if (std::vector<std::string> indexes = DependentIndexes(table, from); !indexes.empty()) {
        ThrowInvalid("Can't rename column " + from +
                     " because it has dependent secondary indexes (" + JoinNames(indexes) + ")");
      }
      altered.columns[static_cast<size_t>(altered.ColumnIndex(from))].name = to;
    }
  }

  void AlterOptions(const TableMetadata& table, TableMetadata& altered) const {
    schema::ValidateTableOptionNames(attributes_);
    if (attributes_.Has("id")) ThrowConfig("Cannot alter table id.");
    altered.params = schema::BuildTableParams(attributes_, table.params, false);
    if (table.flags.count("counter") > 0 && altered.params.default_time_to_live > 0) {
      ThrowInvalid("Cannot set default_time_to_live on a table with counters");
    }
  }

  cql::AlterTableStatement statement_;
  schema::PropertyDefinitions attributes_;
};

}  // namespace

SchemaAlterationPtr PrepareAlterTable(const cql::AlterTableStatement& s,
                                      std::optional<std::string_view> keyspace) {
  return std::make_shared<AlterTable>(s, ResolveKeyspace(s.table, keyspace));
}

}  // namespace sibyl::query::ddl
