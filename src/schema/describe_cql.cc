#include "schema/describe_cql.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string_view>

#include "common/hex.h"
#include "types/cql_identifier.h"

namespace sibyl::schema {
namespace {

using types::MaybeQuoteIdentifier;

// Text with Cassandra's CqlBuilder layout: NewLine() ends a line, and the next
// append starts with four spaces per indent level (so a line's indentation is
// the level in force when its first text is written).
class CqlText {
 public:
  CqlText& Append(std::string_view text) {
    IndentIfNeeded();
    out_.append(text);
    return *this;
  }
  CqlText& Append(char c) {
    IndentIfNeeded();
    out_.push_back(c);
    return *this;
  }
  CqlText& AppendName(std::string_view name) { return Append(MaybeQuoteIdentifier(name)); }
  CqlText& AppendNumber(int64_t n) { return Append(std::to_string(n)); }
  CqlText& AppendBool(bool b) { return Append(b ? "true" : "false"); }
  // 'text' with inner quotes doubled.
  CqlText& AppendQuoted(std::string_view text) {
    IndentIfNeeded();
    out_.push_back('\'');
    for (char c : text) {
      if (c == '\'') out_.push_back('\'');
      out_.push_back(c);
    }
    out_.push_back('\'');
    return *this;
  }
  // {'key': 'value', ...} in key order (the map's own order: byte order, as
  // Java's TreeMap of strings orders ASCII keys). Values are quoted unless
  // `quote_values` is false.
  template <typename Map>
  CqlText& AppendMap(const Map& map, bool quote_values = true) {
    Append('{');
    bool first = true;
    for (const auto& [key, value] : map) {
      if (!first) out_.append(", ");
      first = false;
      AppendQuoted(key);
      out_.append(": ");
      if (quote_values) {
        AppendQuoted(value);
      } else {
        out_.append(value);
      }
    }
    out_.push_back('}');
    return *this;
  }
  CqlText& NewLine() {
    out_.push_back('\n');
    at_line_start_ = true;
    return *this;
  }
  CqlText& Indent() {
    ++indent_;
    return *this;
  }
  CqlText& Dedent() {
    if (indent_ > 0) --indent_;
    return *this;
  }
  std::string Take() { return std::move(out_); }

 private:
  void IndentIfNeeded() {
    if (!at_line_start_) return;
    for (int i = 0; i < indent_; ++i) out_.append("    ");
    at_line_start_ = false;
  }

  std::string out_;
  int indent_ = 0;
  bool at_line_start_ = false;
};

// ReplicationParams.appendCqlTo: strategies of Cassandra's own locator
// package go by their simple name, others by their full class name.
std::string StrategyName(std::string_view class_name) {
  constexpr std::string_view kLocatorPackage = "org.apache.cassandra.locator.";
  if (class_name.starts_with(kLocatorPackage)) {
    std::string_view simple = class_name.substr(kLocatorPackage.size());
    if (simple.find('.') == std::string_view::npos) return std::string(simple);
  }
  return std::string(class_name);
}

// Non-frozen collections and user types are stored cell by cell ("complex"
// columns in Cassandra), which sorts them after single-cell columns.
bool IsMultiCell(const types::CqlType& type) {
  return (type.is_collection() || type.kind() == types::Kind::kUdt) && !type.frozen();
}

const char* OrderKeyword(ClusteringOrder order) {
  return order == ClusteringOrder::kDesc ? "DESC" : "ASC";
}

void AppendColumn(CqlText& text, const ColumnMetadata& column) {
  text.AppendName(column.name).Append(' ').Append(column.type->ToCql());
  if (column.kind == ColumnKind::kStatic) text.Append(" static");
}

std::vector<const ColumnMetadata*> KeyColumns(const TableMetadata& table, ColumnKind kind) {
  std::vector<const ColumnMetadata*> key;
  for (const auto& column : table.columns) {
    if (column.kind == kind) key.push_back(&column);
  }
  std::stable_sort(key.begin(), key.end(), [](const ColumnMetadata* a, const ColumnMetadata* b) {
    return a->position < b->position;
  });
  return key;
}

void AppendPrimaryKey(CqlText& text, const std::vector<const ColumnMetadata*>& partition_key,
                      const std::vector<const ColumnMetadata*>& clustering) {
  text.Append("PRIMARY KEY (");
  if (partition_key.size() > 1) text.Append('(');
  for (size_t i = 0; i < partition_key.size(); ++i) {
    if (i > 0) text.Append(", ");
    text.AppendName(partition_key[i]->name);
  }
  if (partition_key.size() > 1) text.Append(')');
  for (const ColumnMetadata* column : clustering) text.Append(", ").AppendName(column->name);
  text.Append(')').NewLine();
}

// TableParams.appendCqlTo: every option, alphabetical apart from memtable,
// which 4.1 writes after compression.
void AppendTableParams(CqlText& text, const TableParams& params, bool is_view) {
  std::map<std::string, std::string> extensions;
  for (const auto& [key, value] : params.extensions) extensions.emplace(key, "0x" + ToHex(value));

  text.Append("additional_write_policy = ").AppendQuoted(params.additional_write_policy).NewLine();
  text.Append("AND bloom_filter_fp_chance = ")
      .Append(JavaDoubleToString(params.bloom_filter_fp_chance))
      .NewLine();
  text.Append("AND caching = ").AppendMap(params.caching).NewLine();
  text.Append("AND cdc = ").AppendBool(params.cdc).NewLine();
  text.Append("AND comment = ").AppendQuoted(params.comment).NewLine();
  text.Append("AND compaction = ").AppendMap(params.compaction).NewLine();
  text.Append("AND compression = ").AppendMap(params.compression).NewLine();
  text.Append("AND memtable = ").AppendQuoted(params.memtable.value_or("default")).NewLine();
  text.Append("AND crc_check_chance = ")
      .Append(JavaDoubleToString(params.crc_check_chance))
      .NewLine();
  // A view has no default_time_to_live of its own (4.1 leaves it out).
  if (!is_view) {
    text.Append("AND default_time_to_live = ").AppendNumber(params.default_time_to_live).NewLine();
  }
  text.Append("AND extensions = ").AppendMap(extensions, /*quote_values=*/false).NewLine();
  text.Append("AND gc_grace_seconds = ").AppendNumber(params.gc_grace_seconds).NewLine();
  text.Append("AND max_index_interval = ").AppendNumber(params.max_index_interval).NewLine();
  text.Append("AND memtable_flush_period_in_ms = ")
      .AppendNumber(params.memtable_flush_period_in_ms)
      .NewLine();
  text.Append("AND min_index_interval = ").AppendNumber(params.min_index_interval).NewLine();
  text.Append("AND read_repair = ").AppendQuoted(params.read_repair).NewLine();
  text.Append("AND speculative_retry = ").AppendQuoted(params.speculative_retry);
}

// TableMetadata.appendTableOptions: " WITH ", the id WITH INTERNALS, the
// clustering order, then the options, and the closing ';'.
void AppendTableOptions(CqlText& text, const TableMetadata& table, bool is_virtual,
                        const CqlTextOptions& options) {
  text.Append(" WITH ").Indent();
  if (options.with_internals) {
    text.Append("ID = ").Append(table.id.ToString()).NewLine().Append("AND ");
  }
  std::vector<const ColumnMetadata*> clustering = KeyColumns(table, ColumnKind::kClustering);
  if (!clustering.empty()) {
    text.Append("CLUSTERING ORDER BY (");
    for (size_t i = 0; i < clustering.size(); ++i) {
      if (i > 0) text.Append(", ");
      text.AppendName(clustering[i]->name).Append(' ').Append(OrderKeyword(clustering[i]->order));
    }
    text.Append(')').NewLine().Append("AND ");
  }
  if (is_virtual) {
    text.Append("comment = ").AppendQuoted(table.params.comment);
  } else {
    AppendTableParams(text, table.params, table.is_view());
  }
  text.Append(';').Dedent();
}

// Appends the names of the user types `type` uses, dependencies first, then
// its own name if it is a user type (Types.addUserTypes).
void CollectUserTypes(const types::CqlType& type, std::vector<std::string>& order,
                      std::set<std::string, std::less<>>& seen) {
  for (const types::TypePtr& sub : type.params()) CollectUserTypes(*sub, order, seen);
  if (type.kind() == types::Kind::kUdt && seen.insert(type.udt_name()).second) {
    order.push_back(type.udt_name());
  }
}

}  // namespace

std::string KeyspaceCql(const KeyspaceMetadata& keyspace, bool is_virtual,
                        const CqlTextOptions& options) {
  CqlText text;
  if (is_virtual) {
    text.Append("/*").NewLine();
    text.Append("Warning: Keyspace ")
        .AppendName(keyspace.name)
        .Append(" is a virtual keyspace and cannot be recreated with CQL.")
        .NewLine();
    text.Append("Structure, for reference:").NewLine();
    text.Append("VIRTUAL KEYSPACE ").AppendName(keyspace.name).Append(';').NewLine();
    text.Append("*/");
    return text.Take();
  }
  text.Append("CREATE KEYSPACE ");
  if (options.if_not_exists) text.Append("IF NOT EXISTS ");
  text.AppendName(keyspace.name).Append(" WITH replication = {'class': ");
  auto class_entry = keyspace.replication.find("class");
  text.AppendQuoted(
      StrategyName(class_entry == keyspace.replication.end() ? "" : class_entry->second));
  for (const auto& [key, value] : keyspace.replication) {
    if (key == "class") continue;
    text.Append(", ").AppendQuoted(key).Append(": ").AppendQuoted(value);
  }
  // Two spaces before AND: Cassandra's own spelling.
  text.Append("}  AND durable_writes = ").AppendBool(keyspace.durable_writes).Append(';');
  return text.Take();
}

std::vector<const ColumnMetadata*> ColumnsInCreateOrder(const TableMetadata& table) {
  std::vector<const ColumnMetadata*> columns = KeyColumns(table, ColumnKind::kPartitionKey);
  for (const ColumnMetadata* column : KeyColumns(table, ColumnKind::kClustering)) {
    columns.push_back(column);
  }
  for (ColumnKind kind : {ColumnKind::kStatic, ColumnKind::kRegular}) {
    std::vector<const ColumnMetadata*> group;
    for (const auto& column : table.columns) {
      if (column.kind == kind) group.push_back(&column);
    }
    std::sort(group.begin(), group.end(), [](const ColumnMetadata* a, const ColumnMetadata* b) {
      bool a_multi = IsMultiCell(*a->type);
      bool b_multi = IsMultiCell(*b->type);
      if (a_multi != b_multi) return b_multi;
      return a->name < b->name;
    });
    columns.insert(columns.end(), group.begin(), group.end());
  }
  return columns;
}

std::string TableCql(const TableMetadata& table, bool is_virtual, const CqlTextOptions& options) {
  CqlText text;
  if (is_virtual) {
    text.Append("/*\nWarning: Table ")
        .Append(table.QualifiedName())
        .Append(
            " is a virtual table and cannot be recreated with CQL.\nStructure, for reference:\n");
  }
  text.Append(is_virtual ? "VIRTUAL TABLE " : "CREATE TABLE ");
  if (options.if_not_exists) text.Append("IF NOT EXISTS ");
  text.Append(table.QualifiedName()).Append(" (").NewLine().Indent();

  std::vector<const ColumnMetadata*> partition_key = KeyColumns(table, ColumnKind::kPartitionKey);
  std::vector<const ColumnMetadata*> clustering = KeyColumns(table, ColumnKind::kClustering);
  bool single_column_key = partition_key.size() == 1 && clustering.empty();

  std::vector<const ColumnMetadata*> columns = ColumnsInCreateOrder(table);
  for (size_t i = 0; i < columns.size(); ++i) {
    AppendColumn(text, *columns[i]);
    if (single_column_key && columns[i]->kind == ColumnKind::kPartitionKey) {
      text.Append(" PRIMARY KEY");
    }
    if (!single_column_key || i + 1 < columns.size()) text.Append(',');
    text.NewLine();
  }
  if (!single_column_key) AppendPrimaryKey(text, partition_key, clustering);
  text.Dedent().Append(')');

  AppendTableOptions(text, table, is_virtual, options);
  if (is_virtual) text.NewLine().Append("*/");
  return text.Take();
}

std::string ViewCql(const TableMetadata& view, const CqlTextOptions& options) {
  const ViewDefinition& definition = *view.view;
  CqlText text;
  text.Append("CREATE MATERIALIZED VIEW ");
  if (options.if_not_exists) text.Append("IF NOT EXISTS ");
  text.Append(view.QualifiedName()).Append(" AS").NewLine().Indent().Append("SELECT ");
  if (definition.include_all_columns) {
    text.Append('*');
  } else {
    for (size_t i = 0; i < view.columns.size(); ++i) {
      if (i > 0) text.Append(", ");
      text.AppendName(view.columns[i].name);
    }
  }
  text.NewLine()
      .Append("FROM ")
      .AppendName(view.keyspace)
      .Append('.')
      .AppendName(definition.base_table)
      .NewLine()
      .Append("WHERE ")
      .Append(definition.where_clause)
      .NewLine();
  AppendPrimaryKey(text, KeyColumns(view, ColumnKind::kPartitionKey),
                   KeyColumns(view, ColumnKind::kClustering));
  // The options start a line of their own, after the key's line: " WITH ...".
  text.Dedent();
  AppendTableOptions(text, view, /*is_virtual=*/false, options);
  return text.Take();
}

std::string UserTypeCql(const types::CqlType& user_type, const CqlTextOptions& options) {
  CqlText text;
  text.Append("CREATE TYPE ");
  if (options.if_not_exists) text.Append("IF NOT EXISTS ");
  text.AppendName(user_type.udt_keyspace())
      .Append('.')
      .AppendName(user_type.udt_name())
      .Append(" (")
      .NewLine()
      .Indent();
  const auto& names = user_type.field_names();
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text.Append(',').NewLine();
    text.AppendName(names[i]).Append(' ').Append(user_type.params()[i]->ToCql());
  }
  text.NewLine().Dedent().Append(");");
  return text.Take();
}

std::string IndexCql(const TableMetadata& table, const IndexMetadata& index,
                     const CqlTextOptions& options) {
  CqlText text;
  auto option = [&](std::string_view key) -> std::string_view {
    auto it = index.options.find(std::string(key));
    return it == index.options.end() ? std::string_view() : std::string_view(it->second);
  };
  bool custom = index.kind == "CUSTOM";
  text.Append(custom ? "CREATE CUSTOM INDEX " : "CREATE INDEX ");
  if (options.if_not_exists) text.Append("IF NOT EXISTS ");
  // The target option is stored already in CQL form ("v", "keys(m)", "\"Col\"").
  text.AppendName(index.name)
      .Append(" ON ")
      .Append(table.QualifiedName())
      .Append(" (")
      .Append(option("target"))
      .Append(')');
  if (custom) {
    text.Append(" USING ").AppendQuoted(option("class_name"));
    std::map<std::string, std::string> rest;
    for (const auto& [key, value] : index.options) {
      if (key != "target" && key != "class_name") rest.emplace(key, value);
    }
    if (!rest.empty()) text.Append(" WITH OPTIONS = ").AppendMap(rest);
  }
  text.Append(';');
  return text.Take();
}

std::vector<types::TypePtr> UserTypesInDependencyOrder(const KeyspaceMetadata& keyspace) {
  std::vector<std::string> order;
  std::set<std::string, std::less<>> seen;
  for (const auto& [name, type] : keyspace.user_types) CollectUserTypes(*type, order, seen);
  std::vector<types::TypePtr> types;
  for (const std::string& name : order) {
    // Only this keyspace's types: a type refers to no other keyspace's types.
    auto it = keyspace.user_types.find(name);
    if (it != keyspace.user_types.end()) types.push_back(it->second);
  }
  return types;
}

std::string JavaDoubleToString(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";

  // Shortest round-trip digits, as "d.ddde±XX".
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, std::fabs(value),
                              std::chars_format::scientific);
  std::string_view scientific(buffer, static_cast<size_t>(result.ptr - buffer));
  size_t e = scientific.find('e');
  std::string digits;
  for (char c : scientific.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  int exponent = std::atoi(std::string(scientific.substr(e + 1)).c_str());

  std::string out = value < 0 ? "-" : "";
  double magnitude = std::fabs(value);
  if (magnitude >= 1e-3 && magnitude < 1e7) {
    if (exponent >= 0) {
      size_t integer_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() < integer_digits) digits.append(integer_digits - digits.size(), '0');
      out.append(digits, 0, integer_digits).push_back('.');
      out.append(digits.size() > integer_digits ? digits.substr(integer_digits) : "0");
    } else {
      out.append("0.").append(static_cast<size_t>(-exponent - 1), '0').append(digits);
    }
    return out;
  }
  out.push_back(digits[0]);
  out.push_back('.');
  out.append(digits.size() > 1 ? digits.substr(1) : "0");
  out.append("E").append(std::to_string(exponent));
  return out;
}

}  // namespace sibyl::schema
