#include "messaging/simulated_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <set>

#include "messaging/message_codec.h"
#include "messaging/messaging_test_util.h"

namespace sibyl::messaging {
namespace {

using std::chrono::milliseconds;
using Outcome = TraceEvent::Outcome;

const PeerAddress kA{"10.0.0.1", 7000};
const PeerAddress kB{"10.0.0.2", 7000};
const PeerAddress kC{"10.0.0.3", 7000};

Message Numbered(uint64_t id) {
  Message message;
  message.verb = Verb::kMutation;
  message.kind = MessageKind::kOneWay;
  message.id = id;
  message.payload = "payload " + std::to_string(id);
  return message;
}

std::vector<uint64_t> Ids(const RecordingSink& sink) {
  std::vector<uint64_t> ids;
  for (const auto& [from, message] : sink.messages()) ids.push_back(message.id);
  return ids;
}

class SimulatedNetworkTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto* address : {&kA, &kB, &kC}) {
      Transport& transport = network_.AddNode(*address);
      transport.Start(sinks_[*address]);
      transports_[*address] = &transport;
    }
  }
  void Send(const PeerAddress& from, const PeerAddress& to, uint64_t id) {
    transports_[from]->Send(to, Numbered(id));
  }

  SimulatedScheduler scheduler_;
  SimulatedNetwork network_{scheduler_, 42};
  std::map<PeerAddress, RecordingSink> sinks_;
  std::map<PeerAddress, Transport*> transports_;
};

TEST_F(SimulatedNetworkTest, DeliversAfterTheDelayAndCounts) {
  network_.SetFaults({.min_delay = milliseconds(5), .max_delay = milliseconds(5)});
  const TimePoint start = scheduler_.Now();
  Send(kA, kB, 1);
  EXPECT_TRUE(sinks_[kB].messages().empty());  // never inside Send
  scheduler_.RunUntilIdle();
  ASSERT_EQ(sinks_[kB].messages().size(), 1u);
  EXPECT_EQ(sinks_[kB].messages()[0].first, kA);
  EXPECT_EQ(sinks_[kB].messages()[0].second, Numbered(1));
  EXPECT_EQ(scheduler_.Now(), start + milliseconds(5));
  const uint64_t bytes = FrameSize(Numbered(1));
  EXPECT_EQ(transports_[kA]->Counters().at(kB),
            (PeerCounters{.messages_sent = 1, .bytes_sent = bytes}));
  EXPECT_EQ(transports_[kB]->Counters().at(kA),
            (PeerCounters{.messages_received = 1, .bytes_received = bytes}));
}

TEST_F(SimulatedNetworkTest, DropsAreCountedAndTraced) {
  network_.SetFaults({.drop_probability = 1.0});
  for (uint64_t id = 0; id < 10; ++id) Send(kA, kB, id);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kB].messages().empty());
  EXPECT_EQ(transports_[kA]->Counters().at(kB).messages_dropped, 10u);
  ASSERT_EQ(network_.trace().size(), 10u);
  for (const auto& event : network_.trace()) EXPECT_EQ(event.outcome, Outcome::kDropped);
}

TEST_F(SimulatedNetworkTest, DuplicatesArriveTwice) {
  network_.SetFaults({.duplicate_probability = 1.0});
  Send(kA, kB, 7);
  scheduler_.RunUntilIdle();
  EXPECT_EQ(Ids(sinks_[kB]), (std::vector<uint64_t>{7, 7}));
}

TEST_F(SimulatedNetworkTest, DelaysReorder) {
  network_.SetFaults({.min_delay = milliseconds(1), .max_delay = milliseconds(50)});
  for (uint64_t id = 0; id < 50; ++id) Send(kA, kB, id);
  scheduler_.RunUntilIdle();
  auto ids = Ids(sinks_[kB]);
  ASSERT_EQ(ids.size(), 50u);
  EXPECT_FALSE(std::is_sorted(ids.begin(), ids.end()));
  std::sort(ids.begin(), ids.end());
  for (uint64_t id = 0; id < 50; ++id) EXPECT_EQ(ids[id], id);
}

TEST_F(SimulatedNetworkTest, BlockIsOneWay) {
  network_.Block(kA, kB);
  Send(kA, kB, 1);
  Send(kB, kA, 2);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kB].messages().empty());
  EXPECT_EQ(Ids(sinks_[kA]), (std::vector<uint64_t>{2}));
  EXPECT_EQ(network_.trace()[0].outcome, Outcome::kBlocked);
  network_.Unblock(kA, kB);
  Send(kA, kB, 3);
  scheduler_.RunUntilIdle();
  EXPECT_EQ(Ids(sinks_[kB]), (std::vector<uint64_t>{3}));
}

TEST_F(SimulatedNetworkTest, APartitionLosesWhatIsInFlight) {
  network_.SetFaults({.min_delay = milliseconds(10), .max_delay = milliseconds(10)});
  Send(kA, kB, 1);
  scheduler_.RunFor(milliseconds(5));
  network_.Partition(kA, kB);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kB].messages().empty());
  EXPECT_EQ(network_.trace().back().outcome, Outcome::kBlocked);
  Send(kB, kA, 2);
  network_.Heal();
  Send(kA, kB, 3);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kA].messages().empty());  // sent while partitioned
  EXPECT_EQ(Ids(sinks_[kB]), (std::vector<uint64_t>{3}));
  EXPECT_TRUE(sinks_[kA].lost().empty());  // a silent network: no one is told
}

TEST_F(SimulatedNetworkTest, SplitSeparatesGroups) {
  network_.Split({{kA}, {kB, kC}});
  Send(kA, kB, 1);
  Send(kC, kA, 2);
  Send(kB, kC, 3);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kA].messages().empty());
  EXPECT_TRUE(sinks_[kB].messages().empty());
  EXPECT_EQ(Ids(sinks_[kC]), (std::vector<uint64_t>{3}));
}

TEST_F(SimulatedNetworkTest, ADownNodeSendsAndReceivesNothingAndPeersAreTold) {
  network_.SetFaults({.min_delay = milliseconds(10), .max_delay = milliseconds(10)});
  Send(kA, kB, 1);  // in flight when B goes down
  network_.TakeDown(kB);
  EXPECT_FALSE(network_.IsUp(kB));
  Send(kB, kC, 2);
  Send(kC, kB, 3);
  scheduler_.RunUntilIdle();
  EXPECT_TRUE(sinks_[kB].messages().empty());
  EXPECT_TRUE(sinks_[kC].messages().empty());
  EXPECT_EQ(sinks_[kA].lost(), (std::vector<PeerAddress>{kB}));
  EXPECT_EQ(sinks_[kC].lost(), (std::vector<PeerAddress>{kB}));
  EXPECT_EQ(transports_[kC]->Counters().at(kB).messages_dropped, 1u);
  network_.BringUp(kB);
  Send(kA, kB, 4);
  scheduler_.RunUntilIdle();
  EXPECT_EQ(Ids(sinks_[kB]), (std::vector<uint64_t>{4}));
}

// A fixed workload over a faulty network; the trace is its whole history.
std::vector<TraceEvent> RunWorkload(uint64_t seed) {
  SimulatedScheduler scheduler;
  SimulatedNetwork network(scheduler, seed,
                           {.drop_probability = 0.2,
                            .duplicate_probability = 0.2,
                            .min_delay = milliseconds(1),
                            .max_delay = milliseconds(20)});
  const std::vector<PeerAddress> nodes = {kA, kB, kC};
  std::vector<RecordingSink> sinks(nodes.size());
  std::vector<Transport*> transports;
  for (size_t i = 0; i < nodes.size(); ++i) {
    transports.push_back(&network.AddNode(nodes[i]));
    transports.back()->Start(sinks[i]);
  }
  for (uint64_t id = 0; id < 300; ++id) {
    transports[id % 3]->Send(nodes[(id / 3) % 3], Numbered(id));
    if (id % 7 == 0) scheduler.RunFor(milliseconds(3));
    if (id == 150) network.Partition(kA, kC);
  }
  scheduler.RunUntilIdle();
  return network.trace();
}

TEST(SimulatedNetworkDeterminismTest, SameSeedSameTraceOtherSeedOtherTrace) {
  const uint64_t seed = std::random_device{}();
  std::cout << "seed " << seed << "\n";
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto first = RunWorkload(seed);
  EXPECT_EQ(first, RunWorkload(seed));
  std::set<Outcome> outcomes;
  for (const auto& event : first) outcomes.insert(event.outcome);
  // The workload exercised every fault.
  EXPECT_EQ(outcomes, (std::set<Outcome>{Outcome::kDelivered, Outcome::kDropped,
                                         Outcome::kDuplicated, Outcome::kBlocked}));
  EXPECT_NE(first, RunWorkload(seed + 1));
}

}  // namespace
}  // namespace sibyl::messaging
