// GRANT, REVOKE, LIST and DESCRIBE parse into their typed statements.

#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "cql/parser.h"
#include "cql/parser_test_util.h"

namespace sibyl::cql {
namespace {

using P = Permission;
using RK = Resource::Kind;
using DK = DescribeStatement::Kind;

using testing::ErrorOf;
using testing::Parse;

TEST(AdminParserTest, GrantPermissions) {
  auto grant = Parse<GrantPermissionsStatement>("GRANT SELECT, MODIFY PERMISSION ON ks.t TO Alice");
  EXPECT_FALSE(grant.all_permissions);
  EXPECT_EQ(grant.permissions, (std::vector<Permission>{P::kSelect, P::kModify}));
  EXPECT_EQ(grant.resource.kind, RK::kTable);
  EXPECT_EQ(grant.resource.keyspace, "ks");
  EXPECT_EQ(grant.resource.name, "t");
  EXPECT_EQ(grant.grantee, "alice");

  // ALL is filtered to what applies to the resource, in Cassandra's order.
  auto all = Parse<GrantPermissionsStatement>("GRANT ALL PERMISSIONS ON TABLE t TO 'Bob'");
  EXPECT_TRUE(all.all_permissions);
  EXPECT_EQ(all.permissions,
            (std::vector<Permission>{P::kAlter, P::kDrop, P::kSelect, P::kModify, P::kAuthorize}));
  EXPECT_EQ(all.grantee, "Bob");
  auto roles = Parse<GrantPermissionsStatement>("GRANT ALL ON ALL ROLES TO r");
  EXPECT_EQ(roles.permissions, (std::vector<Permission>{P::kCreate, P::kAlter, P::kDrop,
                                                        P::kAuthorize, P::kDescribe}));
  // Permissions that do not apply are dropped silently...
  auto mixed = Parse<GrantPermissionsStatement>("GRANT EXECUTE, SELECT ON KEYSPACE ks TO r");
  EXPECT_EQ(mixed.permissions, std::vector<Permission>{P::kSelect});
  EXPECT_EQ(mixed.resource.kind, RK::kKeyspace);
  EXPECT_EQ(mixed.resource.keyspace, "ks");
  // ... unless none is left.
  EXPECT_EQ(ErrorOf("GRANT EXECUTE ON ks.t TO r"),
            "syntax: Resource type DataResource does not support any of the requested "
            "permissions");

  struct Case {
    const char* resource;
    RK kind;
  };
  for (const Case& c :
       {Case{"ALL KEYSPACES", RK::kAllKeyspaces},
        Case{"ALL TABLES IN KEYSPACE ks", RK::kAllTablesInKeyspace}, Case{"ROLE r2", RK::kRole},
        Case{"ALL FUNCTIONS", RK::kAllFunctions},
        Case{"ALL FUNCTIONS IN KEYSPACE ks", RK::kAllFunctionsInKeyspace},
        Case{"FUNCTION ks.f(int, text)", RK::kFunction}, Case{"ALL MBEANS", RK::kAllMbeans},
        Case{"MBEAN 'org.apache:type=X'", RK::kMbean},
        Case{"MBEANS 'org.apache:type=*'", RK::kMbeans}, Case{"all", RK::kTable},
        Case{"role", RK::kTable}}) {
    SCOPED_TRACE(c.resource);
    auto statement =
        Parse<GrantPermissionsStatement>(std::string("GRANT ALL ON ") + c.resource + " TO r");
    EXPECT_EQ(statement.resource.kind, c.kind);
  }
  auto function = Parse<GrantPermissionsStatement>("GRANT EXECUTE ON FUNCTION ks.f(int) TO r");
  EXPECT_EQ(function.resource.argument_types, std::vector<std::string>{"int"});
  EXPECT_EQ(ErrorOf("GRANT EXECUTE ON FUNCTION f(int) TO r"),
            "invalid: In this context function name must be explictly qualified by a keyspace");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEANS 'org.apache:type=X' TO r"),
            "syntax: Plural form used, but non-pattern JMX object name specified "
            "(org.apache:type=X)");
  EXPECT_EQ(ErrorOf("GRANT SELECT ON MBEAN '*:*' TO r"),
            "syntax: Please use ALL MBEANS instead of wildcard pattern");
  EXPECT_EQ(ErrorOf("GRANT SELECT, FOO ON t TO r"),
            "syntax: line 1:14 mismatched input 'FOO' expecting set null (GRANT SELECT, [FOO]...)");
}

TEST(AdminParserTest, RevokeAndRoles) {
  auto revoke = Parse<RevokePermissionsStatement>("REVOKE MODIFY ON t FROM r");
  EXPECT_EQ(revoke.permissions, std::vector<Permission>{P::kModify});
  EXPECT_EQ(revoke.revokee, "r");
  auto grant_role = Parse<GrantRoleStatement>("GRANT all TO \"Ops\"");
  EXPECT_EQ(grant_role.role, "all");
  EXPECT_EQ(grant_role.grantee, "Ops");
  auto revoke_role = Parse<RevokeRoleStatement>("REVOKE 'a' FROM b");
  EXPECT_EQ(revoke_role.role, "a");
  EXPECT_EQ(revoke_role.revokee, "b");
  EXPECT_EQ(ErrorOf("GRANT ALL FOO"),
            "syntax: line 1:10 no viable alternative at input 'FOO' ([GRANT] ALL...)");
}

TEST(AdminParserTest, List) {
  auto permissions = Parse<ListPermissionsStatement>(
      "LIST ALL PERMISSIONS ON KEYSPACE ks OF r "
      "NORECURSIVE");
  EXPECT_TRUE(permissions.all_permissions);
  EXPECT_EQ(permissions.permissions.size(), 8u);
  ASSERT_TRUE(permissions.resource);
  EXPECT_EQ(permissions.resource->kind, RK::kKeyspace);
  EXPECT_EQ(permissions.grantee, "r");
  EXPECT_FALSE(permissions.recursive);
  auto some = Parse<ListPermissionsStatement>("LIST SELECT, DESCRIBE");
  EXPECT_EQ(some.permissions, (std::vector<Permission>{P::kSelect, P::kDescribe}));
  EXPECT_FALSE(some.resource);
  EXPECT_TRUE(some.recursive);

  auto roles = Parse<ListRolesStatement>("LIST ROLES OF admin");
  EXPECT_EQ(roles.grantee, "admin");
  EXPECT_FALSE(roles.users_form);
  EXPECT_TRUE(Parse<ListRolesStatement>("LIST USERS").users_form);
  EXPECT_EQ(ErrorOf("LIST TABLES"),
            "syntax: line 1:5 no viable alternative at input 'TABLES' ([LIST] TABLES)");
}

TEST(AdminParserTest, DescribeForms) {
  struct Case {
    const char* cql;
    DK kind;
  };
  for (const Case& c :
       {Case{"DESCRIBE CLUSTER", DK::kCluster}, Case{"DESC SCHEMA", DK::kSchema},
        Case{"DESCRIBE KEYSPACES", DK::kKeyspaces}, Case{"DESCRIBE KEYSPACE", DK::kKeyspace},
        Case{"DESCRIBE TABLES", DK::kTables}, Case{"DESCRIBE TABLE ks.t", DK::kTable},
        Case{"DESCRIBE COLUMNFAMILY t", DK::kTable}, Case{"DESCRIBE INDEX ks.i", DK::kIndex},
        Case{"DESCRIBE MATERIALIZED VIEW v", DK::kMaterializedView},
        Case{"DESCRIBE TYPES", DK::kTypes}, Case{"DESCRIBE TYPE ks.address", DK::kType},
        Case{"DESCRIBE FUNCTIONS", DK::kFunctions}, Case{"DESCRIBE FUNCTION ks.f", DK::kFunction},
        Case{"DESCRIBE AGGREGATES", DK::kAggregates},
        Case{"DESCRIBE AGGREGATE avg", DK::kAggregate}, Case{"DESCRIBE ks.t", DK::kGeneric},
        Case{"DESCRIBE t", DK::kGeneric},
        // Listing keywords are names when a '.' follows.
        Case{"DESCRIBE tables.t", DK::kGeneric}, Case{"DESCRIBE type", DK::kGeneric},
        Case{"DESCRIBE only", DK::kGeneric}}) {
    SCOPED_TRACE(c.cql);
    EXPECT_EQ(Parse<DescribeStatement>(c.cql).kind, c.kind);
  }
  auto full = Parse<DescribeStatement>("DESCRIBE FULL SCHEMA WITH INTERNALS");
  EXPECT_TRUE(full.full_schema);
  EXPECT_TRUE(full.with_internals);
  auto only = Parse<DescribeStatement>("DESC ONLY KEYSPACE \"Ks\"");
  EXPECT_TRUE(only.only_keyspace);
  EXPECT_EQ(only.keyspace, "Ks");
  auto table = Parse<DescribeStatement>("DESCRIBE TABLE Ks.T");
  EXPECT_EQ(table.name.keyspace, "ks");
  EXPECT_EQ(table.name.name, "t");
  auto generic = Parse<DescribeStatement>("DESCRIBE \"Ks\"");
  EXPECT_FALSE(generic.name.keyspace);
  EXPECT_EQ(generic.name.name, "Ks");
  EXPECT_EQ(ErrorOf("DESCRIBE"), "syntax: line 0:-1 no viable alternative at input '<EOF>'");
  EXPECT_EQ(ErrorOf("DESCRIBE FULL"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_SCHEMA");
  EXPECT_EQ(ErrorOf("DESCRIBE TABLE t WITH"),
            "syntax: line 0:-1 mismatched input '<EOF>' expecting K_INTERNALS");
}

}  // namespace
}  // namespace sibyl::cql
