#pragma once
// Access control and administration statements: GRANT / REVOKE of
// permissions and of roles, LIST PERMISSIONS / ROLES / USERS, TRUNCATE and
// DESCRIBE. Parallel to Cassandra 4.1's cql3/statements (GrantPermissionsStatement,
// ListRolesStatement, TruncateStatement, DescribeStatement, ...).

#include <optional>
#include <string>
#include <vector>

#include "cql/ast_common.h"

namespace sibyl::cql {

// Cassandra's Permission enum, in its order (EnumSet order, also the order
// LIST PERMISSIONS reports them in). Do not reorder.
enum class Permission {
  kCreate,
  kAlter,
  kDrop,
  kSelect,
  kModify,
  kAuthorize,
  kDescribe,
  kExecute,
};

// "CREATE", "ALTER", ... as Cassandra names them.
[[nodiscard]] const char* PermissionName(Permission permission);

// What a permission is granted on (IResource as written in the statement).
struct Resource {
  enum class Kind {
    kAllKeyspaces,            // ALL KEYSPACES                 (data)
    kKeyspace,                // KEYSPACE ks                   (data/ks)
    kAllTablesInKeyspace,     // ALL TABLES IN KEYSPACE ks     (data/ks/*)
    kTable,                   // [TABLE] [ks.]t                (data/ks/t)
    kAllRoles,                // ALL ROLES                     (roles)
    kRole,                    // ROLE r                        (roles/r)
    kAllFunctions,            // ALL FUNCTIONS                 (functions)
    kAllFunctionsInKeyspace,  // ALL FUNCTIONS IN KEYSPACE ks  (functions/ks)
    kFunction,                // FUNCTION [ks.]f(types)        (functions/ks/f[...])
    kAllMbeans,               // ALL MBEANS                    (mbean)
    kMbean,                   // MBEAN 'name'                  (one bean)
    kMbeans,                  // MBEANS 'pattern'              (a pattern)
  };
  Kind kind = Kind::kAllKeyspaces;
  // kKeyspace, kAllTablesInKeyspace, kAllFunctionsInKeyspace: the keyspace;
  // kTable: the keyspace as written (unset: the session's keyspace);
  // kFunction: the keyspace (always given: the grammar requires it there).
  std::optional<std::string> keyspace;
  // kTable, kFunction: the table or function; kRole: the role;
  // kMbean/kMbeans: the object name as written (Cassandra canonicalizes it
  // with javax.management.ObjectName; Sibyl has no JMX).
  std::string name;
  std::vector<std::string> argument_types;  // kFunction
};

// GRANT permissions ON resource TO role
// (`permissions` already keeps only those that apply to the resource, as
// Cassandra's grammar filters them; none left is a syntax error.)
struct GrantPermissionsStatement {
  bool all_permissions = false;  // written as ALL [PERMISSIONS]
  std::vector<Permission> permissions;
  Resource resource;
  std::string grantee;  // role name, normalized
};

// REVOKE permissions ON resource FROM role
struct RevokePermissionsStatement {
  bool all_permissions = false;
  std::vector<Permission> permissions;
  Resource resource;
  std::string revokee;
};

// LIST permissions [ON resource] [OF role] [NORECURSIVE]
// (not filtered by the resource: Cassandra lists what was asked).
struct ListPermissionsStatement {
  bool all_permissions = false;
  std::vector<Permission> permissions;
  std::optional<Resource> resource;
  std::optional<std::string> grantee;
  bool recursive = true;
};

// GRANT role TO grantee
struct GrantRoleStatement {
  std::string role;
  std::string grantee;
};

// REVOKE role FROM revokee
struct RevokeRoleStatement {
  std::string role;
  std::string revokee;
};

// LIST ROLES [OF role] [NORECURSIVE] / LIST USERS (users_form)
struct ListRolesStatement {
  std::optional<std::string> grantee;
  bool recursive = true;
  bool users_form = false;
};

// TRUNCATE [TABLE] [ks.]t
struct TruncateStatement {
  QualifiedName table;
};

// DESCRIBE / DESC, every form of Cassandra 4.1 (DescribeStatement):
//   DESCRIBE CLUSTER | [FULL] SCHEMA | KEYSPACES | [ONLY] KEYSPACE [ks]
//   | TABLES | TABLE [ks.]t | INDEX [ks.]i | MATERIALIZED VIEW [ks.]v
//   | TYPES | TYPE [ks.]t | FUNCTIONS | FUNCTION [ks.]f | AGGREGATES
//   | AGGREGATE [ks.]a | [ks.]name            ... [WITH INTERNALS]
struct DescribeStatement {
  enum class Kind {
    kCluster,
    kSchema,
    kKeyspaces,
    kKeyspace,
    kTables,
    kTable,
    kIndex,
    kMaterializedView,
    kTypes,
    kType,
    kFunctions,
    kFunction,
    kAggregates,
    kAggregate,
    kGeneric,  // DESCRIBE [ks.]name: a keyspace, table, view, index, type, function or aggregate
  };
  Kind kind = Kind::kCluster;
  bool full_schema = false;     // DESCRIBE FULL SCHEMA
  bool only_keyspace = false;   // DESCRIBE ONLY KEYSPACE
  bool with_internals = false;  // WITH INTERNALS
  // kKeyspace: the keyspace (unset: the session's); kTable, kIndex,
  // kMaterializedView, kType, kFunction, kAggregate, kGeneric: the element.
  // For kGeneric a lone name is in `name.name` with no keyspace.
  std::optional<std::string> keyspace;
  QualifiedName name;
};

}  // namespace sibyl::cql
