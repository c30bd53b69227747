#include "schema/local_metadata_store.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include "common/error.h"
#include "schema/durable_file.h"
#include "schema/schema_snapshot_codec.h"
#include "schema/system_keyspaces.h"

namespace sibyl::schema {
namespace {

constexpr const char* kSnapshotFile = "schema.db";
constexpr const char* kTemporaryFile = "schema.db.tmp";

}  // namespace

LocalMetadataStore::LocalMetadataStore(std::filesystem::path directory, SchemaPtr initial,
                                       uint64_t epoch)
    : internal::OwnedSchemaStore(std::move(initial)),
      MetadataStore(owned_schemas, epoch),
      directory_(std::move(directory)),
      snapshot_path_(directory_ / kSnapshotFile) {}

std::unique_ptr<LocalMetadataStore> LocalMetadataStore::Open(
    const std::filesystem::path& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("cannot create schema directory " + directory.string() + ": " +
                             error.message());
  }
  const SchemaPtr built_in = MakeInitialSchema();
  const std::filesystem::path snapshot = directory / kSnapshotFile;
  if (!std::filesystem::exists(snapshot)) {
    return std::unique_ptr<LocalMetadataStore>(new LocalMetadataStore(directory, built_in, 0));
  }
  std::ifstream in(snapshot, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read schema snapshot " + snapshot.string());
  const Bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  DecodedSchemaSnapshot decoded;
  try {
    decoded = DecodeSchemaSnapshot(data, built_in->keyspaces());
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load schema snapshot " + snapshot.string() + ": " + e.what());
  }
  auto schema = std::make_shared<const Schema>(std::move(decoded.keyspaces));
  return std::unique_ptr<LocalMetadataStore>(
      new LocalMetadataStore(directory, std::move(schema), decoded.epoch));
}

MetadataStore::PersistResult LocalMetadataStore::Persist(const Schema& schema, uint64_t epoch) {
  try {
    ReplaceFileDurably(snapshot_path_, directory_ / kTemporaryFile,
                       EncodeSchemaSnapshot(schema, epoch));
  } catch (const std::exception& e) {
    throw CqlError(ErrorCode::kServerError,
                   std::string("Failed to persist the schema change: ") + e.what());
  }
  return PersistResult::kDurable;
}

}  // namespace sibyl::schema
