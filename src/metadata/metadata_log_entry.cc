#include "metadata/metadata_log_entry.h"

#include <stdexcept>
#include <string>

#include "common/crc32.h"

namespace sibyl::metadata {
namespace {

constexpr BytesView kLogEntryMagic = "SIBYLLOG";
// magic | version | epoch | kind | schema_epoch | directory_epoch | length
constexpr size_t kLogEntryHeaderSize = 8 + 4 + 8 + 1 + 8 + 8 + 4;

}  // namespace

Bytes EncodeLogEntry(const LogEntry& entry) {
  Bytes out;
  out.reserve(kLogEntryHeaderSize + entry.payload.size() + 4);
  out.append(kLogEntryMagic);
  AppendBE32(out, kLogEntryFormatVersion);
  AppendBE64(out, entry.epoch);
  AppendU8(out, static_cast<uint8_t>(entry.kind));
  AppendBE64(out, entry.schema_epoch);
  AppendBE64(out, entry.directory_epoch);
  AppendBE32(out, static_cast<uint32_t>(entry.payload.size()));
  out.append(entry.payload);
  AppendBE32(out, ZlibCrc32(out));
  return out;
}

LogEntry DecodeLogEntry(BytesView data) {
  if (data.size() < kLogEntryHeaderSize + 4 || data.substr(0, 8) != kLogEntryMagic) {
    throw std::runtime_error("not a metadata log entry");
  }
  const char* p = data.data() + 8;
  const uint32_t version = LoadBE32(p);
  if (version != kLogEntryFormatVersion) {
    throw std::runtime_error("metadata log entry format " + std::to_string(version) +
                             " is not supported (this version reads " +
                             std::to_string(kLogEntryFormatVersion) + ")");
  }
  LogEntry entry;
  entry.epoch = LoadBE64(p + 4);
  const auto kind = static_cast<uint8_t>(p[12]);
  if (kind != static_cast<uint8_t>(EntryKind::kSchema) &&
      kind != static_cast<uint8_t>(EntryKind::kDirectory)) {
    throw std::runtime_error("metadata log entry of unknown kind " + std::to_string(kind));
  }
  entry.kind = static_cast<EntryKind>(kind);
  entry.schema_epoch = LoadBE64(p + 13);
  entry.directory_epoch = LoadBE64(p + 21);
  const uint32_t length = LoadBE32(p + 29);
  if (data.size() != kLogEntryHeaderSize + length + 4) {
    throw std::runtime_error("metadata log entry length does not match its header");
  }
  const BytesView covered = data.substr(0, kLogEntryHeaderSize + length);
  if (LoadBE32(data.data() + covered.size()) != ZlibCrc32(covered)) {
    throw std::runtime_error("metadata log entry checksum mismatch");
  }
  entry.payload = Bytes(data.substr(kLogEntryHeaderSize, length));
  return entry;
}

}  // namespace sibyl::metadata
