#pragma once
// Test doubles for the statement layer's storage tests: an Engine that
// records what it is asked and answers reads with a canned result, and a
// fixture whose QueryProcessor reads and writes through it.

#include <gtest/gtest.h>

#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "cluster/coordinator.h"
#include "common/clock.h"
#include "query/query_test_util.h"
#include "storage/engine.h"

namespace sibyl::query::testing {

// A fresh directory under the system's temporary directory, removed with
// everything in it when the object goes (tests over the real engine).
class TempDirectory {
 public:
  TempDirectory() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            ("sibyl-query-" + std::to_string(random()) + std::to_string(random()));
  }
  ~TempDirectory() { std::filesystem::remove_all(path_); }
  TempDirectory(const TempDirectory&) = delete;
  TempDirectory& operator=(const TempDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

class RecordingEngine final : public storage::Engine {
 public:
  // Set by tests: called from SyncTables (e.g. to check what clients can see then).
  std::function<void()> on_sync;

  void SyncTables(const std::vector<storage::TableLayout>& tables) override {
    tables_ = tables;
    ++syncs_;
    if (on_sync) on_sync();
  }
  void Apply(const storage::Mutation& mutation) override { applied_.push_back({mutation}); }
  void ApplyAll(const std::vector<const storage::Mutation*>& mutations) override {
    std::vector<storage::Mutation> group;
    for (const auto* m : mutations) group.push_back(*m);
    applied_.push_back(std::move(group));
  }
  void ApplyAllSynced(const std::vector<const storage::Mutation*>& mutations) override {
    ApplyAll(mutations);
  }
  storage::ReadResult Read(const storage::ReadCommand& command) const override {
    reads_.push_back(command);
    return result_;
  }
  // Nothing is stored here, so there is nothing to reconcile.
  std::vector<storage::Mutation> ReadUnfiltered(const storage::ReadCommand&) const override {
    return {};
  }
  void Truncate(const types::Uuid& table_id) override { truncated_.push_back(table_id); }
  void Flush() override {}
  void Flush(const types::Uuid&) override {}
  void Compact(const types::Uuid&) override {}

  const std::vector<storage::TableLayout>& tables() const { return tables_; }
  int syncs() const { return syncs_; }
  // One entry per Apply (one mutation) or ApplyAll (the group).
  const std::vector<std::vector<storage::Mutation>>& applied() const { return applied_; }
  const std::vector<storage::ReadCommand>& reads() const { return reads_; }
  const std::vector<types::Uuid>& truncated() const { return truncated_; }
  void set_result(storage::ReadResult result) { result_ = std::move(result); }

 private:
  std::vector<storage::TableLayout> tables_;
  int syncs_ = 0;
  std::vector<std::vector<storage::Mutation>> applied_;
  mutable std::vector<storage::ReadCommand> reads_;
  std::vector<types::Uuid> truncated_;
  storage::ReadResult result_;
};

// A processor over `Engine` (RecordingEngine, or storage::ReferenceEngine).
template <typename Engine>
class StorageQueryTest : public ::testing::Test {
 protected:
  explicit StorageQueryTest(QueryProcessorOptions options = {})
      : store_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        coordinator_(engine_, clock_),
        processor_(store_, tables_, node_, &coordinator_, std::move(options)) {}

  Result Run(std::string_view query, const protocol::QueryParameters& params = {}) {
    return processor_.Process(query, params, client_);
  }
  RowsResult Rows(std::string_view query, const protocol::QueryParameters& params = {}) {
    Result result = Run(query, params);
    EXPECT_TRUE(std::holds_alternative<RowsResult>(result)) << query;
    if (!std::holds_alternative<RowsResult>(result)) return {};
    return std::get<RowsResult>(std::move(result));
  }
  CqlError Error(std::string_view query, const protocol::QueryParameters& params = {}) {
    try {
      (void)Run(query, params);
    } catch (const CqlError& e) {
      return e;
    }
    ADD_FAILURE() << "expected an error from: " << query;
    return CqlError(ErrorCode::kServerError, "no error");
  }
  static std::vector<std::string> ColumnNames(const RowsResult& rows) {
    std::vector<std::string> names;
    for (const auto& c : *rows.columns) names.push_back(c.name);
    return names;
  }
  void CreateKeyspace() {
    (void)Run(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
  }
  const schema::TableMetadata& Table(std::string_view name) {
    table_ = store_.snapshot()->FindTable("ks", name);
    EXPECT_NE(table_, nullptr) << name;
    return *table_;
  }

  ManualClock clock_;
  Engine engine_;
  schema::SchemaStore store_;
  schema::VirtualTables tables_;
  schema::LocalNodeInfo node_;
  cluster::Coordinator coordinator_;
  QueryProcessor processor_;
  ClientState client_;
  schema::TablePtr table_;
};

}  // namespace sibyl::query::testing
