// StatementKindName and PermissionName: how statements and permissions are
// named in messages.

#include "cql/ast.h"

namespace sibyl::cql {
namespace {

struct KindNamer {
  std::string_view operator()(const SelectStatement&) const { return "SELECT"; }
  std::string_view operator()(const InsertStatement&) const { return "INSERT"; }
  std::string_view operator()(const UpdateStatement&) const { return "UPDATE"; }
  std::string_view operator()(const DeleteStatement&) const { return "DELETE"; }
  std::string_view operator()(const BatchStatement&) const { return "BATCH"; }
  std::string_view operator()(const UseStatement&) const { return "USE"; }
  std::string_view operator()(const TruncateStatement&) const { return "TRUNCATE"; }
  std::string_view operator()(const CreateKeyspaceStatement&) const { return "CREATE KEYSPACE"; }
  std::string_view operator()(const AlterKeyspaceStatement&) const { return "ALTER KEYSPACE"; }
  std::string_view operator()(const DropKeyspaceStatement&) const { return "DROP KEYSPACE"; }
  std::string_view operator()(const CreateTableStatement&) const { return "CREATE TABLE"; }
  std::string_view operator()(const AlterTableStatement&) const { return "ALTER TABLE"; }
  std::string_view operator()(const DropTableStatement&) const { return "DROP TABLE"; }
  std::string_view operator()(const CreateTypeStatement&) const { return "CREATE TYPE"; }
  std::string_view operator()(const AlterTypeStatement&) const { return "ALTER TYPE"; }
  std::string_view operator()(const DropTypeStatement&) const { return "DROP TYPE"; }
  std::string_view operator()(const CreateIndexStatement&) const { return "CREATE INDEX"; }
  std::string_view operator()(const DropIndexStatement&) const { return "DROP INDEX"; }
  std::string_view operator()(const CreateViewStatement&) const {
    return "CREATE MATERIALIZED VIEW";
  }
  std::string_view operator()(const AlterViewStatement&) const { return "ALTER MATERIALIZED VIEW"; }
  std::string_view operator()(const DropViewStatement&) const { return "DROP MATERIALIZED VIEW"; }
  std::string_view operator()(const CreateFunctionStatement&) const { return "CREATE FUNCTION"; }
  std::string_view operator()(const DropFunctionStatement&) const { return "DROP FUNCTION"; }
  std::string_view operator()(const CreateAggregateStatement&) const { return "CREATE AGGREGATE"; }
  std::string_view operator()(const DropAggregateStatement&) const { return "DROP AGGREGATE"; }
  std::string_view operator()(const CreateTriggerStatement&) const { return "CREATE TRIGGER"; }
  std::string_view operator()(const DropTriggerStatement&) const { return "DROP TRIGGER"; }
  std::string_view operator()(const CreateRoleStatement& s) const {
    return s.user_form ? "CREATE USER" : "CREATE ROLE";
  }
  std::string_view operator()(const AlterRoleStatement& s) const {
    return s.user_form ? "ALTER USER" : "ALTER ROLE";
  }
  std::string_view operator()(const DropRoleStatement& s) const {
    return s.user_form ? "DROP USER" : "DROP ROLE";
  }
  std::string_view operator()(const GrantRoleStatement&) const { return "GRANT ROLE"; }
  std::string_view operator()(const RevokeRoleStatement&) const { return "REVOKE ROLE"; }
  std::string_view operator()(const ListRolesStatement& s) const {
    return s.users_form ? "LIST USERS" : "LIST ROLES";
  }
  std::string_view operator()(const GrantPermissionsStatement&) const { return "GRANT PERMISSION"; }
  std::string_view operator()(const RevokePermissionsStatement&) const {
    return "REVOKE PERMISSION";
  }
  std::string_view operator()(const ListPermissionsStatement&) const { return "LIST PERMISSIONS"; }
  std::string_view operator()(const DescribeStatement&) const { return "DESCRIBE"; }
};

}  // namespace

std::string_view StatementKindName(const Statement& statement) {
  return std::visit(KindNamer{}, statement);
}

const char* PermissionName(Permission permission) {
  switch (permission) {
    case Permission::kCreate:
      return "CREATE";
    case Permission::kAlter:
      return "ALTER";
    case Permission::kDrop:
      return "DROP";
    case Permission::kSelect:
      return "SELECT";
    case Permission::kModify:
      return "MODIFY";
    case Permission::kAuthorize:
      return "AUTHORIZE";
    case Permission::kDescribe:
      return "DESCRIBE";
    case Permission::kExecute:
      return "EXECUTE";
  }
  return "?";
}

}  // namespace sibyl::cql
