#pragma once
// N nodes of a cluster inside one test process, over a SimulatedNetwork on
// one SimulatedScheduler: deterministic from the seed (print it), with the
// network's faults (drop, delay, duplicate, reorder, partitions) and nodes
// taken down and brought back. Every node has its own reference engine,
// messaging service, view of the ring, liveness verdicts and hints
// directory, and a Coordinator joined to the cluster; the keyspace `ks`
// holds ks.t (k int, c int, v int, PRIMARY KEY (k, c)) and a counter
// table, ks.counts (k int PRIMARY KEY, n counter). With `views`, each
// node's engine is wrapped in an IndexingEngine routing view updates over
// the ring (views/ring_view_update_router.h) and delivering them with a
// ViewUpdateDispatcher.
//
//   SimulatedCluster cluster({.nodes = 3, .seed = seed});
//   auto error = cluster.Write(0, {mutation}, {.consistency = kQuorum});
//   auto [result, read_error] = cluster.Read(1, command, kQuorum);
//
// Test helper: header-only, single-threaded (the scheduler's thread).

#include <gtest/gtest.h>
#include <stdlib.h>

#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/batchlog/batch_store.h"
#include "cluster/batchlog/batchlog_manager.h"
#include "cluster/cluster_services.h"
#include "cluster/cluster_view.h"
#include "cluster/coordinator.h"
#include "cluster/hints/hint_dispatcher.h"
#include "cluster/hints/hint_store.h"
#include "cluster/liveness.h"
#include "cluster/streaming/stream_source.h"
#include "cluster/views/ring_view_update_router.h"
#include "cluster/views/view_update_dispatcher.h"
#include "common/clock.h"
#include "index/indexing_engine.h"
#include "locator/token_allocation.h"
#include "messaging/epoch_gate.h"
#include "messaging/messaging_service.h"
#include "messaging/simulated_network.h"
#include "messaging/simulated_scheduler.h"
#include "metadata/directory.h"
#include "protocol/request.h"
#include "schema/storage_layout.h"
#include "schema/system_keyspaces.h"
#include "schema/table_builder.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::cluster::testing {

// Consistency levels as the coordinator takes them.
inline constexpr uint16_t kOne = static_cast<uint16_t>(protocol::Consistency::kOne);
inline constexpr uint16_t kQuorum = static_cast<uint16_t>(protocol::Consistency::kQuorum);
inline constexpr uint16_t kAll = static_cast<uint16_t>(protocol::Consistency::kAll);

// Liveness a test decides.
class SettableLiveness final : public Liveness {
 public:
  bool IsAlive(const types::Uuid& node) const override { return down_.count(node) == 0; }
  std::chrono::milliseconds Downtime(const types::Uuid& node) const override {
    const auto it = down_.find(node);
    return it == down_.end() ? std::chrono::milliseconds(0) : it->second;
  }
  void SetDown(const types::Uuid& node, std::chrono::milliseconds downtime = {}) {
    down_[node] = downtime;
  }
  void SetUp(const types::Uuid& node) { down_.erase(node); }

 private:
  std::map<types::Uuid, std::chrono::milliseconds> down_;
};

// The engine a node's IndexingEngine wraps: its reference engine, which
// the test keeps reading directly.
class BorrowedEngine final : public storage::Engine {
 public:
  explicit BorrowedEngine(storage::Engine& engine) : engine_(engine) {}
  void SyncTables(const std::vector<storage::TableLayout>& tables) override {
    engine_.SyncTables(tables);
  }
  void Apply(const storage::Mutation& mutation) override { engine_.Apply(mutation); }
  void ApplyAll(const std::vector<const storage::Mutation*>& mutations) override {
    engine_.ApplyAll(mutations);
  }
  void ApplyAllSynced(const std::vector<const storage::Mutation*>& mutations) override {
    engine_.ApplyAllSynced(mutations);
  }
  storage::ReadResult Read(const storage::ReadCommand& command) const override {
    return engine_.Read(command);
  }
  std::vector<storage::Mutation> ReadUnfiltered(
      const storage::ReadCommand& command) const override {
    return engine_.ReadUnfiltered(command);
  }
  void Truncate(const types::Uuid& table_id) override { engine_.Truncate(table_id); }
  void Flush() override { engine_.Flush(); }
  void Flush(const types::Uuid& table_id) override { engine_.Flush(table_id); }
  void Compact(const types::Uuid& table_id) override { engine_.Compact(table_id); }

 private:
  storage::Engine& engine_;
};

// A node's ClusterViewHolder for what takes it shared (a view update
// router): the node owns it and outlives its users.
inline std::shared_ptr<const ClusterViewHolder> Unowned(const ClusterViewHolder& views) {
  return std::shared_ptr<const ClusterViewHolder>(std::shared_ptr<const ClusterViewHolder>(),
                                                  &views);
}

// Every node is always at the same epoch.
class FixedEpochGate final : public messaging::EpochGate {
 public:
  uint64_t LocalEpoch() const override { return 1; }
  void WhenCaughtUp(uint64_t, std::function<void(bool)> done) override { done(true); }
};

struct SimulatedClusterOptions {
  int nodes = 3;
  int num_tokens = 16;
  uint64_t seed = 1;
  messaging::LinkFaults faults;
  std::map<std::string, std::string> replication{
      {"class", "org.apache.cassandra.locator.SimpleStrategy"}, {"replication_factor", "3"}};
  RequestTimeouts timeouts;
  bool hinted_handoff = true;
  uint64_t hinted_handoff_throttle_bytes = 1024 * 1024;
  // Node i's datacenter and rack: datacenters[i % size] (empty:
  // "datacenter1"), racks[i % size] (empty: "rack1").
  std::vector<std::string> datacenters;
  std::vector<std::string> racks;
  // ks.t's read_repair option ('BLOCKING' or 'NONE').
  std::string read_repair = "BLOCKING";
  std::string speculative_retry = "99p";  // ks.t's option
  // Each node's writes go through an IndexingEngine (Node::indexing) over
  // its reference engine, with the ring's view update router and a
  // dispatcher (Node::view_dispatcher, not started).
  bool views = false;
  PaxosVariant paxos_variant = PaxosVariant::kV2;
  // Node i's state in the directory (JOINING: a pending replica of the
  // ranges its tokens will take; LEAVING: its ranges' next owners are
  // pending); absent: NORMAL.
  std::map<int, metadata::NodeState> states;
  // Each node's stream_throughput_outbound (Node::stream_source); 0: unthrottled.
  uint64_t stream_throughput_bytes = 0;
};

class SimulatedCluster {
 public:
  struct Node {
    types::Uuid id;
    messaging::PeerAddress address;
    ManualClock clock;
    storage::ReferenceEngine engine;
    // With options.views: wraps `engine`; every write path goes through it.
    std::unique_ptr<index::IndexingEngine> indexing;
    SettableLiveness liveness;
    FixedEpochGate gate;
    ClusterViewHolder views;
    std::unique_ptr<messaging::MessagingService> messaging;
    std::unique_ptr<HintStore> hints;
    std::unique_ptr<BatchStore> batches;
    std::unique_ptr<paxos::BallotGenerator> ballots;
    std::unique_ptr<Coordinator> coordinator;
    // Not started: a test runs its rounds (RunOnce) or starts it.
    std::unique_ptr<HintDispatcher> hint_dispatcher;         // when hints are on
    std::unique_ptr<BatchlogManager> batchlog;               // not started either
    std::unique_ptr<ViewUpdateDispatcher> view_dispatcher;   // with indexing; not started
    ClusterServices services;                                // what its coordinator works with
    std::unique_ptr<streaming::StreamSource> stream_source;  // answers STREAM_PULL
    // Where the node's writes and reads go.
    storage::Engine& store() {
      return indexing ? static_cast<storage::Engine&>(*indexing) : engine;
    }
  };

  explicit SimulatedCluster(SimulatedClusterOptions options)
      : options_(std::move(options)), network_(scheduler_, options_.seed, options_.faults) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "sibyl-simulated-XXXXXX").string();
    if (mkdtemp(pattern.data()) != nullptr) directory_ = pattern;
    schema_ = MakeSchema();
    BuildDirectory();
    for (int i = 0; i < options_.nodes; ++i) StartNode(i);
  }
  ~SimulatedCluster() {
    for (auto& node : nodes_) {
      if (node->hint_dispatcher) node->hint_dispatcher->Stop();
      if (node->view_dispatcher) node->view_dispatcher->Stop();
      node->batchlog->Stop();
    }
    for (auto& node : nodes_) node->messaging->Stop();
    scheduler_.RunUntilIdle();
    nodes_.clear();
    if (!directory_.empty()) std::filesystem::remove_all(directory_);
  }

  Node& node(int i) { return *nodes_.at(static_cast<size_t>(i)); }
  int size() const { return static_cast<int>(nodes_.size()); }
  messaging::SimulatedScheduler& scheduler() { return scheduler_; }
  messaging::SimulatedNetwork& network() { return network_; }
  const schema::Schema& schema() const { return *schema_; }
  const schema::TableMetadata& table() const { return *schema_->FindTable("ks", "t"); }
  const schema::TableMetadata& counter_table() const { return *schema_->FindTable("ks", "counts"); }
  const metadata::Directory& directory() const { return *directory_record_; }

  // The node is unreachable and every other node knows it is down.
  void Kill(int i, std::chrono::milliseconds downtime = std::chrono::seconds(1)) {
    network_.TakeDown(node(i).address);
    for (auto& other : nodes_) other->liveness.SetDown(node(i).id, downtime);
  }
  void Revive(int i) {
    network_.BringUp(node(i).address);
    for (auto& other : nodes_) other->liveness.SetUp(node(i).id);
  }

  // Runs a write from node `i` to its end (success: null).
  std::exception_ptr Write(int i, std::vector<storage::Mutation> mutations,
                           const WriteOptions& options) {
    std::optional<std::exception_ptr> outcome;
    node(i).coordinator->writes().Mutate(std::move(mutations), options,
                                         [&](std::exception_ptr error) { outcome = error; });
    RunUntil([&] { return outcome.has_value(); });
    return *outcome;
  }
  std::pair<storage::ReadResult, std::exception_ptr> Read(int i, storage::ReadCommand command,
                                                          uint16_t consistency) {
    std::optional<std::pair<storage::ReadResult, std::exception_ptr>> outcome;
    node(i).coordinator->reads().Read(std::move(command), consistency,
                                      [&](storage::ReadResult result, std::exception_ptr error) {
                                        outcome.emplace(std::move(result), error);
                                      });
    RunUntil([&] { return outcome.has_value(); });
    return std::move(*outcome);
  }

  // Runs the scheduler until `done` (a request's callback always comes,
  // through its timeout at worst); a test that waits longer than a minute of
  // virtual time fails.
  void RunUntil(const std::function<bool()>& done) {
    ASSERT_TRUE(scheduler_.RunUntil(done, scheduler_.Now() + std::chrono::minutes(1)))
        << "nothing happened within a minute of virtual time (seed " << options_.seed << ")";
  }

 private:
  static std::string Pick(const std::vector<std::string>& values, int i, const char* otherwise) {
    return values.empty() ? otherwise : values[static_cast<size_t>(i) % values.size()];
  }

  schema::SchemaPtr MakeSchema() const {
    schema::Schema::KeyspaceMap keyspaces = schema::MakeInitialSchema()->keyspaces();
    auto keyspace = std::make_shared<schema::KeyspaceMetadata>();
    keyspace->name = "ks";
    keyspace->replication = options_.replication;
    schema::TablePtr table = schema::TableBuilder("ks", "t")
                                 .PartitionKey("k", "int")
                                 .Clustering("c", "int")
                                 .Column("v", "int")
                                 .Build();
    auto with_options = std::make_shared<schema::TableMetadata>(*table);
    with_options->params.read_repair = options_.read_repair;
    with_options->params.speculative_retry = options_.speculative_retry;
    keyspace->tables.emplace("t", std::move(with_options));
    keyspace->tables.emplace("counts", schema::TableBuilder("ks", "counts")
                                           .SystemTableId()  // a fixed id, not t's
                                           .PartitionKey("k", "int")
                                           .Column("n", "counter")
                                           .Build());
    keyspaces["ks"] = keyspace;
    return std::make_shared<schema::Schema>(std::move(keyspaces));
  }

  void BuildDirectory() {
    metadata::Directory directory;
    for (int i = 0; i < options_.nodes; ++i) {
      std::map<locator::NodeId, std::vector<dht::Token>> tokens;
      for (const auto& [id, record] : directory.nodes()) tokens.emplace(id, record.tokens);
      metadata::NodeRecord record;
      std::string id =
          "00000000-0000-4000-8000-0000000000" + std::string(i < 10 ? "0" : "") + std::to_string(i);
      record.host_id = *types::Uuid::Parse(id);
      record.broadcast_address = "127.0.0." + std::to_string(i + 1);
      record.native_address = record.broadcast_address;
      record.datacenter = Pick(options_.datacenters, i, "datacenter1");
      record.rack = Pick(options_.racks, i, "rack1");
      record.tokens = locator::AllocateTokens(locator::TokenRing(tokens), options_.num_tokens,
                                              options_.seed + static_cast<uint64_t>(i));
      record.release_version = "4.1.7";
      if (const auto state = options_.states.find(i); state != options_.states.end()) {
        record.state = state->second;
      }
      directory = directory.With(record);
    }
    directory_record_ = std::make_shared<const metadata::Directory>(std::move(directory));
  }

  void StartNode(int i) {
    auto node = std::make_unique<Node>();
    const metadata::NodeRecord& record = std::next(directory_record_->nodes().begin(), i)->second;
    node->id = record.host_id;
    node->address = {record.broadcast_address, static_cast<uint16_t>(record.storage_port)};
    node->views.Set(ClusterView::Build(1, directory_record_, schema_, node->id));
    if (options_.views) {
      node->indexing =
          index::IndexingEngine::Wrap(std::make_unique<BorrowedEngine>(node->engine), node->clock);
      node->indexing->SetViewUpdateRouter(
          std::make_shared<RingViewUpdateRouter>(Unowned(node->views)));
    }
    storage::Engine& store = node->store();
    store.SyncTables(schema::StoredTableLayouts(*schema_));
    messaging::Transport& transport = network_.AddNode(node->address);
    node->messaging = std::make_unique<messaging::MessagingService>(
        transport, scheduler_, node->gate, messaging::MessagingOptions{.host_id = node->id});
    if (options_.hinted_handoff && !directory_.empty()) {
      node->hints = std::make_unique<HintStore>(
          HintStore::Options{.directory = directory_ / ("hints" + std::to_string(i))});
    }
    node->batches = std::make_unique<BatchStore>(directory_ / ("batches" + std::to_string(i)));
    BatchlogManager::RegisterReplicaHandlers(*node->messaging, *node->batches);
    WriteCoordinator::RegisterReplicaHandlers(*node->messaging, store);
    ReadCoordinator::RegisterReplicaHandlers(*node->messaging, store);
    node->coordinator = std::make_unique<Coordinator>(store, node->clock);
    const ClusterServices services{
        .views = &node->views,
        .messaging = node->messaging.get(),
        .scheduler = &scheduler_,
        .liveness = &node->liveness,
        .hints = node->hints.get(),
        .batches = node->batches.get(),
        .hinted_handoff_throttle_bytes = options_.hinted_handoff_throttle_bytes,
        .timeouts = options_.timeouts,
        .blocking = {},
        .paxos_variant = options_.paxos_variant};
    node->services = services;
    node->stream_source = std::make_unique<streaming::StreamSource>(
        services, store, node->clock, options_.stream_throughput_bytes);
    node->stream_source->RegisterHandler();
    node->ballots = std::make_unique<paxos::BallotGenerator>(
        node->clock, paxos::BallotNodeBits(node->id), directory_ / ("ballots" + std::to_string(i)));
    node->coordinator->JoinCluster(services, *node->ballots);
    if (node->hints) {
      node->hint_dispatcher = std::make_unique<HintDispatcher>(services, HintDispatcher::Options{});
    }
    node->batchlog =
        std::make_unique<BatchlogManager>(services, *node->batches, node->coordinator->writes(),
                                          node->clock, BatchlogManager::Options{});
    if (node->indexing) {
      node->view_dispatcher = std::make_unique<ViewUpdateDispatcher>(
          services, *node->indexing, ViewUpdateDispatcher::Options{});
    }
    node->messaging->Start();
    nodes_.push_back(std::move(node));
  }

  SimulatedClusterOptions options_;
  messaging::SimulatedScheduler scheduler_;
  messaging::SimulatedNetwork network_;
  std::filesystem::path directory_;
  schema::SchemaPtr schema_;
  metadata::DirectoryPtr directory_record_;
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace sibyl::cluster::testing
