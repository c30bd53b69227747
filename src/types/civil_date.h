#pragma once
// Proleptic Gregorian calendar arithmetic (the calendar java.time and
// Python's datetime use, and so the one CQL literals and cqlsh use): day
// counts since 1970-01-01 to and from year/month/day, exact for any day
// count an int64 can hold. After H. Hinnant's civil_from_days and
// days_from_civil.

#include <cstdint>

namespace sibyl::types {

struct CivilDate {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

constexpr int64_t kSecondsPerDay = 86'400;
constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerDay = 86'400'000'000'000;

// Floor division, as Java's Math.floorDiv: -1 / 2 == -1.
constexpr int64_t FloorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

// Floor modulo, as Java's Math.floorMod: the remainder of FloorDiv, never
// negative for a positive b, and without the overflow of a - FloorDiv(a, b) * b.
constexpr int64_t FloorMod(int64_t a, int64_t b) {
  const int64_t r = a % b;
  return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
}

constexpr bool IsLeapYear(int64_t year) {
  return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
}

constexpr unsigned DaysInMonth(int64_t year, unsigned month) {
  constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// REQUIRES: |days| < 2^62 (no overflow in the era arithmetic).
constexpr CivilDate CivilFromDays(int64_t days) {
  days += 719468;
  const int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const auto doe = static_cast<unsigned>(days - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned day = doy - (153 * mp + 2) / 5 + 1;
  const unsigned month = mp < 10 ? mp + 3 : mp - 9;
  return {static_cast<int64_t>(yoe) + era * 400 + (month <= 2), month, day};
}

// REQUIRES: month 1..12, day 1..31, |year| < 2^50.
constexpr int64_t DaysFromCivil(int64_t year, unsigned month, unsigned day) {
  year -= month <= 2;
  const int64_t era = (year >= 0 ? year : year - 399) / 400;
  const auto yoe = static_cast<unsigned>(year - era * 400);
  const unsigned doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// Java's Calendar.add(Calendar.MONTH, n) in UTC on milliseconds since the
// epoch: the day of month is clamped to the target month's length, the time
// of day kept. (Proleptic Gregorian: Calendar's Julian switch before
// 1582-10-15 is not reproduced.)
constexpr int64_t AddCalendarMonths(int64_t millis, int64_t months) {
  const int64_t days = FloorDiv(millis, kMillisPerDay);
  const int64_t time_of_day = millis - days * kMillisPerDay;
  const CivilDate date = CivilFromDays(days);
  const int64_t total = date.year * 12 + (date.month - 1) + months;
  const int64_t year = FloorDiv(total, 12);
  const auto month = static_cast<unsigned>(total - year * 12 + 1);
  const unsigned length = DaysInMonth(year, month);
  const unsigned day = date.day < length ? date.day : length;
  return DaysFromCivil(year, month, day) * kMillisPerDay + time_of_day;
}

}  // namespace sibyl::types
