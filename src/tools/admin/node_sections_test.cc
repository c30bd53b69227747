#include "tools/admin/node_sections.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

TEST(NodeSectionsTest, HeadedSectionsWhoseTablesShareTheirWidths) {
  std::vector<NodeSection> sections(3);
  sections[0].address = "127.0.0.1";
  sections[0].table.Add({"A", "B"});
  sections[0].table.Add({"x", "1"});
  sections[1].address = "127.0.0.2";
  sections[1].line = "DOWN: not asked";
  sections[2].address = "127.0.0.10";
  sections[2].table.Add({"A", "B"});
  sections[2].table.Add({"longer", "2"});
  EXPECT_EQ(FormatNodeSections(sections),
            "Node: 127.0.0.1\n"
            "===============\n"
            "A       B\n"
            "x       1\n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "DOWN: not asked\n"
            "\n"
            "Node: 127.0.0.10\n"
            "================\n"
            "A       B\n"
            "longer  2\n");
}

}  // namespace
}  // namespace sibyl::tools::admin
