// Delivery of the view outbox on a simulated cluster: a base replica's
// IndexingEngine keeps the view updates bound for another node in its
// outbox, and the dispatcher sends them to that node's engine, deleting
// each once acknowledged; a target that is down or silent keeps them for a
// later round, one that left the cluster loses them.

#include "cluster/views/view_update_dispatcher.h"

#include <gtest/gtest.h>

#include <memory>
#include <utility>
#include <vector>

#include "cluster/views/view_test_util.h"
#include "index/indexing_engine.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::cluster::testing {
namespace {

// Sends every view update to the same nodes.
class FixedRouter final : public index::ViewUpdateRouter {
 public:
  explicit FixedRouter(std::vector<types::Uuid> targets) : targets_(std::move(targets)) {}
  Targets Route(const std::string&, const storage::PartitionKey&,
                const storage::PartitionKey&) const override {
    return Targets{.local = false, .remote = targets_};
  }

 private:
  const std::vector<types::Uuid> targets_;
};

class ViewUpdateDispatcherTest : public ::testing::Test {
 protected:
  // Node 0's base data lives in `engine_` (an IndexingEngine of its own,
  // routing every view update to `targets`); the other nodes' engines know
  // the view table.
  void Prepare(std::vector<types::Uuid> targets, ViewUpdateDispatcher::Options options = {}) {
    tables_ = MakeViewTables(cluster_);
    AddViewToEveryNode(cluster_, tables_);
    engine_ = index::IndexingEngine::Wrap(std::make_unique<storage::ReferenceEngine>(),
                                          cluster_.node(0).clock);
    engine_->SetViewUpdateRouter(std::make_shared<FixedRouter>(std::move(targets)));
    engine_->SyncTables(LayoutsWithView(cluster_, tables_));
    SimulatedCluster::Node& node = cluster_.node(0);
    services_ = ClusterServices{.views = &node.views,
                                .messaging = node.messaging.get(),
                                .scheduler = &cluster_.scheduler(),
                                .liveness = &node.liveness};
    dispatcher_ = std::make_unique<ViewUpdateDispatcher>(services_, *engine_, options);
  }
  void TearDown() override {
    if (dispatcher_) dispatcher_->Stop();
    cluster_.scheduler().RunUntilIdle();
  }

  // Rows (k, 0, v = 100 + k) for k in [0, n).
  void WriteRows(int32_t n) {
    for (int32_t k = 0; k < n; ++k) {
      engine_->Apply(RowMutation(cluster_, k, 0, 100 + k, 1000 + k));
    }
  }
  void RunRound() {
    dispatcher_->RunOnce();
    cluster_.RunUntil([&] { return dispatcher_->deliveries_in_flight() == 0; });
  }
  bool NodeHasAllRows(int i, int32_t n) {
    for (int32_t k = 0; k < n; ++k) {
      if (!HasViewRow(cluster_, tables_, i, 100 + k, k, 0)) return false;
    }
    return true;
  }

  SimulatedCluster cluster_{Options(3, 51)};
  ViewTables tables_;
  std::unique_ptr<index::IndexingEngine> engine_;
  ClusterServices services_;
  std::unique_ptr<ViewUpdateDispatcher> dispatcher_;
};

TEST_F(ViewUpdateDispatcherTest, DeliversInPagesAndDeletesWhatWasAcknowledged) {
  const types::Uuid target = cluster_.node(2).id;
  Prepare({target}, {.max_in_flight = 4});
  WriteRows(30);
  EXPECT_EQ(engine_->ViewUpdateTargets(), std::vector<types::Uuid>{target});
  EXPECT_GE(engine_->pending_view_updates(), 30);
  EXPECT_FALSE(HasViewRow(cluster_, tables_, 2, 100, 0, 0));

  RunRound();
  EXPECT_EQ(engine_->pending_view_updates(), 0);
  EXPECT_TRUE(engine_->ViewUpdateTargets().empty());
  EXPECT_TRUE(NodeHasAllRows(2, 30));
  // Only the target got them.
  EXPECT_FALSE(HasViewRow(cluster_, tables_, 1, 100, 0, 0));

  // A changed base row: the old view row goes, the new one comes.
  engine_->Apply(RowMutation(cluster_, 0, 0, 500, 5000));
  RunRound();
  EXPECT_FALSE(HasViewRow(cluster_, tables_, 2, 100, 0, 0));
  EXPECT_TRUE(HasViewRow(cluster_, tables_, 2, 500, 0, 0));
}

TEST_F(ViewUpdateDispatcherTest, DownTargetKeepsItsUpdatesUntilItIsBack) {
  Prepare({cluster_.node(1).id, cluster_.node(2).id});
  cluster_.Kill(2);
  WriteRows(10);
  const int64_t pending = engine_->pending_view_updates();

  RunRound();
  // Node 1's are delivered; node 2's wait.
  EXPECT_TRUE(NodeHasAllRows(1, 10));
  EXPECT_EQ(engine_->pending_view_updates(), pending / 2);
  EXPECT_EQ(engine_->ViewUpdateTargets(), std::vector<types::Uuid>{cluster_.node(2).id});

  cluster_.Revive(2);
  RunRound();
  EXPECT_EQ(engine_->pending_view_updates(), 0);
  EXPECT_TRUE(NodeHasAllRows(2, 10));
}

// A target believed alive that does not answer keeps its updates; the next
// attempt waits retry_delay.
TEST_F(ViewUpdateDispatcherTest, UnansweredUpdatesAreSentAgainAfterTheRetryDelay) {
  Prepare({cluster_.node(2).id}, {.retry_delay = std::chrono::seconds(5)});
  cluster_.network().Partition(cluster_.node(0).address, cluster_.node(2).address);
  WriteRows(5);
  const int64_t pending = engine_->pending_view_updates();
  RunRound();  // each request times out
  EXPECT_EQ(engine_->pending_view_updates(), pending);

  cluster_.network().Heal();
  RunRound();  // too early: nothing is sent
  EXPECT_EQ(engine_->pending_view_updates(), pending);

  cluster_.scheduler().RunFor(std::chrono::seconds(5));
  RunRound();
  EXPECT_EQ(engine_->pending_view_updates(), 0);
  EXPECT_TRUE(NodeHasAllRows(2, 5));
}

TEST_F(ViewUpdateDispatcherTest, DepartedTargetsUpdatesAreDropped) {
  const types::Uuid departed = *types::Uuid::Parse("00000000-0000-4000-8000-0000000000ff");
  Prepare({departed});
  WriteRows(5);
  ASSERT_GT(engine_->pending_view_updates(), 0);
  RunRound();
  EXPECT_EQ(engine_->pending_view_updates(), 0);
  EXPECT_TRUE(engine_->ViewUpdateTargets().empty());
}

// Started, the dispatcher delivers within a few short periods without being
// asked.
TEST_F(ViewUpdateDispatcherTest, StartedDispatcherDeliversPromptly) {
  Prepare({cluster_.node(1).id});
  dispatcher_->Start();
  WriteRows(3);
  const auto start = cluster_.scheduler().Now();
  cluster_.RunUntil([&] { return engine_->pending_view_updates() == 0; });
  EXPECT_LE(cluster_.scheduler().Now() - start, std::chrono::milliseconds(500));
  EXPECT_TRUE(NodeHasAllRows(1, 3));
}

}  // namespace
}  // namespace sibyl::cluster::testing
