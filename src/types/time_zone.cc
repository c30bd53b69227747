#include "types/time_zone.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
#include <mutex>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "common/bytes.h"
#include "types/civil_date.h"

namespace sibyl::types {
namespace {

constexpr const char* kZoneInfoDir = "/usr/share/zoneinfo";
// Far enough to reach past any transition that decides a local time: no
// zone has had two transitions within two days of each other.
constexpr int64_t kTransitionReach = 2 * kSecondsPerDay;

// ---- POSIX TZ strings (the TZif footer), e.g. "EST5EDT,M3.2.0,M11.1.0" ----

class PosixTzParser {
 public:
  explicit PosixTzParser(std::string_view text) : text_(text) {}

  std::optional<TimeZone::PosixTz> Parse() {
    TimeZone::PosixTz tz;
    if (!SkipName()) return std::nullopt;
    const auto std_west = ParseClock(/*allow_sign=*/true);
    if (!std_west) return std::nullopt;
    tz.std_offset = -*std_west;  // POSIX counts hours west of Greenwich
    if (AtEnd()) return tz;
    if (!SkipName()) return std::nullopt;
    tz.has_dst = true;
    tz.dst_offset = tz.std_offset + 3600;
    if (!AtEnd() && Peek() != ',') {
      const auto dst_west = ParseClock(true);
      if (!dst_west) return std::nullopt;
      tz.dst_offset = -*dst_west;
    }
    if (AtEnd()) {
      tz.has_dst = false;  // no rule given: nothing to switch by
      return tz;
    }
    if (!Consume(',') || !ParseRule(tz.start) || !Consume(',') || !ParseRule(tz.end)) {
      return std::nullopt;
    }
    if (!AtEnd()) return std::nullopt;
    return tz;
  }

 private:
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return text_[pos_]; }
  bool Consume(char c) {
    if (AtEnd() || Peek() != c) return false;
    ++pos_;
    return true;
  }

  // A zone abbreviation: three or more letters, or anything in <...>.
  bool SkipName() {
    if (Consume('<')) {
      const size_t close = text_.find('>', pos_);
      if (close == std::string_view::npos) return false;
      pos_ = close + 1;
      return true;
    }
    const size_t start = pos_;
    while (!AtEnd() && std::isalpha(static_cast<unsigned char>(Peek()))) ++pos_;
    return pos_ - start >= 3;
  }

  std::optional<int> ParseNumber() {
    const size_t start = pos_;
    int value = 0;
    while (!AtEnd() && std::isdigit(static_cast<unsigned char>(Peek())) && pos_ - start < 4) {
      value = value * 10 + (Peek() - '0');
      ++pos_;
    }
    if (pos_ == start) return std::nullopt;
    return value;
  }

  // [+-]hh[:mm[:ss]] in seconds.
  std::optional<int32_t> ParseClock(bool allow_sign) {
    int sign = 1;
    if (allow_sign && !AtEnd() && (Peek() == '+' || Peek() == '-')) {
      sign = Peek() == '-' ? -1 : 1;
      ++pos_;
    }
    const auto hours = ParseNumber();
    if (!hours || *hours > 167) return std::nullopt;
    int32_t seconds = *hours * 3600;
    for (int32_t unit : {60, 1}) {
      if (!Consume(':')) break;
      const auto part = ParseNumber();
      if (!part || *part > 59) return std::nullopt;
      seconds += *part * unit;
    }
    return sign * seconds;
  }

  bool ParseRule(TimeZone::Rule& rule) {
    using Kind = TimeZone::Rule::Kind;
    if (Consume('M')) {
      rule.kind = Kind::kMonthWeekDay;
      const auto month = ParseNumber();
      if (!month || !Consume('.')) return false;
      const auto week = ParseNumber();
      if (!week || !Consume('.')) return false;
      const auto weekday = ParseNumber();
      if (!weekday || *month < 1 || *month > 12 || *week < 1 || *week > 5 || *weekday > 6) {
        return false;
      }
      rule.month = *month;
      rule.week = *week;
      rule.weekday = *weekday;
    } else {
      const bool julian = Consume('J');
      rule.kind = julian ? Kind::kJulianNoLeap : Kind::kJulianZero;
      const auto day = ParseNumber();
      if (!day || *day > 365 || (julian && *day < 1)) return false;
      rule.day = *day;
    }
    if (Consume('/')) {
      const auto time = ParseClock(true);
      if (!time) return false;
      rule.time_seconds = *time;
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// The local day (days since the epoch) on which `rule` falls in `year`.
int64_t RuleDay(const TimeZone::Rule& rule, int64_t year) {
  using Kind = TimeZone::Rule::Kind;
  switch (rule.kind) {
    case Kind::kJulianNoLeap:
      return DaysFromCivil(year, 1, 1) + rule.day - 1 + (IsLeapYear(year) && rule.day >= 60);
    case Kind::kJulianZero:
      return DaysFromCivil(year, 1, 1) + rule.day;
    case Kind::kMonthWeekDay:
      break;
  }
  const auto month = static_cast<unsigned>(rule.month);
  const int64_t first = DaysFromCivil(year, month, 1);
  const int64_t first_weekday = ((first % 7) + 7 + 4) % 7;  // 1970-01-01 was a Thursday
  int64_t day = first + (rule.weekday - first_weekday + 7) % 7 + 7 * (rule.week - 1);
  while (day >= first + DaysInMonth(year, month)) day -= 7;  // week 5 means "last"
  return day;
}

// ---- TZif ----

struct TzifCounts {
  uint32_t isut, isstd, leap, time, type, chars;
};

std::optional<TzifCounts> ReadHeader(std::string_view data, size_t at) {
  if (data.size() < at + 44 || data.substr(at, 4) != "TZif") return std::nullopt;
  const char* p = data.data() + at + 20;
  TzifCounts counts{LoadBE32(p),      LoadBE32(p + 4),  LoadBE32(p + 8),
                    LoadBE32(p + 12), LoadBE32(p + 16), LoadBE32(p + 20)};
  // Sanity bounds: real files list a few thousand transitions at most.
  if (counts.time > 100'000 || counts.type == 0 || counts.type > 256 || counts.chars > 100'000 ||
      counts.leap > 100'000 || (counts.isut != 0 && counts.isut != counts.type) ||
      (counts.isstd != 0 && counts.isstd != counts.type)) {
    return std::nullopt;
  }
  return counts;
}

size_t BlockSize(const TzifCounts& c, size_t time_size) {
  return c.time * time_size + c.time + c.type * 6 + c.chars + c.leap * (time_size + 4) + c.isstd +
         c.isut;
}

bool IsAcceptableRegionId(std::string_view id) {
  if (id.empty() || id.size() > 128 || !std::isalpha(static_cast<unsigned char>(id[0]))) {
    return false;
  }
  for (char c : id) {
    const auto u = static_cast<unsigned char>(c);
    if (!std::isalnum(u) && c != '/' && c != '_' && c != '-' && c != '+') return false;
  }
  // Files in the zoneinfo directory that are not java.time regions.
  for (std::string_view excluded : {"posix/", "right/", "SystemV/"}) {
    if (id.starts_with(excluded)) return false;
  }
  return id != "posixrules" && id != "localtime" && id != "Factory" &&
         id.find("//") == std::string_view::npos && !id.ends_with("/");
}

}  // namespace

std::shared_ptr<const TimeZone> TimeZone::Fixed(int32_t offset_seconds) {
  return std::make_shared<const TimeZone>(std::vector<int64_t>{}, std::vector<int32_t>{},
                                          offset_seconds, false, PosixTz{});
}

int32_t TimeZone::FooterOffsetAt(int64_t epoch_seconds) const {
  if (!footer_.has_dst) return footer_.std_offset;
  const int64_t year =
      CivilFromDays(FloorDiv(epoch_seconds + footer_.std_offset, kSecondsPerDay)).year;
  const int64_t start = RuleDay(footer_.start, year) * kSecondsPerDay + footer_.start.time_seconds -
                        footer_.std_offset;
  const int64_t end =
      RuleDay(footer_.end, year) * kSecondsPerDay + footer_.end.time_seconds - footer_.dst_offset;
  const bool in_dst = start < end ? (epoch_seconds >= start && epoch_seconds < end)
                                  : !(epoch_seconds >= end && epoch_seconds < start);
  return in_dst ? footer_.dst_offset : footer_.std_offset;
}

int32_t TimeZone::OffsetAt(int64_t epoch_seconds) const {
  if (transitions_.empty()) return has_footer_ ? FooterOffsetAt(epoch_seconds) : initial_offset_;
  if (epoch_seconds < transitions_.front()) return initial_offset_;
  if (has_footer_ && epoch_seconds >= transitions_.back()) return FooterOffsetAt(epoch_seconds);
  const auto after = std::upper_bound(transitions_.begin(), transitions_.end(), epoch_seconds);
  return offsets_after_[static_cast<size_t>(after - transitions_.begin()) - 1];
}

int64_t TimeZone::ToEpochSeconds(int64_t local_seconds) const {
  const int32_t before = OffsetAt(local_seconds - kTransitionReach);
  const int32_t after = OffsetAt(local_seconds + kTransitionReach);
  if (before == after) return local_seconds - before;
  const bool before_valid = OffsetAt(local_seconds - before) == before;
  const bool after_valid = OffsetAt(local_seconds - after) == after;
  // Both valid: an overlap, take the earlier instant (the offset before the
  // change). Neither: a gap, which the offset before the change also covers.
  if (!before_valid && after_valid) return local_seconds - after;
  return local_seconds - before;
}

std::shared_ptr<const TimeZone> ParseTzif(std::string_view data) {
  const auto v1 = ReadHeader(data, 0);
  if (!v1) return nullptr;
  const char version = data[4];
  size_t block = 44;
  TzifCounts counts = *v1;
  size_t time_size = 4;
  if (version >= '2') {
    const size_t second = 44 + BlockSize(*v1, 4);
    const auto v2 = ReadHeader(data, second);
    if (!v2) return nullptr;
    counts = *v2;
    block = second + 44;
    time_size = 8;
  }
  const size_t block_end = block + BlockSize(counts, time_size);
  if (data.size() < block_end) return nullptr;

  const char* times = data.data() + block;
  const char* indices = times + counts.time * time_size;
  const char* types = indices + counts.time;
  std::vector<int32_t> type_offsets(counts.type);
  for (uint32_t i = 0; i < counts.type; ++i) {
    type_offsets[i] = static_cast<int32_t>(LoadBE32(types + 6 * i));
  }
  std::vector<int64_t> transitions;
  std::vector<int32_t> offsets_after;
  transitions.reserve(counts.time);
  offsets_after.reserve(counts.time);
  for (uint32_t i = 0; i < counts.time; ++i) {
    const int64_t at = time_size == 8 ? static_cast<int64_t>(LoadBE64(times + 8 * i))
                                      : static_cast<int32_t>(LoadBE32(times + 4 * i));
    const auto type = static_cast<uint8_t>(indices[i]);
    if (type >= counts.type || (!transitions.empty() && at <= transitions.back())) return nullptr;
    transitions.push_back(at);
    offsets_after.push_back(type_offsets[type]);
  }

  TimeZone::PosixTz footer;
  bool has_footer = false;
  if (time_size == 8 && data.size() > block_end + 1 && data[block_end] == '\n') {
    const size_t close = data.find('\n', block_end + 1);
    if (close == std::string_view::npos) return nullptr;
    const std::string_view text = data.substr(block_end + 1, close - block_end - 1);
    if (!text.empty()) {
      const auto parsed = PosixTzParser(text).Parse();
      if (!parsed) return nullptr;
      footer = *parsed;
      has_footer = true;
    }
  }
  return std::make_shared<const TimeZone>(std::move(transitions), std::move(offsets_after),
                                          type_offsets[0], has_footer, footer);
}

std::shared_ptr<const TimeZone> FindRegionTimeZone(std::string_view id) {
  if (!IsAcceptableRegionId(id)) return nullptr;
  static std::mutex mutex;
  static std::unordered_map<std::string, std::shared_ptr<const TimeZone>> cache;
  const std::string key(id);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  std::shared_ptr<const TimeZone> zone;
  std::ifstream file(std::string(kZoneInfoDir) + "/" + key, std::ios::binary);
  if (file) {
    std::ostringstream contents;
    contents << file.rdbuf();
    zone = ParseTzif(contents.str());
  }
  std::lock_guard<std::mutex> lock(mutex);
  // Misses are cached too, but not without bound: ids come from user input.
  if (zone || cache.size() < 2048) cache.emplace(key, zone);
  return zone;
}

}  // namespace sibyl::types
