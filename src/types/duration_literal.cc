#include "types/duration_literal.h"

#include <array>
#include <optional>

#include "common/error.h"
#include "types/number_text.h"

namespace sibyl::types {
namespace {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = 1000 * kNanosPerMicro;
constexpr int64_t kNanosPerSecond = 1000 * kNanosPerMilli;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;

// Unit indexes as Duration.Builder numbers them; units must come in
// increasing order.
enum Unit {
  kYears = 1,
  kMonths,
  kWeeks,
  kDays,
  kHours,
  kMinutes,
  kSeconds,
  kMillis,
  kMicros,
  kNanos
};

const char* UnitName(int unit) {
  static constexpr std::array<const char*, 11> kNames = {
      "",        "years",   "months",       "weeks",        "days",       "hours",
      "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"};
  return kNames[static_cast<size_t>(unit)];
}

[[noreturn]] void ThrowUnconvertible(std::string_view source) {
  ThrowInvalid("Unable to convert '" + std::string(source) + "' to a duration");
}

class Builder {
 public:
  explicit Builder(bool negative) : negative_(negative) {}

  void Add(Unit unit, int64_t amount) {
    ValidateOrder(unit);
    switch (unit) {
      case kYears:
        AddMonths(amount, 12);
        break;
      case kMonths:
        AddMonths(amount, 1);
        break;
      case kWeeks:
        AddDays(amount, 7);
        break;
      case kDays:
        AddDays(amount, 1);
        break;
      case kHours:
        AddNanos(amount, kNanosPerHour);
        break;
      case kMinutes:
        AddNanos(amount, kNanosPerMinute);
        break;
      case kSeconds:
        AddNanos(amount, kNanosPerSecond);
        break;
      case kMillis:
        AddNanos(amount, kNanosPerMilli);
        break;
      case kMicros:
        AddNanos(amount, kNanosPerMicro);
        break;
      case kNanos:
        AddNanos(amount, 1);
        break;
    }
  }

  DurationValue Build() const {
    return negative_ ? DurationValue{-months_, -days_, -nanos_}
                     : DurationValue{months_, days_, nanos_};
  }

 private:
  void ValidateOrder(Unit unit) {
    if (unit == current_) {
      ThrowInvalid(std::string("Invalid duration. The ") + UnitName(unit) +
                   " are specified multiple times");
    }
    if (unit < current_) {
      ThrowInvalid(std::string("Invalid duration. The ") + UnitName(current_) +
                   " should be after " + UnitName(unit));
    }
    current_ = unit;
  }

  // Cassandra's limit message names Integer.MAX_VALUE for every unit.
  static void Validate(int64_t units, int64_t limit, const char* unit_name) {
    if (units > limit) {
      ThrowInvalid(std::string("Invalid duration. The total number of ") + unit_name +
                   " must be less or equal to 2147483647");
    }
  }
  void AddMonths(int64_t units, int64_t per_unit) {
    Validate(units, (INT32_MAX - months_) / per_unit, "months");
    months_ += static_cast<int32_t>(units * per_unit);
  }
  void AddDays(int64_t units, int64_t per_unit) {
    Validate(units, (INT32_MAX - days_) / per_unit, "days");
    days_ += static_cast<int32_t>(units * per_unit);
  }
  void AddNanos(int64_t units, int64_t per_unit) {
    Validate(units, (INT64_MAX - nanos_) / per_unit, "nanoseconds");
    nanos_ += units * per_unit;
  }

  bool negative_;
  int current_ = 0;
  int32_t months_ = 0;
  int32_t days_ = 0;
  int64_t nanos_ = 0;
};

// Digits at `pos`, as Long.parseLong would read them.
std::optional<int64_t> ReadNumber(std::string_view s, size_t& pos, std::string_view source,
                                  size_t max_digits = SIZE_MAX) {
  const size_t start = pos;
  while (pos < s.size() && pos - start < max_digits && s[pos] >= '0' && s[pos] <= '9') ++pos;
  if (pos == start) return std::nullopt;
  const auto value = ParseJavaLong(s.substr(start, pos - start));
  if (!value) ThrowUnconvertible(source);  // past a long: see the header
  return value;
}

// The unit symbol at `pos` in the order Cassandra's regex alternation tries
// them: y, mo, w, d, h, s, ms, us/µs, ns, then m.
std::optional<Unit> ReadUnit(std::string_view s, size_t& pos) {
  const auto lower = [&](size_t i) -> char {
    if (i >= s.size()) return '\0';
    const char c = s[i];
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
  };
  const char c0 = lower(pos);
  const char c1 = lower(pos + 1);
  struct Symbol {
    char first;
    char second;  // '\0' for one-letter symbols
    Unit unit;
  };
  static constexpr Symbol kSymbols[] = {
      {'y', '\0', kYears}, {'m', 'o', kMonths},   {'w', '\0', kWeeks}, {'d', '\0', kDays},
      {'h', '\0', kHours}, {'s', '\0', kSeconds}, {'m', 's', kMillis}, {'u', 's', kMicros},
      {'n', 's', kNanos},  {'m', '\0', kMinutes}};
  for (const Symbol& symbol : kSymbols) {
    if (c0 != symbol.first) continue;
    if (symbol.second == '\0') {
      pos += 1;
      return symbol.unit;
    }
    if (c1 == symbol.second) {
      pos += 2;
      return symbol.unit;
    }
  }
  // µs / µS: the micro sign U+00B5 is two bytes in UTF-8.
  if (s.substr(pos, 2) == "\xC2\xB5" && (lower(pos + 2) == 's')) {
    pos += 3;
    return kMicros;
  }
  return std::nullopt;
}

DurationValue ParseStandard(bool negative, std::string_view source) {
  Builder builder(negative);
  size_t pos = 0;
  do {
    const auto number = ReadNumber(source, pos, source);
    const auto unit = number ? ReadUnit(source, pos) : std::nullopt;
    if (!unit) ThrowUnconvertible(source);
    builder.Add(*unit, *number);
  } while (pos < source.size());
  return builder.Build();
}

// P[nY][nM][nD][T[nH][nM][nS]]: an optional "<digits><designator>" at pos.
std::optional<int64_t> Designated(std::string_view s, size_t& pos, char designator,
                                  std::string_view source) {
  size_t at = pos;
  const auto number = ReadNumber(s, at, source);
  if (!number || at >= s.size() || s[at] != designator) return std::nullopt;
  pos = at + 1;
  return number;
}

DurationValue ParseIso8601(bool negative, std::string_view source) {
  Builder builder(negative);
  size_t pos = 1;  // after 'P'
  if (const auto years = Designated(source, pos, 'Y', source)) builder.Add(kYears, *years);
  if (const auto months = Designated(source, pos, 'M', source)) builder.Add(kMonths, *months);
  if (const auto days = Designated(source, pos, 'D', source)) builder.Add(kDays, *days);
  if (pos < source.size() && source[pos] == 'T') {
    ++pos;
    if (const auto hours = Designated(source, pos, 'H', source)) builder.Add(kHours, *hours);
    if (const auto minutes = Designated(source, pos, 'M', source)) {
      builder.Add(kMinutes, *minutes);
    }
    if (const auto seconds = Designated(source, pos, 'S', source)) {
      builder.Add(kSeconds, *seconds);
    }
  }
  if (pos != source.size()) ThrowUnconvertible(source);
  return builder.Build();
}

DurationValue ParseIso8601Weeks(bool negative, std::string_view source) {
  size_t pos = 1;
  const auto weeks = ReadNumber(source, pos, source);
  if (!weeks || pos != source.size() - 1) ThrowUnconvertible(source);
  Builder builder(negative);
  builder.Add(kWeeks, *weeks);
  return builder.Build();
}

// P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})
DurationValue ParseIso8601Alternative(bool negative, std::string_view source) {
  static constexpr struct {
    size_t digits;
    char after;  // '\0' at the end
    Unit unit;
  } kFields[] = {{4, '-', kYears}, {2, '-', kMonths},  {2, 'T', kDays},
                 {2, ':', kHours}, {2, ':', kMinutes}, {2, '\0', kSeconds}};
  Builder builder(negative);
  size_t pos = 1;
  for (const auto& field : kFields) {
    const size_t start = pos;
    const auto number = ReadNumber(source, pos, source, field.digits);
    if (!number || pos - start != field.digits) ThrowUnconvertible(source);
    if (field.after != '\0') {
      if (pos >= source.size() || source[pos] != field.after) ThrowUnconvertible(source);
      ++pos;
    }
  }
  if (pos != source.size()) ThrowUnconvertible(source);
  // Matched: add the fields in order (the builder checks their totals).
  pos = 1;
  for (const auto& field : kFields) {
    const auto number = ReadNumber(source, pos, source, field.digits);
    builder.Add(field.unit, *number);
    ++pos;
  }
  return builder.Build();
}

// Appends dividend / divisor and the unit when the quotient is not zero;
// returns the remainder. Cassandra's Duration.append.
uint64_t AppendUnit(std::string& out, uint64_t dividend, uint64_t divisor, const char* unit) {
  if (dividend == 0 || dividend < divisor) return dividend;
  out.append(std::to_string(dividend / divisor)).append(unit);
  return dividend % divisor;
}

uint64_t Magnitude(int64_t x) {
  return x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
}

}  // namespace

DurationValue ParseDurationLiteral(std::string_view text) {
  const bool negative = text.starts_with('-');
  const std::string_view source = negative ? text.substr(1) : text;
  if (source.starts_with('P')) {
    if (source.ends_with('W')) return ParseIso8601Weeks(negative, source);
    if (source.find('-') != std::string_view::npos) {
      return ParseIso8601Alternative(negative, source);
    }
    return ParseIso8601(negative, source);
  }
  if (source.empty()) ThrowUnconvertible(source);
  return ParseStandard(negative, source);
}

std::string DurationToString(const DurationValue& duration) {
  std::string out;
  if (duration.months < 0 || duration.days < 0 || duration.nanoseconds < 0) out.push_back('-');
  const uint64_t months = AppendUnit(out, Magnitude(duration.months), 12, "y");
  AppendUnit(out, months, 1, "mo");
  AppendUnit(out, Magnitude(duration.days), 1, "d");
  if (duration.nanoseconds != 0) {
    uint64_t rest = AppendUnit(out, Magnitude(duration.nanoseconds), kNanosPerHour, "h");
    rest = AppendUnit(out, rest, kNanosPerMinute, "m");
    rest = AppendUnit(out, rest, kNanosPerSecond, "s");
    rest = AppendUnit(out, rest, kNanosPerMilli, "ms");
    rest = AppendUnit(out, rest, kNanosPerMicro, "us");
    AppendUnit(out, rest, 1, "ns");
  }
  return out;
}

}  // namespace sibyl::types
