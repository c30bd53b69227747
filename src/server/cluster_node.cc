#include "server/cluster_node.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "cluster/streaming/range_streamer.h"
#include "cluster/streaming/stream_sources.h"
#include "cluster/views/ring_view_update_router.h"
#include "common/error.h"
#include "locator/token_allocation.h"
#include "locator/token_ring.h"
#include "schema/storage_layout.h"
#include "schema/system_keyspaces.h"

namespace sibyl::server {
namespace {

// Paxos requests of different partitions run side by side, each mostly
// waiting for its fsync.
constexpr size_t kPaxosWorkers = 4;

// A seed for token allocation that differs per node and is the same for a
// node that retries its registration over a newer ring.
uint64_t SeedOf(const types::Uuid& host_id) {
  uint64_t seed = 0;
  for (size_t i = 0; i < host_id.bytes.size(); ++i) {
    seed = (seed << 8 | seed >> 56) ^ host_id.bytes[i];
  }
  return seed;
}

// In the data directory of a node that left the ring.
constexpr const char* kDecommissionedMark = "decommissioned";

// Whether the schema has a keyspace of the users' (which a new node must
// stream before it serves): a ring holding none lets nodes join at once,
// as `sibyl cluster start` starts them together.
bool HoldsUserKeyspaces(const schema::Schema& schema) {
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    if (!schema::IsSystemKeyspace(name)) return true;
  }
  return false;
}

// 4.1's StorageService.decommission: refused when a keyspace would keep
// fewer nodes than its replication factor (N counts the leaver; per
// datacenter for NetworkTopologyStrategy).
void RefuseLeavingBelowReplication(const cluster::ClusterView& view,
                                   const metadata::Directory& directory, const std::string& dc) {
  for (const auto& [name, keyspace] : view.schema().keyspaces()) {
    const cluster::KeyspaceReplication* replication = view.ReplicationOf(name);
    if (replication == nullptr) continue;
    const locator::ReplicationStrategy& strategy = replication->strategy();
    if (strategy.kind() == locator::ReplicationStrategy::Kind::kLocal) continue;
    int rf = strategy.replication_factor();
    int nodes = static_cast<int>(directory.size());
    if (strategy.kind() == locator::ReplicationStrategy::Kind::kNetworkTopology) {
      const auto it = strategy.datacenter_factors().find(dc);
      rf = it == strategy.datacenter_factors().end() ? 0 : it->second;
      nodes = 0;
      for (const auto& [id, record] : directory.nodes()) nodes += record.datacenter == dc ? 1 : 0;
    }
    if (rf > 0 && nodes <= rf) {
      throw CqlError(ErrorCode::kInvalid,
                     "Not enough live nodes to maintain replication factor in keyspace " + name +
                         " (RF = " + std::to_string(rf) + ", N = " + std::to_string(nodes) +
                         "). Perform a forceful decommission to ignore.");
    }
  }
}

// A decommission or removenode starts only with every member NORMAL;
// `action` ends the refusal ("leave the ring", "remove a node").
void RefuseWhileDataMoves(const metadata::Directory& directory, const char* action) {
  for (const auto& [id, record] : directory.nodes()) {
    if (record.state != metadata::NodeState::kNormal) {
      throw CqlError(ErrorCode::kInvalid, "data is currently moving in the ring (" +
                                              record.broadcast_address +
                                              " is joining or leaving); unable to " + action);
    }
  }
}

// One range movement at a time (Cassandra's consistent.rangemovement): a
// node may not start joining while another joins or leaves.
void RefuseConcurrentMoves(const metadata::Directory& directory) {
  std::string joining;
  std::string leaving;
  for (const auto& [id, record] : directory.nodes()) {
    if (metadata::IsJoining(record.state)) {
      joining += (joining.empty() ? "" : ",") + record.broadcast_address;
    } else if (metadata::IsLeaving(record.state)) {
      leaving += (leaving.empty() ? "" : ",") + record.broadcast_address;
    }
  }
  if (joining.empty() && leaving.empty()) return;
  throw std::runtime_error(
      "Other bootstrapping/leaving/moving nodes detected, cannot bootstrap while "
      "cassandra.consistent.rangemovement is true. Nodes detected, bootstrapping: [" +
      joining + "]; leaving: [" + leaving + "]; moving: [];");
}

locator::TokenRing RingOf(const metadata::Directory& directory) {
  std::map<locator::NodeId, std::vector<dht::Token>> tokens;
  for (const auto& [id, record] : directory.nodes()) tokens.emplace(id, record.tokens);
  return locator::TokenRing(tokens);
}

metadata::EtcdMetadataStoreOptions StoreOptions(const Config& config,
                                                const std::filesystem::path& data_dir) {
  metadata::EtcdMetadataStoreOptions options;
  options.etcd.endpoints = config.etcd_endpoints;
  options.cluster_name = config.cluster_name;
  options.cache_directory = data_dir / "metadata";
  return options;
}

}  // namespace

ClusterNode::ClusterNode(const Config& config, types::Uuid host_id,
                         schema::LocalNodeInfo& node_info)
    : config_(config), host_id_(host_id), node_info_(node_info) {}

std::unique_ptr<ClusterNode> ClusterNode::Open(const Config& config,
                                               const std::filesystem::path& data_dir,
                                               const cluster::NodeIdentity& identity,
                                               bool identity_existed,
                                               schema::LocalNodeInfo& node_info) {
  std::unique_ptr<ClusterNode> node(new ClusterNode(config, node_info.host_id, node_info));
  node->store_ = metadata::EtcdMetadataStore::Open(StoreOptions(config, data_dir));
  node->FollowChanges();
  node->Register(identity, identity_existed, data_dir);
  node->RebuildView(nullptr, nullptr);
  node->workers_ = std::make_unique<boost::asio::thread_pool>(
      static_cast<size_t>(std::max(1, config.native_transport_max_threads)));
  node_info.current_peers = [raw = node.get()] { return raw->Peers(); };
  return node;
}

ClusterNode::~ClusterNode() { Stop(); }

void ClusterNode::Register(const cluster::NodeIdentity& identity, bool identity_existed,
                           const std::filesystem::path& data_dir) {
  if (std::filesystem::exists(data_dir / kDecommissionedMark)) {
    throw std::runtime_error(
        "This node was decommissioned and will not rejoin the ring unless "
        "cassandra.override_decommission=true has been set, or all existing data is removed and "
        "the node is bootstrapped again");
  }
  metadata::NodeRecord mine;
  mine.host_id = host_id_;
  mine.broadcast_address = node_info_.broadcast_address;
  mine.storage_port = config_.storage_port;
  mine.native_address = node_info_.rpc_address;
  mine.native_port = config_.native_transport_port;
  mine.datacenter = node_info_.data_center;
  mine.rack = node_info_.rack;
  mine.release_version = kReleaseVersion;
  const auto result = store_->CommitDirectory(
      [&](const metadata::Directory& directory) -> std::optional<metadata::Directory> {
        metadata::NodeRecord record = mine;
        if (const metadata::NodeRecord* known = directory.Find(host_id_)) {
          record.tokens = known->tokens;  // a restart keeps the tokens the ring has
          record.state = known->state;    // and resumes a join where it was
          if (*known == record) return std::nullopt;
        } else if (identity_existed) {
          record.tokens = identity.tokens;
        } else {
          record.tokens =
              locator::AllocateTokens(RingOf(directory), config_.num_tokens, SeedOf(host_id_));
          if (config_.auto_bootstrap && !directory.empty() &&
              HoldsUserKeyspaces(*store_->schemas().snapshot())) {
            RefuseConcurrentMoves(directory);
            record.state = metadata::NodeState::kJoining;
          }
        }
        return directory.With(std::move(record));
      });
  const metadata::NodeRecord* registered = result.after->Find(host_id_);
  if (registered == nullptr) throw std::runtime_error("registration left this node out");
  if (registered->tokens != identity.tokens) {
    cluster::NodeIdentity updated = identity;
    updated.tokens = registered->tokens;
    cluster::SaveNodeIdentity(data_dir, updated);
  }
  node_info_.tokens.clear();
  for (dht::Token token : registered->tokens) node_info_.tokens.push_back(std::to_string(token));
  spdlog::info("Registered in the cluster's directory ({} members, epoch {}){}",
               result.after->size(), store_->epoch(), result.changed ? "" : "; already a member");
}

// Listeners first, so that no change between the initial view and them is missed.
void ClusterNode::FollowChanges() {
  store_->AddDirectoryListener(
      [this](const metadata::Directory& before, const metadata::Directory& after) {
        OnDirectoryChange(before, after);
      });
  store_->AddListener([this](const schema::Schema&, const schema::Schema& after) {
    RebuildView(nullptr, std::make_shared<const schema::Schema>(after));
  });
}

// Listeners run before the store publishes a change, so they hand over the
// new state themselves; a null argument keeps the state last seen (or, at
// first, the store's).
void ClusterNode::RebuildView(metadata::DirectoryPtr directory, schema::SchemaPtr schema) {
  std::lock_guard lock(view_mutex_);
  if (directory) view_directory_ = std::move(directory);
  if (schema) view_schema_ = std::move(schema);
  if (!view_directory_) view_directory_ = store_->directory();
  if (!view_schema_) view_schema_ = store_->schemas().snapshot();
  // Until the registration commits, the directory may not hold this node.
  if (view_directory_->Find(host_id_) == nullptr) return;
  views_->Set(
      cluster::ClusterView::Build(store_->epoch(), view_directory_, view_schema_, host_id_));
}

void ClusterNode::OnDirectoryChange(const metadata::Directory& before,
                                    const metadata::Directory& after) {
  RebuildView(std::make_shared<const metadata::Directory>(after), nullptr);
  if (events_ == nullptr) return;
  for (const auto& [id, record] : after.nodes()) {
    if (id == host_id_ || before.Find(id) != nullptr) continue;
    spdlog::info("Node {} ({}) joined the cluster", id.ToString(), record.broadcast_address);
    // Drivers connect to a new node at once: tell them when it serves CQL.
    if (detector_ && detector_->IsNativeTransportReady(id)) {
      events_->Publish(
          EventBus::TopologyChangeEvent("NEW_NODE", record.native_address, record.native_port));
    } else {
      std::lock_guard lock(pending_mutex_);
      pending_events_[id].new_node = true;
    }
  }
  for (const auto& [id, record] : before.nodes()) {
    if (id == host_id_ || after.Find(id) != nullptr) continue;
    events_->Publish(
        EventBus::TopologyChangeEvent("REMOVED_NODE", record.native_address, record.native_port));
  }
}

void ClusterNode::OnLivenessChange(const types::Uuid& node, bool alive) {
  const metadata::DirectoryPtr directory = store_->directory();
  const metadata::NodeRecord* record = directory->Find(node);
  if (record == nullptr || events_ == nullptr) return;
  if (alive && !detector_->IsNativeTransportReady(node)) {
    // Back, but not serving CQL yet (it restarted): UP once it does.
    std::lock_guard lock(pending_mutex_);
    pending_events_[node].up = true;
    return;
  }
  if (!alive) {
    std::lock_guard lock(pending_mutex_);
    if (auto it = pending_events_.find(node); it != pending_events_.end()) it->second.up = false;
  }
  events_->Publish(EventBus::StatusChangeEvent(alive ? "UP" : "DOWN", record->native_address,
                                               record->native_port));
}

void ClusterNode::OnNativeTransportReady(const types::Uuid& node) {
  PendingEvents pending;
  {
    std::lock_guard lock(pending_mutex_);
    auto it = pending_events_.find(node);
    if (it == pending_events_.end()) return;
    pending = it->second;
    pending_events_.erase(it);
  }
  const metadata::DirectoryPtr directory = store_->directory();
  const metadata::NodeRecord* record = directory->Find(node);
  if (record == nullptr || events_ == nullptr) return;
  if (pending.new_node) {
    events_->Publish(
        EventBus::TopologyChangeEvent("NEW_NODE", record->native_address, record->native_port));
  }
  if (pending.up && detector_->IsAlive(node)) {
    events_->Publish(
        EventBus::StatusChangeEvent("UP", record->native_address, record->native_port));
  }
}

void ClusterNode::NativeTransportReady() {
  if (detector_) detector_->SetNativeTransportReady(true);
}

std::vector<schema::PeerInfo> ClusterNode::Peers() const {
  std::vector<schema::PeerInfo> peers;
  const metadata::DirectoryPtr directory = store_->directory();
  for (const auto& [id, record] : directory->nodes()) {
    if (id == host_id_) continue;
    schema::PeerInfo peer = metadata::ToPeerInfo(record);
    // Gossip's words; system.peers leaves a BOOT one out until it joined.
    if (metadata::IsJoining(record.state)) peer.status = "BOOT";
    if (metadata::IsLeaving(record.state)) peer.status = "LEAVING";
    if (detector_) {
      peer.alive = detector_->IsAlive(id);
      if (auto heartbeat = detector_->LastHeartbeat(id)) {
        peer.schema_version = heartbeat->schema_version;
        peer.generation = heartbeat->generation;
        peer.heartbeat_counter = static_cast<int64_t>(heartbeat->counter);
        if (heartbeat->load_bytes >= 0) peer.load_bytes = heartbeat->load_bytes;
        peer.disk_usage = heartbeat->disk_usage;
      }
    }
    peers.push_back(std::move(peer));
  }
  return peers;
}

std::shared_ptr<const index::ViewUpdateRouter> ClusterNode::MakeViewUpdateRouter() const {
  return std::make_shared<cluster::RingViewUpdateRouter>(views_);
}

void ClusterNode::Join(cluster::Coordinator& coordinator, index::IndexingEngine& engine,
                       Clock& clock, EventBus& events) {
  events_ = &events;
  coordinator_ = &coordinator;
  messaging::TcpTransportOptions transport_options;
  transport_options.listen = {config_.listen_address, static_cast<uint16_t>(config_.storage_port)};
  transport_ = std::make_unique<messaging::TcpTransport>(transport_options);
  scheduler_ = std::make_unique<messaging::AsioScheduler>(1);
  gate_ = std::make_unique<cluster::MetadataEpochGate>(*store_, config_.request_timeout);
  messaging_ = std::make_unique<messaging::MessagingService>(
      *transport_, *scheduler_, *gate_, messaging::MessagingOptions{.host_id = host_id_});
  detector_ = std::make_unique<cluster::FailureDetector>(
      *messaging_, *scheduler_, *views_,
      [this] {
        const std::optional<int64_t> load =
            node_info_.load_bytes ? node_info_.load_bytes() : std::nullopt;
        return cluster::LocalHeartbeatState{
            .epoch = store_->epoch(),
            .schema_version = store_->schemas().snapshot()->version(),
            .load_bytes = load.value_or(-1),
            .disk_usage = node_info_.disk_usage ? node_info_.disk_usage()
                                                : guardrails::DiskUsageState::kNotAvailable};
      },
      cluster::FailureDetectorOptions{.generation = node_info_.gossip_generation});
  detector_->AddListener(
      [this](const types::Uuid& node, bool alive) { OnLivenessChange(node, alive); });
  detector_->AddReadyListener([this](const types::Uuid& node) { OnNativeTransportReady(node); });
  detector_->SetDiskUsageStates(coordinator.disk_usage_states());
  notifier_ = std::make_unique<cluster::EpochNotifier>(
      *messaging_, *gate_, *views_, *detector_,
      [this] { return store_->schemas().snapshot()->version(); },
      [this](const types::Uuid& node, uint64_t epoch, const types::Uuid& version) {
        detector_->NoteEpoch(node, epoch, version);
      });
  if (config_.hinted_handoff_enabled) {
    hints_ = std::make_unique<cluster::HintStore>(
        cluster::HintStore::Options{.directory = config_.hints_dir()});
  }
  batches_ = std::make_unique<cluster::BatchStore>(config_.data_dir() / "batchlog");
  services_ =
      cluster::ClusterServices{.views = views_.get(),
                               .messaging = messaging_.get(),
                               .scheduler = scheduler_.get(),
                               .liveness = detector_.get(),
                               .hints = hints_.get(),
                               .batches = batches_.get(),
                               .max_hint_window = config_.max_hint_window,
                               .hinted_handoff_throttle_bytes = config_.hinted_handoff_throttle,
                               .timeouts = {.read = config_.read_request_timeout,
                                            .range = config_.range_request_timeout,
                                            .write = config_.write_request_timeout,
                                            .counter_write = config_.counter_write_request_timeout,
                                            .truncate = config_.truncate_request_timeout,
                                            .cas_contention = config_.cas_contention_timeout},
                               .blocking = {},
                               .paxos_variant = config_.paxos_variant == PaxosVariantSetting::kV1
                                                    ? cluster::PaxosVariant::kV1
                                                    : cluster::PaxosVariant::kV2};
  paxos_workers_ = std::make_unique<boost::asio::thread_pool>(kPaxosWorkers);
  services_.blocking = [pool = paxos_workers_.get()](std::function<void()> work) {
    boost::asio::post(*pool, std::move(work));
  };
  ballots_ = std::make_unique<cluster::paxos::BallotGenerator>(
      clock, cluster::paxos::BallotNodeBits(host_id_), config_.data_dir() / "paxos_ballots");
  cluster::WriteCoordinator::RegisterReplicaHandlers(*messaging_, engine);
  cluster::ReadCoordinator::RegisterReplicaHandlers(*messaging_, engine);
  cluster::BatchlogManager::RegisterReplicaHandlers(*messaging_, *batches_);
  detector_->RegisterHandler();
  notifier_->RegisterHandler();
  coordinator.JoinCluster(services_, *ballots_);
  if (hints_) {
    hint_dispatcher_ =
        std::make_unique<cluster::HintDispatcher>(services_, cluster::HintDispatcher::Options{});
  }
  batchlog_ = std::make_unique<cluster::BatchlogManager>(
      services_, *batches_, coordinator.writes(), clock, cluster::BatchlogManager::Options{});
  view_dispatcher_ = std::make_unique<cluster::ViewUpdateDispatcher>(
      services_, engine, cluster::ViewUpdateDispatcher::Options{});
  stream_source_ = std::make_unique<cluster::streaming::StreamSource>(
      services_, engine, clock, config_.stream_throughput_outbound);
  stream_source_->RegisterHandler();
  RegisterStreamRangesHandler(engine);
  messaging_->Start();
  detector_->Start();
  if (hint_dispatcher_) hint_dispatcher_->Start();
  batchlog_->Start();
  view_dispatcher_->Start();
  spdlog::info("Internode messaging listening on {}", messaging_->local_address().ToString());
  const metadata::NodeRecord* mine = store_->directory()->Find(host_id_);
  if (mine != nullptr && mine->state != metadata::NodeState::kNormal) ResumeMove(engine);
  node_info_.decommission = [this](bool force) { Decommission(force); };
  node_info_.remove_node = [this](const types::Uuid& host, bool force) { RemoveNode(host, force); };
  node_info_.removal = [this] {
    std::lock_guard guard(removal_mutex_);
    return removal_;
  };
  node_info_.ring_state = [this] {
    const metadata::NodeRecord* record = store_->directory()->Find(host_id_);
    if (record == nullptr) return std::string("LEFT");
    if (metadata::IsJoining(record->state)) return std::string("JOINING");
    if (metadata::IsLeaving(record->state)) return std::string("LEAVING");
    return std::string("NORMAL");
  };
}

void ClusterNode::RegisterStreamRangesHandler(storage::Engine& engine) {
  messaging_->RegisterHandler(
      messaging::Verb::kStreamRanges,
      [this, &engine](const messaging::Message& message, messaging::Responder responder) {
        auto shared = std::make_shared<messaging::Responder>(std::move(responder));
        try {
          const BytesView payload = message.payload;
          if (payload.size() != 16 && payload.size() != 17) {
            throw std::runtime_error("Not a stream request");
          }
          const types::Uuid plan = types::Uuid::FromBytes(payload.substr(0, 16));
          const uint8_t rule = payload.size() == 17 ? static_cast<uint8_t>(payload[16]) : 0;
          if (rule > static_cast<uint8_t>(cluster::streaming::SourceRule::kRemainingReplica)) {
            throw std::runtime_error("Unknown stream source rule " + std::to_string(rule));
          }
          auto tasks =
              cluster::streaming::StreamTasksFor(*views_->Get(), host_id_, *detector_,
                                                 static_cast<cluster::streaming::SourceRule>(rule));
          spdlog::info("Streaming {} ranges for plan {}", tasks.size(), plan.ToString());
          (void)cluster::streaming::RangeStreamer::Start(
              services_, engine, {.plan_id = plan, .progress_dir = config_.data_dir() / "streams"},
              std::move(tasks), [shared](std::exception_ptr error) {
                if (!error) return shared->Reply(Bytes());
                try {
                  std::rethrow_exception(error);
                } catch (const std::exception& e) {
                  shared->Fail(messaging::FailureReason::kUnknown, e.what());
                }
              });
        } catch (const std::exception& e) {
          shared->Fail(messaging::FailureReason::kUnknown, e.what());
        }
      });
}

void ClusterNode::Decommission(bool force) {
  using metadata::NodeState;
  std::lock_guard lock(decommission_mutex_);
  const metadata::DirectoryPtr directory = store_->directory();
  const metadata::NodeRecord* mine = directory->Find(host_id_);
  if (mine == nullptr || mine->state != NodeState::kNormal) {
    throw CqlError(ErrorCode::kInvalid, "This node is not a NORMAL member of the ring");
  }
  RefuseWhileDataMoves(*directory, "leave the ring");
  if (!force) RefuseLeavingBelowReplication(*views_->Get(), *directory, node_info_.data_center);
  spdlog::info("DECOMMISSIONING: leaving the ring");
  SetOwnState(NodeState::kLeaving);
  Barrier("LEAVING: waiting for the other members to write to the new owners");
  const std::vector<types::Uuid> receivers = cluster::streaming::PendingMembers(*views_->Get());
  try {
    std::vector<cluster::streaming::StreamTask> moving;
    for (const types::Uuid& receiver : receivers) {
      for (auto& task : cluster::streaming::StreamTasksFor(*views_->Get(), receiver, *detector_)) {
        moving.push_back(std::move(task));
      }
    }
    RepairPaxos(moving);
  } catch (const std::exception& e) {
    CancelLeave();
    throw CqlError(ErrorCode::kServerError, e.what());
  }
  // A plan per attempt: after a cancelled one the receivers were not written
  // to for a while, so what they streamed then must not count now.
  const types::Uuid plan = types::Uuid::NameBased("decommission " + host_id_.ToString() + " " +
                                                  std::to_string(store_->epoch()));
  if (const std::string failures = AskToStream(receivers, plan); !failures.empty()) {
    CancelLeave();
    throw CqlError(ErrorCode::kServerError, "Stream failed: " + failures);
  }
  SetOwnState(NodeState::kLeavingReadNew);
  Barrier("LEAVING: waiting for the other members to read from the new owners");
  Leave();
  // Out of the ring, the node has nothing left to serve; it stops once the
  // statement that asked has answered.
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::seconds(1));
    ::kill(::getpid(), SIGTERM);  // to the process: raise() would be this thread's
  }).detach();
}

void ClusterNode::RemoveNode(const types::Uuid& host, bool force) {
  using metadata::NodeState;
  if (host == host_id_) throw CqlError(ErrorCode::kInvalid, "Cannot remove self");
  const metadata::DirectoryPtr directory = store_->directory();
  const metadata::NodeRecord* removed = directory->Find(host);
  if (removed == nullptr) throw CqlError(ErrorCode::kInvalid, "Host ID not found.");
  const messaging::PeerAddress address = views_->Get()->AddressOf(host);
  const std::string endpoint = "/" + address.ip + ":" + std::to_string(address.port);
  if (detector_->IsAlive(host)) {
    throw CqlError(ErrorCode::kInvalid,
                   "Node " + endpoint +
                       " is alive and owns this ID. Use decommission command to remove it from "
                       "the ring");
  }
  if (force) {
    // removenode force: out now; what only it held is lost, the rest is
    // under-replicated until repaired. Without decommission_mutex_, which
    // the removal it ends holds while it waits for its streams.
    spdlog::warn("Removing node {} by force, without streaming its ranges", endpoint);
    return ForgetNode(host, "REMOVED: waiting for the other members to forget the node");
  }
  std::lock_guard lock(decommission_mutex_);
  RefuseWhileDataMoves(*directory, "remove a node");
  spdlog::info("REMOVING: node {} leaves the ring", endpoint);
  SetStateOf(host, NodeState::kLeaving, NodeState::kNormal);
  const auto back_to_normal = [&] {
    SetRemoval(std::nullopt);
    SetStateOf(host, NodeState::kNormal, NodeState::kLeaving);
    Barrier("REMOVING: cancelled, back to NORMAL");
  };
  std::string failures;
  try {
    Barrier("REMOVING: waiting for the other members to write to the new owners");
    const cluster::ClusterViewPtr view = views_->Get();
    constexpr auto kRule = cluster::streaming::SourceRule::kRemainingReplica;
    const std::vector<types::Uuid> receivers = cluster::streaming::PendingMembers(*view);
    std::vector<cluster::streaming::StreamTask> moving;
    schema::RemovalStatus status{.host = host, .token = "", .waiting_for = {}};
    if (!removed->tokens.empty()) {
      status.token =
          std::to_string(*std::min_element(removed->tokens.begin(), removed->tokens.end()));
    }
    for (const types::Uuid& receiver : receivers) {
      for (auto& task : cluster::streaming::StreamTasksFor(*view, receiver, *detector_, kRule)) {
        moving.push_back(std::move(task));
      }
      status.waiting_for.push_back("/" + view->AddressOf(receiver).ip);
    }
    RepairPaxos(moving);
    SetRemoval(status);
    const types::Uuid plan = types::Uuid::NameBased("removenode " + host.ToString() + " " +
                                                    std::to_string(store_->epoch()));
    failures = AskToStream(receivers, plan, kRule, [&](const types::Uuid& receiver) {
      const std::string done = "/" + view->AddressOf(receiver).ip;
      std::lock_guard guard(removal_mutex_);
      if (!removal_) return;
      std::erase(removal_->waiting_for, done);
    });
  } catch (const std::exception& e) {
    back_to_normal();
    throw CqlError(ErrorCode::kServerError, e.what());
  }
  if (!failures.empty()) {
    back_to_normal();
    throw CqlError(ErrorCode::kServerError, "Stream failed: " + failures);
  }
  SetRemoval(std::nullopt);
  SetStateOf(host, NodeState::kLeavingReadNew, NodeState::kLeaving);
  Barrier("REMOVING: waiting for the other members to read from the new owners");
  ForgetNode(host, "REMOVED: waiting for the other members to forget the node");
  spdlog::info("REMOVED: node {}", endpoint);
}

void ClusterNode::ForgetNode(const types::Uuid& node, const char* step) {
  (void)store_->CommitDirectory(
      [&](const metadata::Directory& current) -> std::optional<metadata::Directory> {
        if (current.Find(node) == nullptr) return std::nullopt;
        return current.Without(node);
      });
  Barrier(step);
}

void ClusterNode::SetRemoval(std::optional<schema::RemovalStatus> removal) {
  std::lock_guard guard(removal_mutex_);
  removal_ = std::move(removal);
}

void ClusterNode::ResumeMove(storage::Engine& engine) {
  using metadata::NodeState;
  switch (store_->directory()->Find(host_id_)->state) {
    case NodeState::kNormal:
      return;
    case NodeState::kJoining:
    case NodeState::kJoiningReadNew:
      return Bootstrap(engine);
    case NodeState::kLeaving:
      spdlog::warn("This node stopped while leaving the ring: the decommission is cancelled");
      return CancelLeave();
    case NodeState::kLeavingReadNew:
      // Reads moved after every range was streamed: only forward.
      spdlog::warn("This node stopped after its ranges were handed over: it leaves now");
      Leave();
      throw std::runtime_error("This node was decommissioned while it was down; it left the ring");
  }
}

std::string ClusterNode::AskToStream(const std::vector<types::Uuid>& receivers,
                                     const types::Uuid& plan, cluster::streaming::SourceRule rule,
                                     const std::function<void(const types::Uuid&)>& answered_by) {
  std::mutex mutex;
  std::condition_variable answered;
  std::string failures;  // GUARDED_BY(mutex)
  size_t waiting = receivers.size();
  const cluster::ClusterViewPtr view = views_->Get();
  // The plan, then the source rule (absent: strict).
  Bytes request = plan.ToBytes();
  request.push_back(static_cast<char>(rule));
  for (const types::Uuid& receiver : receivers) {
    messaging_->SendRequest(
        view->AddressOf(receiver), messaging::Verb::kStreamRanges, request, std::chrono::hours(1),
        [&, receiver](messaging::Reply reply) {
          if (answered_by) answered_by(receiver);
          std::lock_guard guard(mutex);
          if (!reply.ok()) {
            failures += (failures.empty() ? "" : "; ") + receiver.ToString() + ": " +
                        (reply.payload.empty() ? std::string("no answer") : reply.payload);
          }
          if (--waiting == 0) answered.notify_all();
        });
  }
  std::unique_lock wait(mutex);
  answered.wait(wait, [&] { return waiting == 0; });
  return failures;
}

void ClusterNode::CancelLeave() {
  // Reads never moved: cancelling loses nothing (TCM's inverse deltas).
  SetOwnState(metadata::NodeState::kNormal);
  Barrier("LEAVING: cancelled, back to NORMAL");
}

void ClusterNode::Leave() {
  // Marked before it leaves: a crash after leaving must not let it rejoin.
  std::ofstream(config_.data_dir() / kDecommissionedMark) << host_id_.ToString() << "\n";
  ForgetNode(host_id_, "LEFT: waiting for the other members to forget this node");
  spdlog::info("DECOMMISSIONED");
}

void ClusterNode::Bootstrap(storage::Engine& engine) {
  using metadata::NodeState;
  const NodeState state = store_->directory()->Find(host_id_)->state;
  Barrier("JOINING: waiting for the other members to write to this node");
  if (state == NodeState::kJoining) {
    spdlog::info("JOINING: Starting to bootstrap...");
    try {
      RepairPaxos(cluster::streaming::StreamTasksFor(*views_->Get(), host_id_, *detector_));
      StreamRanges(engine, types::Uuid::NameBased("bootstrap " + host_id_.ToString()));
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string(e.what()) +
                               "; restart the node to resume the bootstrap");
    }
    SetOwnState(NodeState::kJoiningReadNew);
    Barrier("JOINING: waiting for the other members to read from this node");
  }
  SetOwnState(NodeState::kNormal);
  Barrier("JOINING: waiting for the other members to see this node NORMAL");
  spdlog::info("Bootstrap completed for tokens {}", fmt::join(node_info_.tokens, ", "));
}

void ClusterNode::RepairPaxos(const std::vector<cluster::streaming::StreamTask>& tasks) {
  std::set<std::tuple<types::Uuid, int64_t, int64_t>> done;
  for (const cluster::streaming::StreamTask& task : tasks) {
    if (!done.emplace(task.table_id, task.range.start, task.range.end).second) continue;
    std::promise<std::exception_ptr> finished;
    coordinator_->paxos().FinishUncommitted(
        task.table_id, task.range,
        [&finished](std::exception_ptr error) { finished.set_value(error); });
    if (std::exception_ptr error = finished.get_future().get()) {
      try {
        std::rethrow_exception(error);
      } catch (const std::exception& e) {
        throw std::runtime_error("Paxos repair of table " + task.table_id.ToString() +
                                 " failed: " + e.what());
      }
    }
  }
  spdlog::info("Paxos repaired {} ranges", done.size());
}

void ClusterNode::StreamRanges(storage::Engine& engine, const types::Uuid& plan_id) {
  std::vector<cluster::streaming::StreamTask> tasks =
      cluster::streaming::StreamTasksFor(*views_->Get(), host_id_, *detector_);
  auto done = std::make_shared<std::promise<std::exception_ptr>>();
  auto streamer = cluster::streaming::RangeStreamer::Start(
      services_, engine, {.plan_id = plan_id, .progress_dir = config_.data_dir() / "streams"},
      std::move(tasks), [done](std::exception_ptr error) { done->set_value(error); });
  if (std::exception_ptr error = done->get_future().get()) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      throw std::runtime_error(std::string("Some data streaming failed: ") + e.what());
    }
  }
  const auto& counters = streamer->counters();
  spdlog::info("JOINING: streamed {} slices ({} bytes; {} done before)",
               counters.slices_received.load(), counters.bytes_received.load(),
               counters.slices_skipped.load());
}

void ClusterNode::SetStateOf(const types::Uuid& node, metadata::NodeState state,
                             std::optional<metadata::NodeState> expected) {
  (void)store_->CommitDirectory(
      [&](const metadata::Directory& directory) -> std::optional<metadata::Directory> {
        const metadata::NodeRecord* record = directory.Find(node);
        if (record == nullptr) {
          throw std::runtime_error(node == host_id_ ? std::string("This node left the directory")
                                                    : "Node " + node.ToString() +
                                                          " left the directory meanwhile");
        }
        if (record->state == state) return std::nullopt;
        if (expected && record->state != *expected) {
          throw std::runtime_error("Node " + record->broadcast_address +
                                   " changed state meanwhile (it came back?)");
        }
        metadata::NodeRecord changed = *record;
        changed.state = state;
        return directory.With(std::move(changed));
      });
}

void ClusterNode::Barrier(const char* step) {
  const uint64_t epoch = store_->epoch();
  spdlog::info("{} (epoch {})", step, epoch);
  constexpr int kAttempts = 6;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    const std::vector<types::Uuid> missing =
        notifier_->NotifyAndWait(epoch, config_.request_timeout);
    if (missing.empty()) return;
    for (const types::Uuid& node : missing) {
      spdlog::warn("Node {} did not confirm metadata epoch {} ({} of {})", node.ToString(), epoch,
                   attempt, kAttempts);
    }
  }
  throw std::runtime_error("Could not collect epoch acknowledgements for epoch " +
                           std::to_string(epoch) + ": " + step);
}

void ClusterNode::AwaitSchemaAgreement(uint64_t epoch) {
  if (!notifier_) return;
  const std::vector<types::Uuid> missing = notifier_->NotifyAndWait(epoch, config_.request_timeout);
  for (const types::Uuid& node : missing) {
    spdlog::warn("Node {} did not confirm metadata epoch {} within {} ms; going on",
                 node.ToString(), epoch, config_.request_timeout.count());
  }
}

void ClusterNode::Stop() {
  if (stopped_) return;
  stopped_ = true;
  if (batchlog_) batchlog_->Stop();
  if (hint_dispatcher_) hint_dispatcher_->Stop();
  if (view_dispatcher_) view_dispatcher_->Stop();
  if (detector_) detector_->Stop();
  if (messaging_) messaging_->Stop();
  if (workers_) workers_->join();
  if (paxos_workers_) paxos_workers_->join();
  if (gate_) gate_->Stop();
  if (scheduler_) scheduler_->Stop();
  if (store_) store_->StopWatching();
}

}  // namespace sibyl::server
