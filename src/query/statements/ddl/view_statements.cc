// CREATE / ALTER / DROP MATERIALIZED VIEW, as Cassandra 4.1's
// CreateViewStatement, AlterViewStatement and DropViewStatement: every check
// in 4.1's order and words, so that an invalid view gets Cassandra's error,
// and a valid one joins the keyspace's views (KeyspaceMetadata::views). The
// indexing engine keeps its rows (docs/dev/views.md).
//
// Deviations (docs/configuration.md): views are enabled by default
// (materialized_views_enabled: true), and a view PRIMARY KEY column that is
// not SELECTed is added to the selection, as Cassandra 3.x and ScyllaDB do,
// unless materialized_views_strict_primary_key_selection is true. WHERE
// relations a ViewRestriction cannot hold (multi-column, CONTAINS, ...) are
// refused (view_where_clause.h).

#include <algorithm>
#include <memory>
#include <set>

#include "common/error.h"
#include "cql/term_text.h"
#include "query/statements/ddl/ddl_guardrails.h"
#include "query/statements/ddl/schema_alteration_util.h"
#include "query/statements/ddl/view_where_clause.h"
#include "schema/table_options.h"
#include "schema/table_validation.h"
#include "schema/user_types.h"
#include "schema/view_lookup.h"

namespace sibyl::query::ddl {
namespace {

using protocol::SchemaChange;
using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::KeyspaceMetadata;
using schema::TableMetadata;

// View.USAGE_WARNING, sent with every CREATE MATERIALIZED VIEW that creates one.
constexpr std::string_view kUsageWarning =
    "Materialized views are experimental and are not recommended for production use.";

std::string Join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

std::string SelectorText(const cql::Selector& selector);

std::string ArgsText(const cql::Selector& selector) {
  std::vector<std::string> args;
  for (const cql::Selector& arg : selector.args) args.push_back(SelectorText(arg));
  return Join(args, ", ");
}

// A selector as Cassandra's Selectable.Raw.toString() writes it, for
// "Can only select columns by name ... (got m['abc'])".
std::string SelectorText(const cql::Selector& selector) {
  using Kind = cql::Selector::Kind;
  const auto arg = [&](size_t i) {
    return i < selector.args.size() ? SelectorText(selector.args[i]) : std::string();
  };
  const auto term = [&](size_t i) {
    return i < selector.terms.size() ? cql::TermText(selector.terms[i]) : std::string();
  };
  switch (selector.kind) {
    case Kind::kColumn:
      return selector.name;
    case Kind::kFunction:
      return (selector.keyspace.empty() ? "" : selector.keyspace + ".") + selector.name + "(" +
             ArgsText(selector) + ")";
    case Kind::kCast:
      return "cast(" + arg(0) + " as " + selector.text + ")";
    case Kind::kTerm:
      return term(0);
    case Kind::kFieldAccess:
      return arg(0) + "." + selector.name;
    case Kind::kElement:
      return arg(0) + "[" + term(0) + "]";
    case Kind::kSlice:
      return arg(0) + "[" + (selector.slice_from ? cql::TermText(*selector.slice_from) : "") +
             ".." + (selector.slice_to ? cql::TermText(*selector.slice_to) : "") + "]";
    case Kind::kCountStar:
      return "count(*)";
    case Kind::kArithmetic:
      return arg(0) + " " + selector.text + " " + arg(1);
    case Kind::kNegation:
      return "-" + arg(0);
    case Kind::kTypeHint:
      return "(" + selector.text + ")" + arg(0);
    case Kind::kList:
      return "[" + ArgsText(selector) + "]";
    case Kind::kSet:
      return "{" + ArgsText(selector) + "}";
    case Kind::kMapOrUdt: {
      std::vector<std::string> entries;
      for (size_t i = 0; i + 1 < selector.args.size(); i += 2) {
        entries.push_back(arg(i) + ": " + arg(i + 1));
      }
      return "{" + Join(entries, ", ") + "}";
    }
    case Kind::kTuple:
      return "(" + ArgsText(selector) + ")";
  }
  return selector.name;
}

bool IsPrimaryKeyKind(ColumnKind kind) {
  return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
}

class CreateView final : public SchemaAlteration {
 public:
  CreateView(const cql::CreateViewStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)),
        statement_(s),
        attributes_(ToProperties(s.options)) {}

  // ClientState.ensureTablePermission(keyspace, base table, ALTER).
  void Authorize() const override {
    EnsureTablePermission(keyspace(), statement_.base_table.name, Permission::kAlter);
  }

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    if (!context.materialized_views.enabled) {
      ThrowInvalid("Materialized views are disabled. Enable in cassandra.yaml to use.");
    }
    const KeyspaceMetadata* ks = current.FindKeyspace(keyspace());
    if (ks == nullptr) ThrowInvalid("Keyspace '" + keyspace() + "' doesn't exist");
    // 4.1 looks the base up among tables only, so a view named as the base
    // is a missing table, and its "Materialized views cannot be created
    // against other materialized views" is never reached.
    auto base_it = ks->tables.find(statement_.base_table.name);
    if (base_it == ks->tables.end()) {
      ThrowInvalid("Base table '" + statement_.base_table.name + "' doesn't exist");
    }
    const TableMetadata& base = *base_it->second;
    if (ks->tables.count(view()) > 0) {
      ThrowInvalid("Cannot create materialized view '" + view() +
                   "' - a table with the same name already exists");
    }
    if (ks->views.count(view()) > 0) {
      if (statement_.if_not_exists) return std::nullopt;
      // AlreadyExistsException(keyspace, view): the table wording, as 4.1.
      throw CqlError(
          ErrorCode::kAlreadyExists,
          "Cannot add already existing table \"" + view() + "\" to keyspace \"" + keyspace() + "\"",
          AlreadyExistsInfo{keyspace(), view()});
    }
    if (base.flags.count("counter") > 0) {
      ThrowInvalid("Materialized views are not supported on counter tables");
    }
    if (base.is_view()) {
      ThrowInvalid("Materialized views cannot be created against other materialized views");
    }
    if (base.params.gc_grace_seconds == 0) {
      ThrowInvalid("Cannot create materialized view '" + view() + "' for base table '" + base.name +
                   "' with gc_grace_seconds of 0, since this value is used to TTL undelivered "
                   "updates. Setting gc_grace_seconds too low might cause undelivered updates "
                   "to expire before being replayed.");
    }
    std::set<std::string> selected = SelectedColumns(base);
    if (!context.materialized_views.strict_primary_key_selection) {
      // §5.4: the key columns join the selection (Cassandra 3.x, ScyllaDB).
      for (const std::string& name : ViewPrimaryKey()) {
        if (base.FindColumn(name) != nullptr) selected.insert(name);
      }
    }
    for (const ColumnMetadata& column : base.columns) {
      if (column.kind == ColumnKind::kStatic && selected.count(column.name) > 0) {
        ThrowInvalid("Cannot include static column '" + column.name + "' in materialized view '" +
                     view() + "'");
      }
    }
    CheckPrimaryKey(base, selected);
    ViewWhereClause where = CheckWhereClause(base);
    schema::PropertyDefinitions attributes = attributes_;
    GuardTableProperties(attributes, context);
    CheckOptions(attributes);
    GuardCount(guardrails::GuardrailId::kMaterializedViewsPerTable,
               static_cast<int64_t>(schema::ViewsOfTable(*ks, base.id).size()) + 1,
               view() + " on table " + base.name, context);

    auto created = Build(base, selected, std::move(where), attributes, context);
    schema::ValidateTable(*created);
    auto keyspace_copy = std::make_shared<KeyspaceMetadata>(*ks);
    keyspace_copy->views.emplace(view(), std::move(created));
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(keyspace_copy);
    // Once, though a commit that raced another may apply the statement again.
    if (context.warnings != nullptr && std::find(context.warnings->begin(), context.warnings->end(),
                                                 kUsageWarning) == context.warnings->end()) {
      context.warnings->emplace_back(kUsageWarning);
    }
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kCreated, SchemaChange::Target::kTable, keyspace(),
                      view());
  }

 private:
  const std::string& view() const { return statement_.view.name; }

  std::vector<std::string> ViewPrimaryKey() const {
    std::vector<std::string> names = statement_.partition_key;
    names.insert(names.end(), statement_.clustering_columns.begin(),
                 statement_.clustering_columns.end());
    return names;
  }

  // The SELECT clause: every column for SELECT *, else columns by name only.
  std::set<std::string> SelectedColumns(const TableMetadata& base) const {
    std::set<std::string> selected;
    if (statement_.select_star) {
      for (const ColumnMetadata& column : base.columns) selected.insert(column.name);
    }
    for (const cql::Selector& selector : statement_.selectors) {
      if (selector.alias) {
        // 4.1 prints the RawSelector object (RawSelector has no toString);
        // Sibyl prints the selector and its alias.
        ThrowInvalid("Cannot use aliases when defining a materialized view (got " +
                     SelectorText(selector) + " AS " + *selector.alias + ")");
      }
      if (selector.kind != cql::Selector::Kind::kColumn) {
        ThrowInvalid("Can only select columns by name when defining a materialized view (got " +
                     SelectorText(selector) + ")");
      }
      selected.insert(base.columns[base.ExistingColumnIndex(selector.name)].name);
    }
    return selected;
  }

  static void CheckKeyColumnType(const ColumnMetadata& column) {
    const types::CqlType& type = *column.type;
    if (schema::IsMultiCell(type)) {
      ThrowInvalid(std::string(type.is_collection() ? "Invalid non-frozen collection type '"
                                                    : "Invalid non-frozen user-defined type '") +
                   type.ToMarshal() + "' for PRIMARY KEY column '" + column.name + "'");
    }
    if (schema::IsCounter(type)) {
      ThrowInvalid("counter type is not supported for PRIMARY KEY column '" + column.name + "'");
    }
    if (schema::ReferencesDuration(type)) {
      ThrowInvalid("duration type is not supported for PRIMARY KEY column '" + column.name + "'");
    }
  }

  // The PRIMARY KEY and CLUSTERING ORDER BY clauses.
  void CheckPrimaryKey(const TableMetadata& base, const std::set<std::string>& selected) const {
    if (statement_.partition_key.empty()) {
      ThrowInvalid("Must provide at least one partition key column for materialized view '" +
                   view() + "'");
    }
    std::set<std::string> primary_key;
    for (const std::string& name : ViewPrimaryKey()) {
      const ColumnMetadata* column = base.FindColumn(name);
      if (column == nullptr || selected.count(name) == 0) {
        ThrowInvalid("Unknown column '" + name +
                     "' referenced in PRIMARY KEY for materialized view '" + view() + "'");
      }
      if (!primary_key.insert(name).second) {
        ThrowInvalid("Duplicate column '" + name +
                     "' in PRIMARY KEY clause for materialized view '" + view() + "'");
      }
      CheckKeyColumnType(*column);
    }
    if (!statement_.clustering_order.empty()) {
      std::vector<std::string> ordered;
      for (const cql::Ordering& o : statement_.clustering_order) ordered.push_back(o.column);
      if (ordered != statement_.clustering_columns) {
        ThrowInvalid(
            "Clustering key columns must exactly match columns in CLUSTERING ORDER BY "
            "directive");
      }
    }
    std::vector<std::string> missing;
    for (const ColumnMetadata& column : base.columns) {
      if (IsPrimaryKeyKind(column.kind) && primary_key.count(column.name) == 0) {
        missing.push_back(column.name);
      }
    }
    if (!missing.empty()) {
      ThrowInvalid("Cannot create materialized view '" + view() + "' without primary key columns " +
                   Join(missing, ", ") + " from base table '" + base.name + "'");
    }
    std::vector<std::string> non_key;  // in the view's key order (4.1: a HashSet's)
    for (const std::string& name : ViewPrimaryKey()) {
      if (!IsPrimaryKeyKind(base.FindColumn(name)->kind)) non_key.push_back(name);
    }
    if (non_key.size() > 1) {
      ThrowInvalid(
          "Cannot include more than one non-primary key column in materialized view primary key "
          "(got " +
          Join(non_key, ", ") + ")");
    }
  }

  // The WHERE clause, as 4.1 reads it through StatementRestrictions (for a
  // view, with filtering allowed): which columns it restricts, and how.
  ViewWhereClause CheckWhereClause(const TableMetadata& base) const {
    using Lhs = cql::Relation::Lhs;
    for (const cql::Relation& relation : statement_.where) {
      if (relation.lhs == Lhs::kToken) {
        ThrowInvalid("Cannot use token relation when defining a materialized view");
      }
    }
    for (const cql::Relation& relation : statement_.where) {
      if (relation.lhs == Lhs::kCustomIndexExpression) {
        ThrowInvalid("WHERE clause for materialized view '" + view() +
                     "' cannot contain custom index expressions");
      }
    }
    std::set<std::string> restricted;
    std::set<std::string> illegal;  // non-key columns restricted by more than IS NOT NULL
    for (const cql::Relation& relation : statement_.where) {
      for (const std::string& name : relation.columns) {
        const ColumnMetadata& column = base.columns[base.ExistingColumnIndex(name)];
        restricted.insert(column.name);
        if (relation.op != cql::Relation::Op::kIsNotNull && !IsPrimaryKeyKind(column.kind)) {
          illegal.insert(column.name);
        }
      }
    }
    std::vector<std::string> unrestricted;  // in the view's key order (4.1: a HashSet's)
    for (const std::string& name : ViewPrimaryKey()) {
      if (restricted.count(name) == 0) unrestricted.push_back(name);
    }
    if (!unrestricted.empty()) {
      ThrowInvalid("Primary key columns " + Join(unrestricted, ", ") +
                   " must be restricted with 'IS NOT NULL' or otherwise");
    }
    if (!illegal.empty()) {
      // 4.1 allows them with -Dcassandra.mv.allow_filtering_nonkey_columns_unsafe=true.
      std::vector<std::string> names;
      for (const ColumnMetadata& column : base.columns) {
        if (illegal.count(column.name) > 0) names.push_back(column.name);
      }
      ThrowInvalid("Non-primary key columns can only be restricted with 'IS NOT NULL' (got: " +
                   Join(names, ",") + " restricted illegally)");
    }
    // The relations' own errors (4.1's StatementRestrictions raises them
    // while reading the clause, before the checks above; here they come
    // after, so that a relation 4.1 refuses by those checks gets their
    // message rather than Sibyl's "not supported").
    return PrepareViewWhereClause(base, statement_.where);
  }

  // TableAttributes.validate, then the option a view may not have.
  static void CheckOptions(const schema::PropertyDefinitions& attributes) {
    schema::ValidateTableOptionNames(attributes);
    (void)schema::BuildTableParams(attributes, schema::TableParams{}, true);
    (void)schema::TableIdOption(attributes);
    if (attributes.Has("default_time_to_live")) {
      ThrowInvalid(
          "Cannot set default_time_to_live for a materialized view. Data in a materialized view "
          "always expire at the same time than the corresponding data in the parent table.");
    }
  }

  // The view's TableMetadata, as 4.1's builder makes it: the PRIMARY KEY's
  // columns, then the other selected columns as regular ones, each with the
  // base column's type. A clustering column's order is CLUSTERING ORDER BY's,
  // else the base column's when it is a descending clustering column there
  // (4.1 keeps its ReversedType), else ascending.
  std::shared_ptr<TableMetadata> Build(const TableMetadata& base,
                                       const std::set<std::string>& selected, ViewWhereClause where,
                                       const schema::PropertyDefinitions& attributes,
                                       const SchemaChangeContext& context) const {
    auto created = std::make_shared<TableMetadata>();
    created->keyspace = keyspace();
    created->name = view();
    created->params = schema::BuildTableParams(attributes, schema::TableParams{}, true);
    const std::optional<types::Uuid> id = schema::TableIdOption(attributes);
    created->id = id ? *id : NewTableId(context.now_micros);
    for (size_t i = 0; i < statement_.partition_key.size(); ++i) {
      const ColumnMetadata& column = *base.FindColumn(statement_.partition_key[i]);
      created->columns.push_back(ColumnMetadata{column.name, column.type, ColumnKind::kPartitionKey,
                                                static_cast<int>(i),
                                                schema::ClusteringOrder::kNone});
    }
    for (size_t i = 0; i < statement_.clustering_columns.size(); ++i) {
      const ColumnMetadata& column = *base.FindColumn(statement_.clustering_columns[i]);
      schema::ClusteringOrder order =
          column.kind == ColumnKind::kClustering && column.order == schema::ClusteringOrder::kDesc
              ? schema::ClusteringOrder::kDesc
              : schema::ClusteringOrder::kAsc;
      for (const cql::Ordering& o : statement_.clustering_order) {
        if (o.column == column.name) {
          order = o.descending ? schema::ClusteringOrder::kDesc : schema::ClusteringOrder::kAsc;
        }
      }
      created->columns.push_back(ColumnMetadata{column.name, column.type, ColumnKind::kClustering,
                                                static_cast<int>(i), order});
    }
    const std::vector<std::string> key = ViewPrimaryKey();
    for (const ColumnMetadata& column : base.columns) {
      if (selected.count(column.name) == 0) continue;
      if (std::find(key.begin(), key.end(), column.name) != key.end()) continue;
      created->columns.push_back(ColumnMetadata{column.name, column.type, ColumnKind::kRegular, -1,
                                                schema::ClusteringOrder::kNone});
    }
    schema::SortColumns(*created);
    schema::ViewDefinition& definition = created->view.emplace();
    definition.base_table = base.name;
    definition.base_table_id = base.id;
    definition.include_all_columns = statement_.select_star;
    definition.where_clause = std::move(where.text);
    definition.restrictions = std::move(where.restrictions);
    return created;
  }

  cql::CreateViewStatement statement_;
  schema::PropertyDefinitions attributes_;
};

// The view `name` of `keyspace` in `schema`, or null.
schema::TablePtr FindView(const schema::Schema& schema, const std::string& keyspace,
                          const std::string& name) {
  const KeyspaceMetadata* ks = schema.FindKeyspace(keyspace);
  if (ks == nullptr) return nullptr;
  auto it = ks->views.find(name);
  return it == ks->views.end() ? nullptr : it->second;
}

// 4.1's authorize checks ALTER on the view's base table when the view
// exists. Sibyl has no roles yet, so what that check can refuse is a system
// keyspace's table, and no view exists in a system keyspace: nothing to do.
class AlterView final : public SchemaAlteration {
 public:
  AlterView(const cql::AlterViewStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)),
        view_(s.view.name),
        if_exists_(s.if_exists),
        attributes_(ToProperties(s.options)) {}

  void Authorize() const override {}

  std::optional<schema::Schema::KeyspaceMap> Apply(
      const schema::Schema& current, const SchemaChangeContext& context) const override {
    const schema::TablePtr existing = FindView(current, keyspace(), view_);
    if (existing == nullptr) {
      if (if_exists_) return std::nullopt;
      ThrowInvalid("Materialized view '" + keyspace() + "." + view_ + "' doesn't exist");
    }
    schema::PropertyDefinitions attributes = attributes_;
    GuardTableProperties(attributes, context);
    schema::ValidateTableOptionNames(attributes);
    if (attributes.Has("id")) ThrowConfig("Cannot alter table id.");
    auto altered = std::make_shared<TableMetadata>(*existing);
    altered->params = schema::BuildTableParams(attributes, existing->params, false);
    if (altered->params.gc_grace_seconds == 0) {
      ThrowInvalid(
          "Cannot alter gc_grace_seconds of a materialized view to 0, since this value is used to "
          "TTL undelivered updates. Setting gc_grace_seconds too low might cause undelivered "
          "updates to expire before being replayed.");
    }
    if (altered->params.default_time_to_live > 0) {
      ThrowInvalid(
          "Forbidden default_time_to_live detected for a materialized view. Data in a "
          "materialized view always expire at the same time than the corresponding data in the "
          "parent table. default_time_to_live must be set to zero, see CASSANDRA-12868 for more "
          "information");
    }
    auto keyspace_copy = std::make_shared<KeyspaceMetadata>(*current.FindKeyspace(keyspace()));
    keyspace_copy->views[view_] = std::move(altered);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(keyspace_copy);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kUpdated, SchemaChange::Target::kTable, keyspace(),
                      view_);
  }

 private:
  std::string view_;
  bool if_exists_;
  schema::PropertyDefinitions attributes_;
};

class DropView final : public SchemaAlteration {
 public:
  DropView(const cql::DropViewStatement& s, std::string keyspace)
      : SchemaAlteration(std::move(keyspace)), view_(s.view.name), if_exists_(s.if_exists) {}

  void Authorize() const override {}

  std::optional<schema::Schema::KeyspaceMap> Apply(const schema::Schema& current,
                                                   const SchemaChangeContext&) const override {
    if (FindView(current, keyspace(), view_) == nullptr) {
      if (if_exists_) return std::nullopt;
      ThrowInvalid("Materialized view '" + keyspace() + "." + view_ + "' doesn't exist");
    }
    auto keyspace_copy = std::make_shared<KeyspaceMetadata>(*current.FindKeyspace(keyspace()));
    keyspace_copy->views.erase(view_);
    schema::Schema::KeyspaceMap next = current.keyspaces();
    next[keyspace()] = std::move(keyspace_copy);
    return next;
  }

  SchemaChange Change(const schema::Schema&) const override {
    return MakeChange(SchemaChange::Type::kDropped, SchemaChange::Target::kTable, keyspace(),
                      view_);
  }

 private:
  std::string view_;
  bool if_exists_;
};

}  // namespace

SchemaAlterationPtr PrepareCreateView(const cql::CreateViewStatement& s,
                                      std::optional<std::string_view> keyspace,
                                      size_t bind_marker_count) {
  std::string resolved = ResolveKeyspace(s.view, keyspace);
  if (s.base_table.keyspace && *s.base_table.keyspace != resolved) {
    ThrowInvalid("Cannot create a materialized view on a table in a different keyspace");
  }
  if (bind_marker_count > 0) {
    ThrowInvalid("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
  }
  if (s.partition_key.empty()) {
    // The parser requires a PRIMARY KEY; the typo "specifed" is 4.1's.
    ThrowInvalid("No PRIMARY KEY specifed for view '" +
                 (s.view.keyspace ? *s.view.keyspace + "." : std::string()) + s.view.name +
                 "' (exactly one required)");
  }
  return std::make_shared<CreateView>(s, std::move(resolved));
}

SchemaAlterationPtr PrepareAlterView(const cql::AlterViewStatement& s,
                                     std::optional<std::string_view> keyspace) {
  return std::make_shared<AlterView>(s, ResolveKeyspace(s.view, keyspace));
}

SchemaAlterationPtr PrepareDropView(const cql::DropViewStatement& s,
                                    std::optional<std::string_view> keyspace) {
  return std::make_shared<DropView>(s, ResolveKeyspace(s.view, keyspace));
}

}  // namespace sibyl::query::ddl
