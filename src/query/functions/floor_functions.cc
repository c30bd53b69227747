// Cassandra 4.1's floor() (TimeFcts' FloorFunction family, used by GROUP BY
// time windows): a timestamp, timeuuid or date rounded down to a multiple of
// a duration counted from a starting time (the epoch by default), and a time
// of day rounded down to a multiple of a duration under a day.
//
// Durations with months step through the calendar as java.util.Calendar
// does in UTC (a month added to January 31 is the last day of February),
// estimating the multiple from the months between start and time; with
// months only, that estimate is returned as it is, which can lie after the
// time (Cassandra's Duration.floorTimestamp, kept as it is).

#include "common/error.h"
#include "query/functions/function_registry.h"
#include "query/functions/function_value_text.h"
#include "query/functions/temporal_argument.h"
#include "types/civil_date.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using types::CqlType;
using types::DurationValue;
using types::Kind;

constexpr int64_t kNanosPerMilli = 1'000'000;

bool IsNegative(const DurationValue& d) { return d.nanoseconds < 0 || d.days < 0 || d.months < 0; }

int64_t DurationMillis(const DurationValue& d) {
  return int64_t{d.days} * types::kMillisPerDay + d.nanoseconds / kNanosPerMilli;
}

// Duration.floorTimestamp.
int64_t FloorTimestamp(int64_t time, const DurationValue& duration, int64_t start) {
  if (start > time)
    ThrowInvalid("The floor function starting time is greater than the provided time");
  if (IsNegative(duration))
    ThrowInvalid("Negative durations are not supported by the floor function");
  if (duration.months == 0) {
    const int64_t duration_millis = DurationMillis(duration);
    if (duration_millis == 0) return time;
    return time - (time - start) % duration_millis;
  }
  const types::CivilDate time_date =
      types::CivilFromDays(types::FloorDiv(time, types::kMillisPerDay));
  const types::CivilDate start_date =
      types::CivilFromDays(types::FloorDiv(start, types::kMillisPerDay));
  const auto months_between = static_cast<int32_t>(
      (time_date.year - start_date.year) * 12 +
      (static_cast<int64_t>(time_date.month) - static_cast<int64_t>(start_date.month)));
  int32_t multiplier = months_between / duration.months;
  int64_t calendar = types::AddCalendarMonths(start, int64_t{multiplier} * duration.months);
  if (duration.days == 0 && duration.nanoseconds == 0) return calendar;
  const int64_t duration_millis = DurationMillis(duration);
  int64_t floor = calendar + multiplier * duration_millis;
  while (floor > time) {
    --multiplier;
    calendar = types::AddCalendarMonths(calendar, -duration.months);
    floor = calendar + multiplier * duration_millis;
  }
  return std::max(start, floor);
}

// The three temporal argument kinds as milliseconds since the epoch.
void AddFloor(FunctionRegistry& r, Kind kind, bool with_start) {
  const Kind result = kind == Kind::kDate ? Kind::kDate : Kind::kTimestamp;
  const Kind start_kind = kind == Kind::kDate ? Kind::kDate : Kind::kTimestamp;
  std::vector<types::TypePtr> args = {CqlType::Native(kind), CqlType::Native(Kind::kDuration)};
  if (with_start) args.push_back(CqlType::Native(start_kind));
  r.Add(Function::Scalar(
      "floor", CqlType::Native(result), std::move(args),
      [kind, start_kind, with_start](FunctionArgs a, FunctionContext&) -> OptBytes {
        if (NullOrEmpty(a[0]) || NullOrEmpty(a[1])) return std::nullopt;
        if (with_start && NullOrEmpty(a[2])) return std::nullopt;
        const int64_t start = with_start ? TemporalArgumentMillis(start_kind, *a[2]) : 0;
        const DurationValue duration = types::DecodeDuration(*a[1]);
        if (kind == Kind::kDate) {
          if (duration.nanoseconds != 0) {
            ThrowInvalid("The floor on date values cannot be computed for the " +
                         types::DurationToString(duration) +
                         " duration as precision is below 1 day");
          }
        } else if (duration.nanoseconds % kNanosPerMilli != 0) {
          ThrowInvalid("The floor cannot be computed for the " + types::DurationToString(duration) +
                       " duration as precision is below 1 millisecond");
        }
        const int64_t floor = FloorTimestamp(TemporalArgumentMillis(kind, *a[0]), duration, start);
        if (kind == Kind::kDate) {
          return types::EncodeDate(
              static_cast<int32_t>(types::FloorDiv(floor, types::kMillisPerDay)));
        }
        return types::EncodeTimestamp(floor);
      }));
}

}  // namespace

void AddFloorFunctions(FunctionRegistry& r) {
  AddFloor(r, Kind::kTimestamp, false);
  AddFloor(r, Kind::kTimestamp, true);
  AddFloor(r, Kind::kTimeuuid, false);
  AddFloor(r, Kind::kTimeuuid, true);
  AddFloor(r, Kind::kDate, false);
  AddFloor(r, Kind::kDate, true);
  // Duration.floorTime.
  r.Add(Function::Scalar(
      "floor", CqlType::Native(Kind::kTime),
      {CqlType::Native(Kind::kTime), CqlType::Native(Kind::kDuration)},
      [](FunctionArgs a, FunctionContext&) -> OptBytes {
        if (NullOrEmpty(a[0]) || NullOrEmpty(a[1])) return std::nullopt;
        const int64_t time = types::DecodeBigint(*a[0]);
        const DurationValue duration = types::DecodeDuration(*a[1]);
        if (IsNegative(duration)) {
          ThrowInvalid("Negative durations are not supported by the floor function");
        }
        if (duration.months != 0 || duration.days != 0 ||
            duration.nanoseconds > 24 * 3'600'000'000'000LL) {
          ThrowInvalid(
              "For time values, the floor can only be computed for durations smaller that a day");
        }
        if (duration.nanoseconds == 0) return types::EncodeTime(time);
        return types::EncodeTime(time - time % duration.nanoseconds);
      }));
}

}  // namespace sibyl::query
