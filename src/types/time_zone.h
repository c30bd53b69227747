#pragma once
// Time zones a timestamp literal may name ('2024-03-10 02:30 America/New_York'):
// fixed offsets and the regions of the IANA tz database, read from the
// system's compiled zoneinfo files (TZif, RFC 8536) as java.time reads its
// own copy of the same database.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::types {

class TimeZone {
 public:
  // A zone that is always `offset_seconds` east of UTC.
  static std::shared_ptr<const TimeZone> Fixed(int32_t offset_seconds);

  // Seconds east of UTC in force at `epoch_seconds`.
  [[nodiscard]] int32_t OffsetAt(int64_t epoch_seconds) const;

  // The instant of a local date-time in this zone, as java.time's
  // ZonedDateTime.ofLocal chooses it: in a gap (clocks jumping forward) the
  // local time moves later by the gap's length; in an overlap (clocks going
  // back) the earlier of the two instants wins. Both come down to using the
  // offset in force before the transition.
  [[nodiscard]] int64_t ToEpochSeconds(int64_t local_seconds) const;

  // A daylight-saving rule in POSIX TZ form (the TZif footer), used past the
  // last listed transition. Public so that the parser in time_zone.cc can
  // build it; not part of the interface others use.
  struct Rule {
    // Mm.w.d (month, week 1..5 with 5 = last, weekday 0 = Sunday), Jn
    // (1..365, February 29 never counted) or n (0..365).
    enum class Kind { kMonthWeekDay, kJulianNoLeap, kJulianZero } kind = Kind::kMonthWeekDay;
    int month = 0, week = 0, weekday = 0, day = 0;
    int32_t time_seconds = 7200;  // local time of day of the change, may exceed a day
  };
  struct PosixTz {
    int32_t std_offset = 0;  // seconds east of UTC
    bool has_dst = false;
    int32_t dst_offset = 0;
    Rule start, end;
  };

  TimeZone(std::vector<int64_t> transitions, std::vector<int32_t> offsets_after,
           int32_t initial_offset, bool has_footer, PosixTz footer)
      : transitions_(std::move(transitions)),
        offsets_after_(std::move(offsets_after)),
        initial_offset_(initial_offset),
        has_footer_(has_footer),
        footer_(footer) {}

 private:
  int32_t FooterOffsetAt(int64_t epoch_seconds) const;

  std::vector<int64_t> transitions_;    // ascending instants
  std::vector<int32_t> offsets_after_;  // offset in force from transitions_[i]
  int32_t initial_offset_;              // before the first transition
  bool has_footer_;
  PosixTz footer_;
};

// The zone a tz database region id names ("Europe/Paris", "America/New_York"),
// or nullptr when there is no such region. Ids are case-sensitive, as in
// java.time. Loaded once and cached; safe to call from any thread.
[[nodiscard]] std::shared_ptr<const TimeZone> FindRegionTimeZone(std::string_view id);

// Parses a TZif file's bytes; nullptr if they are not a valid TZif file.
// Exposed for tests.
[[nodiscard]] std::shared_ptr<const TimeZone> ParseTzif(std::string_view data);

}  // namespace sibyl::types
