// ALTER TABLE, as Cassandra 4.1's AlterTableStatement: ADD, DROP and RENAME
// of columns (not of those an index depends on), WITH options; ALTER ...
// TYPE and DROP COMPACT STORAGE are refused as 4.1 refuses them. A base
// table's materialized views follow it: an added regular column joins the
// views that SELECT *, a renamed key column is renamed in them, and columns
// of a table with views cannot be dropped.

#include <memory>
#include <set>

#include "common/error.h"
#include "query/statements/ddl/ddl_guardrails.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "query/statements/ddl/view_where_clause.h"
#include "schema/table_options.h"
#include "schema/table_validation.h"
#include "schema/user_types.h"
#include "schema/view_lookup.h"
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

// The feature the alter_table guardrail names at 5.0's call sites.
constexpr std::string_view kChangingColumns = "ALTER TABLE changing columns";

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
    if (ks != current.keyspaces().end()) table = schema::FindTableOrView(*ks->second, table_name);
    if (!table) {
      if (statement_.if_exists) return std::nullopt;
      ThrowInvalid("Table '" + keyspace() + "." + table_name + "' doesn't exist");
    }
    if (table->is_view()) {
      ThrowInvalid(
          "Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
    }
    auto keyspace_copy = std::make_shared<schema::KeyspaceMetadata>(*ks->second);
    const std::vector<schema::TablePtr> views = schema::ViewsOfTable(*ks->second, table->id);
    auto altered = std::make_shared<TableMetadata>(*table);
    switch (statement_.kind) {
      case Kind::kAlterColumnType:
        ThrowInvalid("Altering column types is no longer supported");
      case Kind::kDropCompactStorage:
        ThrowInvalid("DROP COMPACT STORAGE is disabled. Enable in cassandra.yaml to use.");
      case Kind::kAddColumns:
        GuardFeature(guardrails::GuardrailId::kAlterTable, context, kChangingColumns);
        AddColumns(*ks->second, *table, *altered);
        GuardCount(guardrails::GuardrailId::kColumnsPerTable,
                   static_cast<int64_t>(altered->columns.size()), table_name, context);
        schema::ValidateTable(*altered);
        AddColumnsToViews(*table, *altered, views, *keyspace_copy);
        break;
      case Kind::kDropColumns:
        GuardFeature(guardrails::GuardrailId::kAlterTable, context, kChangingColumns);
        DropColumns(*table, *altered, !views.empty(), context);
        break;
      case Kind::kRenameColumns:
        GuardFeature(guardrails::GuardrailId::kAlterTable, context, kChangingColumns);
        RenameColumns(*table, *altered);
        RenameColumnsInViews(*table, *altered, views, *keyspace_copy);
        break;
      case Kind::kWithOptions:
        AlterOptions(*table, *altered, !views.empty(), context);
        break;
    }
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

  // 4.1's AddColumns: a new regular (not static) column joins every view
  // of the table that includes all columns, as a regular column there.
  static void AddColumnsToViews(const TableMetadata& table, const TableMetadata& altered,
                                const std::vector<schema::TablePtr>& views,
                                schema::KeyspaceMetadata& keyspace) {
    for (const schema::TablePtr& view : views) {
      if (!view->view->include_all_columns) continue;
      auto view_copy = std::make_shared<TableMetadata>(*view);
      for (const ColumnMetadata& column : altered.columns) {
        if (column.kind != ColumnKind::kRegular || table.FindColumn(column.name) != nullptr ||
            view_copy->FindColumn(column.name) != nullptr) {
          continue;
        }
        view_copy->columns.push_back(ColumnMetadata{column.name, column.type, ColumnKind::kRegular,
                                                    -1, schema::ClusteringOrder::kNone});
      }
      schema::SortColumns(*view_copy);
      keyspace.views[view->name] = std::move(view_copy);
    }
  }

  // 4.1's RenameColumns: a view including a renamed (primary key) column of
  // its base has it renamed, in its columns and its WHERE clause.
  void RenameColumnsInViews(const TableMetadata& table, const TableMetadata& altered,
                            const std::vector<schema::TablePtr>& views,
                            schema::KeyspaceMetadata& keyspace) const {
    for (const schema::TablePtr& view : views) {
      auto view_copy = std::make_shared<TableMetadata>(*view);
      bool renamed = false;
      for (const auto& [from, to] : statement_.renames) {
        if (table.FindColumn(from) == nullptr) continue;  // IF EXISTS skipped it
        if (int index = view_copy->ColumnIndex(from); index >= 0) {
          view_copy->columns[static_cast<size_t>(index)].name = to;
          renamed = true;
        }
        for (schema::ViewRestriction& restriction : view_copy->view->restrictions) {
          if (restriction.column == from) {
            restriction.column = to;
            renamed = true;
          }
        }
      }
      if (!renamed) continue;
      view_copy->view->where_clause = ViewWhereClauseText(altered, view_copy->view->restrictions);
      keyspace.views[view->name] = std::move(view_copy);
    }
  }

  void DropColumns(const TableMetadata& table, TableMetadata& altered, bool has_views,
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
      if (has_views) {
        ThrowInvalid("Cannot drop column " + name + " on base table " + table.name +
                     " with materialized views");
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

  void AlterOptions(const TableMetadata& table, TableMetadata& altered, bool has_views,
                    const SchemaChangeContext& context) const {
    schema::PropertyDefinitions attributes = attributes_;
    GuardTableProperties(attributes, context);
    schema::ValidateTableOptionNames(attributes);
    if (attributes.Has("id")) ThrowConfig("Cannot alter table id.");
    altered.params = schema::BuildTableParams(attributes, table.params, false);
    GuardTableParams(keyspace(), altered.params, context);
    if (table.flags.count("counter") > 0 && altered.params.default_time_to_live > 0) {
      ThrowInvalid("Cannot set default_time_to_live on a table with counters");
    }
    if (has_views && altered.params.gc_grace_seconds == 0) {
      ThrowInvalid(
          "Cannot alter gc_grace_seconds of the base table of a materialized view to 0, since "
          "this value is used to TTL undelivered updates. Setting gc_grace_seconds too low might "
          "cause undelivered updates to expire before being replayed.");
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
