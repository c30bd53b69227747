#pragma once
// Internal to the parser: WITH options (Parser.g's properties, property,
// propertyValue, fullMapLiteral and the convertPropertyMap action).

#include <string>
#include <utility>
#include <vector>

#include "cql/ast_ddl.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// properties: property (AND property)*.
Options ParseProperties(ParseContext& ctx);

// property: name '=' (propertyValue | fullMapLiteral), appended to
// `options`; a repeated name is reported as Cassandra reports it.
void ParseProperty(ParseContext& ctx, Options& options);

// fullMapLiteral, converted to (key, value) raw texts as convertPropertyMap
// converts it: keys and values must be constants, keys unique.
std::vector<std::pair<std::string, std::string>> ParsePropertyMap(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
