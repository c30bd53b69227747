#include "metadata/metadata_log.h"

#include <charconv>
#include <cstdio>
#include <stdexcept>

namespace sibyl::metadata {
namespace {

constexpr int kEpochDigits = 20;  // UINT64_MAX has 20 digits
// Entries per range request while catching up: keeps each reply small.
constexpr int64_t kPageSize = 64;

std::string EscapeClusterName(std::string_view name) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : name) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == '%' || u < 0x20 || u == 0x7f) {
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xf];
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

MetadataLog::MetadataLog(EtcdClient& etcd, std::string_view cluster_name)
    : etcd_(&etcd), prefix_("/sibyl/" + EscapeClusterName(cluster_name) + "/") {}

std::string MetadataLog::EntryKey(uint64_t epoch) const {
  char digits[kEpochDigits + 1];
  std::snprintf(digits, sizeof digits, "%020llu", static_cast<unsigned long long>(epoch));
  return LogPrefix() + digits;
}

std::optional<uint64_t> MetadataLog::EpochOfKey(std::string_view key) const {
  const std::string log_prefix = LogPrefix();
  if (!key.starts_with(log_prefix) || key.size() != log_prefix.size() + kEpochDigits) {
    return std::nullopt;
  }
  uint64_t epoch = 0;
  const char* end = key.data() + key.size();
  const auto [stop, error] = std::from_chars(key.data() + log_prefix.size(), end, epoch);
  if (error != std::errc() || stop != end) return std::nullopt;
  return epoch;
}

std::vector<LogEntry> MetadataLog::Decode(const std::vector<KeyValue>& kvs) const {
  std::vector<LogEntry> entries;
  for (const KeyValue& kv : kvs) {
    LogEntry entry;
    try {
      entry = DecodeLogEntry(kv.value);
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot read metadata log entry " + kv.key + ": " + e.what());
    }
    if (EpochOfKey(kv.key) != entry.epoch) {
      throw std::runtime_error("metadata log entry " + kv.key + " holds epoch " +
                               std::to_string(entry.epoch));
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

MetadataLog::Entries MetadataLog::ReadFrom(uint64_t first) {
  Entries result;
  RangeRequest request{.key = EntryKey(first), .range_end = PrefixEnd(LogPrefix())};
  request.limit = kPageSize;
  for (;;) {
    const RangeResponse page = etcd_->Range(request);
    if (result.revision == 0) result.revision = page.revision;
    std::vector<LogEntry> entries = Decode(page.kvs);
    for (LogEntry& entry : entries) result.entries.push_back(std::move(entry));
    if (!page.more || page.kvs.empty()) return result;
    // The next page at the same revision, so that all pages show one state.
    request.key = page.kvs.back().key + '\0';
    request.revision = result.revision;
  }
}

MetadataLog::Latest MetadataLog::ReadLatest() {
  RangeRequest last{.key = LogPrefix(), .range_end = PrefixEnd(LogPrefix())};
  last.limit = 1;
  last.descending = true;
  const RangeResponse response = etcd_->Range(last);
  Latest latest;
  latest.revision = response.revision;
  std::vector<LogEntry> entries = Decode(response.kvs);
  if (entries.empty()) return latest;
  LogEntry entry = std::move(entries.front());
  latest.epoch = entry.epoch;
  const bool is_schema = entry.kind == EntryKind::kSchema;
  const uint64_t other = is_schema ? entry.directory_epoch : entry.schema_epoch;
  (is_schema ? latest.schema : latest.directory) = std::move(entry);
  if (other == 0) return latest;
  RangeRequest read_other;
  read_other.key = EntryKey(other);
  read_other.revision = latest.revision;
  std::vector<LogEntry> found = Decode(etcd_->Range(read_other).kvs);
  if (found.empty() ||
      found.front().kind == (is_schema ? EntryKind::kSchema : EntryKind::kDirectory)) {
    throw std::runtime_error("metadata log entry " + EntryKey(other) +
                             " is missing or of the wrong kind");
  }
  (is_schema ? latest.directory : latest.schema) = std::move(found.front());
  return latest;
}

bool MetadataLog::Append(const LogEntry& entry) {
  TxnRequest txn;
  txn.compare.push_back(entry.epoch == 1
                            ? Compare::VersionEquals(EpochKey(), 0)
                            : Compare::ValueEquals(EpochKey(), std::to_string(entry.epoch - 1)));
  txn.success.push_back(PutRequest{.key = EpochKey(), .value = std::to_string(entry.epoch)});
  txn.success.push_back(PutRequest{.key = EntryKey(entry.epoch), .value = EncodeLogEntry(entry)});
  return etcd_->Txn(txn).succeeded;
}

int64_t MetadataLog::Compact(uint64_t before) {
  if (before == 0) return 0;
  return etcd_->DeleteRange({.key = EntryKey(0), .range_end = EntryKey(before)});
}

}  // namespace sibyl::metadata
