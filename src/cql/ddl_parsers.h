#pragma once
// Internal to the parser: the schema and role statements (Parser.g's
// create*/alter*/drop* rules), one function per rule. Each REQUIRES that
// the dispatcher (ddl_dispatch.cc) has checked the leading keywords; the
// context is at the statement's first token (CREATE, ALTER or DROP).

#include "cql/ast.h"
#include "cql/parse_context.h"

namespace sibyl::cql::parser_internal {

// CREATE ... / ALTER ... / DROP ...: chooses the statement by its leading
// keywords, failing as Cassandra's grammar does (`CREATE FOO`).
Statement ParseCreateStatement(ParseContext& ctx);
Statement ParseAlterStatement(ParseContext& ctx);
Statement ParseDropStatement(ParseContext& ctx);

// keyspace_parser.cc
CreateKeyspaceStatement ParseCreateKeyspace(ParseContext& ctx);
AlterKeyspaceStatement ParseAlterKeyspace(ParseContext& ctx);
DropKeyspaceStatement ParseDropKeyspace(ParseContext& ctx);

// table_parser.cc
CreateTableStatement ParseCreateTable(ParseContext& ctx);
AlterTableStatement ParseAlterTable(ParseContext& ctx);
DropTableStatement ParseDropTable(ParseContext& ctx);

// user_type_parser.cc
CreateTypeStatement ParseCreateType(ParseContext& ctx);
AlterTypeStatement ParseAlterType(ParseContext& ctx);
DropTypeStatement ParseDropType(ParseContext& ctx);
// userTypeName: [ks '.'] non_type_ident.
QualifiedName ParseUserTypeName(ParseContext& ctx);

// index_parser.cc (indexes and triggers: both hang off a table)
CreateIndexStatement ParseCreateIndex(ParseContext& ctx);
DropIndexStatement ParseDropIndex(ParseContext& ctx);
CreateTriggerStatement ParseCreateTrigger(ParseContext& ctx);
DropTriggerStatement ParseDropTrigger(ParseContext& ctx);

// view_parser.cc
CreateViewStatement ParseCreateView(ParseContext& ctx);
AlterViewStatement ParseAlterView(ParseContext& ctx);
DropViewStatement ParseDropView(ParseContext& ctx);

// function_parser.cc
CreateFunctionStatement ParseCreateFunction(ParseContext& ctx);
DropFunctionStatement ParseDropFunction(ParseContext& ctx);
CreateAggregateStatement ParseCreateAggregate(ParseContext& ctx);
DropAggregateStatement ParseDropAggregate(ParseContext& ctx);

// role_parser.cc
CreateRoleStatement ParseCreateRole(ParseContext& ctx);
AlterRoleStatement ParseAlterRole(ParseContext& ctx);
DropRoleStatement ParseDropRole(ParseContext& ctx);
CreateRoleStatement ParseCreateUser(ParseContext& ctx);
AlterRoleStatement ParseAlterUser(ParseContext& ctx);
DropRoleStatement ParseDropUser(ParseContext& ctx);
// userOrRoleName / roleName: IDENT, STRING_LITERAL, QUOTED_NAME or an
// unreserved keyword (a bind marker is an error).
std::string ParseRoleName(ParseContext& ctx);
// Whether a roleName can start with this token.
[[nodiscard]] bool IsRoleNameToken(TokenType type);

}  // namespace sibyl::cql::parser_internal
