#pragma once
// The MetadataStore of a single node: the schema lives in the node's data
// directory as one snapshot file, `<dir>/schema.db`, in the format of
// schema_snapshot_codec.h (docs/dev/schema-store.md), numbered with the
// epoch of the last change. Each commit writes the whole snapshot
// atomically — to schema.db.tmp, fsync, rename over schema.db, fsync the
// directory — so after a crash the file holds either the old schema or the
// new one, never a mix. Schemas are small (kilobytes), so rewriting the
// whole snapshot costs less than keeping a log and replaying it.
//
// Thread-safety: as MetadataStore.

#include <filesystem>
#include <memory>

#include "schema/metadata_store.h"

namespace sibyl::schema {

namespace internal {
// Holds the SchemaStore so that it is built before the MetadataStore base
// that refers to it.
struct OwnedSchemaStore {
  explicit OwnedSchemaStore(SchemaPtr initial) : owned_schemas(std::move(initial)) {}
  SchemaStore owned_schemas;
};
}  // namespace internal

class LocalMetadataStore final : private internal::OwnedSchemaStore, public MetadataStore {
 public:
  // Creates `directory` if needed and loads its snapshot over the built-in
  // keyspaces (MakeInitialSchema()); a directory without one starts at epoch
  // 0 with the built-in keyspaces only. Throws std::runtime_error naming the
  // file when a snapshot exists but cannot be read (the node must not start
  // with a schema it silently lost), or the directory cannot be created.
  [[nodiscard]] static std::unique_ptr<LocalMetadataStore> Open(
      const std::filesystem::path& directory);

  const std::filesystem::path& snapshot_path() const { return snapshot_path_; }

 protected:
  PersistResult Persist(const Schema& schema, uint64_t epoch) override;

 private:
  LocalMetadataStore(std::filesystem::path directory, SchemaPtr initial, uint64_t epoch);

  std::filesystem::path directory_;
  std::filesystem::path snapshot_path_;
};

}  // namespace sibyl::schema
