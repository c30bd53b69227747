#include "messaging/messaging_service.h"

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <optional>
#include <random>

#include "common/check.h"
#include "messaging/messaging_test_util.h"
#include "messaging/simulated_network.h"

namespace sibyl::messaging {
namespace {

using std::chrono::milliseconds;
using Status = Reply::Status;

constexpr Duration kTimeout = milliseconds(100);

// N nodes, each a MessagingService on the simulated network, all on one
// thread in virtual time.
class Cluster {
 public:
  explicit Cluster(size_t nodes, uint64_t seed = 1, LinkFaults faults = {})
      : network_(scheduler_, seed, faults) {
    for (size_t i = 0; i < nodes; ++i) {
      auto node = std::make_unique<Node>();
      node->address = PeerAddress{"10.0.0." + std::to_string(i + 1), 7000};
      node->service = std::make_unique<MessagingService>(
          network_.AddNode(node->address), scheduler_, node->gate,
          MessagingOptions{.host_id = types::Uuid::NameBased(node->address.ToString())});
      nodes_.push_back(std::move(node));
    }
  }
  ~Cluster() {
    for (auto& node : nodes_) node->service->Stop();
  }

  struct Node {
    PeerAddress address;
    FakeEpochGate gate;
    std::unique_ptr<MessagingService> service;
  };
  Node& operator[](size_t i) { return *nodes_[i]; }
  MessagingService& service(size_t i) { return *nodes_[i]->service; }
  const PeerAddress& address(size_t i) const { return nodes_[i]->address; }
  void StartAll() {
    for (auto& node : nodes_) node->service->Start();
  }
  // Every node echoes READ payloads prefixed with its address.
  void EchoReads() {
    for (auto& node : nodes_) {
      node->service->RegisterHandler(
          Verb::kRead, [address = node->address](const Message& message, Responder responder) {
            responder.Reply(address.ToString() + ":" + message.payload);
          });
    }
  }

  SimulatedScheduler scheduler_;
  SimulatedNetwork network_;

 private:
  std::vector<std::unique_ptr<Node>> nodes_;
};

// Collects the replies of one request, to check "exactly once".
struct Replies {
  std::vector<Reply> got;
  ReplyCallback Callback() {
    return [this](Reply reply) { got.push_back(std::move(reply)); };
  }
};

TEST(MessagingServiceTest, RequestAndReply) {
  Cluster cluster(2);
  cluster.EchoReads();
  cluster.StartAll();
  Replies replies;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "key", kTimeout,
                                 replies.Callback());
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].status, Status::kSuccess);
  EXPECT_EQ(replies.got[0].payload, "10.0.0.2:7000:key");
  EXPECT_EQ(replies.got[0].epoch, 1u);
  EXPECT_EQ(cluster.service(0).counters().replies_delivered, 1u);
  EXPECT_EQ(cluster.service(0).PeerTraffic().at(cluster.address(1)).messages_sent, 1u);
}

TEST(MessagingServiceTest, TheSenderIsKnownToTheHandler) {
  Cluster cluster(2);
  std::optional<Message> seen;
  std::optional<PeerAddress> peer;
  cluster.service(1).RegisterHandler(Verb::kMutation, [&](const Message& m, Responder r) {
    seen = m;
    peer = r.peer();
    r.Reply("");
  });
  cluster.StartAll();
  cluster[0].gate.Advance(1);
  cluster.service(0).SendRequest(cluster.address(1), Verb::kMutation, "m", kTimeout, [](Reply) {});
  cluster.scheduler_.RunUntilIdle();
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->sender, types::Uuid::NameBased("10.0.0.1:7000"));
  EXPECT_EQ(seen->kind, MessageKind::kRequest);
  EXPECT_EQ(*peer, cluster.address(0));
}

TEST(MessagingServiceTest, FailureRepliesCarryTheirReason) {
  Cluster cluster(2);
  cluster.service(1).RegisterHandler(Verb::kRead, [](const Message&, Responder responder) {
    responder.Fail(FailureReason::kReadTooManyTombstones, "100001 tombstones");
  });
  cluster.StartAll();
  Replies replies;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, replies.Callback());
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].status, Status::kFailure);
  EXPECT_EQ(replies.got[0].reason, FailureReason::kReadTooManyTombstones);
  EXPECT_EQ(replies.got[0].payload, "100001 tombstones");
}

TEST(MessagingServiceTest, DeferredRepliesFromALaterTask) {
  Cluster cluster(2);
  std::optional<Responder> parked;
  cluster.service(1).RegisterHandler(Verb::kRead, [&](const Message&, Responder responder) {
    parked.emplace(std::move(responder));
  });
  cluster.StartAll();
  Replies replies;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, replies.Callback());
  cluster.scheduler_.RunFor(milliseconds(10));
  ASSERT_TRUE(parked.has_value());
  EXPECT_TRUE(replies.got.empty());
  parked->Reply("later");
  EXPECT_FALSE(parked->expects_reply());
  EXPECT_THROW(parked->Reply("twice"), InternalError);
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].payload, "later");
}

TEST(MessagingServiceTest, UnansweredAndThrowingHandlersFailWithUnknown) {
  Cluster cluster(2);
  cluster.service(1).RegisterHandler(Verb::kRead, [](const Message&, Responder) {});
  cluster.service(1).RegisterHandler(
      Verb::kMutation, [](const Message&, Responder) { throw std::runtime_error("disk on fire"); });
  cluster.StartAll();
  Replies forgot, threw, unknown;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, forgot.Callback());
  cluster.service(0).SendRequest(cluster.address(1), Verb::kMutation, "", kTimeout,
                                 threw.Callback());
  cluster.service(0).SendRequest(cluster.address(1), Verb::kTruncate, "", kTimeout,
                                 unknown.Callback());
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(forgot.got.size(), 1u);
  EXPECT_EQ(forgot.got[0].reason, FailureReason::kUnknown);
  ASSERT_EQ(threw.got.size(), 1u);
  EXPECT_EQ(threw.got[0].status, Status::kFailure);
  EXPECT_EQ(threw.got[0].reason, FailureReason::kUnknown);
  ASSERT_EQ(unknown.got.size(), 1u);
  EXPECT_EQ(unknown.got[0].reason, FailureReason::kUnknownVerb);
}

TEST(MessagingServiceTest, OneWayMessagesGetNoReply) {
  Cluster cluster(2);
  int handled = 0;
  cluster.service(1).RegisterHandler(Verb::kHeartbeat, [&](const Message& m, Responder r) {
    EXPECT_EQ(m.kind, MessageKind::kOneWay);
    EXPECT_FALSE(r.expects_reply());
    ++handled;
  });
  cluster.StartAll();
  cluster.service(0).SendOneWay(cluster.address(1), Verb::kHeartbeat, "");
  cluster.scheduler_.RunUntilIdle();
  EXPECT_EQ(handled, 1);
  // Nothing went back.
  EXPECT_EQ(cluster.service(1).PeerTraffic().count(cluster.address(0)) == 0 ||
                cluster.service(1).PeerTraffic().at(cluster.address(0)).messages_sent == 0,
            true);
}

TEST(MessagingServiceTest, NoAnswerTimesOutAndALateReplyIsIgnored) {
  Cluster cluster(2, 1, {.min_delay = milliseconds(80), .max_delay = milliseconds(80)});
  cluster.EchoReads();
  cluster.StartAll();
  Replies replies;
  const TimePoint start = cluster.scheduler_.Now();
  // The reply needs 160 ms: 60 ms after the timeout.
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, replies.Callback());
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].status, Status::kTimeout);
  EXPECT_EQ(cluster.scheduler_.Now(), start + milliseconds(160));  // the late reply did arrive
  EXPECT_EQ(cluster.service(0).counters().timeouts, 1u);
  EXPECT_EQ(cluster.service(0).counters().unmatched_replies, 1u);
}

TEST(MessagingServiceTest, DuplicatedRepliesCallBackOnce) {
  Cluster cluster(2, 1, {.duplicate_probability = 1.0});
  int handled = 0;
  cluster.service(1).RegisterHandler(Verb::kRead, [&](const Message&, Responder r) {
    ++handled;
    r.Reply("once");
  });
  cluster.StartAll();
  Replies replies;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, replies.Callback());
  cluster.scheduler_.RunUntilIdle();
  EXPECT_EQ(handled, 2);  // the request was duplicated too: replicas must be idempotent
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].payload, "once");
  EXPECT_EQ(cluster.service(0).counters().unmatched_replies, 3u);  // 2 × 2 replies, 1 used
}

TEST(MessagingServiceTest, ReorderedRepliesReachTheirOwnRequests) {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  SCOPED_TRACE("seed " + std::to_string(seed));
  Cluster cluster(3, seed, {.min_delay = milliseconds(1), .max_delay = milliseconds(40)});
  cluster.EchoReads();
  cluster.StartAll();
  std::vector<Replies> replies(200);
  for (size_t i = 0; i < replies.size(); ++i) {
    cluster.service(0).SendRequest(cluster.address(1 + i % 2), Verb::kRead, std::to_string(i),
                                   kTimeout, replies[i].Callback());
  }
  cluster.scheduler_.RunUntilIdle();
  for (size_t i = 0; i < replies.size(); ++i) {
    ASSERT_EQ(replies[i].got.size(), 1u);
    EXPECT_EQ(replies[i].got[0].payload,
              cluster.address(1 + i % 2).ToString() + ":" + std::to_string(i));
  }
}

// What a coordinator does: ask three replicas, succeed at two answers, with
// one replica partitioned away, and no thread waiting.
TEST(MessagingServiceTest, QuorumOfThreeWithOnePartitioned) {
  Cluster cluster(4);
  cluster.EchoReads();
  cluster.StartAll();
  cluster.network_.Partition(cluster.address(0), cluster.address(3));
  int successes = 0, timeouts = 0;
  std::optional<TimePoint> quorum_at;
  for (size_t replica = 1; replica <= 3; ++replica) {
    cluster.service(0).SendRequest(cluster.address(replica), Verb::kRead, "k", kTimeout,
                                   [&](Reply reply) {
                                     if (reply.ok() && ++successes == 2) {
                                       quorum_at = cluster.scheduler_.Now();
                                     }
                                     if (reply.status == Status::kTimeout) ++timeouts;
                                   });
  }
  const TimePoint start = cluster.scheduler_.Now();
  EXPECT_TRUE(cluster.scheduler_.RunUntil([&] { return quorum_at.has_value(); },
                                          start + milliseconds(1000)));
  EXPECT_EQ(*quorum_at, start + milliseconds(2));  // one round trip, not the timeout
  cluster.scheduler_.RunUntilIdle();
  EXPECT_EQ(timeouts, 1);
}

TEST(MessagingServiceTest, APeerGoingDownCompletesItsRequestsAsUnreachable) {
  Cluster cluster(2, 1, {.min_delay = milliseconds(10), .max_delay = milliseconds(10)});
  cluster.EchoReads();
  cluster.StartAll();
  Replies replies;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, replies.Callback());
  cluster.network_.TakeDown(cluster.address(1));
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].status, Status::kUnreachable);
  EXPECT_EQ(cluster.service(0).counters().timeouts, 0u);
}

TEST(MessagingServiceTest, StopCompletesPendingRequestsAndLaterOnes) {
  Cluster cluster(2, 1, {.min_delay = milliseconds(10), .max_delay = milliseconds(10)});
  cluster.EchoReads();
  cluster.StartAll();
  Replies before, after;
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, before.Callback());
  cluster.service(0).Stop();
  ASSERT_EQ(before.got.size(), 1u);
  EXPECT_EQ(before.got[0].status, Status::kUnreachable);
  cluster.service(0).SendRequest(cluster.address(1), Verb::kRead, "", kTimeout, after.Callback());
  EXPECT_TRUE(after.got.empty());  // never inside the call
  cluster.scheduler_.RunUntilIdle();
  ASSERT_EQ(after.got.size(), 1u);
  EXPECT_EQ(after.got[0].status, Status::kUnreachable);
  EXPECT_EQ(before.got.size(), 1u);  // the timer and the reply found nothing
}

class EpochTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (size_t i = 0; i < 2; ++i) {
      cluster_.service(i).RegisterHandler(Verb::kMutation, [this](const Message& m, Responder r) {
        handled_.push_back(m.payload);
        r.Reply("applied");
      });
      cluster_.service(i).RegisterHandler(Verb::kHeartbeat, [this](const Message& m, Responder) {
        heartbeats_.push_back(m.epoch);
      });
      for (const Verb verb : {Verb::kPaxosPrepare, Verb::kPaxosPropose, Verb::kPaxosCommit,
                              Verb::kPaxosUncommitted, Verb::kPaxosPrepareAndRead}) {
        cluster_.service(i).RegisterHandler(verb, [this](const Message& m, Responder r) {
          handled_.push_back(m.payload);
          r.Reply("");
        });
      }
    }
    cluster_.StartAll();
  }
  Cluster cluster_{2};
  std::vector<Bytes> handled_;
  std::vector<uint64_t> heartbeats_;
};

TEST_F(EpochTest, ARequestFromAheadWaitsForTheCatchUp) {
  cluster_[0].gate.Advance(5);
  Replies replies;
  cluster_.service(0).SendRequest(cluster_.address(1), Verb::kMutation, "w", kTimeout,
                                  replies.Callback());
  cluster_.scheduler_.RunFor(milliseconds(20));
  EXPECT_TRUE(handled_.empty());
  EXPECT_EQ(cluster_[1].gate.waiting(), 1u);
  cluster_[1].gate.Advance(4);  // not far enough
  cluster_.scheduler_.RunFor(milliseconds(20));
  EXPECT_TRUE(handled_.empty());
  cluster_[1].gate.Advance(5);
  cluster_.scheduler_.RunUntilIdle();
  EXPECT_EQ(handled_, (std::vector<Bytes>{"w"}));
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_TRUE(replies.got[0].ok());
  EXPECT_EQ(replies.got[0].epoch, 5u);
  EXPECT_EQ(cluster_.service(1).counters().requests_held, 1u);
}

TEST_F(EpochTest, AFailedCatchUpIsAFailureReply) {
  cluster_[0].gate.Advance(5);
  Replies replies;
  cluster_.service(0).SendRequest(cluster_.address(1), Verb::kMutation, "w", kTimeout,
                                  replies.Callback());
  cluster_.scheduler_.RunFor(milliseconds(20));
  cluster_[1].gate.FailWaiters();
  cluster_.scheduler_.RunUntilIdle();
  EXPECT_TRUE(handled_.empty());
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].reason, FailureReason::kEpochCatchUpFailed);
}

TEST_F(EpochTest, ARequestFromBehindIsRefusedWithOurEpoch) {
  cluster_[1].gate.Advance(9);
  Replies replies;
  cluster_.service(0).SendRequest(cluster_.address(1), Verb::kMutation, "w", kTimeout,
                                  replies.Callback());
  cluster_.scheduler_.RunUntilIdle();
  EXPECT_TRUE(handled_.empty());
  ASSERT_EQ(replies.got.size(), 1u);
  EXPECT_EQ(replies.got[0].status, Status::kFailure);
  EXPECT_EQ(replies.got[0].reason, FailureReason::kStaleEpoch);
  EXPECT_EQ(replies.got[0].epoch, 9u);
  EXPECT_EQ(cluster_.service(1).counters().stale_epoch_refusals, 1u);
}

// A Paxos round is fenced like a write: a replica behind the coordinator
// catches up before it promises, accepts or commits, and one ahead refuses,
// so no decision is made under two placements (cluster/paxos/).
TEST_F(EpochTest, PaxosRequestsAreFencedByTheEpochLikeWrites) {
  uint64_t epoch = 1;
  for (const Verb verb : {Verb::kPaxosPrepare, Verb::kPaxosPropose, Verb::kPaxosCommit,
                          Verb::kPaxosUncommitted, Verb::kPaxosPrepareAndRead}) {
    SCOPED_TRACE(std::string(*VerbName(verb)));
    handled_.clear();
    // The coordinator (0) ahead: the replica waits until it has caught up.
    cluster_[0].gate.Advance(++epoch);
    Replies ahead;
    cluster_.service(0).SendRequest(cluster_.address(1), verb, "p", kTimeout, ahead.Callback());
    cluster_.scheduler_.RunFor(milliseconds(20));
    EXPECT_TRUE(handled_.empty());
    cluster_[1].gate.Advance(epoch);
    cluster_.scheduler_.RunUntilIdle();
    EXPECT_EQ(handled_, (std::vector<Bytes>{"p"}));
    ASSERT_EQ(ahead.got.size(), 1u);
    EXPECT_TRUE(ahead.got[0].ok());
    // The replica (1) ahead: the request is refused, unhandled.
    cluster_[1].gate.Advance(++epoch);
    Replies behind;
    cluster_.service(0).SendRequest(cluster_.address(1), verb, "q", kTimeout, behind.Callback());
    cluster_.scheduler_.RunUntilIdle();
    EXPECT_EQ(handled_, (std::vector<Bytes>{"p"}));
    ASSERT_EQ(behind.got.size(), 1u);
    EXPECT_EQ(behind.got[0].reason, FailureReason::kStaleEpoch);
    cluster_[0].gate.Advance(epoch);
  }
}

TEST_F(EpochTest, HeartbeatsPassWhateverTheEpochs) {
  cluster_[0].gate.Advance(3);
  cluster_.service(0).SendOneWay(cluster_.address(1), Verb::kHeartbeat, "");  // ahead
  cluster_.service(1).SendOneWay(cluster_.address(0), Verb::kHeartbeat, "");  // behind
  cluster_.scheduler_.RunUntilIdle();
  std::sort(heartbeats_.begin(), heartbeats_.end());
  EXPECT_EQ(heartbeats_, (std::vector<uint64_t>{1, 3}));
  EXPECT_EQ(cluster_[1].gate.waiting(), 0u);
}

TEST(MessagingServiceEpochTest, TooManyHeldRequestsAreShed) {
  SimulatedScheduler scheduler;
  SimulatedNetwork network(scheduler, 1);
  const PeerAddress a{"10.0.0.1", 7000}, b{"10.0.0.2", 7000};
  FakeEpochGate gate_a(7), gate_b(1);
  MessagingService service_a(network.AddNode(a), scheduler, gate_a, {});
  MessagingOptions options_b;
  options_b.max_held_requests = 2;
  MessagingService service_b(network.AddNode(b), scheduler, gate_b, options_b);
  service_b.RegisterHandler(Verb::kMutation, [](const Message&, Responder r) { r.Reply(""); });
  service_a.Start();
  service_b.Start();
  std::vector<Replies> replies(3);
  for (auto& r : replies) {
    service_a.SendRequest(b, Verb::kMutation, "", kTimeout, r.Callback());
  }
  scheduler.RunFor(milliseconds(10));
  ASSERT_EQ(replies[2].got.size(), 1u);
  EXPECT_EQ(replies[2].got[0].reason, FailureReason::kOverloaded);
  gate_b.Advance(7);
  scheduler.RunUntilIdle();
  EXPECT_TRUE(replies[0].got.at(0).ok());
  EXPECT_TRUE(replies[1].got.at(0).ok());
}

}  // namespace
}  // namespace sibyl::messaging
