#pragma once
// Internal to the parser: the token stream the recursive-descent rules read,
// modelled on ANTLR 3's CommonTokenStream so that errors come out as
// Cassandra reports them.
//
// ANTLR fetches tokens from the lexer lazily; Cassandra's error snippet can
// only show tokens fetched so far, and a lexer error counts as reported when
// the token after it is fetched. The context therefore tracks the furthest
// token looked at. Rules look ahead only as far as ANTLR's decisions would.
//
// Errors end the parse at once (Cassandra reports only its first error):
//   - Mismatch(): a required token is missing ("mismatched input 'x' expecting K_FROM");
//   - NoViableAlt(k): no alternative fits; ANTLR names the k-th lookahead
//     token, where its prediction failed, and brackets the current one;
//   - ActionError(): errors from grammar actions ("Bind variables cannot be
//     used for table names"), reported without position.
// Inside Speculate() (ANTLR's syntactic predicates) errors only abandon the
// speculation, and action errors are ignored, as ANTLR skips actions there.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "cql/lexer.h"

namespace sibyl::cql::parser_internal {

class ParseContext {
 public:
  // REQUIRES: `tokens` was produced from `query`; both outlive the context.
  ParseContext(std::string_view query, const TokenList& tokens);

  // The k-th visible token from the current position (k >= 1); the end of
  // input repeats past the end.
  const Token& LT(int k);
  TokenType LA(int k) { return LT(k).type; }
  void Consume();
  // Consumes LT(1) if it has `type`, else fails with a mismatch.
  const Token& Match(TokenType type);

  [[noreturn]] void Mismatch(TokenType expected);
  [[noreturn]] void NoViableAlt(int k = 1);
  // LT(1) is not in a token set the grammar matches as one ("mismatched
  // input 'x' expecting set null", ANTLR 3's MismatchedSetException).
  [[noreturn]] void MismatchSet();
  void ActionError(std::string message);
  // Exceptions Cassandra's grammar actions throw (rather than report), which
  // end the parse at once and win over errors reported before them:
  //  - ThrowInAction: a SyntaxException ("Multiple definition for property
  //    'PASSWORD'");
  //  - InvalidInAction: an InvalidRequestException from a raw statement
  //    builder ("Duplicate column 'a' declaration for table 'ks.t'");
  //  - RuntimeFailureInAction: any other Java exception, which Cassandra
  //    wraps as "Failed parsing statement: [<query>] reason: <class> <message>".
  // Inside Speculate() they are ignored, as actions are.
  void ThrowInAction(std::string message);
  void InvalidInAction(std::string message);
  void RuntimeFailureInAction(std::string_view java_class, std::string_view message);

  // Runs `rule` as a syntactic predicate: returns whether it parses, and
  // always rewinds (bind markers included).
  bool Speculate(const std::function<void()>& rule);
  bool speculating() const { return speculation_depth_ > 0; }

  // A new bind marker term; `name` is empty for `?`.
  Term NewBindMarker(std::string name);
  int bind_marker_count() const { return static_cast<int>(bind_names_.size()); }
  std::vector<std::string> TakeBindMarkerNames() { return std::move(bind_names_); }

  // Recursive rules hold a NestingGuard so that hostile input cannot
  // exhaust the stack (in parsing, or later in destroying a deep tree);
  // loops that build left-deep trees (a + b + c ...) add a level per operator.
  // Past kMaxNesting levels the statement is refused.
  static constexpr int kMaxNesting = 200;
  class NestingGuard {
   public:
    explicit NestingGuard(ParseContext& ctx) : ctx_(ctx) { Add(); }
    ~NestingGuard() { ctx_.nesting_ -= levels_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;
    void Add();

   private:
    ParseContext& ctx_;
    int levels_ = 0;
  };

  // Call once the statement has parsed: reports a lexer error that the
  // parser did not run into (Cassandra reports it after parsing).
  void Finish();

 private:
  size_t NextVisible(size_t from) const;
  void MarkFetched(size_t index) {
    if (index + 1 > fetched_count_) fetched_count_ = index + 1;
  }
  [[noreturn]] void Fail(std::string message, size_t error_token);
  [[noreturn]] void ThrowFirstError(std::string parser_message);

  std::string_view query_;
  const TokenList& tokens_;
  size_t position_ = 0;       // buffer index of LT(1)
  size_t fetched_count_ = 0;  // tokens fetched from the lexer so far
  int speculation_depth_ = 0;
  int nesting_ = 0;
  std::vector<std::string> bind_names_;
};

// Thrown to abandon a speculation; never escapes Speculate().
struct SpeculationFailed {};

}  // namespace sibyl::cql::parser_internal
