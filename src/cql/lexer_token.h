#pragma once
// The tokens of CQL 3 as Cassandra 4.1's ANTLR lexer (src/antlr/Lexer.g)
// produces them, plus the punctuation the parser grammar declares inline.
//
// Every keyword has its own token type, as in ANTLR, because the grammar
// accepts different keyword subsets as identifiers in different places (see
// keywords.h). Whitespace and comments are tokens too — ANTLR keeps them on a
// hidden channel and Cassandra's error snippets count them — so they are kept
// in the token list with `hidden` set.

#include <cstdint>
#include <string_view>

namespace sibyl::cql {

// X(enum name, ANTLR token name, reservation class, spellings...)
// Reservation classes (Parser.g, 4.1):
//   kReserved        never an unquoted identifier
//   kBasicUnreserved basic_unreserved_keyword: an identifier almost everywhere
//   kNativeType      a native type name; also unreserved_function_keyword
//   kUnreserved      the rest of unreserved_keyword (ttl, count, writetime, key, cast, json,
//                    distinct): an identifier, but not a function or user type name
// Spellings are the lower-case words that lex to the token. MAXWRITETIME and
// VECTOR come from Cassandra 5.0; both are unreserved there.
#define SIBYL_CQL_KEYWORDS(X)                                              \
  X(kKwAccess, "K_ACCESS", kBasicUnreserved, "access")                     \
  X(kKwAdd, "K_ADD", kReserved, "add")                                     \
  X(kKwAggregate, "K_AGGREGATE", kBasicUnreserved, "aggregate")            \
  X(kKwAggregates, "K_AGGREGATES", kBasicUnreserved, "aggregates")         \
  X(kKwAll, "K_ALL", kBasicUnreserved, "all")                              \
  X(kKwAllow, "K_ALLOW", kReserved, "allow")                               \
  X(kKwAlter, "K_ALTER", kReserved, "alter")                               \
  X(kKwAnd, "K_AND", kReserved, "and")                                     \
  X(kKwApply, "K_APPLY", kReserved, "apply")                               \
  X(kKwAs, "K_AS", kBasicUnreserved, "as")                                 \
  X(kKwAsc, "K_ASC", kReserved, "asc")                                     \
  X(kKwAscii, "K_ASCII", kNativeType, "ascii")                             \
  X(kKwAuthorize, "K_AUTHORIZE", kReserved, "authorize")                   \
  X(kKwBatch, "K_BATCH", kReserved, "batch")                               \
  X(kKwBegin, "K_BEGIN", kReserved, "begin")                               \
  X(kKwBigint, "K_BIGINT", kNativeType, "bigint")                          \
  X(kKwBlob, "K_BLOB", kNativeType, "blob")                                \
  X(kKwBoolean, "K_BOOLEAN", kNativeType, "boolean")                       \
  X(kKwBy, "K_BY", kReserved, "by")                                        \
  X(kKwCalled, "K_CALLED", kBasicUnreserved, "called")                     \
  X(kKwCast, "K_CAST", kUnreserved, "cast")                                \
  X(kKwCluster, "K_CLUSTER", kBasicUnreserved, "cluster")                  \
  X(kKwClustering, "K_CLUSTERING", kBasicUnreserved, "clustering")         \
  X(kKwColumnFamily, "K_COLUMNFAMILY", kReserved, "columnfamily", "table") \
  X(kKwCompact, "K_COMPACT", kBasicUnreserved, "compact")                  \
  X(kKwContains, "K_CONTAINS", kBasicUnreserved, "contains")               \
  X(kKwCount, "K_COUNT", kUnreserved, "count")                             \
  X(kKwCounter, "K_COUNTER", kNativeType, "counter")                       \
  X(kKwCreate, "K_CREATE", kReserved, "create")                            \
  X(kKwCustom, "K_CUSTOM", kBasicUnreserved, "custom")                     \
  X(kKwDatacenters, "K_DATACENTERS", kBasicUnreserved, "datacenters")      \
  X(kKwDate, "K_DATE", kNativeType, "date")                                \
  X(kKwDecimal, "K_DECIMAL", kNativeType, "decimal")                       \
  X(kKwDefault, "K_DEFAULT", kBasicUnreserved, "default")                  \
  X(kKwDelete, "K_DELETE", kReserved, "delete")                            \
  X(kKwDesc, "K_DESC", kReserved, "desc")                                  \
  X(kKwDescribe, "K_DESCRIBE", kReserved, "describe")                      \
  X(kKwDistinct, "K_DISTINCT", kUnreserved, "distinct")                    \
  X(kKwDouble, "K_DOUBLE", kNativeType, "double")                          \
  X(kKwDrop, "K_DROP", kReserved, "drop")                                  \
  X(kKwDuration, "K_DURATION", kNativeType, "duration")                    \
  X(kKwEntries, "K_ENTRIES", kReserved, "entries")                         \
  X(kKwExecute, "K_EXECUTE", kReserved, "execute")                         \
  X(kKwExists, "K_EXISTS", kBasicUnreserved, "exists")                     \
  X(kKwFiltering, "K_FILTERING", kBasicUnreserved, "filtering")            \
  X(kKwFinalfunc, "K_FINALFUNC", kBasicUnreserved, "finalfunc")            \
  X(kKwFloat, "K_FLOAT", kNativeType, "float")                             \
  X(kKwFrom, "K_FROM", kReserved, "from")                                  \
  X(kKwFrozen, "K_FROZEN", kBasicUnreserved, "frozen")                     \
  X(kKwFull, "K_FULL", kReserved, "full")                                  \
  X(kKwFunction, "K_FUNCTION", kBasicUnreserved, "function")               \
  X(kKwFunctions, "K_FUNCTIONS", kBasicUnreserved, "functions")            \
  X(kKwGrant, "K_GRANT", kReserved, "grant")                               \
  X(kKwGroup, "K_GROUP", kBasicUnreserved, "group")                        \
  X(kKwHashed, "K_HASHED", kBasicUnreserved, "hashed")                     \
  X(kKwIf, "K_IF", kReserved, "if")                                        \
  X(kKwIn, "K_IN", kReserved, "in")                                        \
  X(kKwIndex, "K_INDEX", kReserved, "index")                               \
  X(kKwInet, "K_INET", kNativeType, "inet")                                \
  X(kKwInitcond, "K_INITCOND", kBasicUnreserved, "initcond")               \
  X(kKwInput, "K_INPUT", kBasicUnreserved, "input")                        \
  X(kKwInsert, "K_INSERT", kReserved, "insert")                            \
  X(kKwInt, "K_INT", kNativeType, "int")                                   \
  X(kKwInternals, "K_INTERNALS", kBasicUnreserved, "internals")            \
  X(kKwInto, "K_INTO", kReserved, "into")                                  \
  X(kKwIs, "K_IS", kReserved, "is")                                        \
  X(kKwJson, "K_JSON", kUnreserved, "json")                                \
  X(kKwKey, "K_KEY", kUnreserved, "key")                                   \
  X(kKwKeys, "K_KEYS", kBasicUnreserved, "keys")                           \
  X(kKwKeyspace, "K_KEYSPACE", kReserved, "keyspace")                      \
  X(kKwKeyspaces, "K_KEYSPACES", kBasicUnreserved, "keyspaces")            \
  X(kKwLanguage, "K_LANGUAGE", kBasicUnreserved, "language")               \
  X(kKwLike, "K_LIKE", kBasicUnreserved, "like")                           \
  X(kKwLimit, "K_LIMIT", kReserved, "limit")                               \
  X(kKwList, "K_LIST", kBasicUnreserved, "list")                           \
  X(kKwLogin, "K_LOGIN", kBasicUnreserved, "login")                        \
  X(kKwMap, "K_MAP", kBasicUnreserved, "map")                              \
  X(kKwMaterialized, "K_MATERIALIZED", kReserved, "materialized")          \
  X(kKwMaxwritetime, "K_MAXWRITETIME", kUnreserved, "maxwritetime")        \
  X(kKwMbean, "K_MBEAN", kBasicUnreserved, "mbean")                        \
  X(kKwMbeans, "K_MBEANS", kBasicUnreserved, "mbeans")                     \
  X(kKwModify, "K_MODIFY", kReserved, "modify")                            \
  X(kKwNegativeInfinity, "K_NEGATIVE_INFINITY", kReserved)                 \
  X(kKwNegativeNan, "K_NEGATIVE_NAN", kReserved)                           \
  X(kKwNologin, "K_NOLOGIN", kBasicUnreserved, "nologin")                  \
  X(kKwNorecursive, "K_NORECURSIVE", kReserved, "norecursive")             \
  X(kKwNosuperuser, "K_NOSUPERUSER", kBasicUnreserved, "nosuperuser")      \
  X(kKwNot, "K_NOT", kReserved, "not")                                     \
  X(kKwNull, "K_NULL", kReserved, "null")                                  \
  X(kKwOf, "K_OF", kReserved, "of")                                        \
  X(kKwOn, "K_ON", kReserved, "on")                                        \
  X(kKwOnly, "K_ONLY", kBasicUnreserved, "only")                           \
  X(kKwOptions, "K_OPTIONS", kBasicUnreserved, "options")                  \
  X(kKwOr, "K_OR", kReserved, "or")                                        \
  X(kKwOrder, "K_ORDER", kReserved, "order")                               \
  X(kKwPartition, "K_PARTITION", kBasicUnreserved, "partition")            \
  X(kKwPassword, "K_PASSWORD", kBasicUnreserved, "password")               \
  X(kKwPer, "K_PER", kBasicUnreserved, "per")                              \
  X(kKwPermission, "K_PERMISSION", kBasicUnreserved, "permission")         \
  X(kKwPermissions, "K_PERMISSIONS", kBasicUnreserved, "permissions")      \
  X(kKwPositiveInfinity, "K_POSITIVE_INFINITY", kReserved, "infinity")     \
  X(kKwPositiveNan, "K_POSITIVE_NAN", kReserved, "nan")                    \
  X(kKwPrimary, "K_PRIMARY", kReserved, "primary")                         \
  X(kKwRename, "K_RENAME", kReserved, "rename")                            \
  X(kKwReplace, "K_REPLACE", kBasicUnreserved, "replace")                  \
  X(kKwReturns, "K_RETURNS", kBasicUnreserved, "returns")                  \
  X(kKwRevoke, "K_REVOKE", kReserved, "revoke")                            \
  X(kKwRole, "K_ROLE", kBasicUnreserved, "role")                           \
  X(kKwRoles, "K_ROLES", kBasicUnreserved, "roles")                        \
  X(kKwSchema, "K_SCHEMA", kReserved, "schema")                            \
  X(kKwSelect, "K_SELECT", kReserved, "select")                            \
  X(kKwSet, "K_SET", kReserved, "set")                                     \
  X(kKwSfunc, "K_SFUNC", kBasicUnreserved, "sfunc")                        \
  X(kKwSmallint, "K_SMALLINT", kNativeType, "smallint")                    \
  X(kKwStatic, "K_STATIC", kBasicUnreserved, "static")                     \
  X(kKwStorage, "K_STORAGE", kBasicUnreserved, "storage")                  \
  X(kKwStype, "K_STYPE", kBasicUnreserved, "stype")                        \
  X(kKwSuperuser, "K_SUPERUSER", kBasicUnreserved, "superuser")            \
  X(kKwTables, "K_TABLES", kBasicUnreserved, "columnfamilies", "tables")   \
  X(kKwText, "K_TEXT", kNativeType, "text")                                \
  X(kKwTime, "K_TIME", kNativeType, "time")                                \
  X(kKwTimestamp, "K_TIMESTAMP", kNativeType, "timestamp")                 \
  X(kKwTimeuuid, "K_TIMEUUID", kNativeType, "timeuuid")                    \
  X(kKwTinyint, "K_TINYINT", kNativeType, "tinyint")                       \
  X(kKwTo, "K_TO", kReserved, "to")                                        \
  X(kKwToken, "K_TOKEN", kReserved, "token")                               \
  X(kKwTrigger, "K_TRIGGER", kBasicUnreserved, "trigger")                  \
  X(kKwTruncate, "K_TRUNCATE", kReserved, "truncate")                      \
  X(kKwTtl, "K_TTL", kUnreserved, "ttl")                                   \
  X(kKwTuple, "K_TUPLE", kBasicUnreserved, "tuple")                        \
  X(kKwType, "K_TYPE", kBasicUnreserved, "type")                           \
  X(kKwTypes, "K_TYPES", kBasicUnreserved, "types")                        \
  X(kKwUnlogged, "K_UNLOGGED", kReserved, "unlogged")                      \
  X(kKwUnset, "K_UNSET", kBasicUnreserved, "unset")                        \
  X(kKwUpdate, "K_UPDATE", kReserved, "update")                            \
  X(kKwUse, "K_USE", kReserved, "use")                                     \
  X(kKwUser, "K_USER", kBasicUnreserved, "user")                           \
  X(kKwUsers, "K_USERS", kBasicUnreserved, "users")                        \
  X(kKwUsing, "K_USING", kReserved, "using")                               \
  X(kKwUuid, "K_UUID", kNativeType, "uuid")                                \
  X(kKwValues, "K_VALUES", kBasicUnreserved, "values")                     \
  X(kKwVarchar, "K_VARCHAR", kNativeType, "varchar")                       \
  X(kKwVarint, "K_VARINT", kNativeType, "varint")                          \
  X(kKwVector, "K_VECTOR", kBasicUnreserved, "vector")                     \
  X(kKwView, "K_VIEW", kReserved, "view")                                  \
  X(kKwWhere, "K_WHERE", kReserved, "where")                               \
  X(kKwWith, "K_WITH", kReserved, "with")                                  \
  X(kKwWritetime, "K_WRITETIME", kUnreserved, "writetime")

// Punctuation and operators: X(enum name, text). ANTLR names these tokens by
// their text in quotes ("')'"), which is how error messages show them.
#define SIBYL_CQL_PUNCTUATION(X)                                            \
  X(kLParen, "(")                                                           \
  X(kRParen, ")")                                                           \
  X(kLBracket, "[")                                                         \
  X(kRBracket, "]")                                                         \
  X(kLBrace, "{")                                                           \
  X(kRBrace, "}")                                                           \
  X(kComma, ",")                                                            \
  X(kSemicolon, ";")                                                        \
  X(kDot, ".")                                                              \
  X(kColon, ":")                                                            \
  X(kEq, "=")                                                               \
  X(kNeq, "!=")                                                             \
  X(kLt, "<")                                                               \
  X(kLte, "<=")                                                             \
  X(kGt, ">")                                                               \
  X(kGte, ">=")                                                             \
  X(kPlus, "+")                                                             \
  X(kMinus, "-")                                                            \
  X(kStar, "*")                                                             \
  X(kSlash, "/")                                                            \
  X(kPercent, "%")                                                          \
  X(kPlusEq, "+=")                                                          \
  X(kMinusEq, "-=")                                                         \
  /* The custom index expression opener expr( is one token in Cassandra. */ \
  X(kExprOpen, "expr(")

enum class TokenType : uint16_t {
  kEof,
  // Literals and names.
  kIdent,            // unquoted identifier (text as written; the parser lower-cases it)
  kQuotedName,       // "..." (text is the unescaped contents)
  kEmptyQuotedName,  // ""
  kStringLiteral,    // '...' or $$...$$ (text is the unescaped contents)
  kInteger,
  kFloat,
  kBoolean,
  kDuration,
  kUuid,
  kHexNumber,
  kQmark,  // ?
  kRange,  // ..
  // Hidden tokens.
  kWhitespace,
  kComment,           // -- or // up to and including the end of the line
  kMultilineComment,  // /* ... */
#define SIBYL_CQL_TOKEN_ENUM(name, ...) name,
  SIBYL_CQL_PUNCTUATION(SIBYL_CQL_TOKEN_ENUM) SIBYL_CQL_KEYWORDS(SIBYL_CQL_TOKEN_ENUM)
#undef SIBYL_CQL_TOKEN_ENUM
      kCount_,
};

// One token. Line is 1-based, column 0-based, both as ANTLR reports them:
// columns count UTF-16 code units, as Java strings do.
struct Token {
  TokenType type = TokenType::kEof;
  bool hidden = false;
  // The token's text as ANTLR's getText() returns it: the source slice,
  // except string literals and quoted names, which hold their unescaped
  // contents. Views into the query or into the token list's own storage.
  std::string_view text;
  std::string_view source;  // the exact source slice
  int line = 0;             // 0 for the end-of-input token, as in Cassandra
  int column = -1;          // -1 for the end-of-input token
};

// The name ANTLR gives a token type in messages: "K_FROM", "IDENT", "')'",
// "EOF", ...
[[nodiscard]] std::string_view TokenTypeName(TokenType type);

}  // namespace sibyl::cql
