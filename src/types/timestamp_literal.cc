#include "types/timestamp_literal.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>

#include "common/error.h"
#include "types/civil_date.h"
#include "types/number_text.h"
#include "types/time_zone.h"

namespace sibyl::types {
namespace {

constexpr int32_t kMaxOffsetSeconds = 18 * 3600;  // java.time's ZoneOffset bound

// Where the instant of a local date-time comes from.
struct Zone {
  enum class Kind { kServer, kOffset, kRegion } kind = Kind::kServer;
  int32_t offset_seconds = 0;
  std::shared_ptr<const TimeZone> region;
};

struct LocalDateTime {
  int64_t year = 0;
  int64_t month = 0, day = 0;
  int64_t hour = 0, minute = 0, second = 0;
  int64_t millis = 0;  // the fraction, truncated
};

class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  bool AtEnd() const { return pos_ == text_.size(); }
  std::string_view Rest() const { return text_.substr(pos_); }
  bool Consume(char c) {
    if (AtEnd() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool PeekIs(char c) const { return !AtEnd() && text_[pos_] == c; }

  // Between min_digits and max_digits ASCII digits, greedily; a value past
  // int64 saturates (every field has a far smaller range anyway).
  std::optional<int64_t> Digits(size_t min_digits, size_t max_digits) {
    const size_t start = pos_;
    int64_t value = 0;
    while (!AtEnd() && pos_ - start < max_digits && text_[pos_] >= '0' && text_[pos_] <= '9') {
      value = value > (INT64_MAX - 9) / 10 ? INT64_MAX : value * 10 + (text_[pos_] - '0');
      ++pos_;
    }
    if (pos_ - start < min_digits) {
      pos_ = start;
      return std::nullopt;
    }
    return value;
  }

  size_t position() const { return pos_; }
  void set_position(size_t pos) { pos_ = pos; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<Zone> OffsetZone(int64_t sign, int64_t hours, int64_t minutes, int64_t seconds) {
  // OffsetIdPrinterParser refuses fields out of range; ZoneOffset refuses
  // more than 18 hours.
  if (hours > 23 || minutes > 59 || seconds > 59) return std::nullopt;
  const int64_t total = sign * (hours * 3600 + minutes * 60 + seconds);
  if (total > kMaxOffsetSeconds || total < -kMaxOffsetSeconds) return std::nullopt;
  Zone zone;
  zone.kind = Zone::Kind::kOffset;
  zone.offset_seconds = static_cast<int32_t>(total);
  return zone;
}

// [+-]HH then optional minutes (with or without a colon) and seconds, as the
// offset patterns X ("+HHmm"), XXX ("+HH:MM") and the zone-text parser's
// "+HH:MM:ss" want them. `no_offset` is the text meaning UTC ("Z"), matched
// case-insensitively when `any_case`.
struct OffsetPattern {
  bool colon;
  bool minutes_required;
  bool seconds_allowed;
};

std::optional<Zone> ParseOffset(Cursor& cursor, OffsetPattern pattern, bool allow_z,
                                bool any_case_z) {
  if (allow_z && (cursor.Consume('Z') || (any_case_z && cursor.Consume('z')))) {
    return OffsetZone(1, 0, 0, 0);
  }
  int64_t sign;
  if (cursor.Consume('+')) {
    sign = 1;
  } else if (cursor.Consume('-')) {
    sign = -1;
  } else {
    return std::nullopt;
  }
  const auto hours = cursor.Digits(2, 2);
  if (!hours) return std::nullopt;
  int64_t minutes = 0;
  int64_t seconds = 0;
  const size_t before_minutes = cursor.position();
  const bool colon_ok = !pattern.colon || cursor.Consume(':');
  const auto parsed_minutes = colon_ok ? cursor.Digits(2, 2) : std::nullopt;
  if (parsed_minutes) {
    minutes = *parsed_minutes;
    if (pattern.seconds_allowed) {
      const size_t before_seconds = cursor.position();
      const auto parsed_seconds = cursor.Consume(':') ? cursor.Digits(2, 2) : std::nullopt;
      if (parsed_seconds) {
        seconds = *parsed_seconds;
      } else {
        cursor.set_position(before_seconds);
      }
    }
  } else {
    if (pattern.minutes_required) return std::nullopt;
    cursor.set_position(before_minutes);
  }
  return OffsetZone(sign, *hours, minutes, seconds);
}

constexpr OffsetPattern kPatternX{false, false, false};      // +HHmm
constexpr OffsetPattern kPatternXXX{true, true, false};      // +HH:MM
constexpr OffsetPattern kPatternZoneText{true, true, true};  // +HH:MM:ss

// A zone name after "yyyy-MM-dd HH:mm " (patterns z and zzzz): the whole
// rest of the text must be the name.
std::optional<Zone> ParseZoneName(std::string_view rest) {
  Cursor cursor(rest);
  if (rest.starts_with('+') || rest.starts_with('-')) {
    auto zone = ParseOffset(cursor, kPatternZoneText, false, false);
    return zone && cursor.AtEnd() ? zone : std::nullopt;
  }
  if (rest == "UTC" || rest == "GMT" || rest == "GMT0" || rest == "UT" || rest == "Z") {
    return OffsetZone(1, 0, 0, 0);
  }
  for (std::string_view prefix : {"GMT", "UT"}) {
    if (rest.starts_with(prefix) && rest.size() > prefix.size() &&
        (rest[prefix.size()] == '+' || rest[prefix.size()] == '-')) {
      Cursor offset(rest.substr(prefix.size()));
      auto zone = ParseOffset(offset, kPatternZoneText, false, false);
      return zone && offset.AtEnd() ? zone : std::nullopt;
    }
  }
  // Region ids; java.time also knows localized names, which Sibyl does not
  // guess at (see the header).
  if (rest.find('/') == std::string_view::npos) return std::nullopt;
  auto region = FindRegionTimeZone(rest);
  if (!region) return std::nullopt;
  Zone zone;
  zone.kind = Zone::Kind::kRegion;
  zone.region = std::move(region);
  return zone;
}

// The zone forms after a date-time (or after "yyyy-MM-dd" when not
// `allow_none`): "", " z", " zzzz", " X", "X", "XXX".
std::optional<Zone> ParseZoneSuffix(std::string_view rest, bool allow_none) {
  if (rest.empty()) return allow_none ? std::optional<Zone>(Zone{}) : std::nullopt;
  if (rest[0] == ' ') {
    Cursor cursor(rest.substr(1));
    if (auto zone = ParseOffset(cursor, kPatternX, true, false); zone && cursor.AtEnd()) {
      return zone;
    }
    return ParseZoneName(rest.substr(1));
  }
  for (OffsetPattern pattern : {kPatternX, kPatternXXX}) {
    Cursor cursor(rest);
    if (auto zone = ParseOffset(cursor, pattern, true, false); zone && cursor.AtEnd()) return zone;
  }
  return std::nullopt;
}

// Java's SMART resolution of a date: fields in range, and a day past the end
// of the month moved back to its last day.
bool ResolveDate(LocalDateTime& t, int64_t min_year) {
  if (t.year < min_year || t.year > 999'999'999 || t.month < 1 || t.month > 12 || t.day < 1 ||
      t.day > 31) {
    return false;
  }
  t.day = std::min<int64_t>(t.day, DaysInMonth(t.year, static_cast<unsigned>(t.month)));
  return true;
}

std::optional<int64_t> ToEpochMillis(const LocalDateTime& t, bool next_day, const Zone& zone) {
  const int64_t days =
      DaysFromCivil(t.year, static_cast<unsigned>(t.month), static_cast<unsigned>(t.day)) +
      (next_day ? 1 : 0);
  const int64_t local = days * kSecondsPerDay + t.hour * 3600 + t.minute * 60 + t.second;
  int64_t seconds;
  switch (zone.kind) {
    case Zone::Kind::kServer:
      seconds = local;
      break;
    case Zone::Kind::kOffset:
      seconds = local - zone.offset_seconds;
      break;
    case Zone::Kind::kRegion:
      seconds = zone.region->ToEpochSeconds(local);
      break;
  }
  int64_t millis;
  if (__builtin_mul_overflow(seconds, int64_t{1000}, &millis) ||
      __builtin_add_overflow(millis, t.millis, &millis)) {
    return std::nullopt;
  }
  return millis;
}

// "y-M-d'T'H:m[:s]" and "y-M-d H:m[:s]" with a 0-9 digit fraction and any
// zone suffix.
std::optional<int64_t> ParseDateTime(std::string_view text) {
  Cursor cursor(text);
  LocalDateTime t;
  const auto year = cursor.Digits(1, 19);
  if (!year || !cursor.Consume('-')) return std::nullopt;
  const auto month = cursor.Digits(1, 19);
  if (!month || !cursor.Consume('-')) return std::nullopt;
  const auto day = cursor.Digits(1, 19);
  if (!day || !(cursor.Consume('T') || cursor.Consume(' '))) return std::nullopt;
  const auto hour = cursor.Digits(1, 19);
  if (!hour || !cursor.Consume(':')) return std::nullopt;
  const auto minute = cursor.Digits(1, 19);
  if (!minute) return std::nullopt;
  t.year = *year;
  t.month = *month;
  t.day = *day;
  t.hour = *hour;
  t.minute = *minute;
  bool has_seconds = false;
  int64_t nanos = 0;
  if (cursor.PeekIs(':')) {
    cursor.Consume(':');
    const auto second = cursor.Digits(1, 19);
    if (!second) return std::nullopt;
    t.second = *second;
    has_seconds = true;
  }
  if (cursor.Consume('.')) {
    // A fraction without seconds parses, then fails to resolve into a time.
    if (!has_seconds) return std::nullopt;
    const size_t start = cursor.position();
    const auto fraction = cursor.Digits(0, 9);
    const size_t digits = cursor.position() - start;
    nanos = fraction.value_or(0);
    for (size_t i = digits; i < 9; ++i) nanos *= 10;
  }
  const auto zone = ParseZoneSuffix(cursor.Rest(), /*allow_none=*/true);
  if (!zone || !ResolveDate(t, 1)) return std::nullopt;
  bool next_day = false;
  if (t.hour == 24 && t.minute == 0 && t.second == 0 && nanos == 0) {
    t.hour = 0;  // SMART resolution: 24:00 is the end of the day
    next_day = true;
  } else if (t.hour > 23 || t.minute > 59 || t.second > 59) {
    return std::nullopt;
  }
  t.millis = nanos / 1'000'000;
  return ToEpochMillis(t, next_day, *zone);
}

// "yyyy-MM-dd" followed by a zone: year of at least four digits ('+'
// before more than four), two-digit month and day.
std::optional<int64_t> ParseDateWithZone(std::string_view text) {
  Cursor cursor(text);
  const bool plus = cursor.Consume('+');
  const size_t start = cursor.position();
  const auto year = cursor.Digits(4, 19);
  if (!year || (plus != (cursor.position() - start > 4))) return std::nullopt;
  LocalDateTime t;
  t.year = *year;
  if (!cursor.Consume('-')) return std::nullopt;
  const auto month = cursor.Digits(2, 2);
  if (!month || !cursor.Consume('-')) return std::nullopt;
  const auto day = cursor.Digits(2, 2);
  if (!day) return std::nullopt;
  t.month = *month;
  t.day = *day;
  const auto zone = ParseZoneSuffix(cursor.Rest(), /*allow_none=*/false);
  if (!zone || !ResolveDate(t, 1)) return std::nullopt;
  return ToEpochMillis(t, false, *zone);
}

// ISO_DATE: a proleptic year of 4 to 10 digits (a sign allowed, '+'
// required past four digits), then an optional ISO offset (Z in any case).
std::optional<int64_t> ParseIsoDate(std::string_view text) {
  Cursor cursor(text);
  const bool plus = cursor.Consume('+');
  const bool minus = !plus && cursor.Consume('-');
  const size_t start = cursor.position();
  const auto year = cursor.Digits(4, 10);
  if (!year) return std::nullopt;
  const size_t digits = cursor.position() - start;
  if ((plus && digits <= 4) || (!plus && !minus && digits > 4) || (minus && *year == 0)) {
    return std::nullopt;
  }
  LocalDateTime t;
  t.year = minus ? -*year : *year;
  if (!cursor.Consume('-')) return std::nullopt;
  const auto month = cursor.Digits(2, 2);
  if (!month || !cursor.Consume('-')) return std::nullopt;
  const auto day = cursor.Digits(2, 2);
  if (!day) return std::nullopt;
  t.month = *month;
  t.day = *day;
  Zone zone;
  if (!cursor.AtEnd()) {
    auto offset = ParseOffset(cursor, kPatternZoneText, true, /*any_case_z=*/true);
    if (!offset || !cursor.AtEnd()) return std::nullopt;
    zone = *offset;
  }
  if (!ResolveDate(t, -999'999'999)) return std::nullopt;
  return ToEpochMillis(t, false, zone);
}

bool IsRawMillis(std::string_view text) {
  if (text.starts_with('-')) text.remove_prefix(1);
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

int64_t ParseTimestampLiteral(std::string_view text, int64_t now_millis) {
  if (EqualsIgnoreCase(text, "now")) return now_millis;
  if (IsRawMillis(text)) {
    const auto millis = ParseJavaLong(text);
    if (!millis) {
      ThrowInvalid("Unable to make long (for date) from: '" + std::string(text) + "'");
    }
    return *millis;
  }
  for (auto parse : {ParseDateTime, ParseDateWithZone, ParseIsoDate}) {
    if (const auto millis = parse(text)) return *millis;
  }
  ThrowInvalid("Unable to parse a date/time from '" + std::string(text) + "'");
}

}  // namespace sibyl::types
