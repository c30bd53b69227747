#include "metadata/metadata_cache.h"

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/crc32.h"
#include "schema/durable_file.h"

namespace sibyl::metadata {
namespace {

constexpr BytesView kCacheMagic = "SIBYLMDC";
constexpr uint32_t kCacheFormatVersion = 1;
constexpr const char* kFile = "metadata.db";
constexpr const char* kTemporaryFile = "metadata.db.tmp";
constexpr size_t kCacheHeaderSize = 8 + 4 + 8 + 4;

void AppendEntry(Bytes& out, const LogEntry& entry) {
  const Bytes encoded = EncodeLogEntry(entry);
  AppendBE32(out, static_cast<uint32_t>(encoded.size()));
  out += encoded;
}

}  // namespace

Bytes EncodeMetadataCache(const CachedMetadata& cached) {
  Bytes out(kCacheMagic);
  AppendBE32(out, kCacheFormatVersion);
  AppendBE64(out, cached.epoch);
  AppendBE32(out, (cached.schema ? 1 : 0) + (cached.directory ? 1 : 0));
  if (cached.schema) AppendEntry(out, *cached.schema);
  if (cached.directory) AppendEntry(out, *cached.directory);
  AppendBE32(out, ZlibCrc32(out));
  return out;
}

CachedMetadata DecodeMetadataCache(BytesView data) {
  if (data.size() < kCacheHeaderSize + 4 || data.substr(0, 8) != kCacheMagic) {
    throw std::runtime_error("not a metadata copy");
  }
  const BytesView covered = data.substr(0, data.size() - 4);
  if (LoadBE32(data.data() + covered.size()) != ZlibCrc32(covered)) {
    throw std::runtime_error("checksum mismatch");
  }
  if (const uint32_t version = LoadBE32(data.data() + 8); version != kCacheFormatVersion) {
    throw std::runtime_error("format " + std::to_string(version) + " is not supported");
  }
  CachedMetadata cached;
  cached.epoch = LoadBE64(data.data() + 12);
  const uint32_t n = LoadBE32(data.data() + 20);
  BytesView rest = covered.substr(kCacheHeaderSize);
  for (uint32_t i = 0; i < n; ++i) {
    if (rest.size() < 4 || rest.size() - 4 < LoadBE32(rest.data())) {
      throw std::runtime_error("truncated");
    }
    const uint32_t length = LoadBE32(rest.data());
    LogEntry entry = DecodeLogEntry(rest.substr(4, length));
    rest.remove_prefix(4 + length);
    auto& slot = entry.kind == EntryKind::kSchema ? cached.schema : cached.directory;
    if (slot) throw std::runtime_error("two entries of one kind");
    slot = std::move(entry);
  }
  if (!rest.empty()) throw std::runtime_error("trailing bytes");
  return cached;
}

void SaveMetadataCache(const std::filesystem::path& directory, const CachedMetadata& cached) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) {
    throw std::runtime_error("cannot create " + directory.string() + ": " + error.message());
  }
  schema::ReplaceFileDurably(directory / kFile, directory / kTemporaryFile,
                             EncodeMetadataCache(cached));
}

std::optional<CachedMetadata> LoadMetadataCache(const std::filesystem::path& directory) {
  const std::filesystem::path path = directory / kFile;
  if (!std::filesystem::exists(path)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read metadata copy " + path.string());
  const Bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    return DecodeMetadataCache(data);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load metadata copy " + path.string() + ": " + e.what());
  }
}

}  // namespace sibyl::metadata
