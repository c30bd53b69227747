// uuid(), now() and friends, min/maxTimeuuid and the temporal conversions.

#include <gtest/gtest.h>

#include <functional>

#include "common/check.h"
#include "common/error.h"
#include "query/functions/function_test_util.h"
#include "types/timestamp_literal.h"
#include "types/uuid.h"

namespace sibyl::query {
namespace {

using testing::T;
using types::Kind;

int64_t Millis(std::string_view text) { return types::ParseTimestampLiteral(text, 0); }

class TimeFunctionsTest : public testing::FunctionTest {};

TEST_F(TimeFunctionsTest, NowIsAVersionOneUuidAtTheClocksTime) {
  const OptBytes a = Call("now", {}, {});
  const OptBytes b = Call("now", {}, {});
  ASSERT_TRUE(a && b);
  const types::Uuid ua = types::Uuid::FromBytes(*a);
  const types::Uuid ub = types::Uuid::FromBytes(*b);
  EXPECT_EQ(ua.version(), 1);
  EXPECT_NE(ua, ub);  // unique even when the clock stands still
  EXPECT_GT(ub.Timestamp(), ua.Timestamp());
  EXPECT_EQ(ua.UnixMillis(), 1'700'000'000'123);
  EXPECT_EQ(Call1("unixtimestampof", Kind::kTimeuuid, a), types::EncodeBigint(1'700'000'000'123));
  EXPECT_EQ(types::Uuid::FromBytes(*Call("currenttimeuuid", {}, {})).version(), 1);
}

TEST_F(TimeFunctionsTest, CurrentTimestampDateAndTime) {
  EXPECT_EQ(Call("currenttimestamp", {}, {}), types::EncodeTimestamp(1'700'000'000'123));
  EXPECT_EQ(Call("currentdate", {}, {}), types::EncodeDate(19675));  // 2023-11-14
  // 22:13:20.123456
  EXPECT_EQ(Call("currenttime", {}, {}), types::EncodeTime(80'000'123'456'000));
  clock_.Set(0);
  EXPECT_EQ(Call("currentdate", {}, {}), types::EncodeDate(0));
  EXPECT_EQ(Call("currenttime", {}, {}), types::EncodeTime(0));
}

TEST_F(TimeFunctionsTest, Uuid) {
  const OptBytes u = Call("uuid", {}, {});
  ASSERT_TRUE(u);
  EXPECT_EQ(types::Uuid::FromBytes(*u).version(), 4);
  EXPECT_NE(u, Call("uuid", {}, {}));
}

TEST_F(TimeFunctionsTest, ToDate) {
  const int64_t t = Millis("2024-01-02 03:04:05.678Z");
  EXPECT_EQ(Call1("todate", Kind::kTimestamp, types::EncodeTimestamp(t)), types::EncodeDate(19724));
  EXPECT_EQ(Call1("todate", Kind::kTimestamp, types::EncodeTimestamp(-86'400'001)),
            types::EncodeDate(-1));
  // Duration.ofMillis(-1).toDays() is 0: Cassandra's truncation, kept.
  EXPECT_EQ(Call1("todate", Kind::kTimestamp, types::EncodeTimestamp(-1)), types::EncodeDate(0));
  const OptBytes min = Call1("mintimeuuid", Kind::kTimestamp, types::EncodeTimestamp(t));
  EXPECT_EQ(Call1("todate", Kind::kTimeuuid, min), types::EncodeDate(19724));
  EXPECT_EQ(Call1("todate", Kind::kTimestamp, std::nullopt), std::nullopt);
  EXPECT_EQ(Call1("todate", Kind::kTimestamp, Bytes()), std::nullopt);
}

TEST_F(TimeFunctionsTest, ToDateOutOfRangeIsAFunctionFailure) {
  try {
    (void)Call1("todate", Kind::kTimestamp, types::EncodeTimestamp(INT64_MAX));
    FAIL() << "no error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kFunctionFailure);
    EXPECT_EQ(std::string(e.what()).rfind(
                  "org.apache.cassandra.serializers.MarshalException: Input date ", 0),
              0u)
        << e.what();
    const auto* info = std::get_if<FunctionFailureInfo>(&e.detail());
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->function, "todate");
    EXPECT_EQ(info->argument_types, std::vector<std::string>{"timestamp"});
  }
}

TEST_F(TimeFunctionsTest, ToTimestampAndToUnixTimestamp) {
  EXPECT_EQ(Call1("totimestamp", Kind::kDate, types::EncodeDate(19724)),
            types::EncodeTimestamp(Millis("2024-01-02Z")));
  EXPECT_EQ(Call1("totimestamp", Kind::kDate, types::EncodeDate(-1)),
            types::EncodeTimestamp(-86'400'000));
  EXPECT_EQ(Call1("tounixtimestamp", Kind::kDate, types::EncodeDate(1)),
            types::EncodeBigint(86'400'000));
  EXPECT_EQ(Call1("tounixtimestamp", Kind::kTimestamp, types::EncodeTimestamp(-5)),
            types::EncodeBigint(-5));
  const OptBytes id = Call("now", {}, {});
  EXPECT_EQ(Call1("totimestamp", Kind::kTimeuuid, id), types::EncodeTimestamp(1'700'000'000'123));
  EXPECT_EQ(Call1("dateof", Kind::kTimeuuid, id), types::EncodeTimestamp(1'700'000'000'123));
  EXPECT_EQ(Call1("tounixtimestamp", Kind::kTimeuuid, id), types::EncodeBigint(1'700'000'000'123));
  for (const char* name : {"totimestamp", "tounixtimestamp"}) {
    EXPECT_EQ(Call1(name, Kind::kDate, std::nullopt), std::nullopt) << name;
    EXPECT_EQ(Call1(name, Kind::kTimeuuid, Bytes()), std::nullopt) << name;
  }
  EXPECT_EQ(Call1("dateof", Kind::kTimeuuid, std::nullopt), std::nullopt);
  EXPECT_EQ(Call1("unixtimestampof", Kind::kTimeuuid, std::nullopt), std::nullopt);
}

TEST_F(TimeFunctionsTest, MinAndMaxTimeuuid) {
  const int64_t t = Millis("2013-01-01 00:05+0000");
  const OptBytes min = Call1("mintimeuuid", Kind::kTimestamp, types::EncodeTimestamp(t));
  const OptBytes max = Call1("maxtimeuuid", Kind::kTimestamp, types::EncodeTimestamp(t));
  ASSERT_TRUE(min && max);
  // Cassandra's bounds: the lowest and highest clock sequence and node, and
  // the first and last 100 ns tick of the millisecond.
  EXPECT_EQ(min->substr(8), Bytes(8, '\x80'));
  EXPECT_EQ(max->substr(8), Bytes(8, '\x7f'));
  const types::Uuid umin = types::Uuid::FromBytes(*min);
  const types::Uuid umax = types::Uuid::FromBytes(*max);
  EXPECT_EQ(umin.version(), 1);
  EXPECT_EQ(umax.Timestamp() - umin.Timestamp(), 9999);
  EXPECT_EQ(umin.UnixMillis(), t);
  EXPECT_EQ(umax.UnixMillis(), t);
  EXPECT_EQ(umin.ToString(), "e23f1e00-53a6-11e2-8080-808080808080");
  EXPECT_EQ(Call1("mintimeuuid", Kind::kTimestamp, std::nullopt), std::nullopt);
  EXPECT_EQ(Call1("maxtimeuuid", Kind::kTimestamp, std::nullopt), std::nullopt);
}

TEST_F(TimeFunctionsTest, CurrentFunctionsNeedAClock) {
  context_.clock = nullptr;
  EXPECT_THROW((void)Call("currenttimestamp", {}, {}), InternalError);
}

class FloorFunctionsTest : public testing::FunctionTest {
 protected:
  static Bytes Ts(std::string_view text) { return types::EncodeTimestamp(Millis(text)); }
  static Bytes Dur(int32_t months, int32_t days, int64_t nanos) {
    return types::EncodeDuration(months, days, nanos);
  }
  OptBytes FloorTs(const Bytes& time, const Bytes& duration) {
    return Call("floor", {T(Kind::kTimestamp), T(Kind::kDuration)}, {time, duration});
  }
  OptBytes FloorTs(const Bytes& time, const Bytes& duration, const Bytes& start) {
    return Call("floor", {T(Kind::kTimestamp), T(Kind::kDuration), T(Kind::kTimestamp)},
                {time, duration, start});
  }
  std::string ErrorOf(const std::function<void()>& call) {
    try {
      call();
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    return "no error";
  }
};

constexpr int64_t kHour = 3'600'000'000'000;

TEST_F(FloorFunctionsTest, TimestampsWithoutMonths) {
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, kHour)), Ts("2016-09-27 16:00:00Z"));
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 2, 0)), Ts("2016-09-26 00:00:00Z"));
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, kHour), Ts("2016-09-27 15:30:00Z")),
            Ts("2016-09-27 15:30:00Z"));
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, 0)), Ts("2016-09-27 16:10:00Z"));
  EXPECT_EQ(FloorTs(Ts("1969-12-31 23:59:59Z"), Dur(0, 0, kHour), Ts("1969-01-01 00:00:00Z")),
            Ts("1969-12-31 23:00:00Z"));
}

TEST_F(FloorFunctionsTest, TimestampsWithMonths) {
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(2, 0, 0)), Ts("2016-09-01 00:00:00Z"));
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(12, 0, 0)), Ts("2016-01-01 00:00:00Z"));
  EXPECT_EQ(FloorTs(Ts("2016-03-15 00:00:00Z"), Dur(1, 0, 0), Ts("2016-01-31 00:00:00Z")),
            Ts("2016-03-31 00:00:00Z"));  // Cassandra's month-only estimate, kept
  EXPECT_EQ(FloorTs(Ts("2016-03-15 00:00:00Z"), Dur(1, 10, 0), Ts("2016-01-01 00:00:00Z")),
            Ts("2016-02-11 00:00:00Z"));
}

TEST_F(FloorFunctionsTest, OtherTypesAndNulls) {
  const OptBytes id = Call1("mintimeuuid", Kind::kTimestamp, Ts("2016-09-27 16:10:00Z"));
  EXPECT_EQ(Call("floor", {T(Kind::kTimeuuid), T(Kind::kDuration)}, {id, Dur(0, 0, kHour)}),
            Ts("2016-09-27 16:00:00Z"));
  EXPECT_EQ(Call("floor", {T(Kind::kDate), T(Kind::kDuration)},
                 {types::EncodeDate(17071), Dur(0, 7, 0)}),  // 2016-09-27, a Tuesday
            types::EncodeDate(17066));
  EXPECT_EQ(Call("floor", {T(Kind::kTime), T(Kind::kDuration)},
                 {types::EncodeTime(10 * kHour + 5), Dur(0, 0, 3 * kHour)}),
            types::EncodeTime(9 * kHour));
  EXPECT_EQ(FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, kHour), Bytes()), std::nullopt);
  EXPECT_EQ(
      Call("floor", {T(Kind::kTimestamp), T(Kind::kDuration)}, {std::nullopt, Dur(0, 0, kHour)}),
      std::nullopt);
  EXPECT_EQ(FunctionRegistry::Native().Overloads("floor").size(), 7u);
}

TEST_F(FloorFunctionsTest, Errors) {
  EXPECT_EQ(ErrorOf([&] { (void)FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, 10'000)); }),
            "The floor cannot be computed for the 10us duration as precision is below 1 "
            "millisecond");
  EXPECT_EQ(ErrorOf([&] { (void)FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, -kHour)); }),
            "Negative durations are not supported by the floor function");
  EXPECT_EQ(ErrorOf([&] {
              (void)FloorTs(Ts("2016-09-27 16:10:00Z"), Dur(0, 0, kHour),
                            Ts("2016-09-28 00:00:00Z"));
            }),
            "The floor function starting time is greater than the provided time");
  EXPECT_EQ(ErrorOf([&] {
              (void)Call("floor", {T(Kind::kDate), T(Kind::kDuration)},
                         {types::EncodeDate(1), Dur(0, 1, kHour)});
            }),
            "The floor on date values cannot be computed for the 1d1h duration as precision is "
            "below 1 day");
  EXPECT_EQ(ErrorOf([&] {
              (void)Call("floor", {T(Kind::kTime), T(Kind::kDuration)},
                         {types::EncodeTime(1), Dur(0, 1, 0)});
            }),
            "For time values, the floor can only be computed for durations smaller that a day");
}

}  // namespace
}  // namespace sibyl::query
