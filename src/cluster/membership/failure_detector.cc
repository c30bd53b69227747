#include "cluster/membership/failure_detector.h"

#include <spdlog/spdlog.h>

#include <cstring>

namespace sibyl::cluster {
namespace {

constexpr size_t kHeartbeatSize = 8 + 8 + 8 + 16 + 8 + 1;
constexpr uint8_t kNativeTransportReadyFlag = 1;
constexpr int kDiskUsageShift = 1;
constexpr uint8_t kDiskUsageMask = 3 << kDiskUsageShift;

void PutU64(Bytes& out, uint64_t value) {
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(value >> shift));
}

uint64_t GetU64(BytesView data, size_t offset) {
  uint64_t value = 0;
  for (size_t i = 0; i < 8; ++i) value = (value << 8) | static_cast<uint8_t>(data[offset + i]);
  return value;
}

}  // namespace

Bytes EncodeHeartbeat(const Heartbeat& heartbeat) {
  Bytes out;
  out.reserve(kHeartbeatSize);
  PutU64(out, static_cast<uint64_t>(heartbeat.generation));
  PutU64(out, heartbeat.counter);
  PutU64(out, heartbeat.epoch);
  out.append(reinterpret_cast<const char*>(heartbeat.schema_version.bytes.data()), 16);
  PutU64(out, static_cast<uint64_t>(heartbeat.load_bytes));
  const uint8_t flags =
      (heartbeat.native_transport_ready ? kNativeTransportReadyFlag : 0) |
      static_cast<uint8_t>(static_cast<uint8_t>(heartbeat.disk_usage) << kDiskUsageShift);
  out.push_back(static_cast<char>(flags));
  return out;
}

std::optional<Heartbeat> DecodeHeartbeat(BytesView data) {
  if (data.size() != kHeartbeatSize) return std::nullopt;
  Heartbeat heartbeat;
  heartbeat.generation = static_cast<int64_t>(GetU64(data, 0));
  heartbeat.counter = GetU64(data, 8);
  heartbeat.epoch = GetU64(data, 16);
  heartbeat.schema_version = types::Uuid::FromBytes(data.substr(24, 16));
  heartbeat.load_bytes = static_cast<int64_t>(GetU64(data, 40));
  const auto flags = static_cast<uint8_t>(data[48]);
  heartbeat.native_transport_ready = (flags & kNativeTransportReadyFlag) != 0;
  heartbeat.disk_usage =
      static_cast<guardrails::DiskUsageState>((flags & kDiskUsageMask) >> kDiskUsageShift);
  return heartbeat;
}

FailureDetector::FailureDetector(messaging::MessagingService& messaging,
                                 messaging::Scheduler& scheduler, const ClusterViewHolder& views,
                                 LocalState local_state, FailureDetectorOptions options)
    : messaging_(messaging),
      scheduler_(scheduler),
      views_(views),
      local_state_(std::move(local_state)),
      options_(options) {}

FailureDetector::~FailureDetector() { Stop(); }

void FailureDetector::RegisterHandler() {
  messaging_.RegisterHandler(
      messaging::Verb::kHeartbeat,
      [this](const messaging::Message& message, messaging::Responder) { OnHeartbeat(message); });
}

void FailureDetector::AddListener(Listener listener) { listeners_.push_back(std::move(listener)); }

void FailureDetector::AddReadyListener(ReadyListener listener) {
  ready_listeners_.push_back(std::move(listener));
}

void FailureDetector::Start() { Tick(); }

void FailureDetector::Stop() {
  std::lock_guard lock(mutex_);
  if (stopped_) return;
  stopped_ = true;
  scheduler_.Cancel(timer_);
}

void FailureDetector::Tick() {
  const ClusterViewPtr view = views_.Get();
  const LocalHeartbeatState local = local_state_();
  std::vector<Transition> transitions;
  Heartbeat heartbeat{.generation = options_.generation,
                      .counter = 0,
                      .epoch = local.epoch,
                      .schema_version = local.schema_version,
                      .load_bytes = local.load_bytes,
                      .native_transport_ready = native_transport_ready_.load(),
                      .disk_usage = local.disk_usage};
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    heartbeat.counter = ++counter_;
    if (view) transitions = ReviewLocked(*view, scheduler_.Now());
    timer_ = scheduler_.RunAfter(options_.interval, [this] { Tick(); });
  }
  Notify(transitions);
  if (!view) return;
  const Bytes payload = EncodeHeartbeat(heartbeat);
  for (const auto& [id, record] : view->directory().nodes()) {
    if (id == view->local_id()) continue;
    messaging_.SendOneWay(view->AddressOf(id), messaging::Verb::kHeartbeat, payload);
  }
}

std::vector<FailureDetector::Transition> FailureDetector::ReviewLocked(const ClusterView& view,
                                                                       messaging::TimePoint now) {
  std::vector<Transition> transitions;
  const auto& nodes = view.directory().nodes();
  for (auto it = members_.begin(); it != members_.end();) {
    if (nodes.count(it->first) != 0) {
      ++it;
      continue;
    }
    if (disk_usage_states_ != nullptr) disk_usage_states_->ForgetPeer(it->first);
    it = members_.erase(it);
  }
  for (const auto& [id, record] : nodes) {
    if (id == view.local_id()) continue;
    auto [it, added] = members_.try_emplace(id);
    Member& member = it->second;
    if (added) member.last_heard = now;  // presumed alive until a timeout of silence
    if (member.alive && now - member.last_heard > options_.timeout) {
      member.alive = false;
      member.down_since = now;
      transitions.emplace_back(id, false);
    }
  }
  return transitions;
}

void FailureDetector::OnHeartbeat(const messaging::Message& message) {
  const std::optional<Heartbeat> heartbeat = DecodeHeartbeat(message.payload);
  if (!heartbeat) {
    spdlog::warn("Ignoring a malformed heartbeat from {}", message.sender.ToString());
    return;
  }
  std::vector<Transition> transitions;
  bool became_ready = false;
  {
    std::lock_guard lock(mutex_);
    if (stopped_) return;
    const ClusterViewPtr view = views_.Get();
    // A node not (yet) in our view: its heartbeats count once we see it join.
    if (!view || view->directory().Find(message.sender) == nullptr) return;
    if (message.sender == view->local_id()) return;
    Member& member = members_[message.sender];
    // Heartbeats may be reordered: an older one says nothing new.
    if (member.heartbeat && (heartbeat->generation < member.heartbeat->generation ||
                             (heartbeat->generation == member.heartbeat->generation &&
                              heartbeat->counter <= member.heartbeat->counter))) {
      return;
    }
    Heartbeat latest = *heartbeat;
    // A heartbeat sent before the member confirmed a newer epoch (NoteEpoch)
    // must not bring back its older schema version.
    if (member.heartbeat && member.heartbeat->generation == latest.generation &&
        member.heartbeat->epoch > latest.epoch) {
      latest.epoch = member.heartbeat->epoch;
      latest.schema_version = member.heartbeat->schema_version;
    }
    became_ready = latest.native_transport_ready &&
                   !(member.heartbeat && member.heartbeat->generation == latest.generation &&
                     member.heartbeat->native_transport_ready);
    member.heartbeat = latest;
    member.last_heard = scheduler_.Now();
    if (disk_usage_states_ != nullptr)
      disk_usage_states_->SetPeer(message.sender, latest.disk_usage);
    if (!member.alive) {
      member.alive = true;
      transitions.emplace_back(message.sender, true);
    }
  }
  Notify(transitions);
  if (became_ready) {
    for (const ReadyListener& listener : ready_listeners_) listener(message.sender);
  }
}

bool FailureDetector::IsNativeTransportReady(const types::Uuid& node) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(node);
  return it != members_.end() && it->second.heartbeat &&
         it->second.heartbeat->native_transport_ready;
}

void FailureDetector::Notify(const std::vector<Transition>& transitions) const {
  for (const auto& [node, alive] : transitions) {
    spdlog::info("Node {} is now {}", node.ToString(), alive ? "UP" : "DOWN");
    for (const Listener& listener : listeners_) listener(node, alive);
  }
}

bool FailureDetector::IsAlive(const types::Uuid& node) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(node);
  // The local node, and a member not reviewed yet, are alive.
  return it == members_.end() || it->second.alive;
}

std::chrono::milliseconds FailureDetector::Downtime(const types::Uuid& node) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(node);
  if (it == members_.end() || it->second.alive) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(scheduler_.Now() -
                                                               it->second.down_since);
}

std::optional<Heartbeat> FailureDetector::LastHeartbeat(const types::Uuid& node) const {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(node);
  if (it == members_.end()) return std::nullopt;
  return it->second.heartbeat;
}

void FailureDetector::NoteEpoch(const types::Uuid& node, uint64_t epoch,
                                const types::Uuid& schema_version) {
  std::lock_guard lock(mutex_);
  const auto it = members_.find(node);
  if (it == members_.end() || !it->second.heartbeat || it->second.heartbeat->epoch > epoch) return;
  it->second.heartbeat->epoch = epoch;
  it->second.heartbeat->schema_version = schema_version;
}

}  // namespace sibyl::cluster
