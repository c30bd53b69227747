#pragma once
// Checks of internal assumptions that stay in release builds (the failure
// rule of docs/dev/errors.md). A broken assumption ends the request, never
// the process: SIBYL_CHECK throws InternalError, which the request
// dispatcher turns into a Server error for the client and one log line
// naming the statement and where the check failed.
//
//   SIBYL_CHECK(index < values.size(), "bound value " + std::to_string(index) + " of " + ...);
//
// The detail expression is evaluated only when the check fails, so checks
// cost one predictable branch on hot paths. Client mistakes are not checks:
// they are CqlErrors with Cassandra's code and message (common/error.h).
// Inside a RocksDB callback (comparators, compaction filters, merge
// operators) no exception may escape: such code catches InternalError at
// the callback's boundary.

#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace sibyl {

// A broken internal assumption: a bug of Sibyl's, not of the client.
class InternalError : public std::logic_error {
 public:
  // `what()` is the description the client sees; `where()` is file:line.
  InternalError(std::string description, std::string where)
      : std::logic_error(std::move(description)), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

// Throws InternalError "Internal error: <detail> (failed check: <condition>)".
// Out of line and cold, so the checks' fast path stays small.
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] inline void FailCheck(std::string_view condition,
                                                                   std::string_view detail,
                                                                   const char* file, int line) {
  std::string description = "Internal error: ";
  if (!detail.empty()) {
    description.append(detail).append(" (failed check: ");
    description.append(condition).append(")");
  } else {
    description.append("failed check: ").append(condition);
  }
  std::string_view path = file;
  // The path from src/ is enough to find the line.
  if (const size_t src = path.rfind("src/"); src != std::string_view::npos) path.remove_prefix(src);
  throw InternalError(std::move(description), std::string(path) + ":" + std::to_string(line));
}

}  // namespace sibyl

// SIBYL_CHECK(condition) or SIBYL_CHECK(condition, detail): `detail` is
// anything a std::string can be made from.
#define SIBYL_CHECK(condition, ...)                                                              \
  do {                                                                                           \
    if (!(condition)) [[unlikely]] {                                                             \
      ::sibyl::FailCheck(#condition, ::std::string_view{__VA_OPT__(::std::string(__VA_ARGS__))}, \
                         __FILE__, __LINE__);                                                    \
    }                                                                                            \
  } while (false)
