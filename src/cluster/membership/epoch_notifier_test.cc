#include "cluster/membership/epoch_notifier.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "messaging/asio_scheduler.h"
#include "messaging/tcp_transport.h"
#include "schema/system_keyspaces.h"

namespace sibyl::cluster {
namespace {

using std::chrono::milliseconds;

// A metadata epoch that reaches what it is asked for, unless it cannot.
class TestGate final : public messaging::EpochGate {
 public:
  uint64_t LocalEpoch() const override { return epoch.load(); }
  void WhenCaughtUp(uint64_t wanted, std::function<void(bool)> done) override {
    if (can_catch_up && epoch.load() < wanted) epoch = wanted;
    done(epoch.load() >= wanted);
  }
  std::atomic<uint64_t> epoch{1};
  std::atomic<bool> can_catch_up{true};
};

// Everyone alive until a test convicts a member.
class TestLiveness final : public Liveness {
 public:
  bool IsAlive(const types::Uuid& node) const override {
    std::lock_guard lock(mutex_);
    return !dead_.count(node);
  }
  std::chrono::milliseconds Downtime(const types::Uuid&) const override { return {}; }
  void Convict(const types::Uuid& node) {
    std::lock_guard lock(mutex_);
    dead_.insert(node);
  }

 private:
  mutable std::mutex mutex_;
  std::set<types::Uuid> dead_;  // GUARDED_BY(mutex_)
};

// A node on loopback TCP (NotifyAndWait blocks its caller, so the network
// must run on threads of its own).
struct Node {
  explicit Node(types::Uuid node_id)
      : id(node_id),
        transport(messaging::TcpTransportOptions{.listen = {"127.0.0.1", 0}}),
        scheduler(1),
        messaging(transport, scheduler, gate, messaging::MessagingOptions{.host_id = id}),
        notifier(
            messaging, gate, views, liveness, [this] { return version; },
            [this](const types::Uuid& node, uint64_t epoch, const types::Uuid& reported) {
              acks.emplace_back(node, epoch);
              reported_versions[node] = reported;
            }) {
    notifier.RegisterHandler();
    messaging.Start();
  }
  ~Node() {
    messaging.Stop();
    scheduler.Stop();
  }

  types::Uuid id;
  types::Uuid version = types::Uuid::NameBased("v");
  TestGate gate;
  TestLiveness liveness;
  ClusterViewHolder views;
  messaging::TcpTransport transport;
  messaging::AsioScheduler scheduler;
  messaging::MessagingService messaging;
  EpochNotifier notifier;
  std::vector<std::pair<types::Uuid, uint64_t>> acks;  // written by the notifier's thread
  std::map<types::Uuid, types::Uuid> reported_versions;
};

class EpochNotifierTest : public ::testing::Test {
 protected:
  EpochNotifierTest() {
    for (int i = 0; i < 3; ++i) {
      nodes_.push_back(std::make_unique<Node>(types::Uuid::NameBased("node" + std::to_string(i))));
    }
    metadata::Directory directory;
    int64_t token = 0;
    for (const auto& node : nodes_) {
      metadata::NodeRecord record;
      record.host_id = node->id;
      record.broadcast_address = "127.0.0.1";
      record.storage_port = node->messaging.local_address().port;
      record.datacenter = "datacenter1";
      record.rack = "rack1";
      record.tokens = {token += 1000};
      directory = directory.With(record);
    }
    auto shared = std::make_shared<const metadata::Directory>(directory);
    for (const auto& node : nodes_) {
      node->views.Set(ClusterView::Build(1, shared, schema::MakeInitialSchema(), node->id));
    }
  }

  std::vector<std::unique_ptr<Node>> nodes_;
};

TEST_F(EpochNotifierTest, EveryLiveMemberCatchesUpAndConfirms) {
  nodes_[1]->version = types::Uuid::NameBased("v5");
  const auto missing = nodes_[0]->notifier.NotifyAndWait(5, milliseconds(10000));
  EXPECT_TRUE(missing.empty());
  EXPECT_EQ(nodes_[1]->gate.LocalEpoch(), 5u);
  EXPECT_EQ(nodes_[2]->gate.LocalEpoch(), 5u);
  EXPECT_EQ(nodes_[0]->acks.size(), 2u);
  EXPECT_EQ(nodes_[0]->reported_versions[nodes_[1]->id], types::Uuid::NameBased("v5"));
  EXPECT_EQ(nodes_[0]->reported_versions[nodes_[2]->id], types::Uuid::NameBased("v"));
}

TEST_F(EpochNotifierTest, AMemberThatCannotCatchUpIsNamedAfterTheTimeout) {
  nodes_[2]->gate.can_catch_up = false;
  const auto missing = nodes_[0]->notifier.NotifyAndWait(5, milliseconds(300));
  ASSERT_EQ(missing.size(), 1u);
  EXPECT_EQ(missing[0], nodes_[2]->id);
  EXPECT_EQ(nodes_[1]->gate.LocalEpoch(), 5u);
}

// A member that dies during the wait (the failure detector convicts it)
// ends the wait at once instead of at the timeout.
TEST_F(EpochNotifierTest, AMemberConvictedWhileWaitedForIsNoLongerAwaited) {
  nodes_[2]->gate.can_catch_up = false;
  std::thread convict([&] {
    std::this_thread::sleep_for(milliseconds(200));
    nodes_[0]->liveness.Convict(nodes_[2]->id);
  });
  const auto start = std::chrono::steady_clock::now();
  const auto missing = nodes_[0]->notifier.NotifyAndWait(5, milliseconds(20000));
  const auto waited = std::chrono::steady_clock::now() - start;
  convict.join();
  EXPECT_TRUE(missing.empty());
  // Not the 20 s timeout (a generous bound: this asserts the mechanism,
  // not a speed).
  EXPECT_LT(waited, std::chrono::seconds(15));
}

}  // namespace
}  // namespace sibyl::cluster
