#pragma once
// An immutable snapshot of the whole schema, and the store that publishes
// new snapshots. Readers take a snapshot per request and never see it change
// under them; writers build a new snapshot and publish it. Nothing caches a
// snapshot beyond a request: a cluster-wide metadata log will later publish
// snapshots too (see design: MetadataStore).

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::schema {

class Schema {
 public:
  Schema(std::map<std::string, KeyspacePtr> keyspaces);

  const std::map<std::string, KeyspacePtr>& keyspaces() const { return keyspaces_; }
  const KeyspaceMetadata* FindKeyspace(std::string_view name) const;
  const TablePtr FindTable(std::string_view keyspace, std::string_view table) const;
  // Cassandra's schema version: a UUID digest of the schema's contents.
  const types::Uuid& version() const { return version_; }

 private:
  std::map<std::string, KeyspacePtr> keyspaces_;
  types::Uuid version_;
};
using SchemaPtr = std::shared_ptr<const Schema>;

class SchemaStore {
 public:
  explicit SchemaStore(SchemaPtr initial) : current_(std::move(initial)) {}
  SchemaPtr snapshot() const { return current_.load(std::memory_order_acquire); }
  void Publish(SchemaPtr next) { current_.store(std::move(next), std::memory_order_release); }

 private:
  std::atomic<SchemaPtr> current_;
};

}  // namespace sibyl::schema
