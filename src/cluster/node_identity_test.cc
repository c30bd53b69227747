#include "cluster/node_identity.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "types/uuid.h"

namespace sibyl::cluster {
namespace {

namespace fs = std::filesystem;

class NodeIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device entropy;
    dir_ = fs::temp_directory_path() /
           ("sibyl_node_identity_" + std::to_string(::getpid()) + "_" + std::to_string(entropy()));
  }
  void TearDown() override {
    std::error_code ignored;
    fs::permissions(dir_, fs::perms::owner_all, ignored);
    fs::remove_all(dir_, ignored);
  }
  void WriteIdentityFile(const std::string& contents) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "node_identity") << contents;
  }
  std::string LoadError(int num_tokens = 4) {
    std::string warning;
    try {
      LoadOrCreateNodeIdentity(dir_, num_tokens, warning);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "(no error)";
  }

  fs::path dir_;
};

TEST_F(NodeIdentityTest, CreatesThenReloadsTheSameIdentity) {
  std::string warning;
  const NodeIdentity created = LoadOrCreateNodeIdentity(dir_ / "nested", 16, warning);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(created.tokens.size(), 16u);
  EXPECT_TRUE(std::is_sorted(created.tokens.begin(), created.tokens.end()));
  EXPECT_EQ(types::Uuid{created.host_id}.version(), 4);
  EXPECT_TRUE(fs::exists(dir_ / "nested" / "node_identity"));
  EXPECT_FALSE(fs::exists(dir_ / "nested" / "node_identity.tmp"));

  const NodeIdentity reloaded = LoadOrCreateNodeIdentity(dir_ / "nested", 16, warning);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(reloaded.host_id, created.host_id);
  EXPECT_EQ(reloaded.tokens, created.tokens);
}

TEST_F(NodeIdentityTest, StoredTokensWinOverANewTokenCount) {
  std::string warning;
  const NodeIdentity created = LoadOrCreateNodeIdentity(dir_, 4, warning);
  const NodeIdentity reloaded = LoadOrCreateNodeIdentity(dir_, 8, warning);
  EXPECT_EQ(reloaded.tokens, created.tokens);
  EXPECT_NE(warning.find("holds 4 tokens but num_tokens is 8"), std::string::npos) << warning;
}

TEST_F(NodeIdentityTest, ReadsAHandWrittenFile) {
  WriteIdentityFile(
      "# comment\n"
      "\n"
      "host_id: 0E5B4C1A-7D7B-4C1E-9F0E-5D7E9C1B2A3F\n"
      "tokens: 30, -9223372036854775807 ,10\n");
  std::string warning;
  const NodeIdentity identity = LoadOrCreateNodeIdentity(dir_, 3, warning);
  EXPECT_TRUE(warning.empty());
  EXPECT_EQ(types::Uuid{identity.host_id}.ToString(), "0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f");
  EXPECT_EQ(identity.tokens, (std::vector<dht::Token>{-9223372036854775807, 10, 30}));
}

TEST_F(NodeIdentityTest, CorruptFilesFailWithOneLineErrors) {
  const std::string file = (dir_ / "node_identity").string();
  WriteIdentityFile("host_id: nope\ntokens: 1\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + " line 1: 'nope' is not a UUID");
  WriteIdentityFile("host_id: 0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f\ntokens: 1,x\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file +
                             " line 2: 'x' is not a token (a signed 64-bit integer)");
  WriteIdentityFile("host_id: 0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f\ntokens: 5,5\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + " line 2: tokens repeat");
  WriteIdentityFile(
      "host_id: 0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f\ntokens: -9223372036854775808\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file +
                             " line 2: the minimum token -9223372036854775808 cannot be owned");
  WriteIdentityFile("host_id: 0e5b4c1a-7d7b-4c1e-9f0e-5d7e9c1b2a3f\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + ": no tokens");
  WriteIdentityFile("tokens: 1\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + ": no host_id");
  WriteIdentityFile("garbage\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + " line 1: expected 'key: value'");
  WriteIdentityFile("colour: blue\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file + " line 1: unknown key 'colour'");
  WriteIdentityFile("tokens:\n");
  EXPECT_EQ(LoadError(), "Invalid node identity " + file +
                             " line 1: '' is not a token (a signed 64-bit integer)");
}

TEST_F(NodeIdentityTest, UnwritableDirectoryFails) {
  if (::geteuid() == 0) GTEST_SKIP() << "root ignores directory permissions";
  fs::create_directories(dir_);
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string error = LoadError();
  EXPECT_EQ(error.rfind("Cannot write node identity " + (dir_ / "node_identity").string(), 0), 0u)
      << error;
}

TEST_F(NodeIdentityTest, WriteFailureIsReported) {
  // A directory where the temporary file should go makes the write fail even
  // for root.
  fs::create_directories(dir_ / "node_identity.tmp");
  EXPECT_EQ(LoadError(), "Cannot write node identity " + (dir_ / "node_identity").string() +
                             " (open): Is a directory");
  EXPECT_FALSE(fs::exists(dir_ / "node_identity"));
}

TEST_F(NodeIdentityTest, DataDirThatIsAFileFails) {
  std::ofstream(dir_.string()) << "not a directory";
  const std::string error = LoadError();
  EXPECT_EQ(error.rfind("Cannot create data directory " + dir_.string(), 0), 0u) << error;
  fs::remove(dir_);
}

TEST_F(NodeIdentityTest, SavedTokensAreWhatTheNextStartLoads) {
  EXPECT_FALSE(HasNodeIdentity(dir_));
  std::string warning;
  NodeIdentity identity = LoadOrCreateNodeIdentity(dir_, 4, warning);
  EXPECT_TRUE(HasNodeIdentity(dir_));
  identity.tokens = {-5, 10, 20, 30};
  SaveNodeIdentity(dir_, identity);
  const NodeIdentity loaded = LoadOrCreateNodeIdentity(dir_, 4, warning);
  EXPECT_EQ(loaded.host_id, identity.host_id);
  EXPECT_EQ(loaded.tokens, identity.tokens);
}

}  // namespace
}  // namespace sibyl::cluster
