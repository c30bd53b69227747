#include "cluster/paxos/ballot.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "storage/storage_test_util.h"

namespace sibyl::cluster::paxos {
namespace {

namespace fs = std::filesystem;

class BallotGeneratorTest : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(dir_.path()); }
  fs::path file() const { return dir_.path() / "paxos_ballots"; }

  storage::testing::ScratchDir dir_;
  ManualClock clock_{1'700'000'000'000'000};
};

TEST(BallotTest, IsATimeuuidOfItsMicrosecondAndNode) {
  const Ballot ballot = Ballot::Make(1'700'000'000'123'456, 0x0123456789abcdefULL);
  const types::Uuid uuid = ballot.ToUuid();
  EXPECT_EQ(uuid.version(), 1);
  EXPECT_EQ(uuid.UnixMillis(), 1'700'000'000'123);
  EXPECT_EQ(uuid.bytes[8] & 0xC0, 0x80);  // RFC 4122's variant
  EXPECT_EQ(Ballot::FromUuid(uuid), ballot);
  EXPECT_EQ(ballot.node_bits(), 0x8123456789abcdefULL);
}

TEST(BallotTest, OrdersByTimeThenByNodeAsCellsReconcile) {
  const Ballot early = Ballot::Make(100, 0xffff);
  const Ballot late = Ballot::Make(101, 0x1);
  EXPECT_LT(Ballot(), early);
  EXPECT_LT(early, late);
  EXPECT_LT(Ballot::Make(100, 1), Ballot::Make(100, 2));
  // At one microsecond, the larger bytes win: what cell reconciliation
  // does with two values written at one timestamp.
  const types::Uuid a = Ballot::Make(100, 1).ToUuid();
  const types::Uuid b = Ballot::Make(100, 2).ToUuid();
  EXPECT_LT(a, b);
}

TEST(BallotTest, OtherUuidsAreNoBallots) {
  EXPECT_FALSE(Ballot::FromUuid(types::Uuid::Random()).has_value());
  // A timeuuid whose timestamp is not a whole microsecond.
  EXPECT_FALSE(Ballot::FromUuid(types::Uuid::TimeBased(types::Uuid::kUnixEpochIn100ns + 15, 0x80))
                   .has_value());
  // One from before the Unix epoch.
  EXPECT_FALSE(Ballot::FromUuid(types::Uuid::TimeBased(10, 0x8000000000000000ULL)).has_value());
}

TEST_F(BallotGeneratorTest, BallotsIncreaseWhileTheClockStands) {
  BallotGenerator generator(clock_, 7, file());
  Ballot previous = generator.Next();
  EXPECT_EQ(previous.micros(), clock_.NowMicros());
  for (int i = 0; i < 100; ++i) {
    const Ballot next = generator.Next();
    EXPECT_GT(next, previous);
    previous = next;
  }
}

TEST_F(BallotGeneratorTest, ExceedsTheFloorAndPushesTheClock) {
  BallotGenerator generator(clock_, 7, file());
  const Ballot floor = Ballot::Make(clock_.NowMicros() + 5'000'000, 9);
  const Ballot ballot = generator.Next(floor);
  EXPECT_GT(ballot, floor);
  EXPECT_GT(clock_.NextTimestampMicros(), ballot.micros());
  // A floor at the very microsecond the clock gives, from a node with
  // larger bits, is exceeded too.
  const Ballot same = Ballot::Make(ballot.micros() + 1, ~uint64_t{0});
  EXPECT_GT(generator.Next(same), same);
}

TEST_F(BallotGeneratorTest, NeverGoesBackAcrossARestartWhoseClockWentBack) {
  Ballot last;
  {
    BallotGenerator generator(clock_, 7, file());
    for (int i = 0; i < 10; ++i) last = generator.Next();
  }
  ManualClock behind(clock_.NowMicros() - 3'600'000'000);  // an hour back
  BallotGenerator restarted(behind, 7, file());
  const Ballot first = restarted.Next();
  EXPECT_GT(first, last);
  EXPECT_GE(behind.NextTimestampMicros(), first.micros());
}

TEST_F(BallotGeneratorTest, WritesTheBoundOnlyWhenBallotsPassIt) {
  BallotGenerator generator(clock_, 7, file());
  (void)generator.Next();
  const auto written = fs::last_write_time(file());
  std::string before;
  std::getline(std::ifstream(file()), before);
  for (int i = 0; i < 1000; ++i) (void)generator.Next();
  std::string after;
  std::getline(std::ifstream(file()), after);
  EXPECT_EQ(before, after);
  EXPECT_EQ(fs::last_write_time(file()), written);
  clock_.AdvanceSeconds(2);
  (void)generator.Next();
  std::getline(std::ifstream(file()), after);
  EXPECT_NE(before, after);
  EXPECT_EQ(std::stoll(after), clock_.NowMicros() + 1'000'000);
}

TEST_F(BallotGeneratorTest, RefusesABoundItCannotRead) {
  std::ofstream(file()) << "yesterday\n";
  try {
    BallotGenerator generator(clock_, 7, file());
    FAIL() << "a garbled bound was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a number of microseconds"), std::string::npos)
        << e.what();
  }
}

TEST_F(BallotGeneratorTest, RefusesToHandOutABallotItCannotBound) {
  const fs::path nowhere =
      dir_.path() / "missing" / "paxos_ballots";  // its directory does not exist
  BallotGenerator generator(clock_, 7, nowhere);
  try {
    (void)generator.Next();
    FAIL() << "a ballot was handed out without its bound";
  } catch (const std::runtime_error&) {
  }
}

}  // namespace
}  // namespace sibyl::cluster::paxos
