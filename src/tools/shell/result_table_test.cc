// Tables laid out as cqlsh 4.1 lays them out (cqlsh.py print_formatted_result
// and friends), byte for byte.

#include "tools/shell/result_table.h"

#include <gtest/gtest.h>

#include <sstream>

namespace sibyl::tools::shell {
namespace {

std::string Table(const FormattedPage& page, bool with_header, bool tty) {
  std::ostringstream out;
  PrintTable(out, page, with_header, tty);
  return out.str();
}

TEST(ResultTableTest, NamesLeftValuesRightUnderARule) {
  const FormattedPage page{{"key", "bootstrapped"}, {{"local", "COMPLETED"}}};
  EXPECT_EQ(Table(page, true, false),
            " key   | bootstrapped\n"
            "-------+--------------\n"
            " local |    COMPLETED\n");
  // On a terminal a blank line follows the rows.
  EXPECT_EQ(Table(page, true, true),
            " key   | bootstrapped\n"
            "-------+--------------\n"
            " local |    COMPLETED\n"
            "\n");
  // Later pages when not on a terminal: rows only.
  EXPECT_EQ(Table(page, false, false), " local |    COMPLETED\n");
}

TEST(ResultTableTest, HeaderTrailingSpaceIsTrimmedAndWidthsCountCharacters) {
  const FormattedPage page{{"k", "v"}, {{"1", "héllo"}, {"22", "x"}}};
  EXPECT_EQ(Table(page, true, false),
            " k  | v\n"
            "----+-------\n"
            "  1 | héllo\n"
            " 22 |     x\n");
  EXPECT_EQ(DisplayWidth("héllo"), 5u);
}

TEST(ResultTableTest, APageWithoutRowsShowsItsHeaderAndABlankLine) {
  const FormattedPage page{{"k", "value"}, {}};
  EXPECT_EQ(Table(page, false, false),
            " k | value\n"
            "---+-------\n"
            "\n");
}

TEST(ResultTableTest, ExpandedRowsAreNumberedAcrossPages) {
  std::ostringstream out;
  PrintVertically(out, FormattedPage{{"k", "name"}, {{"1", "ada"}, {"2", "grace"}}}, 10);
  EXPECT_EQ(out.str(),
            "@ Row 11\n"
            "------+-------\n"
            " k    | 1\n"
            " name | ada\n"
            "\n"
            "@ Row 12\n"
            "------+-------\n"
            " k    | 2\n"
            " name | grace\n"
            "\n");
}

TEST(ResultTableTest, RowCountAndWarnings) {
  std::ostringstream plain;
  PrintRowCount(plain, 3, false);
  EXPECT_EQ(plain.str(), "\n(3 rows)\n");
  std::ostringstream tty;
  PrintRowCount(tty, 1, true);
  EXPECT_EQ(tty.str(), "(1 rows)\n");

  std::ostringstream none;
  PrintWarnings(none, {});
  EXPECT_EQ(none.str(), "");
  std::ostringstream two;
  PrintWarnings(two, {"Aggregation query used without partition key", "second"});
  EXPECT_EQ(two.str(),
            "\nWarnings :\n"
            "Aggregation query used without partition key\n\n"
            "second\n\n");
}

}  // namespace
}  // namespace sibyl::tools::shell

namespace sibyl::tools::shell {
namespace {

// Expected texts are what Python's cmd.Cmd.columnize prints for the same lists.
TEST(ColumnizeTest, AsPythonsCmdModule) {
  std::ostringstream keyspaces;
  Columnize(keyspaces, {"ks", "system", "system_auth", "system_distributed", "system_schema",
                        "system_traces", "system_views", "system_virtual_schema"});
  EXPECT_EQ(keyspaces.str(),
            "ks      system_auth         system_schema  system_views         \n"
            "system  system_distributed  system_traces  system_virtual_schema\n");
  std::ostringstream one;
  Columnize(one, {"only"});
  EXPECT_EQ(one.str(), "only\n");
  std::ostringstream wide;
  Columnize(wide, {std::string(50, 'x'), std::string(40, 'y'), "z"});
  EXPECT_EQ(wide.str(),
            std::string(50, 'x') + "  z\n" + std::string(40, 'y') + std::string(10, ' ') + "\n");
  std::ostringstream none;
  Columnize(none, {});
  EXPECT_EQ(none.str(), "<empty>\n");
}

TEST(ColumnizeTest, ColoursTakeNoWidth) {
  EXPECT_EQ(DisplayWidth("\033[0;1;35mname\033[0m"), 4u);
  EXPECT_EQ(DisplayWidth("ünï"), 3u);
}

}  // namespace
}  // namespace sibyl::tools::shell
