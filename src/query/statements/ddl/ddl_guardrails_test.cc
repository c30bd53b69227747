#include "query/statements/ddl/ddl_guardrails.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "guardrails/guardrails.h"
#include "query/query_processor.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"

namespace sibyl::query::ddl {
namespace {

// A processor for DDL (no coordinator: nothing is stored) checked against
// guardrails the test sets.
class DdlGuardrailsTest : public ::testing::Test {
 protected:
  DdlGuardrailsTest()
      : store_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        processor_(store_, tables_, node_, Options(guardrails_)) {}

  static QueryProcessorOptions Options(const guardrails::Guardrails& guardrails) {
    QueryProcessorOptions options;
    options.guardrails = &guardrails;
    return options;
  }

  // The statement's client warnings; fails the test if it fails.
  std::vector<std::string> Run(const std::string& query) {
    client_.warnings.clear();
    (void)processor_.Process(query, {}, client_);
    return client_.warnings;
  }

  std::string Error(const std::string& query) {
    client_.warnings.clear();
    try {
      (void)processor_.Process(query, {}, client_);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << e.what();
      // The failure's text goes with the error as a warning too.
      EXPECT_EQ(client_.warnings, std::vector<std::string>{e.what()});
      return e.what();
    }
    ADD_FAILURE() << "no error from " << query;
    return {};
  }

  void CreateKeyspace(const std::string& name) {
    Run("CREATE KEYSPACE " + name +
        " WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1}");
  }

  guardrails::Guardrails guardrails_;
  schema::SchemaStore store_;
  schema::VirtualTables tables_;
  schema::LocalNodeInfo node_;
  QueryProcessor processor_;
  ClientState client_;
};

using Warnings = std::vector<std::string>;

TEST_F(DdlGuardrailsTest, KeyspacesAndTablesCountUserObjectsOnly) {
  guardrails_.Apply({{"keyspaces_warn_threshold", "1"}, {"keyspaces_fail_threshold", "2"}});
  EXPECT_EQ(Run("CREATE KEYSPACE ks1 WITH replication = "
                "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1}"),
            Warnings{});
  EXPECT_EQ(Run("CREATE KEYSPACE ks2 WITH replication = "
                "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1}"),
            Warnings{"Guardrail keyspaces violated: Creating keyspace ks2, current number of "
                     "keyspaces 2 exceeds warning threshold of 1."});
  EXPECT_EQ(Error("CREATE KEYSPACE ks3 WITH replication = "
                  "{'class': 'NetworkTopologyStrategy', 'datacenter1': 1}"),
            "Guardrail keyspaces violated: Cannot have more than 2 keyspaces, aborting the "
            "creation of keyspace ks3");

  guardrails_.Apply({{"tables_fail_threshold", "2"}});
  Run("CREATE TABLE ks1.a (k int PRIMARY KEY)");
  Run("CREATE TABLE ks2.b (k int PRIMARY KEY)");
  EXPECT_EQ(Error("CREATE TABLE ks1.c (k int PRIMARY KEY)"),
            "Guardrail tables violated: Cannot have more than 2 tables, aborting the creation of "
            "table c");
}

TEST_F(DdlGuardrailsTest, ColumnsIndexesViewsAndUserTypeFields) {
  CreateKeyspace("ks");
  guardrails_.Apply({{"columns_per_table_warn_threshold", "2"},
                     {"columns_per_table_fail_threshold", "3"},
                     {"secondary_indexes_per_table_fail_threshold", "1"},
                     {"materialized_views_per_table_fail_threshold", "1"},
                     {"fields_per_udt_fail_threshold", "2"}});
  EXPECT_EQ(Run("CREATE TABLE ks.t (k int PRIMARY KEY, a int, b int)"),
            Warnings{"Guardrail columns_per_table violated: The table t has 3 columns, this "
                     "exceeds the warning threshold of 2."});
  EXPECT_EQ(Error("ALTER TABLE ks.t ADD c int"),
            "Guardrail columns_per_table violated: Tables cannot have more than 3 columns, but 4 "
            "provided for table t");
  Run("CREATE INDEX ia ON ks.t (a)");
  EXPECT_EQ(Error("CREATE INDEX ib ON ks.t (b)"),
            "Guardrail secondary_indexes_per_table violated: Tables cannot have more than 1 "
            "secondary indexes, aborting the creation of secondary index ib on table t");
  Run("CREATE MATERIALIZED VIEW ks.v1 AS SELECT * FROM ks.t WHERE k IS NOT NULL AND "
      "b IS NOT NULL PRIMARY KEY (b, k)");
  EXPECT_EQ(Error("CREATE MATERIALIZED VIEW ks.v2 AS SELECT * FROM ks.t WHERE k IS NOT NULL AND "
                  "b IS NOT NULL PRIMARY KEY (b, k)"),
            "Guardrail materialized_views_per_table violated: Tables cannot have more than 1 "
            "materialized views, aborting the creation of materialized view v2 on table t");
  Run("CREATE TYPE ks.u (x int, y int)");
  EXPECT_EQ(Error("ALTER TYPE ks.u ADD z int"),
            "Guardrail fields_per_udt violated: User types cannot have more than 2 columns, but "
            "3 provided for user type u.");
}

TEST_F(DdlGuardrailsTest, FeatureFlags) {
  CreateKeyspace("ks");
  Run("CREATE TABLE ks.t (k int PRIMARY KEY, a int)");
  guardrails_.Apply({{"secondary_indexes_enabled", "false"},
                     {"alter_table_enabled", "false"},
                     {"drop_truncate_table_enabled", "false"},
                     {"drop_keyspace_enabled", "false"},
                     {"simplestrategy_enabled", "false"},
                     {"uncompressed_tables_enabled", "false"}});
  EXPECT_EQ(Error("CREATE INDEX ON ks.t (a)"),
            "Guardrail secondary_indexes violated: Creating secondary indexes is not allowed");
  EXPECT_EQ(Error("ALTER TABLE ks.t DROP a"),
            "Guardrail alter_table violated: ALTER TABLE changing columns is not allowed");
  EXPECT_EQ(Run("ALTER TABLE ks.t WITH comment = 'options are not columns'"), Warnings{});
  EXPECT_EQ(Error("ALTER TABLE ks.t WITH compression = {'enabled': false}"),
            "Guardrail uncompressed_tables_enabled violated: Uncompressed table is not allowed");
  EXPECT_EQ(Error("DROP TABLE ks.t"),
            "Guardrail drop_truncate_table_enabled violated: DROP and TRUNCATE TABLE "
            "functionality is not allowed");
  EXPECT_EQ(Error("TRUNCATE ks.t"),
            "Guardrail drop_truncate_table_enabled violated: DROP and TRUNCATE TABLE "
            "functionality is not allowed");
  EXPECT_EQ(Error("DROP KEYSPACE ks"),
            "Guardrail drop_keyspace_enabled violated: DROP KEYSPACE functionality is not allowed");
  EXPECT_EQ(Error("CREATE KEYSPACE s WITH replication = "
                  "{'class': 'SimpleStrategy', 'replication_factor': 1}"),
            "Guardrail simplestrategy violated: SimpleStrategy is not allowed");
}

TEST_F(DdlGuardrailsTest, ReplicationFactors) {
  guardrails_.Apply({{"minimum_replication_factor_warn_threshold", "2"},
                     {"maximum_replication_factor_fail_threshold", "3"}});
  EXPECT_EQ(Run("CREATE KEYSPACE ks WITH replication = "
                "{'class': 'SimpleStrategy', 'replication_factor': 1}"),
            Warnings{"Guardrail minimum_replication_factor violated: The keyspace ks has a "
                     "replication factor of 1, below the warning threshold of 2."});
  EXPECT_EQ(Error("ALTER KEYSPACE ks WITH replication = "
                  "{'class': 'NetworkTopologyStrategy', 'datacenter1': 4}"),
            "Guardrail maximum_replication_factor violated: The keyspace ks has a replication "
            "factor of 4, above the failure threshold of 3.");
}

TEST_F(DdlGuardrailsTest, TablePropertiesAreRefusedIgnoredOrWarned) {
  CreateKeyspace("ks");
  guardrails_.Apply({{"table_properties_disallowed", "gc_grace_seconds"},
                     {"table_properties_ignored", "comment"},
                     {"table_properties_warned", "caching"}});
  EXPECT_EQ(Error("CREATE TABLE ks.t (k int PRIMARY KEY) WITH gc_grace_seconds = 1"),
            "Guardrail table_properties violated: Provided values [gc_grace_seconds] are not "
            "allowed for Table Properties (disallowed values are: [gc_grace_seconds])");
  EXPECT_EQ(Run("CREATE TABLE ks.t (k int PRIMARY KEY) WITH comment = 'dropped'"),
            Warnings{"Guardrail table_properties violated: Ignoring provided values [comment] as "
                     "they are not supported for Table Properties (ignored values are: "
                     "[comment])"});
  const schema::TablePtr table = store_.snapshot()->FindTable("ks", "t");
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->params.comment, "");
}

TEST_F(DdlGuardrailsTest, NothingIsCheckedWithoutGuardrails) {
  schema::SchemaStore store(schema::MakeInitialSchema());
  QueryProcessor processor(store, tables_, node_);
  ClientState client;
  guardrails_.Set("keyspaces_fail_threshold", "1");
  for (const char* name : {"a", "b", "c"}) {
    (void)processor.Process(std::string("CREATE KEYSPACE ") + name +
                                " WITH replication = {'class': 'SimpleStrategy', "
                                "'replication_factor': 1}",
                            {}, client);
  }
  EXPECT_TRUE(client.warnings.empty());
}

}  // namespace
}  // namespace sibyl::query::ddl
