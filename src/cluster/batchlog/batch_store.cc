#include "cluster/batchlog/batch_store.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace sibyl::cluster {

namespace {

uint32_t Crc(BytesView bytes) {
  return static_cast<uint32_t>(
      crc32(0L, reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uInt>(bytes.size())));
}

[[noreturn]] void Corrupt() { throw std::runtime_error("not an encoded batch"); }

// Reads the next `n` bytes of `bytes` at `*at`.
BytesView Take(BytesView bytes, size_t* at, size_t n) {
  if (bytes.size() - *at < n) Corrupt();
  const BytesView taken = bytes.substr(*at, n);
  *at += n;
  return taken;
}

void WriteDurably(const std::filesystem::path& path, BytesView bytes) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error("cannot create " + path.string() + ": " + strerror(errno));
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path.string() + ": " + strerror(errno));
    }
    written += static_cast<size_t>(n);
  }
  const bool synced = ::fdatasync(fd) == 0;
  ::close(fd);
  if (!synced) throw std::runtime_error("cannot sync " + path.string() + ": " + strerror(errno));
}

}  // namespace

Bytes EncodeBatch(const StoredBatch& batch) {
  Bytes out(batch.id.View());
  AppendBE64(out, static_cast<uint64_t>(batch.creation_micros));
  AppendBE32(out, static_cast<uint32_t>(batch.mutations.size()));
  for (const Bytes& mutation : batch.mutations) {
    AppendBE32(out, static_cast<uint32_t>(mutation.size()));
    out += mutation;
  }
  AppendBE32(out, Crc(out));
  return out;
}

StoredBatch DecodeBatch(BytesView bytes) {
  if (bytes.size() < 16 + 8 + 4 + 4) Corrupt();
  const BytesView body = bytes.substr(0, bytes.size() - 4);
  if (LoadBE32(bytes.data() + body.size()) != Crc(body)) Corrupt();
  size_t at = 0;
  StoredBatch batch;
  batch.id = types::Uuid::FromBytes(Take(body, &at, 16));
  batch.creation_micros = static_cast<int64_t>(LoadBE64(Take(body, &at, 8).data()));
  const uint32_t count = LoadBE32(Take(body, &at, 4).data());
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t length = LoadBE32(Take(body, &at, 4).data());
    batch.mutations.emplace_back(Take(body, &at, length));
  }
  if (at != body.size()) Corrupt();
  return batch;
}

BatchStore::BatchStore(std::filesystem::path directory) : directory_(std::move(directory)) {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) {
    throw std::runtime_error("cannot create the batchlog directory " + directory_.string() + ": " +
                             error.message());
  }
}

std::filesystem::path BatchStore::PathOf(const types::Uuid& id) const {
  return directory_ / (id.ToString() + ".batch");
}

void BatchStore::Store(const StoredBatch& batch) {
  const Bytes bytes = EncodeBatch(batch);
  std::lock_guard lock(mutex_);
  const std::filesystem::path temporary = directory_ / (batch.id.ToString() + ".tmp");
  WriteDurably(temporary, bytes);
  std::error_code error;
  std::filesystem::rename(temporary, PathOf(batch.id), error);
  if (error)
    throw std::runtime_error("cannot store batch " + batch.id.ToString() + ": " + error.message());
}

void BatchStore::Remove(const types::Uuid& id) {
  std::lock_guard lock(mutex_);
  std::error_code ignored;  // already gone is fine: removal is idempotent
  std::filesystem::remove(PathOf(id), ignored);
}

std::vector<StoredBatch> BatchStore::List() const {
  std::vector<StoredBatch> batches;
  std::lock_guard lock(mutex_);
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(directory_, error)) {
    if (entry.path().extension() != ".batch") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      batches.push_back(DecodeBatch(bytes));
    } catch (const std::runtime_error&) {
      continue;
    }
  }
  std::sort(batches.begin(), batches.end(), [](const StoredBatch& a, const StoredBatch& b) {
    return a.creation_micros < b.creation_micros;
  });
  return batches;
}

size_t BatchStore::size() const { return List().size(); }

}  // namespace sibyl::cluster
