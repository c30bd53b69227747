// Feeds arbitrary bytes to the metrics endpoint's HTTP request parser, cut
// into pieces where the input says (the first byte), as reads would bring
// them. The parser must never crash or read out of bounds, must stop at its
// head limit, and a complete head must have a method, a path starting
// nowhere outside what was fed, and a consumed count within the last piece.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "fuzz_check.h"
#include "metrics/http_request_parser.h"

namespace {

constexpr size_t kMaxHead = 512;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const size_t piece = 1 + data[0] % 64;
  std::string_view input(reinterpret_cast<const char*>(data) + 1, size - 1);
  sibyl::metrics::HttpRequestParser parser({.max_head_bytes = kMaxHead});
  size_t fed = 0;
  while (!input.empty()) {
    const std::string_view chunk = input.substr(0, piece);
    input.remove_prefix(chunk.size());
    const auto state = parser.Feed(chunk);
    fed += chunk.size();
    if (state == sibyl::metrics::HttpParse::kNeedMore) {
      FUZZ_CHECK(fed <= kMaxHead + 4);
      continue;
    }
    if (state == sibyl::metrics::HttpParse::kComplete) {
      FUZZ_CHECK(parser.consumed() <= chunk.size());
      FUZZ_CHECK(!parser.request().method.empty());
      FUZZ_CHECK(!parser.request().path.empty());
      // Pipelined: the rest is the next request's.
      input = std::string_view(chunk.data() + parser.consumed(),
                               chunk.size() - parser.consumed() + input.size());
      parser.Reset();
      fed = 0;
      continue;
    }
    break;  // bad or too large: the endpoint answers and closes
  }
  return 0;
}
