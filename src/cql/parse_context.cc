#include "cql/parse_context.h"

#include "common/error.h"
#include "cql/syntax_error.h"
#include "cql/utf16.h"

namespace sibyl::cql::parser_internal {

ParseContext::ParseContext(std::string_view query, const TokenList& tokens)
    : query_(query), tokens_(tokens) {
  // CommonTokenStream.setup(): fetch up to the first visible token.
  position_ = NextVisible(0);
  MarkFetched(position_);
}

size_t ParseContext::NextVisible(size_t from) const {
  size_t last = tokens_.tokens.size() - 1;  // the end-of-input token
  while (from < last && tokens_.tokens[from].hidden) ++from;
  return from < last ? from : last;
}

const Token& ParseContext::LT(int k) {
  size_t index = position_;
  for (int i = 1; i < k; ++i) index = NextVisible(index + 1);
  MarkFetched(index);
  return tokens_.tokens[index];
}

void ParseContext::Consume() {
  // Consuming moves to (and so fetches) the next visible token.
  position_ = NextVisible(position_ + 1);
  MarkFetched(position_);
}

const Token& ParseContext::Match(TokenType type) {
  const Token& token = LT(1);
  if (token.type != type) Mismatch(type);
  Consume();
  return token;
}

void ParseContext::Mismatch(TokenType expected) {
  const Token& token = LT(1);
  Fail("mismatched input " + TokenDisplay(token) + " expecting " +
           std::string(TokenTypeName(expected)),
       position_);
}

void ParseContext::MismatchSet() {
  Fail("mismatched input " + TokenDisplay(LT(1)) + " expecting set null", position_);
}

void ParseContext::NoViableAlt(int k) {
  const Token& token = LT(k);
  size_t index = static_cast<size_t>(&token - tokens_.tokens.data());
  Fail("no viable alternative at input " + TokenDisplay(token), index);
}

void ParseContext::Fail(std::string message, size_t error_token) {
  if (speculating()) throw SpeculationFailed{};
  ParserErrorSite site{std::move(message), error_token, position_, fetched_count_};
  ThrowFirstError(FormatParserError(query_, tokens_, site));
}

void ParseContext::ActionError(std::string message) {
  if (speculating()) return;
  ThrowFirstError(std::move(message));
}

namespace {

// Messages quote the query; Cassandra holds it as a Java string, where
// malformed UTF-8 has become U+FFFD. Do the same so messages are valid UTF-8.
[[noreturn]] void ThrowSyntaxError(const std::string& message) {
  throw CqlError(ErrorCode::kSyntaxError, ToUtf8(ToUtf16(message)));
}

}  // namespace

void ParseContext::ThrowInAction(std::string message) {
  if (speculating()) return;
  ThrowSyntaxError(message);
}

void ParseContext::InvalidInAction(std::string message) {
  if (speculating()) return;
  throw CqlError(ErrorCode::kInvalid, ToUtf8(ToUtf16(message)));
}

void ParseContext::RuntimeFailureInAction(std::string_view java_class, std::string_view message) {
  if (speculating()) return;
  std::string text = "Failed parsing statement: [";
  text += query_;
  text += "] reason: ";
  text += java_class;
  text += " ";
  text += message;
  ThrowSyntaxError(text);
}

void ParseContext::ThrowFirstError(std::string parser_message) {
  // A lexer error is reported when the token after it is fetched; if that
  // happened before this parser error, Cassandra reports the lexer error.
  const auto& lex_error = tokens_.error;
  if (lex_error && lex_error->token_index < fetched_count_) {
    ThrowSyntaxError(FormatLexerError(*lex_error));
  }
  ThrowSyntaxError(parser_message);
}

void ParseContext::Finish() {
  if (tokens_.error) ThrowSyntaxError(FormatLexerError(*tokens_.error));
}

bool ParseContext::Speculate(const std::function<void()>& rule) {
  size_t saved_position = position_;
  size_t saved_markers = bind_names_.size();
  ++speculation_depth_;
  bool parsed = true;
  try {
    rule();
  } catch (const SpeculationFailed&) {
    parsed = false;
  } catch (...) {
    --speculation_depth_;
    throw;
  }
  --speculation_depth_;
  position_ = saved_position;
  bind_names_.resize(saved_markers);
  return parsed;
}

void ParseContext::NestingGuard::Add() {
  ++levels_;
  if (++ctx_.nesting_ > kMaxNesting) {
    throw CqlError(ErrorCode::kSyntaxError, "Statement nested too deeply (more than " +
                                                std::to_string(kMaxNesting) +
                                                " levels of parentheses, brackets or operators)");
  }
}

Term ParseContext::NewBindMarker(std::string name) {
  Term term;
  term.kind = Term::Kind::kBindMarker;
  term.bind_index = static_cast<int>(bind_names_.size());
  term.bind_name = name;
  bind_names_.push_back(std::move(name));
  return term;
}

}  // namespace sibyl::cql::parser_internal
