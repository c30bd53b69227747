// Cassandra 4.1's UuidFcts and TimeFcts: uuid(), now() and the current*()
// functions, min/maxTimeuuid, and the conversions between timeuuid,
// timestamp, date and bigint milliseconds (floor() is floor_functions.cc).
//
// The conversions return null for null and for empty values (Cassandra
// checks `bb == null || !bb.hasRemaining()`); the current*() functions read
// the FunctionContext's clock.

#include <atomic>
#include <random>

#include "common/check.h"
#include "common/error.h"
#include "query/functions/function_registry.h"
#include "query/functions/temporal_argument.h"
#include "types/civil_date.h"
#include "types/date_time_literal.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using types::CqlType;
using types::Kind;

// A version 1 UUID from its 60-bit timestamp and raw low 64 bits (no
// variant forced: Cassandra's min/maxTimeuuid use 0x80.. and 0x7f..).
Bytes TimeUuidBytes(int64_t raw_timestamp, uint64_t low) {
  const auto ts = static_cast<uint64_t>(raw_timestamp);
  const uint64_t high =
      (ts << 32) | ((ts >> 16) & 0xFFFF0000ull) | 0x1000ull | ((ts >> 48) & 0x0FFFull);
  Bytes out;
  AppendBE64(out, high);
  AppendBE64(out, low);
  return out;
}

// The 60-bit timestamp of a time-based UUID (TimeUUID.rawTimestamp).
int64_t RawTimestamp(BytesView uuid) {
  const uint64_t high = LoadBE64(uuid.data());
  return static_cast<int64_t>(((high & 0x0FFFull) << 48) | (((high >> 16) & 0xFFFFull) << 32) |
                              (high >> 32));
}

// TimeUUID.unix(MILLISECONDS).
int64_t TimeUuidUnixMillis(BytesView uuid) {
  return RawTimestamp(uuid) / 10000 - types::Uuid::kUnixEpochIn100ns / 10000;
}

int64_t UnixMillisToRawTimestamp(int64_t millis) {
  return millis * 10000 + types::Uuid::kUnixEpochIn100ns;
}

// now(): unique and increasing on this node, as TimeUUID.Generator makes
// them: the clock's microseconds in 100 ns units, bumped past the last one
// handed out, with a node part fixed for the process.
Bytes NextTimeUuid(Clock& clock) {
  static std::atomic<int64_t> last{0};
  static const uint64_t clock_seq_and_node = [] {
    std::random_device device;
    const uint64_t bits = (uint64_t{device()} << 32) | device();
    return (bits & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull;  // RFC 4122 variant
  }();
  const int64_t now = clock.NowMicros() * 10 + types::Uuid::kUnixEpochIn100ns;
  int64_t previous = last.load(std::memory_order_relaxed);
  int64_t next;
  do {
    next = now > previous ? now : previous + 1;
  } while (!last.compare_exchange_weak(previous, next, std::memory_order_relaxed));
  return TimeUuidBytes(next, clock_seq_and_node);
}

Clock& RequireClock(FunctionContext& context) {
  SIBYL_CHECK(context.clock != nullptr, "no clock given for a current-time function");
  return *context.clock;
}

// TemporalType.toTimeInMillis for the three temporal argument types.
// SimpleDateSerializer.timeInMillisToDay: Duration.ofMillis(ms).toDays(),
// i.e. floored seconds divided by 86400 truncating, within the date range.
std::optional<int32_t> MillisToDays(int64_t millis) {
  const int64_t days = types::FloorDiv(millis, 1000) / types::kSecondsPerDay;
  if (days < INT32_MIN || days > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(days);
}

OptBytes DateFromMillis(Kind from, int64_t millis) {
  const auto days = MillisToDays(millis);
  if (!days) {
    const bool low = millis < 0;
    ThrowFunctionFailureCause(
        "todate", {CqlType::Native(from)->ToCql()},
        "org.apache.cassandra.serializers.MarshalException: Input date " +
            types::JavaLocalDateString(types::FloorDiv(millis, types::kMillisPerDay)) + " is " +
            (low ? "less than min" : "greater than max") + " supported date " +
            types::JavaLocalDateString(low ? INT32_MIN : INT32_MAX) + "T00:00Z");
  }
  return types::EncodeDate(*days);
}

void AddNow(FunctionRegistry& r, std::string name, Kind kind) {
  r.Add(Function::Scalar(
      std::move(name), CqlType::Native(kind), {},
      [kind](FunctionArgs, FunctionContext& context) -> OptBytes {
        Clock& clock = RequireClock(context);
        const int64_t micros = clock.NowMicros();
        switch (kind) {
          case Kind::kTimeuuid:
            return NextTimeUuid(clock);
          case Kind::kTimestamp:
            return types::EncodeTimestamp(types::FloorDiv(micros, 1000));
          case Kind::kDate:
            return types::EncodeDate(MillisToDays(types::FloorDiv(micros, 1000)).value_or(0));
          default:  // time: LocalTime.now(UTC).toNanoOfDay()
            return types::EncodeTime(
                (micros - types::FloorDiv(micros, types::kMillisPerDay * 1000) *
                              types::kMillisPerDay * 1000) *
                1000);
        }
      },
      /*pure=*/false));
}

void AddToDate(FunctionRegistry& r, Kind from) {
  r.Add(Function::Scalar("todate", CqlType::Native(Kind::kDate), {CqlType::Native(from)},
                         [from](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (NullOrEmpty(a[0])) return std::nullopt;
                           return DateFromMillis(from, TemporalArgumentMillis(from, *a[0]));
                         }));
}

void AddToTimestamp(FunctionRegistry& r, Kind from) {
  r.Add(Function::Scalar("totimestamp", CqlType::Native(Kind::kTimestamp), {CqlType::Native(from)},
                         [from](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (NullOrEmpty(a[0])) return std::nullopt;
                           return types::EncodeTimestamp(TemporalArgumentMillis(from, *a[0]));
                         }));
}

void AddToUnixTimestamp(FunctionRegistry& r, Kind from) {
  r.Add(Function::Scalar("tounixtimestamp", CqlType::Native(Kind::kBigint), {CqlType::Native(from)},
                         [from](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (NullOrEmpty(a[0])) return std::nullopt;
                           return types::EncodeBigint(TemporalArgumentMillis(from, *a[0]));
                         }));
}

}  // namespace

void AddUuidFunctions(FunctionRegistry& r) {
  r.Add(Function::Scalar(
      "uuid", CqlType::Native(Kind::kUuid), {},
      [](FunctionArgs, FunctionContext&) -> OptBytes { return types::Uuid::Random().ToBytes(); },
      /*pure=*/false));
}

void AddTimeFunctions(FunctionRegistry& r) {
  AddNow(r, "now", Kind::kTimeuuid);
  AddNow(r, "currenttimeuuid", Kind::kTimeuuid);
  AddNow(r, "currenttimestamp", Kind::kTimestamp);
  AddNow(r, "currentdate", Kind::kDate);
  AddNow(r, "currenttime", Kind::kTime);
  r.Add(Function::Scalar(
      "mintimeuuid", CqlType::Native(Kind::kTimeuuid), {CqlType::Native(Kind::kTimestamp)},
      [](FunctionArgs a, FunctionContext&) -> OptBytes {
        if (NullOrEmpty(a[0])) return std::nullopt;
        return TimeUuidBytes(UnixMillisToRawTimestamp(types::DecodeBigint(*a[0])),
                             0x8080808080808080ull);
      }));
  r.Add(Function::Scalar(
      "maxtimeuuid", CqlType::Native(Kind::kTimeuuid), {CqlType::Native(Kind::kTimestamp)},
      [](FunctionArgs a, FunctionContext&) -> OptBytes {
        if (NullOrEmpty(a[0])) return std::nullopt;
        return TimeUuidBytes(UnixMillisToRawTimestamp(types::DecodeBigint(*a[0]) + 1) - 1,
                             0x7f7f7f7f7f7f7f7full);
      }));
  // dateOf and unixTimestampOf: deprecated since 2.2, still present in 4.1.
  r.Add(Function::Scalar("dateof", CqlType::Native(Kind::kTimestamp),
                         {CqlType::Native(Kind::kTimeuuid)},
                         [](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (NullOrEmpty(a[0])) return std::nullopt;
                           return types::EncodeTimestamp(TimeUuidUnixMillis(*a[0]));
                         }));
  r.Add(Function::Scalar("unixtimestampof", CqlType::Native(Kind::kBigint),
                         {CqlType::Native(Kind::kTimeuuid)},
                         [](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (NullOrEmpty(a[0])) return std::nullopt;
                           return types::EncodeBigint(TimeUuidUnixMillis(*a[0]));
                         }));
  AddToDate(r, Kind::kTimeuuid);
  AddToTimestamp(r, Kind::kTimeuuid);
  AddToUnixTimestamp(r, Kind::kTimeuuid);
  AddToUnixTimestamp(r, Kind::kTimestamp);
  AddToDate(r, Kind::kTimestamp);
  AddToUnixTimestamp(r, Kind::kDate);
  AddToTimestamp(r, Kind::kDate);
  AddFloorFunctions(r);
}

}  // namespace sibyl::query
