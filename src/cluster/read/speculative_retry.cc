#include "cluster/read/speculative_retry.h"

#include <cctype>
#include <charconv>
#include <string>

#include "common/ascii_case.h"

namespace sibyl::cluster {

namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace

SpeculativeRetry ParseSpeculativeRetry(std::string_view option,
                                       std::chrono::milliseconds read_timeout) {
  const std::string upper = AsciiUpper(option);
  if (upper == "ALWAYS") return {SpeculativeRetry::Kind::kAlways};
  if (EndsWith(upper, "MS")) {
    const std::string_view number = std::string_view(upper).substr(0, upper.size() - 2);
    double millis = 0;
    const auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), millis);
    if (error != std::errc() || end != number.data() + number.size() || millis < 0) return {};
    return {SpeculativeRetry::Kind::kAfter,
            std::chrono::milliseconds(static_cast<int64_t>(millis))};
  }
  if (EndsWith(upper, "P") || EndsWith(upper, "PERCENTILE") || upper.starts_with("MIN(") ||
      upper.starts_with("MAX(")) {
    return {SpeculativeRetry::Kind::kAfter, read_timeout / 2};
  }
  return {};  // NEVER, NONE
}

}  // namespace sibyl::cluster
