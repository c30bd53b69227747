#include "cql/lexer.h"

#include <algorithm>
#include <array>

#include "cql/lexer_scanners.h"
#include "cql/utf16.h"

namespace sibyl::cql {

std::string_view TokenList::Own(std::string text) {
  owned_texts_.push_back(std::make_unique<std::string>(std::move(text)));
  return *owned_texts_.back();
}

namespace {

using lexer_internal::Choice;
using lexer_internal::FailureKind;
using lexer_internal::Scan;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsHexLetter(char c) { return (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The tokens of one character that start no other token (the parser
// grammar's inline punctuation), by character; kEof for every other one.
constexpr std::array<TokenType, 256> kSingleCharacterTokens = [] {
  std::array<TokenType, 256> table{};
  table.fill(TokenType::kEof);
  table['='] = TokenType::kEq;
  table['('] = TokenType::kLParen;
  table[')'] = TokenType::kRParen;
  table['['] = TokenType::kLBracket;
  table[']'] = TokenType::kRBracket;
  table['{'] = TokenType::kLBrace;
  table['}'] = TokenType::kRBrace;
  table[','] = TokenType::kComma;
  table[';'] = TokenType::kSemicolon;
  table[':'] = TokenType::kColon;
  table['*'] = TokenType::kStar;
  table['%'] = TokenType::kPercent;
  table['?'] = TokenType::kQmark;
  return table;
}();

class Lexer {
 public:
  explicit Lexer(std::string_view query) : in_(query) {
    // A guess that avoids most regrowth for typical statements.
    list_.tokens.reserve(std::min<size_t>(query.size() / 2 + 2, 256));
  }

  TokenList Run() {
    while (pos_ < in_.size()) {
      if (!LexOne()) break;
    }
    Token eof;  // Cassandra's end-of-input token has no position: line 0, column -1
    list_.tokens.push_back(eof);
    if (list_.error) list_.error->token_index = list_.tokens.size() - 1;
    return std::move(list_);
  }

 private:
  char At(size_t i) const { return i < in_.size() ? in_[i] : '\0'; }
  bool AtEnd(size_t i) const { return i >= in_.size(); }

  // Moves the position by `bytes`, keeping line and column as ANTLR's
  // ANTLRStringStream does: '\n' starts a new line, every other UTF-16
  // unit is one column.
  void Advance(size_t bytes) {
    size_t end = pos_ + bytes;
    while (pos_ < end) {
      auto byte = static_cast<unsigned char>(in_[pos_]);
      if (byte >= 0x80) {
        Utf8CodePoint cp = DecodeUtf8At(in_, pos_);
        column_ += cp.utf16_units;
        pos_ += cp.bytes;
        continue;
      }
      if (byte == '\n') {
        ++line_;
        column_ = 0;
      } else {
        ++column_;
      }
      ++pos_;
    }
  }

  // Position (line, column) of byte `target` >= pos_, without moving.
  void PositionOf(size_t target, int& line, int& column) const {
    line = line_;
    column = column_;
    size_t p = pos_;
    while (p < target && p < in_.size()) {
      if (in_[p] == '\n') {
        ++line;
        column = 0;
        ++p;
        continue;
      }
      Utf8CodePoint cp = DecodeUtf8At(in_, p);
      column += cp.utf16_units;
      p += cp.bytes;
    }
  }

  void Emit(TokenType type, size_t length, bool hidden = false) {
    Token token;
    token.type = type;
    token.hidden = hidden;
    token.source = in_.substr(pos_, length);
    token.text = token.source;
    token.line = line_;
    token.column = column_;
    list_.tokens.push_back(token);
    Advance(length);
  }

  void EmitWithText(TokenType type, size_t length, std::string_view text) {
    Emit(type, length);
    list_.tokens.back().text = text;
  }

  // ANTLR's getCharErrorDisplay for the character at byte `at`.
  std::string CharDisplay(size_t at) const {
    if (AtEnd(at)) return "'<EOF>'";
    char c = in_[at];
    if (c == '\n') return "'\\n'";
    if (c == '\t') return "'\\t'";
    if (c == '\r') return "'\\r'";
    Utf8CodePoint cp = DecodeUtf8At(in_, at);
    std::string shown = cp.bytes == 1 && static_cast<unsigned char>(c) >= 0x80
                            ? std::string("\xEF\xBF\xBD")  // U+FFFD for a malformed byte
                            : std::string(in_.substr(at, cp.bytes));
    return "'" + shown + "'";
  }

  // Records the error at byte `at`; lexing stops there.
  void Fail(size_t at, std::string message) {
    LexError error;
    error.message = std::move(message);
    PositionOf(at, error.line, error.column);
    list_.error = std::move(error);
  }

  void FailWith(size_t at, FailureKind kind, char expected) {
    std::string shown = CharDisplay(at);
    switch (kind) {
      case FailureKind::kNoViableAlt:
        Fail(at, "no viable alternative at character " + shown);
        break;
      case FailureKind::kMismatchSet:
        Fail(at, "mismatched character " + shown + " expecting set null");
        break;
      case FailureKind::kMismatchChar:
        Fail(at, "mismatched character " + shown + " expecting '" + std::string(1, expected) + "'");
        break;
      case FailureKind::kEarlyExit:
        Fail(at, "required (...)+ loop did not match anything at character " + shown);
        break;
    }
  }

  // Chooses among competing rules; emits the token or records the failure.
  bool EmitChoice(const Scan* candidates, size_t count) {
    Choice choice = lexer_internal::Choose(candidates, count);
    if (!choice.ok) {
      FailWith(pos_ + choice.failure_at, choice.failure, choice.expected);
      return false;
    }
    Emit(choice.type, choice.length);
    return true;
  }

  // One token, chosen by its first character; pos_ is before the end. The
  // classes of characters are disjoint: they are tested commonest first
  // (whitespace, then words).
  bool LexOne() {
    const char c = in_[pos_];
    if (IsSpace(c)) return LexWhitespace();
    const std::string_view rest = in_.substr(pos_);
    if (IsLetter(c)) return LexWord(c, rest);
    if (IsDigit(c)) return LexNumber(rest);
    if (const TokenType punctuation = kSingleCharacterTokens[static_cast<unsigned char>(c)];
        punctuation != TokenType::kEof) {
      Emit(punctuation, 1);
      return true;
    }
    return LexStringCommentOrOperator(c, rest);
  }

  // Whitespace runs are one hidden token, as Lexer.g's WS rule makes them.
  bool LexWhitespace() {
    size_t end = pos_;
    while (end < in_.size() && IsSpace(in_[end])) ++end;
    Emit(TokenType::kWhitespace, end - pos_, /*hidden=*/true);
    return true;
  }

  // What a digit starts: an integer, float, duration, hex blob or UUID.
  bool LexNumber(std::string_view rest) {
    Scan candidates[] = {
        lexer_internal::ScanInteger(rest),      lexer_internal::ScanFloat(rest),
        lexer_internal::ScanUnitDuration(rest), lexer_internal::ScanHexNumber(rest),
        lexer_internal::ScanUuid(rest),
    };
    return EmitChoice(candidates, std::size(candidates));
  }

  // What a letter `first` starts: a keyword, boolean, identifier, ISO
  // duration, UUID or the literal expr(.
  bool LexWord(char first, std::string_view rest) {
    // ANTLR's order: the literal expr( first, keywords and booleans, then
    // DURATION before IDENT (an ISO duration such as P1D is never a
    // keyword, so in a tie the word is an identifier and loses), UUID last.
    Scan word = lexer_internal::ScanWord(rest);
    Scan candidates[4];
    size_t count = 0;
    bool word_is_ident = word.type == TokenType::kIdent;
    if (first == 'e') {
      candidates[count++] = lexer_internal::ScanLiteral(rest, "expr(", TokenType::kExprOpen);
    }
    if (!word_is_ident) candidates[count++] = word;
    if (first == 'P') candidates[count++] = lexer_internal::ScanIsoDuration(rest);
    if (word_is_ident) candidates[count++] = word;
    if (IsHexLetter(first)) candidates[count++] = lexer_internal::ScanUuid(rest);
    return EmitChoice(candidates, count);
  }

  // The characters that start more than one kind of token (strings,
  // comments, operators of one or two characters); any other is an error.
  bool LexStringCommentOrOperator(char c, std::string_view rest) {
    switch (c) {
      case '\'':
        return LexQuoted('\'', TokenType::kStringLiteral);
      case '"':
        return LexQuotedName();
      case '$':
        return LexDollarString();
      case '-':
        return LexMinus(rest);
      case '/':
        if (At(pos_ + 1) == '/') return LexLineComment();
        if (At(pos_ + 1) == '*') return LexBlockComment();
        Emit(TokenType::kSlash, 1);
        return true;
      case '.':
        Emit(At(pos_ + 1) == '.' ? TokenType::kRange : TokenType::kDot,
             At(pos_ + 1) == '.' ? 2 : 1);
        return true;
      case '+':
        Emit(At(pos_ + 1) == '=' ? TokenType::kPlusEq : TokenType::kPlus,
             At(pos_ + 1) == '=' ? 2 : 1);
        return true;
      case '<':
        Emit(At(pos_ + 1) == '=' ? TokenType::kLte : TokenType::kLt, At(pos_ + 1) == '=' ? 2 : 1);
        return true;
      case '>':
        Emit(At(pos_ + 1) == '=' ? TokenType::kGte : TokenType::kGt, At(pos_ + 1) == '=' ? 2 : 1);
        return true;
      case '!':
        if (At(pos_ + 1) != '=') {
          FailWith(pos_ + 1, FailureKind::kMismatchChar, '=');
          return false;
        }
        Emit(TokenType::kNeq, 2);
        return true;
      default:
        FailWith(pos_, FailureKind::kNoViableAlt, 0);
        return false;
    }
  }

  // Everything that starts with '-': comments, signed numbers and
  // durations, -NaN, -Infinity, '-=' and '-' itself.
  bool LexMinus(std::string_view rest) {
    char next = At(pos_ + 1);
    if (next == '-') return LexLineComment();
    if (next == '=') {
      Emit(TokenType::kMinusEq, 2);
      return true;
    }
    Scan minus = lexer_internal::ScanLiteral(rest, "-", TokenType::kMinus);
    if (IsDigit(next)) {
      Scan candidates[] = {minus, lexer_internal::ScanInteger(rest),
                           lexer_internal::ScanFloat(rest), lexer_internal::ScanUnitDuration(rest)};
      return EmitChoice(candidates, std::size(candidates));
    }
    if (next == 'P') {
      Scan candidates[] = {minus, lexer_internal::ScanIsoDuration(rest)};
      return EmitChoice(candidates, std::size(candidates));
    }
    if (next == 'n' || next == 'N') {
      Scan candidates[] = {
          minus, lexer_internal::ScanNegativeKeyword(rest, "nan", TokenType::kKwNegativeNan)};
      return EmitChoice(candidates, std::size(candidates));
    }
    if (next == 'i' || next == 'I') {
      Scan candidates[] = {minus, lexer_internal::ScanNegativeKeyword(
                                      rest, "infinity", TokenType::kKwNegativeInfinity)};
      return EmitChoice(candidates, std::size(candidates));
    }
    Emit(TokenType::kMinus, 1);
    return true;
  }

  // '...' with '' for a quote. The token text is the unescaped contents.
  bool LexQuoted(char quote, TokenType type) {
    size_t p = pos_ + 1;
    bool escaped = false;
    while (true) {
      if (AtEnd(p)) {
        FailWith(p, FailureKind::kMismatchChar, quote);
        return false;
      }
      if (in_[p] == quote) {
        if (At(p + 1) != quote) break;
        escaped = true;
        p += 2;
        continue;
      }
      ++p;
    }
    size_t length = p + 1 - pos_;
    std::string_view body = in_.substr(pos_ + 1, length - 2);
    EmitWithText(type, length, escaped ? list_.Own(Unescape(body, quote)) : body);
    return true;
  }

  static std::string Unescape(std::string_view body, char quote) {
    std::string text;
    text.reserve(body.size());
    for (size_t i = 0; i < body.size(); ++i) {
      text.push_back(body[i]);
      if (body[i] == quote) ++i;  // the second of a doubled quote
    }
    return text;
  }

  // "..." (QUOTED_NAME, at least one character) or "" (EMPTY_QUOTED_NAME).
  bool LexQuotedName() {
    if (At(pos_ + 1) == '"' && At(pos_ + 2) != '"') {
      Emit(TokenType::kEmptyQuotedName, 2);
      return true;
    }
    return LexQuoted('"', TokenType::kQuotedName);
  }

  // $$...$$. Lexer.g collects characters while at least two remain and the
  // next two are not "$$", then requires "$$": an unterminated string fails
  // on its last character.
  bool LexDollarString() {
    if (At(pos_ + 1) != '$') {
      FailWith(pos_ + 1, FailureKind::kMismatchChar, '$');
      return false;
    }
    size_t p = pos_ + 2;
    while (!AtEnd(p) && !(At(p) == '$' && At(p + 1) == '$')) {
      // "at least two characters remain", counted in UTF-16 units as Java does
      Utf8CodePoint cp = DecodeUtf8At(in_, p);
      if (cp.utf16_units < 2 && AtEnd(p + cp.bytes)) break;
      p += cp.bytes;
    }
    for (int i = 0; i < 2; ++i, ++p) {
      if (At(p) != '$' || AtEnd(p)) {
        FailWith(p, FailureKind::kMismatchChar, '$');
        return false;
      }
    }
    size_t length = p - pos_;
    EmitWithText(TokenType::kStringLiteral, length, in_.substr(pos_ + 2, length - 4));
    return true;
  }

  // -- or // up to and including the first '\n' or '\r'.
  bool LexLineComment() {
    size_t p = pos_ + 2;
    while (!AtEnd(p) && in_[p] != '\n' && in_[p] != '\r') ++p;
    if (AtEnd(p)) {
      FailWith(p, FailureKind::kMismatchSet, 0);
      return false;
    }
    Emit(TokenType::kComment, p + 1 - pos_, /*hidden=*/true);
    return true;
  }

  bool LexBlockComment() {
    size_t end = in_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) {
      FailWith(in_.size(), FailureKind::kMismatchChar, '*');
      return false;
    }
    Emit(TokenType::kMultilineComment, end + 2 - pos_, /*hidden=*/true);
    return true;
  }

  std::string_view in_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 0;
  TokenList list_;
};

}  // namespace

TokenList Tokenize(std::string_view query) { return Lexer(query).Run(); }

}  // namespace sibyl::cql
