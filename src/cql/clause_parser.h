#pragma once
// Internal to the parser: small clauses several statements share — IF [NOT]
// EXISTS, lists of types, primary key declarations and CLUSTERING ORDER BY.

#include <string>
#include <vector>

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// (K_IF K_NOT K_EXISTS)?: whether it was there.
bool ParseIfNotExists(ParseContext& ctx);
// (K_IF K_EXISTS)?
bool ParseIfExists(ParseContext& ctx);

// '(' (comparatorType (',' comparatorType)*)? ')'.
std::vector<std::string> ParseTypeList(ParseContext& ctx);

// The partition key of PRIMARY KEY (...): k | '(' k (',' k)* ')'.
std::vector<std::string> ParsePartitionKey(ParseContext& ctx);

// The parenthesized list of CLUSTERING ORDER BY (after BY): each column
// with a mandatory ASC or DESC. A repeated column is Cassandra's
// InvalidRequest "Duplicate column 'c' in CLUSTERING ORDER BY clause for
// <what> '<name>'" (`what` is "table" or "view").
void ParseClusteringOrder(ParseContext& ctx, const char* what, const QualifiedName& name,
                          std::vector<Ordering>& order);

// QualifiedName.toString(): "ks.name" or "name".
std::string QualifiedNameText(const QualifiedName& name);

}  // namespace sibyl::cql::parser_internal
