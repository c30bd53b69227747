#include "server/request_metrics.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>

namespace sibyl::server {
namespace {

using namespace std::chrono_literals;

std::shared_ptr<schema::TableMetadata> Table(const std::string& keyspace, const std::string& name) {
  auto table = std::make_shared<schema::TableMetadata>();
  table->keyspace = keyspace;
  table->name = name;
  table->id = types::Uuid::Random();
  return table;
}

std::string Render(const RequestMetrics& metrics) {
  metrics::ExpositionWriter out;
  metrics.Collect(out);
  return out.Take();
}

bool Has(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos;
}

TEST(RequestMetrics, CountsPerOperationAndPerTable) {
  RequestMetrics metrics;
  const auto users = Table("ks", "users");
  metrics.Record(CqlOperation::kExecute, users.get(), TableAccess::kWrite, std::nullopt, 200us);
  metrics.Record(CqlOperation::kExecute, users.get(), TableAccess::kRead, std::nullopt, 2ms);
  metrics.Record(CqlOperation::kQuery, users.get(), TableAccess::kRead, ErrorCode::kInvalid, 50us);
  metrics.Record(CqlOperation::kQuery, nullptr, TableAccess::kRead, ErrorCode::kSyntaxError, 50us);
  metrics.Record(CqlOperation::kPrepare, nullptr, TableAccess::kRead, std::nullopt, 50us);
  const std::string text = Render(metrics);
  EXPECT_TRUE(Has(text, "sibyl_cql_requests_total{operation=\"query\"} 2")) << text;
  EXPECT_TRUE(Has(text, "sibyl_cql_requests_total{operation=\"prepare\"} 1"));
  EXPECT_TRUE(Has(text, "sibyl_cql_requests_total{operation=\"execute\"} 2"));
  EXPECT_TRUE(Has(text, "sibyl_cql_requests_total{operation=\"batch\"} 0"));
  EXPECT_TRUE(Has(text, "sibyl_cql_request_errors_total{operation=\"query\",code=\"INVALID\"} 1"));
  EXPECT_TRUE(
      Has(text, "sibyl_cql_request_errors_total{operation=\"query\",code=\"SYNTAX_ERROR\"} 1"));
  // Error series appear with their first error only.
  EXPECT_EQ(text.find("operation=\"execute\",code="), std::string::npos);
  EXPECT_TRUE(Has(
      text, "sibyl_cql_request_duration_seconds_bucket{operation=\"execute\",le=\"0.00025\"} 1"));
  EXPECT_TRUE(Has(text, "sibyl_cql_request_duration_seconds_count{operation=\"execute\"} 2"));
  EXPECT_TRUE(
      Has(text, "sibyl_cql_table_requests_total{keyspace=\"ks\",table=\"users\",kind=\"read\"} 2"));
  EXPECT_TRUE(Has(
      text, "sibyl_cql_table_requests_total{keyspace=\"ks\",table=\"users\",kind=\"write\"} 1"));
  EXPECT_TRUE(Has(text,
                  "sibyl_cql_table_request_errors_total{keyspace=\"ks\",table=\"users\",kind="
                  "\"read\",code=\"INVALID\"} 1"));
  EXPECT_TRUE(Has(text,
                  "sibyl_cql_table_request_duration_seconds_count{keyspace=\"ks\",table=\"users\","
                  "kind=\"read\"} 2"));
}

TEST(RequestMetrics, ATableCreatedAgainKeepsItsSeries) {
  RequestMetrics metrics;
  const auto before = Table("ks", "t");
  const auto after = Table("ks", "t");  // dropped and created again: a new id
  metrics.Record(CqlOperation::kQuery, before.get(), TableAccess::kWrite, std::nullopt, 1ms);
  metrics.Record(CqlOperation::kQuery, after.get(), TableAccess::kWrite, std::nullopt, 1ms);
  const std::string text = Render(metrics);
  EXPECT_TRUE(
      Has(text, "sibyl_cql_table_requests_total{keyspace=\"ks\",table=\"t\",kind=\"write\"} 2"));
}

TEST(RequestMetrics, InstancesDoNotShareAThreadsCache) {
  const auto table = Table("ks", "t");
  {
    RequestMetrics first;
    first.Record(CqlOperation::kQuery, table.get(), TableAccess::kRead, std::nullopt, 1ms);
  }
  RequestMetrics second;  // may sit where the first was
  second.Record(CqlOperation::kQuery, table.get(), TableAccess::kRead, std::nullopt, 1ms);
  EXPECT_TRUE(Has(Render(second),
                  "sibyl_cql_table_requests_total{keyspace=\"ks\",table=\"t\",kind=\"read\"} 1"));
}

TEST(RequestMetrics, ThreadsCountTogether) {
  RequestMetrics metrics;
  const auto table = Table("ks", "t");
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 1000; ++i) {
        metrics.Record(CqlOperation::kExecute, table.get(), TableAccess::kRead, std::nullopt, 1ms);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  const std::string text = Render(metrics);
  EXPECT_TRUE(Has(text, "sibyl_cql_requests_total{operation=\"execute\"} 4000"));
  EXPECT_TRUE(
      Has(text, "sibyl_cql_table_requests_total{keyspace=\"ks\",table=\"t\",kind=\"read\"} 4000"));
}

}  // namespace
}  // namespace sibyl::server
