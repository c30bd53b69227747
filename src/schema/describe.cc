#include "schema/describe.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <functional>
#include <map>
#include <utility>

#include "common/error.h"
#include "schema/describe_cql.h"
#include "schema/view_lookup.h"
#include "types/cql_identifier.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

using types::MaybeQuoteIdentifier;

// ---------------------------------------------------------------------------
// Result columns.

types::TypePtr Text() { return types::CqlType::Native(types::Kind::kText); }

std::shared_ptr<const DescribeColumns> MakeColumns(std::vector<std::string> names) {
  auto columns = std::make_shared<DescribeColumns>();
  for (std::string& name : names)
    columns->push_back({"system", "describe", std::move(name), Text()});
  return columns;
}

const std::shared_ptr<const DescribeColumns>& ListingColumns() {
  static const auto columns = MakeColumns({"keyspace_name", "type", "name"});
  return columns;
}

const std::shared_ptr<const DescribeColumns>& ElementColumns() {
  static const auto columns = MakeColumns({"keyspace_name", "type", "name", "create_statement"});
  return columns;
}

const std::shared_ptr<const DescribeColumns>& ClusterColumns(bool with_ranges) {
  static const auto without = MakeColumns({"cluster", "partitioner", "snitch"});
  static const auto with = [] {
    auto columns =
        std::make_shared<DescribeColumns>(*MakeColumns({"cluster", "partitioner", "snitch"}));
    columns->push_back({"system", "describe", "range_ownership",
                        types::CqlType::Map(Text(), types::CqlType::List(Text(), /*frozen=*/true),
                                            /*frozen=*/true)});
    return std::shared_ptr<const DescribeColumns>(std::move(columns));
  }();
  return with_ranges ? with : without;
}

// ---------------------------------------------------------------------------
// The keyspaces DESCRIBE sees: the schema's and the virtual ones.

struct KeyspaceEntry {
  const KeyspaceMetadata* metadata;
  bool is_virtual;
};
using Keyspaces = std::map<std::string_view, KeyspaceEntry>;

Keyspaces AllKeyspaces(const DescribeContext& context) {
  Keyspaces all;
  for (const auto& [name, keyspace] : context.schema.keyspaces()) {
    all[name] = {keyspace.get(), false};
  }
  if (context.virtual_keyspaces != nullptr) {
    for (const auto& [name, keyspace] : *context.virtual_keyspaces) {
      all[name] = {keyspace.get(), true};
    }
  }
  return all;
}

// SchemaConstants.isSystemKeyspace, which compares lower-cased names.
bool IsSystemKeyspaceName(std::string_view name) {
  static constexpr std::array<std::string_view, 7> kSystemKeyspaces = {
      "system",        "system_schema", "system_auth",          "system_distributed",
      "system_traces", "system_views",  "system_virtual_schema"};
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::find(kSystemKeyspaces.begin(), kSystemKeyspaces.end(), lower) !=
         kSystemKeyspaces.end();
}

// SchemaElement.NAME_COMPARATOR: String.compareToIgnoreCase.
bool NameLess(std::string_view a, std::string_view b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) <
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Sorts by name case-insensitively; equal names keep their (byte) order, as
// Java's stable sort keeps its input's.
template <typename T, typename NameOf>
void SortByName(std::vector<T>& items, NameOf name_of) {
  std::stable_sort(items.begin(), items.end(),
                   [&](const T& a, const T& b) { return NameLess(name_of(a), name_of(b)); });
}

std::vector<KeyspaceEntry> SortedKeyspaces(const Keyspaces& keyspaces) {
  std::vector<KeyspaceEntry> sorted;
  for (const auto& [name, entry] : keyspaces) sorted.push_back(entry);
  SortByName(sorted, [](const KeyspaceEntry& k) -> std::string_view { return k.metadata->name; });
  return sorted;
}

std::vector<const TableMetadata*> SortedTables(const KeyspaceMetadata& keyspace) {
  std::vector<const TableMetadata*> tables;
  for (const auto& [name, table] : keyspace.tables) tables.push_back(table.get());
  SortByName(tables, [](const TableMetadata* t) -> std::string_view { return t->name; });
  return tables;
}

std::vector<types::TypePtr> SortedTypes(const KeyspaceMetadata& keyspace) {
  std::vector<types::TypePtr> types;
  for (const auto& [name, type] : keyspace.user_types) types.push_back(type);
  SortByName(types, [](const types::TypePtr& t) -> std::string_view { return t->udt_name(); });
  return types;
}

std::vector<const IndexMetadata*> SortedIndexes(const TableMetadata& table) {
  std::vector<const IndexMetadata*> indexes;
  for (const auto& index : table.indexes) indexes.push_back(&index);
  SortByName(indexes, [](const IndexMetadata* i) -> std::string_view { return i->name; });
  return indexes;
}

// ---------------------------------------------------------------------------
// Rows.

void AddListingRow(std::vector<Row>& rows, std::string_view keyspace, const char* type,
                   std::string_view name) {
  rows.push_back({MaybeQuoteIdentifier(keyspace), Bytes(type), MaybeQuoteIdentifier(name)});
}

void AddElementRow(std::vector<Row>& rows, std::string_view keyspace, const char* type,
                   std::string_view name, std::string create_statement) {
  rows.push_back({MaybeQuoteIdentifier(keyspace), Bytes(type), MaybeQuoteIdentifier(name),
                  std::move(create_statement)});
}

void AddIndexRow(std::vector<Row>& rows, const TableMetadata& table, const IndexMetadata& index) {
  AddElementRow(rows, table.keyspace, "index", index.name, IndexCql(table, index));
}

void AddViewRow(std::vector<Row>& rows, const TableMetadata& view, bool with_internals) {
  CqlTextOptions options;
  options.with_internals = with_internals;
  AddElementRow(rows, view.keyspace, "materialized_view", view.name, ViewCql(view, options));
}

// The table, then its indexes (DescribeStatement.table), then, when
// `with_views` (DescribeStatement.getTableElements, for DESCRIBE KEYSPACE
// and SCHEMA; 4.1's DESCRIBE TABLE leaves them out), its materialized views
// by name.
void AddTableRows(std::vector<Row>& rows, const KeyspaceEntry& keyspace, const TableMetadata& table,
                  bool with_internals, bool with_views) {
  CqlTextOptions options;
  options.with_internals = with_internals;
  AddElementRow(rows, table.keyspace, "table", table.name,
                TableCql(table, keyspace.is_virtual, options));
  for (const IndexMetadata* index : SortedIndexes(table)) AddIndexRow(rows, table, *index);
  if (!with_views) return;
  std::vector<TablePtr> views = ViewsOfTable(*keyspace.metadata, table.id);
  SortByName(views, [](const TablePtr& v) -> std::string_view { return v->name; });
  for (const TablePtr& view : views) AddViewRow(rows, *view, with_internals);
}

// DescribeStatement.getKeyspaceElements: the keyspace, its types, functions
// and aggregates (none yet), then its tables with their indexes.
void AddKeyspaceRows(std::vector<Row>& rows, const KeyspaceEntry& keyspace, bool only_keyspace,
                     bool with_internals) {
  const KeyspaceMetadata& metadata = *keyspace.metadata;
  AddElementRow(rows, metadata.name, "keyspace", metadata.name,
                KeyspaceCql(metadata, keyspace.is_virtual));
  if (only_keyspace) return;
  for (const types::TypePtr& type : UserTypesInDependencyOrder(metadata)) {
    AddElementRow(rows, metadata.name, "type", type->udt_name(), UserTypeCql(*type));
  }
  for (const TableMetadata* table : SortedTables(metadata)) {
    AddTableRows(rows, keyspace, *table, with_internals, /*with_views=*/true);
  }
}

// ---------------------------------------------------------------------------
// Lookups with Cassandra's messages.

[[noreturn]] void ThrowNotFound(std::string_view what, std::string_view name,
                                std::string_view keyspace) {
  std::string message(what);
  message.append(" '").append(name).append("' not found in '").append(keyspace).append("'");
  ThrowInvalid(std::move(message));
}

// DescribeStatement.validateKeyspace (KeyspaceNotDefinedException, an InvalidRequest).
const KeyspaceEntry& FindKeyspace(const Keyspaces& keyspaces, std::string_view name) {
  auto it = keyspaces.find(name);
  if (it == keyspaces.end()) {
    ThrowInvalid("'" + std::string(name) + "' not found in keyspaces");
  }
  return it->second;
}

// The keyspace an element form names, or the session's.
const KeyspaceEntry& ElementKeyspace(const Keyspaces& keyspaces, const DescribeRequest& request,
                                     const DescribeContext& context) {
  if (request.keyspace) return FindKeyspace(keyspaces, *request.keyspace);
  if (!context.current_keyspace) ThrowInvalid("No keyspace specified and no current keyspace");
  return FindKeyspace(keyspaces, *context.current_keyspace);
}

const TableMetadata* FindTable(const KeyspaceMetadata& keyspace, std::string_view name) {
  auto it = keyspace.tables.find(name);
  return it == keyspace.tables.end() ? nullptr : it->second.get();
}

// KeyspaceMetadata.findIndexedTable, and the index in it.
std::pair<const TableMetadata*, const IndexMetadata*> FindIndex(const KeyspaceMetadata& keyspace,
                                                                std::string_view name) {
  for (const auto& [table_name, table] : keyspace.tables) {
    for (const auto& index : table->indexes) {
      if (index.name == name) return {table.get(), &index};
    }
  }
  return {nullptr, nullptr};
}

// ---------------------------------------------------------------------------
// The statement forms.

using Listing = std::function<void(const KeyspaceEntry&, std::vector<Row>&)>;

// DescribeStatement.Listing: the session's keyspace if set, else every keyspace.
DescribeResult DescribeListing(const Keyspaces& keyspaces, const DescribeContext& context,
                               const Listing& list) {
  DescribeResult result{ListingColumns(), {}};
  if (context.current_keyspace) {
    list(FindKeyspace(keyspaces, *context.current_keyspace), result.rows);
  } else {
    for (const KeyspaceEntry& keyspace : SortedKeyspaces(keyspaces)) list(keyspace, result.rows);
  }
  return result;
}

// DESCRIBE KEYSPACES: every keyspace, the session's or not.
DescribeResult DescribeKeyspaceNames(const Keyspaces& keyspaces) {
  DescribeResult result{ListingColumns(), {}};
  for (const KeyspaceEntry& keyspace : SortedKeyspaces(keyspaces)) {
    AddListingRow(result.rows, keyspace.metadata->name, "keyspace", keyspace.metadata->name);
  }
  return result;
}

// The Listings of DESCRIBE TABLES and DESCRIBE TYPES.
void ListTableNames(const KeyspaceEntry& keyspace, std::vector<Row>& rows) {
  for (const TableMetadata* table : SortedTables(*keyspace.metadata)) {
    AddListingRow(rows, keyspace.metadata->name, "table", table->name);
  }
}

void ListTypeNames(const KeyspaceEntry& keyspace, std::vector<Row>& rows) {
  for (const types::TypePtr& type : SortedTypes(*keyspace.metadata)) {
    AddListingRow(rows, keyspace.metadata->name, "type", type->udt_name());
  }
}

// DESCRIBE [FULL] SCHEMA: the system keyspaces only when FULL.
DescribeResult DescribeWholeSchema(const Keyspaces& keyspaces, const DescribeRequest& request) {
  DescribeResult result{ElementColumns(), {}};
  for (const KeyspaceEntry& keyspace : SortedKeyspaces(keyspaces)) {
    if (!request.full && IsSystemKeyspaceName(keyspace.metadata->name)) continue;
    AddKeyspaceRows(result.rows, keyspace, /*only_keyspace=*/false, request.with_internals);
  }
  return result;
}

// The element forms (DESCRIBE TABLE, INDEX, TYPE, MATERIALIZED VIEW), in
// `keyspace`, the one the statement names or the session's.

DescribeResult DescribeOneTable(const KeyspaceEntry& keyspace, const DescribeRequest& request) {
  const TableMetadata* table = FindTable(*keyspace.metadata, request.name);
  if (table == nullptr) {
    ThrowInvalid("Table '" + request.name + "' not found in keyspace '" + keyspace.metadata->name +
                 "'");
  }
  DescribeResult result{ElementColumns(), {}};
  AddTableRows(result.rows, keyspace, *table, request.with_internals, /*with_views=*/false);
  return result;
}

DescribeResult DescribeOneIndex(const KeyspaceEntry& keyspace, const DescribeRequest& request) {
  auto [table, index] = FindIndex(*keyspace.metadata, request.name);
  if (table == nullptr) {
    ThrowNotFound("Table for existing index", request.name, keyspace.metadata->name);
  }
  DescribeResult result{ElementColumns(), {}};
  AddIndexRow(result.rows, *table, *index);
  return result;
}

DescribeResult DescribeOneType(const KeyspaceEntry& keyspace, const DescribeRequest& request) {
  auto it = keyspace.metadata->user_types.find(request.name);
  if (it == keyspace.metadata->user_types.end()) {
    ThrowNotFound("User defined type", request.name, keyspace.metadata->name);
  }
  DescribeResult result{ElementColumns(), {}};
  AddElementRow(result.rows, keyspace.metadata->name, "type", it->second->udt_name(),
                UserTypeCql(*it->second));
  return result;
}

DescribeResult DescribeOneView(const KeyspaceEntry& keyspace, const DescribeRequest& request) {
  auto it = keyspace.metadata->views.find(request.name);
  if (it == keyspace.metadata->views.end()) {
    ThrowNotFound("Materialized view", request.name, keyspace.metadata->name);
  }
  DescribeResult result{ElementColumns(), {}};
  AddViewRow(result.rows, *it->second, request.with_internals);
  return result;
}

DescribeResult DescribeGeneric(const Keyspaces& keyspaces, const DescribeRequest& request,
                               const DescribeContext& context) {
  DescribeResult result{ElementColumns(), {}};
  std::string_view keyspace_name;
  if (request.keyspace) {
    keyspace_name = *request.keyspace;
  } else {
    // A keyspace, or else a name in the session's keyspace (cqlsh's rule:
    // keyspace, table, index, materialized view, in that order).
    auto it = keyspaces.find(request.name);
    if (it != keyspaces.end()) {
      AddKeyspaceRows(result.rows, it->second, /*only_keyspace=*/false, request.with_internals);
      return result;
    }
    keyspace_name = context.current_keyspace ? *context.current_keyspace : request.name;
  }
  const KeyspaceEntry& keyspace = FindKeyspace(keyspaces, keyspace_name);
  if (const TableMetadata* table = FindTable(*keyspace.metadata, request.name)) {
    AddTableRows(result.rows, keyspace, *table, request.with_internals, /*with_views=*/false);
    return result;
  }
  if (auto [table, index] = FindIndex(*keyspace.metadata, request.name); index != nullptr) {
    AddIndexRow(result.rows, *table, *index);
    return result;
  }
  if (auto it = keyspace.metadata->views.find(request.name); it != keyspace.metadata->views.end()) {
    AddViewRow(result.rows, *it->second, request.with_internals);
    return result;
  }
  ThrowInvalid("'" + request.name + "' not found in keyspace '" + std::string(keyspace_name) + "'");
}

// The end token of each range this node replicates → its address, as
// StorageService.getRangeToAddressMap gives it for a ring of one node.
Bytes RangeOwnership(const LocalNodeInfo& node) {
  if (!node.Peers().empty()) {
    ThrowInvalid(
        "DESCRIBE CLUSTER range ownership is not implemented yet for a ring of several nodes");
  }
  // InetAddressAndPort.toString(): "/address:port", IPv6 addresses in brackets.
  std::string endpoint = "/";
  bool ipv6 = node.broadcast_address.find(':') != std::string::npos;
  endpoint.append(ipv6 ? "[" : "").append(node.broadcast_address).append(ipv6 ? "]" : "");
  endpoint.append(":").append(std::to_string(node.listen_port));

  std::vector<std::string> tokens = node.tokens;
  // A map's serialized entries are in key order (UTF-8 bytes for text keys).
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  std::vector<std::pair<Bytes, Bytes>> entries;
  for (const std::string& token : tokens) {
    entries.emplace_back(types::EncodeText(token),
                         types::EncodeList({types::EncodeText(endpoint)}));
  }
  return types::EncodeMap(entries);
}

DescribeResult DescribeCluster(const DescribeContext& context) {
  auto trim = [](std::string_view name, std::string_view package) {
    return std::string(name.starts_with(package) ? name.substr(package.size()) : name);
  };
  Row row{context.node.cluster_name, trim(kPartitionerName, "org.apache.cassandra.dht."),
          // Cassandra's default snitch (SimpleSnitch) behind the dynamic snitch
          // that dynamic_snitch: true (the default) wraps it in.
          Bytes("DynamicEndpointSnitch")};
  bool with_ranges = context.current_keyspace && !IsSystemKeyspaceName(*context.current_keyspace);
  if (with_ranges) row.push_back(RangeOwnership(context.node));
  return DescribeResult{ClusterColumns(with_ranges), {std::move(row)}};
}

}  // namespace

DescribeResult Describe(const DescribeRequest& request, const DescribeContext& context) {
  Keyspaces keyspaces = AllKeyspaces(context);
  switch (request.kind) {
    case DescribeKind::kCluster:
      return DescribeCluster(context);
    case DescribeKind::kKeyspaces:
      return DescribeKeyspaceNames(keyspaces);
    case DescribeKind::kTables:
      return DescribeListing(keyspaces, context, ListTableNames);
    case DescribeKind::kTypes:
      return DescribeListing(keyspaces, context, ListTypeNames);
    case DescribeKind::kFunctions:
    case DescribeKind::kAggregates:
      // The schema holds no user functions or aggregates yet: nothing to list,
      // but a keyspace in use must still exist.
      return DescribeListing(keyspaces, context, [](const KeyspaceEntry&, std::vector<Row>&) {});
    case DescribeKind::kSchema:
      return DescribeWholeSchema(keyspaces, request);
    case DescribeKind::kKeyspace: {
      DescribeResult result{ElementColumns(), {}};
      AddKeyspaceRows(result.rows, ElementKeyspace(keyspaces, request, context), request.only,
                      request.with_internals);
      return result;
    }
    case DescribeKind::kTable:
      return DescribeOneTable(ElementKeyspace(keyspaces, request, context), request);
    case DescribeKind::kIndex:
      return DescribeOneIndex(ElementKeyspace(keyspaces, request, context), request);
    case DescribeKind::kType:
      return DescribeOneType(ElementKeyspace(keyspaces, request, context), request);
    case DescribeKind::kMaterializedView:
      return DescribeOneView(ElementKeyspace(keyspaces, request, context), request);
    case DescribeKind::kFunction: {
      const KeyspaceEntry& keyspace = ElementKeyspace(keyspaces, request, context);
      ThrowNotFound("User defined function", request.name, keyspace.metadata->name);
    }
    case DescribeKind::kAggregate: {
      const KeyspaceEntry& keyspace = ElementKeyspace(keyspaces, request, context);
      ThrowNotFound("User defined aggregate", request.name, keyspace.metadata->name);
    }
    case DescribeKind::kGeneric:
      return DescribeGeneric(keyspaces, request, context);
  }
  ThrowInvalid("Unknown DESCRIBE statement");
}

// ---------------------------------------------------------------------------
// Paging.

namespace {

constexpr uint16_t kPagingFormatVersion = 0x0001;

// Reads the fields of a paging position; truncation is "Invalid paging state.".
class PositionReader {
 public:
  explicit PositionReader(BytesView in) : in_(in) {}
  BytesView Take(size_t n) {
    if (in_.size() < n) ThrowInvalid("Invalid paging state.");
    BytesView taken = in_.substr(0, n);
    in_.remove_prefix(n);
    return taken;
  }
  uint16_t U16() { return LoadBE16(Take(2).data()); }

 private:
  BytesView in_;
};

}  // namespace

Bytes EncodeDescribePagingPosition(int64_t next_offset, const types::Uuid& schema_version) {
  Bytes out;
  AppendBE16(out, kPagingFormatVersion);
  std::string_view release = kReleaseVersion;
  AppendBE16(out, static_cast<uint16_t>(release.size()));
  out.append(release);
  out.append(schema_version.View());
  AppendBE64(out, static_cast<uint64_t>(next_offset));
  return out;
}

int64_t DecodeDescribePagingPosition(BytesView position, const types::Uuid& schema_version) {
  PositionReader reader(position);
  if (reader.U16() != kPagingFormatVersion) ThrowInvalid("Incompatible paging state");
  BytesView release = reader.Take(reader.U16());
  if (release != kReleaseVersion) {
    ThrowInvalid("The server version of the paging state " + std::string(release) +
                 " is different from the one of the server " + kReleaseVersion);
  }
  if (reader.Take(16) != schema_version.View()) {
    ThrowInvalid(
        "The schema has changed since the previous page of the DESCRIBE statement result. "
        "Please retry the DESCRIBE statement.");
  }
  return static_cast<int64_t>(LoadBE64(reader.Take(8).data()));
}

}  // namespace sibyl::schema
