#pragma once
// An immutable snapshot of the whole schema, and the store that publishes
// new snapshots. Readers take a snapshot per request and never see it change
// under them; writers build a new snapshot and publish it. Nothing caches a
// snapshot beyond a request: a cluster-wide metadata log will later publish
// snapshots too (see design: MetadataStore).

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <string_view>

#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::schema {

class Schema {
 public:
  using KeyspaceMap = std::map<std::string, KeyspacePtr, std::less<>>;

  explicit Schema(KeyspaceMap keyspaces);

  // By name, in name order; never the virtual keyspaces.
  const KeyspaceMap& keyspaces() const { return keyspaces_; }
  // These also find the virtual keyspaces (virtual_keyspaces.h) and their
  // tables, as Cassandra's Schema.getKeyspaceMetadata does: a keyspace of
  // keyspaces() comes first.
  const KeyspaceMetadata* FindKeyspace(std::string_view name) const;
  // A table or a materialized view (Cassandra's getTableOrViewNullable):
  // views are read like tables. Callers that change a table's data or
  // definition check TableMetadata::is_view().
  TablePtr FindTable(std::string_view keyspace, std::string_view table) const;
  // The schema version: a name-based (v3) UUID over a canonical digest of
  // every keyspace, table, view, column, index and user type, so any change to the
  // schema's contents changes it and equal contents give equal versions.
  const types::Uuid& version() const { return version_; }

 private:
  KeyspaceMap keyspaces_;
  types::Uuid version_;
};
using SchemaPtr = std::shared_ptr<const Schema>;

// Whether two tables' definitions are equal in everything the schema
// version covers (columns, parameters, indexes, dropped columns, and a
// view's definition).
[[nodiscard]] bool SameTableDefinition(const TableMetadata& a, const TableMetadata& b);
// Whether two user types have the same fields, in order, of the same types.
[[nodiscard]] bool SameUserType(const types::CqlType& a, const types::CqlType& b);

// Thread-safe: snapshot() and Publish() may be called from any thread.
class SchemaStore {
 public:
  explicit SchemaStore(SchemaPtr initial) : current_(std::move(initial)) {}
  SchemaPtr snapshot() const { return current_.load(std::memory_order_acquire); }
  void Publish(SchemaPtr next) { current_.store(std::move(next), std::memory_order_release); }

 private:
  std::atomic<SchemaPtr> current_;
};

}  // namespace sibyl::schema
