#include "schema/local_metadata_store.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "common/error.h"
#include "schema/schema_snapshot_codec.h"
#include "schema/system_keyspaces.h"

namespace sibyl::schema {
namespace {

constexpr const char* kSnapshotFile = "schema.db";
constexpr const char* kTemporaryFile = "schema.db.tmp";

std::string ErrnoText(const std::string& what, const std::filesystem::path& path) {
  return what + " " + path.string() + ": " + std::strerror(errno);
}

// Writes `data` to `path` and fsyncs it; throws std::runtime_error.
void WriteFileDurably(const std::filesystem::path& path, BytesView data) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(ErrnoText("cannot create", path));
  size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string message = ErrnoText("cannot write", path);
      ::close(fd);
      throw std::runtime_error(message);
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const std::string message = ErrnoText("cannot fsync", path);
    ::close(fd);
    throw std::runtime_error(message);
  }
  if (::close(fd) != 0) throw std::runtime_error(ErrnoText("cannot close", path));
}

void SyncDirectory(const std::filesystem::path& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(ErrnoText("cannot open", directory));
  const int result = ::fsync(fd);
  ::close(fd);
  if (result != 0) throw std::runtime_error(ErrnoText("cannot fsync", directory));
}

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

void LocalMetadataStore::Persist(const Schema& schema, uint64_t epoch) {
  const std::filesystem::path temporary = directory_ / kTemporaryFile;
  try {
    WriteFileDurably(temporary, EncodeSchemaSnapshot(schema, epoch));
    std::filesystem::rename(temporary, snapshot_path_);
    SyncDirectory(directory_);
  } catch (const std::exception& e) {
    throw CqlError(ErrorCode::kServerError,
                   std::string("Failed to persist the schema change: ") + e.what());
  }
}

}  // namespace sibyl::schema
