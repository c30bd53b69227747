// Durability under SIGKILL: a child process writes and reports each
// acknowledged write; the parent kills it mid-stream, reopens the data
// directory and checks every acknowledged write is there. Every mode must
// start cleanly; batch and group promise acknowledged writes survive (a
// process kill keeps the OS's buffers, so periodic keeps them too here —
// only a power loss could take its last period).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "storage/engine.h"
#include "storage/rocksdb/commitlog_syncer.h"
#include "storage/storage_test_util.h"

namespace sibyl::storage {
namespace {

using namespace testing;  // NOLINT

constexpr const char* kDirVariable = "SIBYL_DURABILITY_DIR";
constexpr const char* kModeVariable = "SIBYL_DURABILITY_MODE";
constexpr const char* kFdVariable = "SIBYL_DURABILITY_FD";

Mutation WriteNumber(const TableLayout& table, int32_t i) {
  Mutation m = MutationOf(table, i % 7);
  RowWrite& row = RowOf(m, i);
  row.marker = {1000 + i, 0, kNoDeletionTime};
  Set(row, "v", Live(1000 + i, Int(i)));
  return m;
}

// Runs only in the child the durability test starts (skipped otherwise).
TEST(CommitlogDurabilityChild, WritesUntilKilled) {
  const char* dir = std::getenv(kDirVariable);
  if (dir == nullptr) GTEST_SKIP() << "runs only as CommitlogDurabilityTest's child process";
  int fd = std::atoi(std::getenv(kFdVariable));
  auto mode = static_cast<CommitlogSync>(std::atoi(std::getenv(kModeVariable)));
  ManualClock clock(int64_t{kNow} * 1'000'000);
  TableLayout table = MakeTable(1);
  auto engine = Engine::Open(
      {.directory = dir, .sync = mode, .group_window = std::chrono::milliseconds(2)}, clock);
  engine->SyncTables({table});
  for (int32_t i = 0;; ++i) {
    engine->Apply(WriteNumber(table, i));
    if (::write(fd, &i, sizeof i) != sizeof i) std::_Exit(3);
  }
}

class CommitlogDurabilityTest : public ::testing::TestWithParam<CommitlogSync> {};

TEST_P(CommitlogDurabilityTest, AcknowledgedWritesSurviveSigkill) {
  ScratchDir dir;
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  std::string fd = std::to_string(pipe_fds[1]);
  std::string mode = std::to_string(static_cast<int>(GetParam()));
  std::string path = dir.path().string();
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // Little between fork and exec: a fresh process does the writing.
    ::close(pipe_fds[0]);
    int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
    ::setenv(kDirVariable, path.c_str(), 1);
    ::setenv(kModeVariable, mode.c_str(), 1);
    ::setenv(kFdVariable, fd.c_str(), 1);
    // The child runs one test, whichever shard of the suite ran this one.
    ::unsetenv("GTEST_TOTAL_SHARDS");
    ::unsetenv("GTEST_SHARD_INDEX");
    ::execl("/proc/self/exe", "storage_test",
            "--gtest_filter=CommitlogDurabilityChild.WritesUntilKilled", nullptr);
    ::_exit(127);
  }
  ::close(pipe_fds[1]);
  int32_t acknowledged = -1;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (acknowledged < 150 && std::chrono::steady_clock::now() < deadline) {
    int32_t i;
    if (::read(pipe_fds[0], &i, sizeof i) != sizeof i) break;
    acknowledged = i;
  }
  ::kill(child, SIGKILL);
  // Acknowledgements already in the pipe count too.
  for (int32_t i; ::read(pipe_fds[0], &i, sizeof i) == sizeof i;) acknowledged = i;
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the writer ended on its own: " << status;
  ASSERT_GE(acknowledged, 150) << "the writer acknowledged too little before the deadline";

  ManualClock clock(int64_t{kNow} * 1'000'000);
  TableLayout table = MakeTable(1);
  auto engine = Engine::Open({.directory = dir.path(), .sync = GetParam()}, clock);
  engine->SyncTables({table});
  ReadResult all = engine->Read(ScanOf(table, kNow));
  std::vector<bool> found(acknowledged + 1, false);
  for (const auto& p : all.partitions) {
    for (const auto& row : p.rows) {
      int32_t i = static_cast<int32_t>(LoadBE32(row.clustering[0].data()));
      if (i <= acknowledged) found[i] = true;
    }
  }
  for (int32_t i = 0; i <= acknowledged; ++i) EXPECT_TRUE(found[i]) << "lost write " << i;
}

// A SIGKILL keeps the OS's buffers, so it cannot tell a synced write from
// another: what is checked is that such a write asks RocksDB to fsync it in
// every mode, and lands as ApplyAll's would.
TEST_P(CommitlogDurabilityTest, SyncedWritesAreFsyncedInEveryMode) {
  ScratchDir dir;
  std::filesystem::create_directories(dir.path());
  rocksdb::Options options;
  options.create_if_missing = true;
  std::unique_ptr<rocksdb::DB> db;
  {
    rocksdb::DB* opened = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(options, dir.path() / "db", &opened).ok());
    db.reset(opened);
  }
  {
    CommitlogSyncer syncer(*db, {.directory = dir.path(), .sync = GetParam()});
    EXPECT_TRUE(syncer.write_options(/*synced=*/true).sync);
    EXPECT_EQ(syncer.write_options(/*synced=*/false).sync, GetParam() == CommitlogSync::kBatch);
  }
  db.reset();

  ManualClock clock(int64_t{kNow} * 1'000'000);
  TableLayout table = MakeTable(1);
  auto engine = Engine::Open({.directory = dir.path() / "engine", .sync = GetParam()}, clock);
  engine->SyncTables({table});
  const Mutation first = WriteNumber(table, 1);
  const Mutation second = WriteNumber(table, 2);
  engine->ApplyAllSynced({&first, &second});
  size_t rows = 0;
  for (const auto& p : engine->Read(ScanOf(table, kNow)).partitions) rows += p.rows.size();
  EXPECT_EQ(rows, 2u);
}

INSTANTIATE_TEST_SUITE_P(Modes, CommitlogDurabilityTest,
                         ::testing::Values(CommitlogSync::kPeriodic, CommitlogSync::kBatch,
                                           CommitlogSync::kGroup));

}  // namespace
}  // namespace sibyl::storage
