// How one partition's acknowledgements are counted: DC-local levels ignore
// other datacenters, EACH_QUORUM needs every datacenter's quorum, failures
// end the write once block_for is out of reach, the timeout reports fewer
// than block_for, and the callback runs exactly once.

#include "cluster/write/write_response_handler.h"

#include <gtest/gtest.h>

#include <optional>

#include "common/error.h"
#include "messaging/simulated_scheduler.h"
#include "protocol/request.h"

namespace sibyl::cluster {
namespace {

using protocol::Consistency;

struct Outcome {
  int calls = 0;
  std::exception_ptr error;
};

std::shared_ptr<WriteResponseHandler> Make(WriteCounting counting, Outcome& outcome) {
  return std::make_shared<WriteResponseHandler>(std::move(counting),
                                                [&outcome](std::exception_ptr error) {
                                                  ++outcome.calls;
                                                  outcome.error = error;
                                                });
}

const messaging::PeerAddress kReplica{"127.0.0.2", 7000};

TEST(WriteResponseHandlerTest, LocalOneIgnoresOtherDatacenters) {
  Outcome outcome;
  auto handler = Make({.consistency = static_cast<uint16_t>(Consistency::kLocalOne),
                       .block_for = 1,
                       .local_dc = "dc1",
                       .candidates_per_dc = {{"dc1", 1}, {"dc2", 3}}},
                      outcome);
  handler->OnAck("dc2");
  handler->OnAck("dc2");
  EXPECT_EQ(outcome.calls, 0);
  handler->OnAck("dc1");
  EXPECT_EQ(outcome.calls, 1);
  EXPECT_EQ(outcome.error, nullptr);
  handler->OnAck("dc1");
  handler->OnTimeout();
  EXPECT_EQ(outcome.calls, 1);
}

TEST(WriteResponseHandlerTest, EachQuorumNeedsEveryDatacenter) {
  Outcome outcome;
  auto handler = Make({.consistency = static_cast<uint16_t>(Consistency::kEachQuorum),
                       .block_for = 4,
                       .local_dc = "dc1",
                       .quorum_per_dc = {{"dc1", 2}, {"dc2", 2}},
                       .candidates_per_dc = {{"dc1", 3}, {"dc2", 3}}},
                      outcome);
  for (int i = 0; i < 3; ++i) handler->OnAck("dc1");
  handler->OnAck("dc2");
  EXPECT_EQ(outcome.calls, 0);  // four acknowledgements, but dc2 lacks its quorum
  handler->OnAck("dc2");
  EXPECT_EQ(outcome.calls, 1);
  EXPECT_EQ(outcome.error, nullptr);
}

TEST(WriteResponseHandlerTest, FailureOnceBlockForIsOutOfReach) {
  Outcome outcome;
  auto handler = Make({.consistency = static_cast<uint16_t>(Consistency::kQuorum),
                       .block_for = 2,
                       .local_dc = "dc1",
                       .candidates_per_dc = {{"dc1", 3}}},
                      outcome);
  handler->OnFailure("dc1", kReplica, messaging::FailureReason::kUnknown);
  EXPECT_EQ(outcome.calls, 0);  // two others may still answer
  handler->OnFailure("dc1", kReplica, messaging::FailureReason::kIncompatibleSchema);
  ASSERT_EQ(outcome.calls, 1);
  try {
    std::rethrow_exception(outcome.error);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kWriteFailure);
    const auto& info = std::get<WriteFailureInfo>(e.detail());
    EXPECT_EQ(info.received, 0);
    ASSERT_EQ(info.failures.size(), 2u);
    EXPECT_EQ(info.failures[1].code, 3);
    EXPECT_EQ(info.failures[1].address, Bytes("\x7f\x00\x00\x02", 4));
  }
}

TEST(WriteResponseHandlerTest, TimeoutReportsWhatArrivedInVirtualTime) {
  messaging::SimulatedScheduler scheduler;
  Outcome outcome;
  auto handler = Make({.consistency = static_cast<uint16_t>(Consistency::kAll),
                       .type = WriteType::kUnloggedBatch,
                       .block_for = 3,
                       .local_dc = "dc1",
                       .candidates_per_dc = {{"dc1", 3}}},
                      outcome);
  handler->ArmTimeout(scheduler, std::chrono::seconds(2));
  handler->OnAck("dc1");
  scheduler.RunFor(std::chrono::milliseconds(1999));
  EXPECT_EQ(outcome.calls, 0);
  scheduler.RunFor(std::chrono::milliseconds(1));
  ASSERT_EQ(outcome.calls, 1);
  try {
    std::rethrow_exception(outcome.error);
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(), "Operation timed out - received only 1 responses.");
    const auto& info = std::get<WriteTimeoutInfo>(e.detail());
    EXPECT_EQ(info.received, 1);
    EXPECT_EQ(info.block_for, 3);
    EXPECT_EQ(info.write_type, "UNLOGGED_BATCH");
  }
  handler->OnAck("dc1");
  handler->OnAck("dc1");
  EXPECT_EQ(outcome.calls, 1);
}

}  // namespace
}  // namespace sibyl::cluster
