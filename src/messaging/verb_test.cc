#include "messaging/verb.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "messaging/failure_reason.h"

namespace sibyl::messaging {
namespace {

TEST(VerbTest, NamesAreUniqueAndRoundTripThroughTheWire) {
  std::set<std::string_view> names;
  for (const Verb verb : AllVerbs()) {
    const auto name = VerbName(verb);
    ASSERT_TRUE(name.has_value());
    EXPECT_TRUE(names.insert(*name).second) << *name;
    EXPECT_EQ(VerbFromWire(static_cast<uint16_t>(verb)), verb);
  }
  EXPECT_EQ(names.size(), AllVerbs().size());
}

TEST(VerbTest, CassandrasNumbersWhereCassandraHasTheVerb) {
  EXPECT_EQ(static_cast<uint16_t>(Verb::kMutation), 0);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kHint), 1);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kRead), 3);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kRangeRead), 9);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kCounterMutation), 24);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kPaxosPrepare), 33);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kPaxosPropose), 34);
  EXPECT_EQ(static_cast<uint16_t>(Verb::kPaxosCommit), 35);
  EXPECT_EQ(VerbName(Verb::kRangeRead), "RANGE_READ");
  EXPECT_EQ(VerbName(Verb::kPaxosPrepare), "PAXOS_PREPARE");
  EXPECT_EQ(VerbName(Verb::kCounterMutation), "COUNTER_MUTATION");
}

TEST(VerbTest, UnknownNumbersAreNoVerb) {
  EXPECT_FALSE(VerbFromWire(4).has_value());
  EXPECT_FALSE(VerbFromWire(65535).has_value());
  EXPECT_FALSE(VerbName(static_cast<Verb>(1000)).has_value());
  EXPECT_FALSE(IsEpochChecked(static_cast<Verb>(1000)));
}

TEST(VerbTest, DataVerbsAreEpochCheckedAndConvergenceVerbsAreNot) {
  for (const Verb verb :
       {Verb::kMutation, Verb::kCounterMutation, Verb::kRead, Verb::kRangeRead, Verb::kBatchStore,
        Verb::kBatchRemove, Verb::kHint, Verb::kTruncate, Verb::kReadRepair, Verb::kPaxosPrepare,
        Verb::kPaxosPropose, Verb::kPaxosCommit, Verb::kPaxosUncommitted,
        Verb::kPaxosPrepareAndRead, Verb::kStreamPull, Verb::kStreamRanges}) {
    EXPECT_TRUE(IsEpochChecked(verb)) << *VerbName(verb);
  }
  for (const Verb verb : {Verb::kHeartbeat, Verb::kSchemaPull, Verb::kEpochNotify, Verb::kHello}) {
    EXPECT_FALSE(IsEpochChecked(verb)) << *VerbName(verb);
  }
}

TEST(FailureReasonTest, CassandraCodesPassAndSibylsBecomeUnknown) {
  EXPECT_EQ(CassandraReasonCode(FailureReason::kReadTooManyTombstones), 1);
  EXPECT_EQ(CassandraReasonCode(FailureReason::kIncompatibleSchema), 3);
  EXPECT_EQ(CassandraReasonCode(FailureReason::kStaleEpoch), 0);
  EXPECT_EQ(CassandraReasonCode(FailureReason::kOverloaded), 0);
  EXPECT_EQ(FailureReasonName(FailureReason::kStaleEpoch), "STALE_EPOCH");
  EXPECT_EQ(FailureReasonName(static_cast<FailureReason>(999)), "UNKNOWN_REASON");
}

}  // namespace
}  // namespace sibyl::messaging
