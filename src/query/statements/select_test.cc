// SELECT over the system tables, with the queries drivers send and the
// errors Cassandra gives for the ones it refuses.

#include <algorithm>

#include "query/query_test_util.h"

namespace sibyl::query {
namespace {

using testing::QueryTest;
using SelectTest = QueryTest;

TEST_F(SelectTest, SystemLocalByKey) {
  RowsResult rows = Rows("SELECT * FROM system.local WHERE key='local'");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.columns->size(), 20u);
  EXPECT_EQ(ColumnNames(rows).front(), "key");
  EXPECT_EQ((*rows.columns)[0].keyspace, "system");
  EXPECT_EQ((*rows.columns)[0].table, "local");
  EXPECT_FALSE(rows.paging_state);
}

TEST_F(SelectTest, SchemaVersionWithoutWhere) {
  RowsResult rows = Rows("SELECT schema_version FROM system.local");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(ColumnNames(rows), std::vector<std::string>{"schema_version"});
  EXPECT_EQ(rows.rows[0][0], store_.snapshot()->version().ToBytes());
}

TEST_F(SelectTest, LocalWithOtherKeyIsEmpty) {
  EXPECT_TRUE(Rows("SELECT * FROM system.local WHERE key = 'other'").rows.empty());
}

TEST_F(SelectTest, PeersAreEmptyButDescribed) {
  RowsResult v2 = Rows("SELECT * FROM system.peers_v2");
  EXPECT_TRUE(v2.rows.empty());
  EXPECT_EQ(v2.columns->size(), 12u);
  RowsResult peers = Rows("SELECT * FROM system.peers");
  EXPECT_TRUE(peers.rows.empty());
  EXPECT_EQ(ColumnNames(peers).front(), "peer");
}

TEST_F(SelectTest, DriverSchemaQueriesSucceed) {
  // What the Python driver runs on connect; any error would be fatal to it.
  for (const char* table : {"keyspaces", "tables", "columns", "types", "functions", "aggregates",
                            "triggers", "indexes", "views"}) {
    RowsResult rows = Rows(std::string("SELECT * FROM system_schema.") + table);
    EXPECT_FALSE(rows.columns->empty()) << table;
  }
  EXPECT_EQ(Rows("SELECT * FROM system_schema.keyspaces").rows.size(), 5u);
}

TEST_F(SelectTest, DriverRefreshQueriesWithKeyRestrictions) {
  EXPECT_EQ(
      Rows("SELECT * FROM system_schema.keyspaces WHERE keyspace_name = 'system'").rows.size(), 1u);
  EXPECT_EQ(Rows("SELECT * FROM system_schema.tables WHERE keyspace_name = 'system' AND "
                 "table_name = 'local'")
                .rows.size(),
            1u);
  EXPECT_EQ(Rows("SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND "
                 "table_name = 'local'")
                .rows.size(),
            20u);
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.functions WHERE keyspace_name = 'ks' AND "
                   "function_name = 'f' AND argument_types = ['int']")
                  .rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.aggregates WHERE keyspace_name = 'ks' AND "
                   "aggregate_name = 'a' AND argument_types = ['int', 'text']")
                  .rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.types WHERE keyspace_name = 'ks' AND "
                   "type_name = 't'")
                  .rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.views WHERE keyspace_name = 'ks' AND "
                   "view_name = 'v'")
                  .rows.empty());
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.triggers WHERE keyspace_name = 'system' AND "
                   "table_name = 'local'")
                  .rows.empty());
  EXPECT_EQ(Rows("SELECT * FROM system_schema.indexes WHERE keyspace_name = 'system' AND "
                 "table_name = 'paxos'")
                .rows.size(),
            1u);
  EXPECT_TRUE(Rows("SELECT * FROM system_schema.views WHERE keyspace_name = 'system' AND "
                   "base_table_name = 'local' ALLOW FILTERING")
                  .rows.empty());
}

TEST_F(SelectTest, ColumnsOfATableInClusteringOrder) {
  RowsResult rows = Rows(
      "SELECT column_name, kind, position, clustering_order, type FROM system_schema.columns "
      "WHERE keyspace_name = 'system' AND table_name = 'peers_v2'");
  ASSERT_EQ(rows.rows.size(), 12u);
  std::vector<std::string> names = Texts(rows, 0);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  for (const auto& row : rows.rows) {
    ASSERT_TRUE(row[3].has_value());  // clustering_order is never null
    if (*row[0] == "peer_port") {
      EXPECT_EQ(*row[1], "clustering");
      EXPECT_EQ(*row[2], types::EncodeInt(0));
      EXPECT_EQ(*row[3], "asc");
      EXPECT_EQ(*row[4], "int");
    }
  }
}

TEST_F(SelectTest, InRestrictionsOnKeys) {
  EXPECT_EQ(Rows("SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name IN "
                 "('system', 'system_auth', 'nope')")
                .rows.size(),
            2u);
  EXPECT_EQ(Rows("SELECT * FROM system_schema.tables WHERE keyspace_name = 'system' AND "
                 "table_name IN ('local', 'peers', 'peers_v2')")
                .rows.size(),
            3u);
}

TEST_F(SelectTest, ClusteringSlices) {
  RowsResult rows = Rows(
      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = "
      "'system' AND table_name >= 'p' AND table_name < 'q'");
  EXPECT_EQ(Texts(rows, 0), (std::vector<std::string>{"paxos", "paxos_repair_history",
                                                      "peer_events", "peer_events_v2", "peers",
                                                      "peers_v2", "prepared_statements"}));
}

TEST_F(SelectTest, AliasesNameResultColumns) {
  RowsResult rows = Rows("SELECT key AS k, cluster_name FROM system.local");
  EXPECT_EQ(ColumnNames(rows), (std::vector<std::string>{"k", "cluster_name"}));
  EXPECT_EQ(rows.rows.at(0)[0], "local");
  EXPECT_EQ(rows.rows.at(0)[1], "Test Cluster");
}

TEST_F(SelectTest, FilteringNeedsAllowFiltering) {
  const std::string message(kRequiresAllowFilteringMessage);
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE table_name = 'local'").what(),
            message);
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE kind = 'regular'").what(), message);
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND "
                  "type = 'text'")
                .what(),
            message);
  EXPECT_EQ(Error("SELECT * FROM system_schema.keyspaces WHERE keyspace_name > 'a'").what(),
            message);
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND "
                  "column_name = 'key'")
                .what(),
            std::string("PRIMARY KEY column \"column_name\" cannot be restricted as preceding "
                        "column \"table_name\" is not restricted"));
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE keyspace_name = 'system' AND "
                  "table_name > 'a' AND column_name = 'key'")
                .what(),
            std::string("Clustering column \"column_name\" cannot be restricted (preceding "
                        "column \"table_name\" is restricted by a non-EQ relation)"));
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns WHERE kind = 'x'").code(),
            ErrorCode::kInvalid);
}

TEST_F(SelectTest, AllowFilteringFilters) {
  RowsResult rows = Rows(
      "SELECT keyspace_name, table_name FROM system_schema.columns WHERE "
      "column_name = 'peer_port' ALLOW FILTERING");
  ASSERT_EQ(rows.rows.size(), 3u);  // peers_v2, peer_events_v2, transferred_ranges_v2
  for (const auto& row : rows.rows) EXPECT_EQ(*row[0], "system");
  RowsResult regular = Rows(
      "SELECT column_name FROM system_schema.columns WHERE keyspace_name = "
      "'system' AND table_name = 'local' AND kind = 'partition_key' "
      "ALLOW FILTERING");
  EXPECT_EQ(Texts(regular, 0), std::vector<std::string>{"key"});
  RowsResult sets = Rows(
      "SELECT keyspace_name FROM system_schema.keyspaces WHERE replication "
      "CONTAINS '3' ALLOW FILTERING");
  EXPECT_EQ(Texts(sets, 0), std::vector<std::string>{"system_distributed"});
  RowsResult keys = Rows(
      "SELECT keyspace_name FROM system_schema.keyspaces WHERE replication "
      "CONTAINS KEY 'replication_factor' ALLOW FILTERING");
  EXPECT_EQ(keys.rows.size(), 3u);
}

TEST_F(SelectTest, UnknownNamesGiveCassandrasMessages) {
  EXPECT_STREQ(Error("SELECT * FROM nope.t").what(), "keyspace nope does not exist");
  EXPECT_STREQ(Error("SELECT * FROM system.nope").what(), "table nope does not exist");
  EXPECT_STREQ(Error("SELECT nope FROM system.local").what(),
               "Undefined column name nope in table system.local");
  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE nope = 1").what(),
               "Undefined column name nope in table system.local");
  EXPECT_STREQ(Error("SELECT * FROM local").what(),
               "No keyspace has been specified. USE a keyspace, or explicitly specify "
               "keyspace.tablename");
  EXPECT_EQ(Error("SELECT * FROM nope.t").code(), ErrorCode::kInvalid);
}

TEST_F(SelectTest, LiteralsMustFitTheirColumn) {
  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE key = 1").what(),
               "Invalid INTEGER constant (1) for \"key\" of type text");
  EXPECT_STREQ(Error("SELECT * FROM system.peers WHERE peer = 'nonsense'").what(),
               "Unable to make inet address from 'nonsense'");
  EXPECT_STREQ(Error("SELECT * FROM system_schema.functions WHERE keyspace_name = 'ks' AND "
                     "function_name = 'f' AND argument_types = 'int'")
                   .what(),
               "Invalid STRING constant (int) for \"argument_types\" of type "
               "frozen<list<text>>");
  EXPECT_STREQ(Error("SELECT * FROM system_schema.functions WHERE keyspace_name = 'ks' AND "
                     "function_name = 'f' AND argument_types = [1]")
                   .what(),
               "Invalid list literal for argument_types: value 1 is not of type text");
  EXPECT_STREQ(Error("SELECT * FROM system_schema.keyspaces WHERE keyspace_name = ['a']").what(),
               "Invalid list literal for keyspace_name of type text");
  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE key = null").what(),
               "Invalid null value in condition for column key");
}

TEST_F(SelectTest, ConflictingRelations) {
  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE key = 'a' AND key = 'b'").what(),
               "key cannot be restricted by more than one relation if it includes an Equal");
  EXPECT_STREQ(Error("SELECT * FROM system_schema.tables WHERE keyspace_name = 'system' AND "
                     "table_name > 'a' AND table_name > 'b'")
                   .what(),
               "More than one restriction was found for the start bound on table_name");
  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE tokens = {'1'} ALLOW FILTERING").what(),
               "Collection column 'tokens' (set<text>) cannot be restricted by a '=' relation");
  // A one-value IN is an equality (Cassandra lets it slide); several are refused.
  EXPECT_EQ(
      Rows("SELECT * FROM system.local WHERE cluster_name IN ('a') ALLOW FILTERING").rows.size(),
      0u);
  EXPECT_STREQ(
      Error("SELECT * FROM system.local WHERE cluster_name IN ('a', 'b') ALLOW FILTERING").what(),
      "IN predicates on non-primary-key columns (cluster_name) is not yet supported");
}

TEST_F(SelectTest, Limits) {
  EXPECT_EQ(Rows("SELECT * FROM system_schema.columns LIMIT 7").rows.size(), 7u);
  EXPECT_STREQ(Error("SELECT * FROM system_schema.columns LIMIT 0").what(),
               "LIMIT must be strictly positive");
  EXPECT_STREQ(Error("SELECT * FROM system_schema.columns LIMIT -3").what(),
               "LIMIT must be strictly positive");
  // Cassandra's grammar takes only an integer or a marker after LIMIT.
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns LIMIT 'x'").code(), ErrorCode::kSyntaxError);
  EXPECT_EQ(
      Rows("SELECT keyspace_name FROM system_schema.tables PER PARTITION LIMIT 2").rows.size(),
      10u);
}

TEST_F(SelectTest, CountDistinctAndOrderBy) {
  RowsResult count = Rows(
      "SELECT count(*) FROM system_schema.tables WHERE keyspace_name = "
      "'system_schema'");
  EXPECT_EQ(ColumnNames(count), std::vector<std::string>{"count"});
  ASSERT_EQ(count.rows.size(), 1u);
  EXPECT_EQ(count.rows[0][0], types::EncodeBigint(10));

  RowsResult distinct = Rows("SELECT DISTINCT keyspace_name FROM system_schema.columns");
  EXPECT_EQ(distinct.rows.size(), 5u);
  EXPECT_STREQ(Error("SELECT DISTINCT table_name FROM system_schema.columns").what(),
               "SELECT DISTINCT queries must only request partition key columns and/or static "
               "columns (not table_name)");

  RowsResult descending = Rows(
      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = "
      "'system_schema' ORDER BY table_name DESC");
  std::vector<std::string> names = Texts(descending, 0);
  ASSERT_EQ(names.size(), 10u);
  EXPECT_EQ(names.front(), "views");
  EXPECT_TRUE(std::is_sorted(names.rbegin(), names.rend()));
  EXPECT_STREQ(Error("SELECT * FROM system_schema.tables ORDER BY table_name DESC").what(),
               "ORDER BY is only supported when the partition key is restricted by an EQ or an "
               "IN.");
}

TEST_F(SelectTest, PagingVisitsEveryRowOnce) {
  const char* query = "SELECT * FROM system_schema.columns";
  const std::vector<schema::Row> all = Rows(query).rows;
  ASSERT_GT(all.size(), 100u);
  for (int page_size : {1, 7, 50, 1000}) {
    int pages = 0;
    std::vector<schema::Row> paged = AllPages(query, page_size, pages);
    EXPECT_EQ(paged, all) << "page size " << page_size;
    EXPECT_EQ(pages, static_cast<int>((all.size() + page_size - 1) / page_size))
        << "page size " << page_size;
  }
}

TEST_F(SelectTest, PagingHonoursLimitsAndRestrictions) {
  int pages = 0;
  EXPECT_EQ(AllPages("SELECT * FROM system_schema.columns LIMIT 10", 3, pages).size(), 10u);
  EXPECT_EQ(pages, 4);
  std::vector<schema::Row> system_local = AllPages(
      "SELECT column_name FROM system_schema.columns WHERE keyspace_name = 'system' AND "
      "table_name = 'local'",
      6, pages);
  EXPECT_EQ(system_local.size(), 20u);
  EXPECT_EQ(pages, 4);
  EXPECT_EQ(AllPages("SELECT DISTINCT keyspace_name FROM system_schema.columns", 2, pages).size(),
            5u);
  EXPECT_EQ(
      AllPages("SELECT keyspace_name FROM system_schema.tables PER PARTITION LIMIT 3", 2, pages)
          .size(),
      14u);  // three from each keyspace, but system_traces has two tables
  std::vector<schema::Row> descending = AllPages(
      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = 'system' ORDER "
      "BY table_name DESC",
      5, pages);
  ASSERT_EQ(descending.size(), 22u);
  EXPECT_EQ(*descending.front()[0], "view_builds_in_progress");
  EXPECT_EQ(*descending.back()[0], "IndexInfo");
}

TEST_F(SelectTest, MalformedPagingStateIsAProtocolError) {
  protocol::QueryParameters params;
  params.page_size = 5;
  params.paging_state = BytesView("garbage");
  EXPECT_EQ(Error("SELECT * FROM system_schema.columns", params).code(), ErrorCode::kProtocolError);
}

TEST_F(SelectTest, SelectionFunctionRefusals) {
  EXPECT_STREQ(Error("SELECT writetime(key) FROM system.local").what(),
               "Cannot use selection function writeTime on PRIMARY KEY part key");
  EXPECT_STREQ(Error("SELECT ttl(tokens) FROM system.local").what(),
               "Cannot use selection function ttl on collections");
}

TEST_F(SelectTest, TokenAndJsonOverSystemTables) {
  RowsResult token = Rows("SELECT token(key) FROM system.local");
  ASSERT_EQ(token.rows.size(), 1u);
  EXPECT_EQ(ColumnNames(token), std::vector<std::string>{"system.token(key)"});
  RowsResult json = Rows("SELECT JSON key FROM system.local");
  ASSERT_EQ(json.rows.size(), 1u);
  EXPECT_EQ(ColumnNames(json), std::vector<std::string>{"[json]"});
  EXPECT_EQ(json.rows[0][0], Bytes("{\"key\": \"local\"}"));
}

}  // namespace
}  // namespace sibyl::query
