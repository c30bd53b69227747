#include "storage/cells/counter_context.h"

#include <algorithm>

namespace sibyl::storage {
namespace {

const types::Uuid kDeltaShardId{};  // all zeros

CounterShard ShardAt(BytesView value, size_t index) {
  const char* p = value.data() + index * kCounterShardSize;
  CounterShard shard;
  shard.id = types::Uuid::FromBytes(BytesView(p, 16));
  shard.clock = static_cast<int64_t>(LoadBE64(p + 16));
  shard.value = static_cast<int64_t>(LoadBE64(p + 24));
  return shard;
}

void AppendShard(Bytes& out, const CounterShard& shard) {
  out.append(shard.id.View());
  AppendBE64(out, static_cast<uint64_t>(shard.clock));
  AppendBE64(out, static_cast<uint64_t>(shard.value));
}

int64_t WrappingAdd(int64_t a, int64_t b) {
  // Counters wrap on overflow, as Java's long arithmetic does.
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

CounterShard Reconcile(const CounterShard& a, const CounterShard& b) {
  if (a.id == kDeltaShardId) {
    return {a.id, WrappingAdd(a.clock, b.clock), WrappingAdd(a.value, b.value)};
  }
  if (a.clock != b.clock) return a.clock > b.clock ? a : b;
  return a.value >= b.value ? a : b;
}

}  // namespace

bool IsValidCounterValue(BytesView value) {
  if (value.size() == kCounterDeltaSize) return true;
  if (value.empty() || value.size() % kCounterShardSize != 0) return false;
  for (size_t offset = kCounterShardSize; offset < value.size(); offset += kCounterShardSize) {
    if (value.substr(offset - kCounterShardSize, 16) >= value.substr(offset, 16)) return false;
  }
  return true;
}

bool HoldsCounterDelta(BytesView value) {
  return value.size() == kCounterDeltaSize ||
         (value.size() >= kCounterShardSize && ShardAt(value, 0).id == kDeltaShardId);
}

std::vector<CounterShard> DecodeCounterShards(BytesView value) {
  if (value.size() == kCounterDeltaSize) {
    return {{kDeltaShardId, 0, static_cast<int64_t>(LoadBE64(value.data()))}};
  }
  std::vector<CounterShard> shards;
  shards.reserve(value.size() / kCounterShardSize);
  for (size_t i = 0; i < value.size() / kCounterShardSize; ++i) shards.push_back(ShardAt(value, i));
  return shards;
}

Bytes EncodeCounterShards(const std::vector<CounterShard>& shards) {
  Bytes out;
  out.reserve(shards.size() * kCounterShardSize);
  for (const CounterShard& shard : shards) AppendShard(out, shard);
  return out;
}

void MergeCounterValues(BytesView a, BytesView b, Bytes& out) {
  out.clear();
  if (a.size() == kCounterDeltaSize && b.size() == kCounterDeltaSize) {
    // The single-node form: two deltas add up.
    AppendBE64(out, LoadBE64(a.data()) + LoadBE64(b.data()));
    return;
  }
  const std::vector<CounterShard> left = DecodeCounterShards(a);
  const std::vector<CounterShard> right = DecodeCounterShards(b);
  out.reserve((left.size() + right.size()) * kCounterShardSize);
  size_t i = 0;
  size_t j = 0;
  while (i < left.size() || j < right.size()) {
    if (j == right.size() || (i < left.size() && left[i].id < right[j].id)) {
      AppendShard(out, left[i++]);
    } else if (i == left.size() || right[j].id < left[i].id) {
      AppendShard(out, right[j++]);
    } else {
      AppendShard(out, Reconcile(left[i++], right[j++]));
    }
  }
}

int64_t CounterTotal(BytesView value) {
  if (value.size() == kCounterDeltaSize) return static_cast<int64_t>(LoadBE64(value.data()));
  int64_t total = 0;
  for (size_t i = 0; i < value.size() / kCounterShardSize; ++i) {
    total = WrappingAdd(total, ShardAt(value, i).value);
  }
  return total;
}

void AssignCounterReadValue(BytesView stored, Bytes& out) {
  if (stored.size() == kCounterDeltaSize || !IsValidCounterValue(stored)) {
    out.assign(stored);
    return;
  }
  out.clear();
  AppendBE64(out, static_cast<uint64_t>(CounterTotal(stored)));
}

std::optional<CounterShard> FindCounterShard(BytesView value, const types::Uuid& id) {
  if (value.size() == kCounterDeltaSize) return std::nullopt;
  for (size_t i = 0; i < value.size() / kCounterShardSize; ++i) {
    CounterShard shard = ShardAt(value, i);
    if (shard.id == id) return shard;
  }
  return std::nullopt;
}

}  // namespace sibyl::storage
