#include "cql/lexer_token.h"

namespace sibyl::cql {

std::string_view TokenTypeName(TokenType type) {
  switch (type) {
    case TokenType::kEof:
      return "EOF";
    case TokenType::kIdent:
      return "IDENT";
    case TokenType::kQuotedName:
      return "QUOTED_NAME";
    case TokenType::kEmptyQuotedName:
      return "EMPTY_QUOTED_NAME";
    case TokenType::kStringLiteral:
      return "STRING_LITERAL";
    case TokenType::kInteger:
      return "INTEGER";
    case TokenType::kFloat:
      return "FLOAT";
    case TokenType::kBoolean:
      return "BOOLEAN";
    case TokenType::kDuration:
      return "DURATION";
    case TokenType::kUuid:
      return "UUID";
    case TokenType::kHexNumber:
      return "HEXNUMBER";
    case TokenType::kQmark:
      return "QMARK";
    case TokenType::kRange:
      return "RANGE";
    case TokenType::kWhitespace:
      return "WS";
    case TokenType::kComment:
      return "COMMENT";
    case TokenType::kMultilineComment:
      return "MULTILINE_COMMENT";
#define SIBYL_CQL_PUNCTUATION_NAME(name, text) \
  case TokenType::name:                        \
    return "'" text "'";
      SIBYL_CQL_PUNCTUATION(SIBYL_CQL_PUNCTUATION_NAME)
#undef SIBYL_CQL_PUNCTUATION_NAME
#define SIBYL_CQL_KEYWORD_NAME(name, antlr, ...) \
  case TokenType::name:                          \
    return antlr;
      SIBYL_CQL_KEYWORDS(SIBYL_CQL_KEYWORD_NAME)
#undef SIBYL_CQL_KEYWORD_NAME
    case TokenType::kCount_:
      break;
  }
  return "<unknown>";
}

}  // namespace sibyl::cql
