#include "cluster/membership/failure_detector.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "messaging/epoch_gate.h"
#include "messaging/simulated_network.h"
#include "messaging/simulated_scheduler.h"
#include "schema/system_keyspaces.h"

namespace sibyl::cluster {
namespace {

using std::chrono::seconds;

class OneEpochGate final : public messaging::EpochGate {
 public:
  uint64_t LocalEpoch() const override { return 1; }
  void WhenCaughtUp(uint64_t, std::function<void(bool)> done) override { done(true); }
};

// Three nodes exchanging heartbeats over a simulated network (seed fixed:
// the network adds no faults here, partitions are explicit).
class FailureDetectorTest : public ::testing::Test {
 protected:
  struct Node {
    types::Uuid id;
    messaging::PeerAddress address;
    OneEpochGate gate;
    ClusterViewHolder views;
    std::unique_ptr<messaging::MessagingService> messaging;
    std::unique_ptr<FailureDetector> detector;
    std::vector<std::pair<types::Uuid, bool>> events;
    // What its heartbeats say of its disk, and what it heard of the others'.
    std::atomic<guardrails::DiskUsageState> disk_usage{guardrails::DiskUsageState::kSpacious};
    DiskUsageStates disk_usage_states;
  };

  FailureDetectorTest() : network_(scheduler_, 7) {
    metadata::Directory directory;
    for (int i = 0; i < 3; ++i) {
      metadata::NodeRecord record;
      record.host_id =
          *types::Uuid::Parse("00000000-0000-4000-8000-00000000000" + std::to_string(i));
      record.broadcast_address = "127.0.0." + std::to_string(i + 1);
      record.native_address = record.broadcast_address;
      record.datacenter = "datacenter1";
      record.rack = "rack1";
      record.tokens = {dht::Token{static_cast<int64_t>(i) * 1000}};
      directory = directory.With(record);
    }
    auto shared = std::make_shared<const metadata::Directory>(directory);
    const schema::SchemaPtr schema = schema::MakeInitialSchema();
    for (const auto& [id, record] : shared->nodes()) {
      auto node = std::make_unique<Node>();
      node->id = id;
      node->address = {record.broadcast_address, 7000};
      node->views.Set(ClusterView::Build(1, shared, schema, id));
      Node* raw = node.get();
      node->messaging = std::make_unique<messaging::MessagingService>(
          network_.AddNode(node->address), scheduler_, node->gate,
          messaging::MessagingOptions{.host_id = id});
      node->detector = std::make_unique<FailureDetector>(
          *node->messaging, scheduler_, node->views,
          [raw] {
            return LocalHeartbeatState{.epoch = 1,
                                       .schema_version = {},
                                       .load_bytes = 4096,
                                       .disk_usage = raw->disk_usage.load()};
          },
          FailureDetectorOptions{.generation = 100});
      node->detector->RegisterHandler();
      node->detector->SetDiskUsageStates(&node->disk_usage_states);
      node->detector->AddListener(
          [raw](const types::Uuid& peer, bool alive) { raw->events.emplace_back(peer, alive); });
      node->messaging->Start();
      nodes_.push_back(std::move(node));
    }
    for (auto& node : nodes_) node->detector->Start();
  }

  ~FailureDetectorTest() override {
    for (auto& node : nodes_) node->detector->Stop();
    for (auto& node : nodes_) node->messaging->Stop();
    scheduler_.RunUntilIdle();
  }

  messaging::SimulatedScheduler scheduler_;
  messaging::SimulatedNetwork network_;
  std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(FailureDetectorTest, HeartbeatsKeepEveryoneUp) {
  scheduler_.RunFor(seconds(30));
  for (auto& node : nodes_) {
    EXPECT_TRUE(node->events.empty());
    for (auto& other : nodes_) {
      EXPECT_TRUE(node->detector->IsAlive(other->id));
      EXPECT_EQ(node->detector->Downtime(other->id).count(), 0);
    }
  }
  const auto heartbeat = nodes_[0]->detector->LastHeartbeat(nodes_[1]->id);
  ASSERT_TRUE(heartbeat.has_value());
  EXPECT_EQ(heartbeat->generation, 100);
  EXPECT_GE(heartbeat->counter, 29u);
  EXPECT_EQ(heartbeat->epoch, 1u);
  EXPECT_EQ(heartbeat->load_bytes, 4096);
}

TEST_F(FailureDetectorTest, IsolatedNodeGoesDownWithinTheTimeoutAndComesBack) {
  scheduler_.RunFor(seconds(3));
  network_.Split({{nodes_[0]->address, nodes_[1]->address}, {nodes_[2]->address}});
  scheduler_.RunFor(seconds(4));
  EXPECT_TRUE(nodes_[0]->detector->IsAlive(nodes_[2]->id));  // 4 s of silence: not yet
  scheduler_.RunFor(seconds(3));                             // 7 s: past 5 s + one round
  EXPECT_FALSE(nodes_[0]->detector->IsAlive(nodes_[2]->id));
  EXPECT_FALSE(nodes_[1]->detector->IsAlive(nodes_[2]->id));
  EXPECT_FALSE(nodes_[2]->detector->IsAlive(nodes_[0]->id));
  EXPECT_TRUE(nodes_[0]->detector->IsAlive(nodes_[1]->id));
  EXPECT_GT(nodes_[0]->detector->Downtime(nodes_[2]->id).count(), 0);
  ASSERT_EQ(nodes_[0]->events.size(), 1u);
  EXPECT_EQ(nodes_[0]->events[0], std::make_pair(nodes_[2]->id, false));

  network_.Heal();
  scheduler_.RunFor(seconds(2));
  EXPECT_TRUE(nodes_[0]->detector->IsAlive(nodes_[2]->id));
  EXPECT_EQ(nodes_[0]->detector->Downtime(nodes_[2]->id).count(), 0);
  ASSERT_EQ(nodes_[0]->events.size(), 2u);
  EXPECT_EQ(nodes_[0]->events[1], std::make_pair(nodes_[2]->id, true));
}

TEST_F(FailureDetectorTest, ConfirmedEpochUpdatesTheReportedSchemaVersion) {
  scheduler_.RunFor(seconds(2));
  FailureDetector& detector = *nodes_[0]->detector;
  const types::Uuid peer = nodes_[1]->id;
  const types::Uuid agreed = types::Uuid::NameBased("agreed");
  detector.NoteEpoch(peer, 5, agreed);
  EXPECT_EQ(detector.LastHeartbeat(peer)->schema_version, agreed);
  EXPECT_EQ(detector.LastHeartbeat(peer)->epoch, 5u);
  detector.NoteEpoch(peer, 4, types::Uuid::NameBased("older"));  // behind what we know: ignored
  EXPECT_EQ(detector.LastHeartbeat(peer)->schema_version, agreed);
  detector.NoteEpoch(types::Uuid::NameBased("stranger"), 9, agreed);  // not a member: ignored
  EXPECT_FALSE(detector.LastHeartbeat(types::Uuid::NameBased("stranger")).has_value());
  // Later heartbeats still report epoch 1: they keep the confirmed version.
  scheduler_.RunFor(seconds(2));
  EXPECT_EQ(detector.LastHeartbeat(peer)->schema_version, agreed);
  EXPECT_GE(detector.LastHeartbeat(peer)->counter, 4u);
}

TEST(HeartbeatCodecTest, RoundTripsAndRejectsBadSizes) {
  using guardrails::DiskUsageState;
  for (bool ready : {false, true}) {
    for (DiskUsageState disk : {DiskUsageState::kNotAvailable, DiskUsageState::kSpacious,
                                DiskUsageState::kStuffed, DiskUsageState::kFull}) {
      const Heartbeat heartbeat{1764000000, 42,    7,   types::Uuid::NameBased("schema"),
                                123456789,  ready, disk};
      const Bytes encoded = EncodeHeartbeat(heartbeat);
      EXPECT_EQ(DecodeHeartbeat(encoded), heartbeat);
      EXPECT_FALSE(DecodeHeartbeat(encoded.substr(1)).has_value());
      EXPECT_FALSE(DecodeHeartbeat(encoded + "x").has_value());
    }
  }
  // The flags byte of a node that knows nothing of disk usage: bit 0 only.
  Heartbeat ready;
  ready.native_transport_ready = true;
  Bytes older = EncodeHeartbeat(ready);
  older.back() = 1;
  EXPECT_EQ(DecodeHeartbeat(older)->disk_usage, DiskUsageState::kNotAvailable);
  EXPECT_TRUE(DecodeHeartbeat(older)->native_transport_ready);
  const Heartbeat unmeasured{1764000000, 43, 7, types::Uuid::NameBased("schema"), -1};
  EXPECT_EQ(DecodeHeartbeat(EncodeHeartbeat(unmeasured))->load_bytes, -1);
}

// replica_disk_usage: each node learns the others' disk usage states from
// their heartbeats, and forgets them only when they leave.
TEST_F(FailureDetectorTest, HeartbeatsCarryDiskUsageStates) {
  using guardrails::DiskUsageState;
  scheduler_.RunFor(seconds(2));
  const DiskUsageStates& observer = nodes_[0]->disk_usage_states;
  EXPECT_EQ(observer.PeerState(nodes_[1]->id), DiskUsageState::kSpacious);
  EXPECT_FALSE(observer.AnyStuffedOrFull());

  nodes_[1]->disk_usage = DiskUsageState::kFull;
  nodes_[2]->disk_usage = DiskUsageState::kStuffed;
  scheduler_.RunFor(seconds(2));
  EXPECT_EQ(observer.PeerState(nodes_[1]->id), DiskUsageState::kFull);
  EXPECT_EQ(observer.PeerState(nodes_[2]->id), DiskUsageState::kStuffed);
  EXPECT_TRUE(observer.AnyStuffedOrFull());
  EXPECT_EQ(nodes_[2]->disk_usage_states.PeerState(nodes_[1]->id), DiskUsageState::kFull);

  // A node that goes down keeps the state it last told.
  network_.Split({{nodes_[0]->address, nodes_[2]->address}, {nodes_[1]->address}});
  nodes_[1]->disk_usage = DiskUsageState::kSpacious;
  nodes_[2]->disk_usage = DiskUsageState::kSpacious;
  scheduler_.RunFor(seconds(8));
  EXPECT_FALSE(nodes_[0]->detector->IsAlive(nodes_[1]->id));
  EXPECT_EQ(observer.PeerState(nodes_[1]->id), DiskUsageState::kFull);
  EXPECT_EQ(observer.PeerState(nodes_[2]->id), DiskUsageState::kSpacious);
  EXPECT_TRUE(observer.AnyStuffedOrFull());
  network_.Heal();
  scheduler_.RunFor(seconds(2));
  EXPECT_EQ(observer.PeerState(nodes_[1]->id), DiskUsageState::kSpacious);
  EXPECT_FALSE(observer.AnyStuffedOrFull());
}

// UP and NEW_NODE wait for a node to serve CQL: the others learn it from
// its heartbeats, once per start.
TEST_F(FailureDetectorTest, ReadyListenersHearOnceAMemberServesCql) {
  std::vector<types::Uuid> ready;
  FailureDetector& observer = *nodes_[0]->detector;
  // Listeners are added before Start in production; the simulated
  // scheduler has run nothing yet here.
  observer.AddReadyListener([&](const types::Uuid& node) { ready.push_back(node); });
  scheduler_.RunFor(seconds(3));
  EXPECT_TRUE(ready.empty());
  EXPECT_FALSE(observer.IsNativeTransportReady(nodes_[1]->id));
  nodes_[1]->detector->SetNativeTransportReady(true);
  scheduler_.RunFor(seconds(3));
  EXPECT_EQ(ready, std::vector<types::Uuid>{nodes_[1]->id});
  EXPECT_TRUE(observer.IsNativeTransportReady(nodes_[1]->id));
  EXPECT_FALSE(observer.IsNativeTransportReady(nodes_[2]->id));
}

}  // namespace
}  // namespace sibyl::cluster
