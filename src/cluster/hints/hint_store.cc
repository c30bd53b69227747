#include "cluster/hints/hint_store.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace sibyl::cluster {
namespace {

constexpr char kSuffix[] = ".hints";
constexpr size_t kHeaderBytes = 4 + 4 + 8;

void PutBE32(Bytes& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
}
void PutBE64(Bytes& out, uint64_t v) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(v >> shift));
}
uint64_t GetBE(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// The checksum covers the creation time and the payload.
uint32_t Checksum(const char* creation, BytesView payload) {
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(creation), 8);
  crc =
      crc32(crc, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size()));
  return static_cast<uint32_t>(crc);
}

[[noreturn]] void Fail(const std::string& what, const std::filesystem::path& path) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(errno));
}

bool IsSegment(const std::filesystem::path& path) {
  return path.extension() == kSuffix && path.stem().string().size() == 20;
}

std::vector<std::filesystem::path> SegmentsIn(const std::filesystem::path& directory) {
  std::vector<std::filesystem::path> segments;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    if (entry.is_regular_file() && IsSegment(entry.path())) segments.push_back(entry.path());
  }
  std::sort(segments.begin(), segments.end());  // zero-padded numbers sort in order
  return segments;
}

}  // namespace

struct HintStore::OpenSegment {
  std::filesystem::path path;
  int fd = -1;
  uint64_t bytes = 0;
  std::chrono::steady_clock::time_point last_sync;
  bool dirty = false;
};

HintStore::HintStore(Options options) : options_(std::move(options)) {
  std::error_code error;
  std::filesystem::create_directories(options_.directory, error);
  if (error) {
    throw std::runtime_error("cannot create the hints directory " + options_.directory.string() +
                             ": " + error.message());
  }
}

HintStore::~HintStore() {
  std::lock_guard lock(mutex_);
  for (auto& [target, segment] : open_) {
    if (segment->dirty) fdatasync(segment->fd);
    close(segment->fd);
  }
}

std::filesystem::path HintStore::TargetDirectory(const types::Uuid& target) const {
  return options_.directory / target.ToString();
}

uint64_t HintStore::NextSequence(const std::filesystem::path& directory) const {
  const auto segments = SegmentsIn(directory);
  return segments.empty() ? 1 : std::stoull(segments.back().stem().string()) + 1;
}

void HintStore::Append(const types::Uuid& target, int64_t creation_micros, BytesView mutation) {
  Bytes record;
  record.reserve(kHeaderBytes + mutation.size());
  PutBE32(record, static_cast<uint32_t>(mutation.size()));
  Bytes creation;
  PutBE64(creation, static_cast<uint64_t>(creation_micros));
  PutBE32(record, Checksum(creation.data(), mutation));
  record.append(creation);
  record.append(mutation.data(), mutation.size());

  std::lock_guard lock(mutex_);
  auto it = open_.find(target);
  if (it != open_.end() && it->second->bytes >= options_.max_segment_bytes) {
    Seal(target);
    it = open_.end();
  }
  if (it == open_.end()) {
    const auto directory = TargetDirectory(target);
    std::filesystem::create_directories(directory);
    char name[32];
    snprintf(name, sizeof name, "%020llu%s",
             static_cast<unsigned long long>(NextSequence(directory)), kSuffix);
    auto created = std::make_unique<OpenSegment>();
    created->path = directory / name;
    created->fd = open(created->path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (created->fd < 0) Fail("cannot create the hints file", created->path);
    created->last_sync = std::chrono::steady_clock::now();
    it = open_.emplace(target, std::move(created)).first;
  }
  OpenSegment* segment = it->second.get();
  size_t written = 0;
  while (written < record.size()) {
    const ssize_t n = write(segment->fd, record.data() + written, record.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail("cannot write the hints file", segment->path);
    written += static_cast<size_t>(n);
  }
  segment->bytes += record.size();
  segment->dirty = true;
  stored_.fetch_add(1, std::memory_order_relaxed);
  const auto now = std::chrono::steady_clock::now();
  if (now - segment->last_sync >= options_.sync_period) {
    fdatasync(segment->fd);
    segment->last_sync = now;
    segment->dirty = false;
  }
}

void HintStore::Sync() {
  std::lock_guard lock(mutex_);
  for (auto& [target, segment] : open_) {
    if (!segment->dirty) continue;
    fdatasync(segment->fd);
    segment->dirty = false;
    segment->last_sync = std::chrono::steady_clock::now();
  }
}

void HintStore::Seal(const types::Uuid& target) {
  const auto it = open_.find(target);
  if (it == open_.end() || !it->second) return;
  fdatasync(it->second->fd);
  close(it->second->fd);
  open_.erase(it);
}

std::vector<types::Uuid> HintStore::Targets() const {
  std::vector<types::Uuid> targets;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(options_.directory, error)) {
    if (!entry.is_directory()) continue;
    const auto id = types::Uuid::Parse(entry.path().filename().string());
    if (id && !SegmentsIn(entry.path()).empty()) targets.push_back(*id);
  }
  return targets;
}

std::vector<HintSegment> HintStore::SealAndList(const types::Uuid& target) {
  std::lock_guard lock(mutex_);
  Seal(target);
  std::vector<HintSegment> segments;
  for (const auto& path : SegmentsIn(TargetDirectory(target))) {
    std::error_code error;
    segments.push_back({path, std::filesystem::file_size(path, error)});
  }
  return segments;
}

std::vector<Hint> HintStore::ReadSegment(const std::filesystem::path& segment) {
  std::ifstream in(segment, std::ios::binary);
  if (!in) Fail("cannot read the hints file", segment);
  const Bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<Hint> hints;
  size_t offset = 0;
  while (data.size() - offset >= kHeaderBytes) {
    const char* header = data.data() + offset;
    const uint64_t length = GetBE(header, 4);
    if (length > data.size() - offset - kHeaderBytes) break;  // torn at the end
    const BytesView payload(header + kHeaderBytes, length);
    if (Checksum(header + 8, payload) != GetBE(header + 4, 4)) break;
    hints.push_back({static_cast<int64_t>(GetBE(header + 8, 8)), Bytes(payload)});
    offset += kHeaderBytes + length;
  }
  return hints;
}

void HintStore::Remove(const HintSegment& segment) {
  std::error_code ignored;
  std::filesystem::remove(segment.path, ignored);
}

void HintStore::DropAll(const types::Uuid& target) {
  std::lock_guard lock(mutex_);
  Seal(target);
  dropped_bytes_.fetch_add(PendingBytes(target), std::memory_order_relaxed);
  std::error_code ignored;
  std::filesystem::remove_all(TargetDirectory(target), ignored);
}

uint64_t HintStore::PendingBytes(const types::Uuid& target) const {
  uint64_t total = 0;
  std::error_code error;
  for (const auto& path : SegmentsIn(TargetDirectory(target))) {
    total += std::filesystem::file_size(path, error);
  }
  return total;
}

uint64_t HintStore::TotalPendingBytes() const {
  uint64_t total = 0;
  for (const types::Uuid& target : Targets()) total += PendingBytes(target);
  return total;
}

HintStore::Counts HintStore::counts() const {
  return {.stored = stored_.load(std::memory_order_relaxed),
          .delivered = delivered_.load(std::memory_order_relaxed),
          .dropped_bytes = dropped_bytes_.load(std::memory_order_relaxed)};
}

}  // namespace sibyl::cluster
