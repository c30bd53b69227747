#pragma once
// The typed syntax tree the parser produces, one struct per statement,
// parallel to Cassandra 4.1's raw statements (cql3/statements/*):
//   ast_common.h  names, terms, WHERE relations
//   ast_select.h  SELECT and its selectors
//   ast_dml.h     INSERT, UPDATE, DELETE, BATCH
//   ast_ddl.h     CREATE / ALTER / DROP of keyspaces, tables, types, indexes,
//                 views, functions, aggregates, triggers, roles and users
//   ast_admin.h   GRANT, REVOKE, LIST, TRUNCATE, DESCRIBE
//
// Names are already normalized with Cassandra's case rules: unquoted
// identifiers are lower-cased, quoted identifiers keep their case (and ""
// inside them becomes ").
//
// This is the raw (unprepared) form: nothing here has been checked against
// the schema. The lifecycle is AST → Prepare(schema) → prepared statement →
// Execute.

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cql/ast_admin.h"
#include "cql/ast_common.h"
#include "cql/ast_ddl.h"
#include "cql/ast_dml.h"
#include "cql/ast_select.h"

namespace sibyl::cql {

// USE ks
struct UseStatement {
  std::string keyspace;
};

using Statement = std::variant<
    // Queries and writes.
    SelectStatement, InsertStatement, UpdateStatement, DeleteStatement, BatchStatement,
    UseStatement, TruncateStatement,
    // Schema.
    CreateKeyspaceStatement, AlterKeyspaceStatement, DropKeyspaceStatement, CreateTableStatement,
    AlterTableStatement, DropTableStatement, CreateTypeStatement, AlterTypeStatement,
    DropTypeStatement, CreateIndexStatement, DropIndexStatement, CreateViewStatement,
    AlterViewStatement, DropViewStatement, CreateFunctionStatement, DropFunctionStatement,
    CreateAggregateStatement, DropAggregateStatement, CreateTriggerStatement, DropTriggerStatement,
    // Roles and permissions.
    CreateRoleStatement, AlterRoleStatement, DropRoleStatement, GrantRoleStatement,
    RevokeRoleStatement, ListRolesStatement, GrantPermissionsStatement, RevokePermissionsStatement,
    ListPermissionsStatement,
    // Introspection.
    DescribeStatement>;

// The statement's kind as Cassandra's documentation names it: "SELECT",
// "INSERT", "BATCH", "CREATE TABLE", "CREATE INDEX" (also for CUSTOM),
// "CREATE MATERIALIZED VIEW", "CREATE USER" (the USER forms), "GRANT
// PERMISSION", "GRANT ROLE", "LIST PERMISSIONS", "LIST ROLES", "LIST
// USERS", "DESCRIBE", ... For messages such as "<kind> statements are not
// supported by Sibyl yet".
[[nodiscard]] std::string_view StatementKindName(const Statement& statement);

struct ParsedStatement {
  Statement statement;
  int bind_marker_count = 0;
  std::vector<std::string> bind_marker_names;  // per marker; empty string for positional `?`
};

}  // namespace sibyl::cql
