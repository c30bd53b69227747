// Feeds arbitrary bytes to the CQL lexer and parser. The only exceptions
// allowed out of ParseStatement are CqlError(kSyntaxError) and, for the few
// checks Cassandra makes while parsing (duplicate columns in CREATE TABLE,
// ...), CqlError(kInvalid); crashes, sanitizer reports, other exceptions and
// the invariants checked below are failures.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "common/error.h"
#include "cql/lexer.h"
#include "cql/parser.h"
#include "fuzz_check.h"

namespace {

bool IsValidUtf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    auto lead = static_cast<unsigned char>(text[i]);
    size_t length = lead < 0x80           ? 1
                    : (lead >> 5) == 0x6  ? 2
                    : (lead >> 4) == 0xE  ? 3
                    : (lead >> 3) == 0x1E ? 4
                                          : 0;
    if (length == 0 || i + length > text.size()) return false;
    for (size_t k = 1; k < length; ++k) {
      if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
    }
    i += length;
  }
  return true;
}

// The tokens cover the query without gaps up to the first lexing error (or
// to its end), and the list always ends with the end-of-input token.
void CheckTokens(std::string_view query) {
  sibyl::cql::TokenList list = sibyl::cql::Tokenize(query);
  FUZZ_CHECK(!list.tokens.empty());
  FUZZ_CHECK(list.tokens.back().type == sibyl::cql::TokenType::kEof);
  size_t covered = 0;
  for (size_t i = 0; i + 1 < list.tokens.size(); ++i) {
    const sibyl::cql::Token& token = list.tokens[i];
    FUZZ_CHECK(!token.source.empty());
    FUZZ_CHECK(token.source.data() == query.data() + covered);
    FUZZ_CHECK(token.line >= 1 && token.column >= 0);
    covered += token.source.size();
  }
  if (list.error) {
    FUZZ_CHECK(covered <= query.size());
    FUZZ_CHECK(list.error->token_index == list.tokens.size() - 1);
  } else {
    FUZZ_CHECK(covered == query.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view query(reinterpret_cast<const char*>(data), size);
  CheckTokens(query);
  try {
    sibyl::cql::ParsedStatement parsed = sibyl::cql::ParseStatement(query);
    FUZZ_CHECK(parsed.bind_marker_count == static_cast<int>(parsed.bind_marker_names.size()));
  } catch (const sibyl::CqlError& e) {
    FUZZ_CHECK(e.code() == sibyl::ErrorCode::kSyntaxError ||
               e.code() == sibyl::ErrorCode::kInvalid);
    FUZZ_CHECK(*e.what() != '\0');
    FUZZ_CHECK(IsValidUtf8(e.what()));
  } catch (const std::exception& e) {
    __builtin_printf("unexpected exception: %s\n", e.what());
    std::abort();
  }
  return 0;
}
