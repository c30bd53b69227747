// PREPARE / EXECUTE, USE, bind markers and the statements Sibyl refuses.

#include <atomic>
#include <thread>

#include "query/query_test_util.h"
#include "query/statement_id.h"

namespace sibyl::query {
namespace {

using testing::QueryTest;
using ProcessorTest = QueryTest;

using testing::WithValues;

TEST_F(ProcessorTest, PreparedIdsAreCassandrasAndStable) {
  const char* query = "SELECT * FROM system.local WHERE key = ?";
  protocol::PreparedResult a = processor_.Prepare(query, client_, std::nullopt);
  protocol::PreparedResult b = processor_.Prepare(query, client_, std::nullopt);
  EXPECT_EQ(a.id.size(), 16u);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.id, ComputeStatementId(std::nullopt, query));
  EXPECT_NE(processor_.Prepare("SELECT * FROM system.peers", client_, std::nullopt).id, a.id);
  // MD5 of the text, as Cassandra computes it.
  EXPECT_EQ(ToHex(ComputeStatementId(std::nullopt, "")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(ToHex(ComputeStatementId("ks", "abc")),
            ToHex(ComputeStatementId(std::nullopt, "ksabc")));
}

TEST_F(ProcessorTest, UnqualifiedStatementsAreKeyedByKeyspace) {
  const char* query = "SELECT * FROM local";
  protocol::PreparedResult in_system = processor_.Prepare(query, client_, "system");
  EXPECT_EQ(in_system.id, ComputeStatementId("system", query));
  // A qualified statement keeps the id of its text even with a keyspace set.
  const char* qualified = "SELECT * FROM system.local";
  EXPECT_EQ(processor_.Prepare(qualified, client_, "system_schema").id,
            ComputeStatementId(std::nullopt, qualified));
  // The v5 PREPARE keyspace and USE both apply.
  client_.keyspace = "system";
  EXPECT_EQ(processor_.Prepare(query, client_, std::nullopt).id, in_system.id);
}

TEST_F(ProcessorTest, PreparedMetadataDescribesMarkersAndResults) {
  protocol::PreparedResult prepared = processor_.Prepare(
      "SELECT table_name, id FROM system_schema.tables WHERE keyspace_name = ? AND table_name IN "
      "? LIMIT ?",
      client_, std::nullopt);
  ASSERT_EQ(prepared.bind_variables.size(), 3u);
  EXPECT_EQ(prepared.bind_variables[0].name, "keyspace_name");
  EXPECT_EQ(prepared.bind_variables[0].keyspace, "system_schema");
  EXPECT_EQ(prepared.bind_variables[0].table, "tables");
  EXPECT_EQ(prepared.bind_variables[0].type->ToCql(), "text");
  EXPECT_EQ(prepared.bind_variables[1].name, "in(table_name)");
  EXPECT_EQ(prepared.bind_variables[1].type->ToCql(), "list<text>");
  EXPECT_EQ(prepared.bind_variables[2].name, "[limit]");
  EXPECT_EQ(prepared.bind_variables[2].type->ToCql(), "int");
  EXPECT_EQ(prepared.partition_key_indexes, std::vector<uint16_t>{0});
  ASSERT_EQ(prepared.result_columns.size(), 2u);
  EXPECT_EQ(prepared.result_columns[1].type->ToCql(), "uuid");
  EXPECT_EQ(prepared.result_metadata_id, ComputeResultMetadataId(prepared.result_columns));
  EXPECT_EQ(prepared.result_metadata_id.size(), 16u);

  protocol::PreparedResult no_key =
      processor_.Prepare("SELECT * FROM system_schema.keyspaces", client_, std::nullopt);
  EXPECT_TRUE(no_key.partition_key_indexes.empty());
  EXPECT_NE(no_key.result_metadata_id, prepared.result_metadata_id);
}

TEST_F(ProcessorTest, ExecuteBindsValues) {
  protocol::PreparedResult prepared = processor_.Prepare(
      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND table_name IN ? "
      "LIMIT ?",
      client_, std::nullopt);
  const Bytes keyspace = "system";
  const Bytes names = types::EncodeList({"peers", "local", "nope"});
  const Bytes limit = types::EncodeInt(10);
  Result result = processor_.Execute(
      prepared.id, WithValues({Value::Of(keyspace), Value::Of(names), Value::Of(limit)}), client_);
  const auto& rows = std::get<RowsResult>(result);
  EXPECT_EQ(Texts(rows, 0), (std::vector<std::string>{"local", "peers"}));
  EXPECT_FALSE(rows.new_metadata_id);

  // An unset limit is no limit; a null one is refused.
  Result unset = processor_.Execute(
      prepared.id, WithValues({Value::Of(keyspace), Value::Of(names), Value::Unset()}), client_);
  EXPECT_EQ(std::get<RowsResult>(unset).rows.size(), 2u);
  try {
    (void)processor_.Execute(
        prepared.id, WithValues({Value::Of(keyspace), Value::Of(names), Value::Null()}), client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(), "Invalid null value of limit");
  }
}

TEST_F(ProcessorTest, BoundValuesAreChecked) {
  protocol::PreparedResult prepared =
      processor_.Prepare("SELECT * FROM system.local WHERE key = ?", client_, std::nullopt);
  auto error = [&](const protocol::QueryParameters& params) {
    try {
      (void)processor_.Execute(prepared.id, params, client_);
    } catch (const CqlError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error(WithValues({})), "Invalid amount of bind variables");
  EXPECT_EQ(error(WithValues({Value::Unset()})), "Invalid unset value for column key");
  EXPECT_EQ(error(WithValues({Value::Null()})), "Invalid null value in condition for column key");
  const Bytes bad_utf8("\xff\xfe", 2);
  EXPECT_EQ(error(WithValues({Value::Of(bad_utf8)})), "String didn't validate.");

  EXPECT_STREQ(Error("SELECT * FROM system.local WHERE key = ?").what(),
               "Invalid amount of bind variables");
  const Bytes local = "local";
  EXPECT_EQ(
      Rows("SELECT * FROM system.local WHERE key = ?", WithValues({Value::Of(local)})).rows.size(),
      1u);
}

TEST_F(ProcessorTest, NamedValuesMatchMarkerNames) {
  protocol::PreparedResult prepared = processor_.Prepare(
      "SELECT table_name FROM system_schema.tables WHERE keyspace_name = :ks AND table_name = "
      ":t",
      client_, std::nullopt);
  EXPECT_EQ(prepared.bind_variables[0].name, "ks");
  EXPECT_EQ(prepared.bind_variables[1].name, "t");
  const Bytes keyspace = "system";
  const Bytes table = "local";
  protocol::QueryParameters params = WithValues({Value::Of(table), Value::Of(keyspace)});
  params.flags |= protocol::kQueryFlagNamesForValues;
  params.names = {"t", "ks"};
  Result result = processor_.Execute(prepared.id, params, client_);
  EXPECT_EQ(Texts(std::get<RowsResult>(result), 0), std::vector<std::string>{"local"});
}

TEST_F(ProcessorTest, UnknownIdsAreUnprepared) {
  const Bytes id(16, '\x01');
  try {
    (void)processor_.Execute(id, {}, client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnprepared);
    EXPECT_STREQ(e.what(),
                 "Prepared query with ID 01010101010101010101010101010101 not found (either the "
                 "query was not prepared on this host (maybe the host has been restarted?) or you "
                 "have prepared too many queries and it has been evicted from the internal cache)");
    ASSERT_TRUE(std::holds_alternative<UnpreparedInfo>(e.detail()));
    EXPECT_EQ(std::get<UnpreparedInfo>(e.detail()).id, id);
  }
}

TEST_F(ProcessorTest, CacheEvictsLeastRecentlyUsed) {
  QueryProcessor small(store_, tables_, node_, QueryProcessorOptions{2});
  auto id_of = [&](const char* q) { return small.Prepare(q, client_, std::nullopt).id; };
  Bytes local = id_of("SELECT * FROM system.local");
  Bytes peers = id_of("SELECT * FROM system.peers");
  (void)small.Execute(local, {}, client_);  // local is now the most recent
  Bytes peers_v2 = id_of("SELECT * FROM system.peers_v2");
  EXPECT_EQ(small.prepared_count(), 2u);
  EXPECT_NO_THROW((void)small.Execute(local, {}, client_));
  EXPECT_NO_THROW((void)small.Execute(peers_v2, {}, client_));
  EXPECT_THROW((void)small.Execute(peers, {}, client_), CqlError);
}

TEST_F(ProcessorTest, ChangedResultMetadataIsReported) {
  protocol::PreparedResult prepared =
      processor_.Prepare("SELECT * FROM system.local", client_, std::nullopt);
  protocol::ExecuteMessage execute;
  execute.id = prepared.id;
  execute.result_metadata_id = BytesView(prepared.result_metadata_id);
  EXPECT_FALSE(std::get<RowsResult>(processor_.Execute(execute, client_)).new_metadata_id);
  const Bytes stale(16, '\0');
  execute.result_metadata_id = BytesView(stale);
  EXPECT_EQ(std::get<RowsResult>(processor_.Execute(execute, client_)).new_metadata_id,
            prepared.result_metadata_id);
}

TEST_F(ProcessorTest, StatementsArePreparedAgainAfterASchemaChange) {
  protocol::PreparedResult prepared = processor_.Prepare(
      "SELECT keyspace_name FROM system_schema.keyspaces", client_, std::nullopt);
  EXPECT_EQ(std::get<RowsResult>(processor_.Execute(prepared.id, {}, client_)).rows.size(), 5u);
  schema::Schema::KeyspaceMap keyspaces = store_.snapshot()->keyspaces();
  auto ks = std::make_shared<schema::KeyspaceMetadata>();
  ks->name = "ks";
  keyspaces.emplace("ks", ks);
  store_.Publish(std::make_shared<const schema::Schema>(keyspaces));
  EXPECT_EQ(std::get<RowsResult>(processor_.Execute(prepared.id, {}, client_)).rows.size(), 6u);
}

TEST_F(ProcessorTest, UseSetsTheKeyspace) {
  Result result = processor_.Process("USE system", {}, client_);
  ASSERT_TRUE(std::holds_alternative<SetKeyspaceResult>(result));
  EXPECT_EQ(std::get<SetKeyspaceResult>(result).keyspace, "system");
  EXPECT_EQ(client_.keyspace, "system");
  EXPECT_EQ(Rows("SELECT * FROM local").rows.size(), 1u);
  EXPECT_STREQ(Error("USE nope").what(), "Keyspace 'nope' does not exist");
  EXPECT_EQ(client_.keyspace, "system");
  Result quoted = processor_.Process("USE \"system_schema\"", {}, client_);
  EXPECT_EQ(std::get<SetKeyspaceResult>(quoted).keyspace, "system_schema");

  // USE can be prepared and executed too.
  protocol::PreparedResult use = processor_.Prepare("USE system_auth", client_, std::nullopt);
  EXPECT_TRUE(use.result_columns.empty());
  (void)processor_.Execute(use.id, {}, client_);
  EXPECT_EQ(client_.keyspace, "system_auth");
}

TEST_F(ProcessorTest, RequestKeyspaceOverridesUse) {
  protocol::QueryParameters params;
  params.keyspace = "system";
  EXPECT_EQ(Rows("SELECT * FROM local", params).rows.size(), 1u);
  EXPECT_FALSE(client_.keyspace);
}

TEST_F(ProcessorTest, PendingStatementsAndBatchesFailHonestly) {
  EXPECT_STREQ(Error("CREATE TRIGGER trig ON ks.t USING 'org.example.Trigger'").what(),
               "CREATE TRIGGER statements are not supported by Sibyl yet");
  try {
    (void)processor_.Batch(protocol::BatchMessage{}, client_);
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
  }
  EXPECT_EQ(Error("SELEC * FROM system.local").code(), ErrorCode::kSyntaxError);
}

TEST_F(ProcessorTest, ConcurrentPrepareAndExecute) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      ClientState client;
      for (int i = 0; i < 50; ++i) {
        try {
          std::string query =
              "SELECT * FROM system_schema.tables WHERE keyspace_name = 'system' "
              "LIMIT " +
              std::to_string(1 + (i + t) % 5);
          auto prepared = processor_.Prepare(query, client, std::nullopt);
          Result result = processor_.Execute(prepared.id, {}, client);
          if (std::get<RowsResult>(result).rows.size() != size_t(1 + (i + t) % 5)) ++failures;
        } catch (...) {
          ++failures;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(processor_.prepared_count(), 5u);
}

}  // namespace
}  // namespace sibyl::query
