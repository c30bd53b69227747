#include "messaging/verb.h"

#include <algorithm>
#include <array>

namespace sibyl::messaging {

namespace {

struct VerbInfo {
  Verb verb;
  std::string_view name;
  bool epoch_checked;
};

// In wire order.
constexpr std::array<VerbInfo, 20> kVerbs{{
    {Verb::kMutation, "MUTATION", true},
    {Verb::kHint, "HINT", true},
    {Verb::kReadRepair, "READ_REPAIR", true},
    {Verb::kRead, "READ", true},
    {Verb::kBatchStore, "BATCH_STORE", true},
    {Verb::kBatchRemove, "BATCH_REMOVE", true},
    {Verb::kRangeRead, "RANGE_READ", true},
    {Verb::kTruncate, "TRUNCATE", true},
    {Verb::kCounterMutation, "COUNTER_MUTATION", true},
    {Verb::kSchemaPull, "SCHEMA_PULL", false},
    {Verb::kPaxosPrepare, "PAXOS_PREPARE", true},
    {Verb::kPaxosPropose, "PAXOS_PROPOSE", true},
    {Verb::kPaxosCommit, "PAXOS_COMMIT", true},
    {Verb::kHeartbeat, "HEARTBEAT", false},
    {Verb::kEpochNotify, "EPOCH_NOTIFY", false},
    {Verb::kHello, "HELLO", false},
    {Verb::kPaxosUncommitted, "PAXOS_UNCOMMITTED", true},
    {Verb::kPaxosPrepareAndRead, "PAXOS2_PREPARE", true},
    {Verb::kStreamPull, "STREAM_PULL", true},
    {Verb::kStreamRanges, "STREAM_RANGES", true},
}};

constexpr std::array<Verb, kVerbs.size()> kAll = [] {
  std::array<Verb, kVerbs.size()> all{};
  for (size_t i = 0; i < kVerbs.size(); ++i) all[i] = kVerbs[i].verb;
  return all;
}();

const VerbInfo* Find(Verb verb) {
  const auto it = std::lower_bound(kVerbs.begin(), kVerbs.end(), verb,
                                   [](const VerbInfo& info, Verb v) { return info.verb < v; });
  return it != kVerbs.end() && it->verb == verb ? &*it : nullptr;
}

}  // namespace

std::optional<std::string_view> VerbName(Verb verb) {
  const VerbInfo* info = Find(verb);
  if (info == nullptr) return std::nullopt;
  return info->name;
}

std::optional<Verb> VerbFromWire(uint16_t wire) {
  const Verb verb = static_cast<Verb>(wire);
  if (Find(verb) == nullptr) return std::nullopt;
  return verb;
}

std::span<const Verb> AllVerbs() { return kAll; }

bool IsEpochChecked(Verb verb) {
  const VerbInfo* info = Find(verb);
  return info != nullptr && info->epoch_checked;
}

}  // namespace sibyl::messaging
