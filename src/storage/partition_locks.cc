#include "storage/partition_locks.h"

#include <algorithm>
#include <functional>
#include <string_view>

namespace sibyl::storage {
namespace {

// 64-bit FNV-1a: cheap and spreads table ids and keys well enough for striping.
uint64_t Fnv1a(uint64_t hash, std::string_view bytes) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

}  // namespace

PartitionLocks::PartitionLocks(size_t stripes)
    : count_(stripes == 0 ? 1 : stripes), stripes_(new std::mutex[count_]) {}

size_t PartitionLocks::StripeOf(const types::Uuid& table_id,
                                const storage::PartitionKey& partition) const {
  uint64_t hash = 0xcbf29ce484222325ULL;
  hash = Fnv1a(hash, std::string_view(reinterpret_cast<const char*>(table_id.bytes.data()),
                                      table_id.bytes.size()));
  // The token already mixes the key; the key itself separates token collisions.
  hash ^= static_cast<uint64_t>(partition.token) * 0x9e3779b97f4a7c15ULL;
  hash = Fnv1a(hash, partition.key);
  return static_cast<size_t>(hash % count_);
}

std::unique_lock<std::mutex> PartitionLocks::Lock(const types::Uuid& table_id,
                                                  const storage::PartitionKey& partition) {
  return std::unique_lock<std::mutex>(stripes_[StripeOf(table_id, partition)]);
}

std::vector<std::unique_lock<std::mutex>> PartitionLocks::LockAll(
    const std::vector<std::pair<const types::Uuid*, const storage::PartitionKey*>>& partitions) {
  std::vector<size_t> stripes;
  stripes.reserve(partitions.size());
  for (const auto& [table_id, partition] : partitions)
    stripes.push_back(StripeOf(*table_id, *partition));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(stripes.size());
  for (size_t stripe : stripes) locks.emplace_back(stripes_[stripe]);
  return locks;
}

std::vector<std::unique_lock<std::mutex>> PartitionLocks::LockEverything() {
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(count_);
  for (size_t stripe = 0; stripe < count_; ++stripe) locks.emplace_back(stripes_[stripe]);
  return locks;
}

}  // namespace sibyl::storage
