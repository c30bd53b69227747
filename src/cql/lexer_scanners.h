#pragma once
// Internal to the lexer: scanners for the token rules that compete for the
// same first characters (numbers, durations, UUIDs, hex blobs, words), and
// the choice between them the way ANTLR's prediction DFA makes it.
//
// Each scanner reports how far its rule can match from the start — the
// longest prefix that could still grow into a token of that rule — and
// whether that prefix is a complete token. Because every rule here is matched
// greedily once chosen, that is all the DFA needs: a rule is committed to as
// soon as it is the only one still viable, and when no rule can take the
// next character, the first (highest priority) complete one wins.

#include <cstddef>
#include <string_view>

#include "cql/lexer_token.h"

namespace sibyl::cql::lexer_internal {

// How a chosen rule fails when it stops on a character it cannot take; the
// forms of ANTLR's lexer messages.
enum class FailureKind : uint8_t {
  kNoViableAlt,   // "no viable alternative at character 'x'"
  kMismatchSet,   // "mismatched character 'x' expecting set null"
  kMismatchChar,  // "mismatched character 'x' expecting 'c'"
  kEarlyExit,     // "required (...)+ loop did not match anything at character 'x'"
};

struct Scan {
  TokenType type = TokenType::kEof;
  size_t viable = 0;     // bytes; 0 = the rule cannot start here
  bool accepts = false;  // the `viable` bytes form a whole token
  FailureKind failure = FailureKind::kNoViableAlt;
  char expected = 0;  // for kMismatchChar
  // The FLOAT rule's predicates make `1..` an INTEGER of length 1 while the
  // rule itself looks at three characters; `token_length` (when non-zero)
  // and `token_type` give the token actually produced.
  size_t token_length = 0;
  TokenType token_type = TokenType::kEof;
};

// Rules, given the input starting at the token's first character.
Scan ScanInteger(std::string_view in);
Scan ScanFloat(std::string_view in);
Scan ScanUnitDuration(std::string_view in);  // -?digits unit (digits unit)*
Scan ScanIsoDuration(std::string_view in);   // -?P..., the ISO 8601 forms
Scan ScanUuid(std::string_view in);
Scan ScanHexNumber(std::string_view in);
Scan ScanWord(std::string_view in);  // keywords, booleans, identifiers
Scan ScanLiteral(std::string_view in, std::string_view text, TokenType type);          // fixed text
Scan ScanNegativeKeyword(std::string_view in, std::string_view word, TokenType type);  // -NaN

// The outcome of choosing among candidate scans (given in ANTLR priority
// order): either a token of `length` bytes and `type`, or a failure at byte
// `failure_at` of the kind given.
struct Choice {
  bool ok = false;
  TokenType type = TokenType::kEof;
  size_t length = 0;
  size_t failure_at = 0;
  FailureKind failure = FailureKind::kNoViableAlt;
  char expected = 0;
};

Choice Choose(const Scan* candidates, size_t count);

}  // namespace sibyl::cql::lexer_internal
