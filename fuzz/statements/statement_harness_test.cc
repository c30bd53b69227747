// The statement fuzzer in the unit tests: the corpus (hand-written
// regressions, among them the crashes of issue 12) and a few hundred random
// inputs of fixed seeds, through the harness, in every build — and proof
// that the harness's oracle does catch what it is there to catch.

#include "fuzz/statements/statement_harness.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "fuzz/statements/mirrored_engine.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::fuzz {
namespace {

std::filesystem::path TempPath(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         (name + "-" + std::to_string(std::random_device{}()));
}

class StatementHarnessTest : public ::testing::Test {
 protected:
  StatementHarnessTest() : directory_(TempPath("sibyl-harness-test")), harness_(directory_) {}
  ~StatementHarnessTest() override { std::filesystem::remove_all(directory_); }

  std::filesystem::path directory_;
  StatementHarness harness_;
};

TEST_F(StatementHarnessTest, CorpusPasses) {
  const std::filesystem::path corpus =
      std::filesystem::path(SIBYL_SOURCE_DIR) / "fuzz" / "corpus" / "statements";
  int scripts = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string input((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const HarnessOutcome outcome = harness_.Run(input);
    EXPECT_FALSE(outcome.failed) << entry.path() << ": " << outcome.failure << "\n"
                                 << outcome.transcript;
    scripts += input.rfind(kScriptHeader, 0) == 0;
  }
  EXPECT_GE(scripts, 6);
}

TEST_F(StatementHarnessTest, RandomInputsOfFixedSeedsPass) {
  for (uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 random(seed);
    for (int run = 0; run < 25; ++run) {
      std::string input(1000, '\0');
      for (char& c : input) c = static_cast<char>(random() & 0xFF);
      const HarnessOutcome outcome = harness_.Run(input);
      ASSERT_FALSE(outcome.failed)
          << "seed " << seed << " run " << run << ": " << outcome.failure << "\n"
          << outcome.transcript;
    }
  }
}

TEST_F(StatementHarnessTest, ScriptsRunEveryStepKind) {
  const HarnessOutcome outcome = harness_.Run(
      "#cql\n"
      "-- a comment\n"
      "CREATE TABLE fz.t (k int PRIMARY KEY, v int)\n"
      "INSERT INTO fz.t (k, v) VALUES (1, 1) USING TTL 10\n"
      "flush\n"
      "advance 20\n"
      "prepared: SELECT * FROM fz.t WHERE k = 1\n"
      "SELEC nonsense\n");
  ASSERT_FALSE(outcome.failed) << outcome.failure;
  EXPECT_NE(outcome.transcript.find("flush\nadvance 20\nprepared: SELECT * FROM fz.t WHERE k = 1\n"
                                    "-- 0 rows"),
            std::string::npos)
      << outcome.transcript;
  EXPECT_NE(outcome.transcript.find("-- error 8192"), std::string::npos);  // the syntax error
}

// The oracle: engines that hold different data are caught on the first read.
TEST(MirroredEngineTest, CatchesEnginesThatDisagree) {
  storage::ReferenceEngine left;
  storage::ReferenceEngine right;
  MirroredEngine mirror(left, right);
  storage::TableLayout layout;
  layout.id = types::Uuid::Random();
  layout.keyspace = "ks";
  layout.name = "t";
  layout.partition_key_types = {types::CqlType::Native(types::Kind::kInt)};
  layout.columns = {storage::ColumnLayout{"v", types::CqlType::Native(types::Kind::kInt)}};
  mirror.SyncTables({layout});
  storage::Mutation mutation;
  mutation.table_id = layout.id;
  mutation.partition = storage::PartitionKey{1, Bytes("\0\0\0\1", 4)};
  storage::RowWrite row;
  row.cells.push_back(storage::CellWrite{
      "v", std::nullopt,
      storage::Cell{storage::Cell::Kind::kRegular, 5, 0, storage::kNoDeletionTime, "x"}});
  mutation.rows.push_back(row);
  mirror.Apply(mutation);
  storage::ReadCommand read;
  read.table_id = layout.id;
  EXPECT_EQ(mirror.Read(read).partitions.size(), 1u);
  storage::Mutation newer = mutation;  // written to one engine only
  newer.rows[0].cells[0].cell.timestamp = 6;
  newer.rows[0].cells[0].cell.value = "y";
  right.Apply(newer);
  EXPECT_THROW((void)mirror.Read(read), MirrorMismatch);
  EXPECT_NE(mirror.mismatch().find("differently"), std::string::npos);
}

}  // namespace
}  // namespace sibyl::fuzz
