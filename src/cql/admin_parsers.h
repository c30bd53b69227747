#pragma once
// Internal to the parser: access control and DESCRIBE (Parser.g's
// grant*/revoke*/list* rules and describeStatement). Each REQUIRES that LA(1)
// is the statement's first keyword.

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// permission_parser.cc: GRANT / REVOKE of permissions or of a role, and
// LIST PERMISSIONS / ROLES / USERS, chosen as Cassandra's grammar chooses.
Statement ParseGrantStatement(ParseContext& ctx);
Statement ParseRevokeStatement(ParseContext& ctx);
Statement ParseListStatement(ParseContext& ctx);

// describe_parser.cc
DescribeStatement ParseDescribeStatement(ParseContext& ctx);

}  // namespace sibyl::cql::parser_internal
