// replica_disk_usage at the statement layer, on a single node (the one
// replica of every partition is this node, in the state its monitor gave).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cluster/membership/disk_usage_states.h"
#include "guardrails/guardrails.h"
#include "query/read/engine_test_util.h"

namespace sibyl::query {
namespace {

using guardrails::DiskUsageState;
using Warnings = std::vector<std::string>;

constexpr std::string_view kStuffed =
    "Guardrail replica_disk_usage violated: Replica disk usage exceeds warning threshold";
constexpr std::string_view kFull =
    "Guardrail replica_disk_usage violated: Write request failed because disk usage exceeds "
    "failure threshold";

// Built before the processor, which keeps a pointer to the guardrails.
struct DiskUsageSettings {
  guardrails::Guardrails guardrails;
  cluster::DiskUsageStates states;
  static QueryProcessorOptions Options(const guardrails::Guardrails& guardrails) {
    QueryProcessorOptions options;
    options.guardrails = &guardrails;
    return options;
  }
};

class ReplicaDiskUsageTest : public DiskUsageSettings,
                             public testing::StorageQueryTest<testing::RecordingEngine> {
 protected:
  ReplicaDiskUsageTest() : StorageQueryTest(Options(guardrails)) {
    coordinator_.SetDiskUsageStates(&states);
  }
  void SetUp() override {
    CreateKeyspace();
    (void)Run("CREATE TABLE ks.t (k int, c int, v int, PRIMARY KEY (k, c))");
  }
  Warnings Warned(std::string_view query) {
    client_.warnings.clear();
    (void)Run(query);
    return client_.warnings;
  }
  size_t Applied() const {
    size_t count = 0;
    for (const auto& group : engine_.applied()) count += group.size();
    return count;
  }
};

TEST_F(ReplicaDiskUsageTest, SpaciousOrUnknownReplicasSayNothing) {
  for (DiskUsageState state : {DiskUsageState::kNotAvailable, DiskUsageState::kSpacious}) {
    states.SetLocal(state);
    EXPECT_EQ(Warned("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)"), Warnings{});
  }
  EXPECT_EQ(Applied(), 2u);
}

TEST_F(ReplicaDiskUsageTest, AStuffedReplicaWarnsEveryWriteOfItsPartitions) {
  states.SetLocal(DiskUsageState::kStuffed);
  EXPECT_EQ(Warned("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)"), Warnings{std::string(kStuffed)});
  EXPECT_EQ(Warned("UPDATE ks.t SET v = 2 WHERE k = 1 AND c = 1"), Warnings{std::string(kStuffed)});
  EXPECT_EQ(Warned("DELETE FROM ks.t WHERE k = 1"), Warnings{std::string(kStuffed)});
  // One warning per partition written, for each statement of a batch.
  EXPECT_EQ(Warned("UPDATE ks.t SET v = 2 WHERE k IN (1, 2) AND c = 1").size(), 2u);
  EXPECT_EQ(Warned("BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); "
                   "INSERT INTO ks.t (k, c, v) VALUES (1, 2, 1); APPLY BATCH")
                .size(),
            2u);
  EXPECT_EQ(Applied(), 6u);  // the batch's two rows are one partition's write
  // Reads are not writes.
  EXPECT_EQ(Warned("SELECT * FROM ks.t WHERE k = 1"), Warnings{});
}

TEST_F(ReplicaDiskUsageTest, AFullReplicaRefusesWritesButNotReads) {
  states.SetLocal(DiskUsageState::kFull);
  for (const char* write :
       {"INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)", "DELETE FROM ks.t WHERE k = 1",
        "BEGIN UNLOGGED BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1); APPLY BATCH",
        "BEGIN BATCH INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1) IF NOT EXISTS; APPLY BATCH"}) {
    client_.warnings.clear();
    const CqlError error = Error(write);
    EXPECT_EQ(error.code(), ErrorCode::kInvalid) << write;
    EXPECT_EQ(error.what(), kFull) << write;
    EXPECT_EQ(client_.warnings, Warnings{std::string(kFull)}) << write;
  }
  EXPECT_EQ(Applied(), 0u);
  EXPECT_EQ(Warned("SELECT * FROM ks.t WHERE k = 1"), Warnings{});
  // A table no replica holds gets its own error.
  EXPECT_STREQ(Error("BEGIN BATCH INSERT INTO system_views.flushes (keyspace_name, table_name) "
                     "VALUES ('ks', 't'); APPLY BATCH")
                   .what(),
               "Modification is not supported by table system_views.flushes");
  // Back under the thresholds: writes go through again.
  states.SetLocal(DiskUsageState::kSpacious);
  EXPECT_EQ(Warned("INSERT INTO ks.t (k, c, v) VALUES (1, 1, 1)"), Warnings{});
  EXPECT_EQ(Applied(), 1u);
}

}  // namespace
}  // namespace sibyl::query
