#include "types/date_time_literal.h"

#include <cinttypes>
#include <cstdio>
#include <optional>

#include "common/error.h"
#include "types/civil_date.h"
#include "types/number_text.h"

namespace sibyl::types {
namespace {

constexpr int64_t kDateEpochShift = int64_t{1} << 31;
constexpr int64_t kMaxRawDate = (int64_t{1} << 32) - 1;

// Java's pattern "^-?\d+$".
bool IsRawNumber(std::string_view text) {
  if (text.starts_with('-')) text.remove_prefix(1);
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

std::optional<int64_t> FixedDigits(std::string_view text, size_t& pos, size_t min, size_t max) {
  const size_t start = pos;
  int64_t value = 0;
  while (pos < text.size() && pos - start < max && text[pos] >= '0' && text[pos] <= '9') {
    value = value * 10 + (text[pos] - '0');
    ++pos;
  }
  if (pos - start < min) return std::nullopt;
  return value;
}

// ISO_LOCAL_DATE with STRICT resolution, as days since the epoch.
std::optional<int64_t> ParseIsoLocalDate(std::string_view text) {
  size_t pos = 0;
  const bool plus = pos < text.size() && text[pos] == '+';
  const bool minus = pos < text.size() && text[pos] == '-';
  if (plus || minus) ++pos;
  const size_t year_start = pos;
  const auto year = FixedDigits(text, pos, 4, 10);
  if (!year) return std::nullopt;
  const size_t year_digits = pos - year_start;
  // EXCEEDS_PAD in strict mode: a '+' exactly when past four digits; no -0.
  if ((plus && year_digits <= 4) || (!plus && !minus && year_digits > 4) || (minus && *year == 0)) {
    return std::nullopt;
  }
  if (pos >= text.size() || text[pos++] != '-') return std::nullopt;
  const auto month = FixedDigits(text, pos, 2, 2);
  if (!month || pos >= text.size() || text[pos++] != '-') return std::nullopt;
  const auto day = FixedDigits(text, pos, 2, 2);
  if (!day || pos != text.size()) return std::nullopt;
  const int64_t signed_year = minus ? -*year : *year;
  if (signed_year > 999'999'999 || signed_year < -999'999'999 || *month < 1 || *month > 12 ||
      *day < 1 || *day > DaysInMonth(signed_year, static_cast<unsigned>(*month))) {
    return std::nullopt;
  }
  return DaysFromCivil(signed_year, static_cast<unsigned>(*month), static_cast<unsigned>(*day));
}

// Java's String.trim(): drops characters up to U+0020 at both ends.
std::string_view JavaTrim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ') s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ') s.remove_suffix(1);
  return s;
}

std::optional<int64_t> ParseInt(std::string_view text, int64_t below) {
  const auto value = ParseJavaInteger(text, INT32_MIN, INT32_MAX);
  if (!value || *value < 0 || *value >= below) return std::nullopt;
  return value;
}

// TimeSerializer.parseTimeStrictly ("loosely based on java.sql.Timestamp").
std::optional<int64_t> ParseTimeStrictly(std::string_view source) {
  const std::string_view s = JavaTrim(source);
  const size_t first_colon = s.find(':');
  if (first_colon == std::string_view::npos || first_colon == 0) return std::nullopt;
  const size_t second_colon = s.find(':', first_colon + 1);
  if (second_colon == std::string_view::npos || second_colon >= s.size() - 1) return std::nullopt;
  const auto hour = ParseInt(s.substr(0, first_colon), 24);
  const auto minute = ParseInt(s.substr(first_colon + 1, second_colon - first_colon - 1), 60);
  if (!hour || !minute) return std::nullopt;
  const size_t period = s.find('.', second_colon + 1);
  std::optional<int64_t> second;
  int64_t nanos = 0;
  if (period != std::string_view::npos && period < s.size() - 1) {
    second = ParseInt(s.substr(second_colon + 1, period - second_colon - 1), 60);
    std::string fraction(s.substr(period + 1));
    if (fraction.size() > 9 || fraction[0] < '0' || fraction[0] > '9') return std::nullopt;
    fraction.append(9 - fraction.size(), '0');
    const auto parsed = ParseJavaInteger(fraction, INT32_MIN, INT32_MAX);
    if (!parsed) return std::nullopt;
    nanos = *parsed;
  } else if (period != std::string_view::npos) {
    return std::nullopt;
  } else {
    second = ParseInt(s.substr(second_colon + 1), 60);
  }
  if (!second) return std::nullopt;
  return *hour * 3'600'000'000'000 + *minute * 60'000'000'000 + *second * 1'000'000'000 + nanos;
}

}  // namespace

std::string JavaLocalDateString(int64_t days_since_epoch) {
  const CivilDate date = CivilFromDays(days_since_epoch);
  char buffer[48];
  const int64_t year = date.year;
  if (year >= 0 && year <= 9999) {
    std::snprintf(buffer, sizeof buffer, "%04" PRId64 "-%02u-%02u", year, date.month, date.day);
  } else if (year > 9999) {
    std::snprintf(buffer, sizeof buffer, "+%" PRId64 "-%02u-%02u", year, date.month, date.day);
  } else {
    std::snprintf(buffer, sizeof buffer, "-%04" PRId64 "-%02u-%02u", -year, date.month, date.day);
  }
  return buffer;
}

int32_t ParseDateLiteral(std::string_view text) {
  const std::string source(text);
  if (IsRawNumber(text)) {
    const auto raw = ParseJavaLong(text);
    if (!raw || *raw < 0 || *raw > kMaxRawDate) {
      ThrowInvalid("Unable to make unsigned int (for date) from: '" + source + "'");
    }
    return static_cast<int32_t>(*raw - kDateEpochShift);
  }
  const auto days = ParseIsoLocalDate(text);
  // Cassandra converts to milliseconds first; an overflow there is a parse failure.
  if (!days || *days > INT64_MAX / kMillisPerDay || *days < INT64_MIN / kMillisPerDay) {
    ThrowInvalid("Unable to coerce '" + source + "' to a formatted date (long)");
  }
  if (*days < INT32_MIN) {
    ThrowInvalid("Input date " + source + " is less than min supported date " +
                 JavaLocalDateString(INT32_MIN) + "T00:00Z");
  }
  if (*days > INT32_MAX) {
    ThrowInvalid("Input date " + source + " is greater than max supported date " +
                 JavaLocalDateString(INT32_MAX) + "T00:00Z");
  }
  return static_cast<int32_t>(*days);
}

int64_t ParseTimeLiteral(std::string_view text) {
  const std::string source(text);
  if (IsRawNumber(text)) {
    const auto nanos = ParseJavaLong(text);
    if (!nanos || *nanos < 0 || *nanos >= kNanosPerDay) {
      ThrowInvalid("Unable to make long (for time) from: '" + source + "'");
    }
    return *nanos;
  }
  const auto nanos = ParseTimeStrictly(text);
  if (!nanos) {
    ThrowInvalid("(TimeType) Unable to coerce '" + source + "' to a formatted time (long)");
  }
  return *nanos;
}

}  // namespace sibyl::types
