#include "tools/admin/flush.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {
namespace {

const SchemaTables kSchema = {{"empty", {}}, {"ks", {"a", "b"}}, {"shop", {"users"}}};

std::string ErrorOf(const std::optional<std::string>& keyspace,
                    const std::vector<std::string>& tables) {
  try {
    (void)TablesToFlush(kSchema, keyspace, tables);
  } catch (const AdminError& e) {
    return e.what();
  }
  return "no error";
}

TEST(FlushTest, TablesOfEveryKeyspaceOneKeyspaceOrNamed) {
  EXPECT_EQ(TablesToFlush(kSchema, std::nullopt, {}),
            (std::vector<TableSelection>{{"ks", "a"}, {"ks", "b"}, {"shop", "users"}}));
  EXPECT_EQ(TablesToFlush(kSchema, "ks", {}),
            (std::vector<TableSelection>{{"ks", "a"}, {"ks", "b"}}));
  EXPECT_EQ(TablesToFlush(kSchema, "ks", {"b"}), (std::vector<TableSelection>{{"ks", "b"}}));
  EXPECT_TRUE(TablesToFlush(kSchema, "empty", {}).empty());
}

TEST(FlushTest, UnknownKeyspaceOrTableInNodetoolsWords) {
  EXPECT_EQ(ErrorOf("nope", {}), "Keyspace nope does not exist");
  EXPECT_EQ(ErrorOf("ks", {"a", "nope"}), "Unknown keyspace/cf pair (ks.nope)");
}

TEST(FlushTest, EveryNodeUnderItsHeader) {
  std::vector<NodeFlush> nodes(3);
  nodes[0].address = "127.0.0.1";
  nodes[0].answer.flushed = 2;
  nodes[1].address = "127.0.0.2";
  nodes[1].unavailable = "DOWN: not asked";
  nodes[2].address = "127.0.0.3";
  nodes[2].answer.refusal = "Unknown keyspace/cf pair (ks.b)";
  EXPECT_EQ(FormatFlushes("ks", nodes),
            "Node: 127.0.0.1\n"
            "===============\n"
            "Flushed 2 tables of ks\n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "DOWN: not asked\n"
            "\n"
            "Node: 127.0.0.3\n"
            "===============\n"
            "Not flushed: Unknown keyspace/cf pair (ks.b)\n");
  EXPECT_FALSE(FlushesComplete(nodes));
  nodes.resize(1);
  nodes[0].answer.flushed = 1;
  EXPECT_EQ(FormatFlushes("ks.a", nodes),
            "Node: 127.0.0.1\n===============\nFlushed 1 table of ks.a\n");
  EXPECT_TRUE(FlushesComplete(nodes));
  EXPECT_FALSE(FlushesComplete({}));
}

}  // namespace
}  // namespace sibyl::tools::admin
