#include "tools/admin/view_check.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

NodeViewCheck Checked(std::string address, int64_t rows, int64_t missing, int64_t unexpected,
                      int64_t different, int64_t repaired) {
  NodeViewCheck node{.address = std::move(address), .unavailable = {}, .answer = {}};
  node.answer.check = ViewCheck{.keyspace = "ks",
                                .view = "v",
                                .repair = repaired > 0,
                                .checked_at_millis = 1795000000000,
                                .rows_expected = rows,
                                .missing = missing,
                                .unexpected = unexpected,
                                .different = different,
                                .repaired = repaired};
  return node;
}

TEST(ViewCheckTest, Consistent) {
  const std::vector<NodeViewCheck> nodes = {Checked("127.0.0.1", 1200, 0, 0, 0, 0),
                                            Checked("127.0.0.2", 1187, 0, 0, 0, 0)};
  EXPECT_EQ(FormatViewChecks("ks", "v", false, nodes),
            "Node: 127.0.0.1\n"
            "===============\n"
            "View  Rows  Missing  Unexpected  Different  Repaired\n"
            "ks.v  1200  0        0           0          0       \n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "View  Rows  Missing  Unexpected  Different  Repaired\n"
            "ks.v  1187  0        0           0          0       \n"
            "\n"
            "ks.v is consistent with its base on every node asked\n");
  EXPECT_TRUE(ViewChecksClean(nodes));
}

TEST(ViewCheckTest, DifferencesAreCountedOverTheNodes) {
  const std::vector<NodeViewCheck> nodes = {Checked("127.0.0.1", 1200, 2, 0, 1, 0),
                                            Checked("127.0.0.2", 1187, 0, 0, 0, 0),
                                            Checked("127.0.0.3", 1190, 0, 1, 0, 0)};
  const std::string out = FormatViewChecks("ks", "v", false, nodes);
  EXPECT_TRUE(
      out.starts_with("Node: 127.0.0.1\n"
                      "===============\n"
                      "View  Rows  Missing  Unexpected  Different  Repaired\n"
                      "ks.v  1200  2        0           1          0       \n"))
      << out;
  EXPECT_TRUE(out.ends_with(
      "\n\nks.v differs from its base: 4 rows on 2 nodes (run with --repair to rewrite them)\n"))
      << out;
  EXPECT_FALSE(ViewChecksClean(nodes));

  const std::vector<NodeViewCheck> one = {Checked("127.0.0.1", 10, 1, 0, 0, 0)};
  EXPECT_TRUE(FormatViewChecks("ks", "v", false, one)
                  .ends_with("ks.v differs from its base: 1 row on 1 node (run with --repair to "
                             "rewrite them)\n"));
}

TEST(ViewCheckTest, Repaired) {
  const std::vector<NodeViewCheck> nodes = {Checked("127.0.0.1", 1200, 2, 0, 1, 3),
                                            Checked("127.0.0.2", 1187, 0, 0, 0, 0)};
  const std::string out = FormatViewChecks("ks", "v", true, nodes);
  EXPECT_TRUE(
      out.starts_with("Node: 127.0.0.1\n"
                      "===============\n"
                      "View  Rows  Missing  Unexpected  Different  Repaired\n"
                      "ks.v  1200  2        0           1          3       \n"))
      << out;
  EXPECT_TRUE(out.ends_with("\n\nks.v: 3 rows repaired\n")) << out;
  EXPECT_TRUE(ViewChecksClean(nodes));

  // A node that rewrote fewer rows than it found leaves the view differing.
  const std::vector<NodeViewCheck> partly = {Checked("127.0.0.1", 1200, 2, 0, 1, 2)};
  EXPECT_TRUE(FormatViewChecks("ks", "v", true, partly)
                  .ends_with("\n\nks.v: 2 rows repaired\n"
                             "ks.v still differs from its base: 1 row on 1 node\n"));
  EXPECT_FALSE(ViewChecksClean(partly));
}

TEST(ViewCheckTest, NodesNotCheckedAreNamed) {
  std::vector<NodeViewCheck> nodes = {
      Checked("127.0.0.1", 1200, 0, 0, 0, 0),
      NodeViewCheck{.address = "127.0.0.2", .unavailable = "DOWN: not asked", .answer = {}},
      NodeViewCheck{.address = "127.0.0.3",
                    .unavailable = "Unreachable: cannot connect to 127.0.0.3:9042: "
                                   "Connection refused",
                    .answer = {}}};
  EXPECT_EQ(FormatViewChecks("ks", "v", false, nodes),
            "Node: 127.0.0.1\n"
            "===============\n"
            "View  Rows  Missing  Unexpected  Different  Repaired\n"
            "ks.v  1200  0        0           0          0       \n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "DOWN: not asked\n"
            "\n"
            "Node: 127.0.0.3\n"
            "===============\n"
            "Unreachable: cannot connect to 127.0.0.3:9042: Connection refused\n"
            "\n"
            "ks.v is consistent with its base on every node asked\n"
            "ks.v was not checked on 2 nodes: 127.0.0.2, 127.0.0.3\n");
  EXPECT_FALSE(ViewChecksClean(nodes));
}

TEST(ViewCheckTest, ANodeWithoutTheViewShowsItsError) {
  NodeViewCheck refused{.address = "127.0.0.1", .unavailable = {}, .answer = {}};
  refused.answer.refusal = "Unknown materialized view ks.v";
  const std::vector<NodeViewCheck> nodes = {refused};
  EXPECT_EQ(FormatViewChecks("ks", "v", false, nodes),
            "Node: 127.0.0.1\n"
            "===============\n"
            "Unknown materialized view ks.v\n"
            "\n"
            "ks.v was not checked on any node\n");
  EXPECT_FALSE(ViewChecksClean(nodes));

  const std::vector<NodeViewCheck> some = {refused, Checked("127.0.0.2", 5, 0, 0, 0, 0)};
  EXPECT_TRUE(FormatViewChecks("ks", "v", false, some)
                  .ends_with("ks.v is consistent with its base on every node asked\n"
                             "ks.v was not checked on 1 node: 127.0.0.1\n"));
  EXPECT_FALSE(ViewChecksClean(some));
}

}  // namespace
}  // namespace sibyl::tools::admin
