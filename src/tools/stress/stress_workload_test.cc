#include "tools/stress/stress_workload.h"

#include <gtest/gtest.h>

namespace sibyl::tools {
namespace {

StressOptions Options(std::vector<std::string> args) { return ParseStressArguments(args); }

TEST(StressWorkloadTest, WriteStatements) {
  const WorkloadStatements s = StatementsFor(Options({"write", "--columns", "2"}));
  EXPECT_EQ(s.create_keyspace,
            "CREATE KEYSPACE IF NOT EXISTS sibyl_stress WITH replication = {'class': "
            "'SimpleStrategy', 'replication_factor': 1}");
  EXPECT_EQ(s.create_table,
            "CREATE TABLE IF NOT EXISTS sibyl_stress.standard1 (pk bigint, v0 blob, v1 blob, "
            "PRIMARY KEY (pk))");
  EXPECT_EQ(s.write, "INSERT INTO sibyl_stress.standard1 (pk, v0, v1) VALUES (?, ?, ?)");
  EXPECT_EQ(s.read, "");
}

TEST(StressWorkloadTest, ClusteredReadStatements) {
  const StressOptions point = Options({"read", "--rows-per-partition", "10"});
  const WorkloadStatements s = StatementsFor(point);
  EXPECT_EQ(s.create_table,
            "CREATE TABLE IF NOT EXISTS sibyl_stress.standard1 (pk bigint, ck bigint, v0 blob, "
            "PRIMARY KEY (pk, ck))");
  EXPECT_EQ(s.write, "INSERT INTO sibyl_stress.standard1 (pk, ck, v0) VALUES (?, ?, ?)");
  EXPECT_EQ(s.read, "SELECT * FROM sibyl_stress.standard1 WHERE pk = ? AND ck = ?");
  EXPECT_EQ(StatementsFor(Options({"read", "--rows-per-partition", "10", "--slice", "5"})).read,
            "SELECT * FROM sibyl_stress.standard1 WHERE pk = ? LIMIT 5");
}

TEST(StressWorkloadTest, CounterAndScanStatements) {
  const WorkloadStatements c = StatementsFor(Options({"counter", "--columns", "2"}));
  EXPECT_EQ(c.create_table,
            "CREATE TABLE IF NOT EXISTS sibyl_stress.counter1 (pk bigint, v0 counter, v1 counter, "
            "PRIMARY KEY (pk))");
  EXPECT_EQ(c.write, "UPDATE sibyl_stress.counter1 SET v0 = v0 + 1, v1 = v1 + 1 WHERE pk = ?");
  EXPECT_EQ(StatementsFor(Options({"scan", "--keyspace", "k", "--table", "t"})).scan,
            "SELECT * FROM k.t");
  EXPECT_EQ(StatementsFor(Options({"lwt", "--columns", "2", "--rows-per-partition", "2"})).write,
            "UPDATE sibyl_stress.standard1 SET v0 = ?, v1 = ? WHERE pk = ? AND ck = ? "
            "IF v0 != 0x");
  EXPECT_EQ(StatementsFor(Options({"lwt", "--lwt-condition", "fails"})).write,
            "UPDATE sibyl_stress.standard1 SET v0 = ? WHERE pk = ? IF v0 = 0x");
}

int64_t BigintOf(const Value& v) {
  EXPECT_EQ(v.bytes.size(), 8u);
  return static_cast<int64_t>(LoadBE64(v.bytes.data()));
}

TEST(StressWorkloadTest, LwtBindsTheValuesBeforeTheKey) {
  const StressOptions options = Options({"lwt", "--partitions", "1"});
  const RowGenerator rows(options.partitions, options.rows_per_partition, options.value_size);
  PreparedWorkload prepared;
  OperationBinder binder(options, Workload::kLwt, prepared, rows);
  const BoundOperation op = binder.Bind(7);
  ASSERT_EQ(op.values.size(), 2u);
  EXPECT_EQ(op.values[0].bytes.size(), 32u);  // v0
  EXPECT_EQ(BigintOf(op.values[1]), 0);       // pk: the one partition
}

TEST(StressWorkloadTest, BinderBindsDeterministicKeysAndValues) {
  const StressOptions options = Options({"write", "--rows-per-partition", "3", "--columns", "2"});
  const RowGenerator rows(options.partitions, options.rows_per_partition, options.value_size);
  const PreparedWorkload prepared;
  OperationBinder binder(options, Workload::kWrite, prepared, rows);
  const BoundOperation op = binder.Bind(4);  // row 4: partition 1, clustering 1
  EXPECT_EQ(op.kind, OperationKind::kWrite);
  EXPECT_EQ(op.statement, &prepared.write);
  ASSERT_EQ(op.values.size(), 4u);
  EXPECT_EQ(BigintOf(op.values[0]), 1);
  EXPECT_EQ(BigintOf(op.values[1]), 1);
  EXPECT_EQ(op.values[2].bytes, rows.Value(RowKey{1, 1}, 0));
  EXPECT_EQ(op.values[3].bytes, rows.Value(RowKey{1, 1}, 1));
}

TEST(StressWorkloadTest, MixedFollowsTheRatio) {
  const StressOptions options = Options({"mixed", "--ratio", "1:3"});
  const RowGenerator rows(options.partitions, 1, options.value_size);
  const PreparedWorkload prepared;
  OperationBinder binder(options, Workload::kMixed, prepared, rows);
  int writes = 0;
  for (uint64_t n = 0; n < 400; ++n) {
    const BoundOperation op = binder.Bind(n);
    if (op.kind == OperationKind::kWrite) {
      ++writes;
      EXPECT_EQ(op.values.size(), 2u);
    } else {
      EXPECT_EQ(op.kind, OperationKind::kRead);
      ASSERT_EQ(op.values.size(), 1u);
      // A read of operation n looks for the key a uniform write of n would write.
      EXPECT_EQ(BigintOf(op.values[0]), rows.Uniform(n).partition);
    }
  }
  EXPECT_EQ(writes, 100);
}

}  // namespace
}  // namespace sibyl::tools
