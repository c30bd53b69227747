#include "tools/shell/statement_splitter.h"

#include <gtest/gtest.h>

namespace sibyl::tools::shell {
namespace {

std::vector<std::string> Split(const std::vector<std::string>& lines) {
  StatementSplitter splitter;
  std::vector<std::string> all;
  for (const auto& line : lines) {
    for (auto& s : splitter.AddLine(line)) all.push_back(std::move(s));
  }
  return all;
}

TEST(StatementSplitterTest, StatementsEndAtSemicolons) {
  EXPECT_EQ(Split({"SELECT * FROM t; INSERT INTO t (k) VALUES (1);"}),
            (std::vector<std::string>{"SELECT * FROM t", "INSERT INTO t (k) VALUES (1)"}));
}

TEST(StatementSplitterTest, StatementsSpanLinesUntilTheSemicolon) {
  StatementSplitter splitter;
  EXPECT_TRUE(splitter.AddLine("SELECT *").empty());
  EXPECT_TRUE(splitter.in_statement());
  EXPECT_TRUE(splitter.AddLine("  FROM t").empty());
  EXPECT_EQ(splitter.AddLine("  WHERE k = 1;"),
            (std::vector<std::string>{"SELECT *\n  FROM t\n  WHERE k = 1"}));
  EXPECT_FALSE(splitter.in_statement());
}

TEST(StatementSplitterTest, SemicolonsInsideStringsNamesAndCommentsDoNotEnd) {
  EXPECT_EQ(Split({"INSERT INTO t (k, v) VALUES (1, 'a;b''c;');"}),
            (std::vector<std::string>{"INSERT INTO t (k, v) VALUES (1, 'a;b''c;')"}));
  EXPECT_EQ(Split({"SELECT \"we;ird\" FROM t;"}),
            (std::vector<std::string>{"SELECT \"we;ird\" FROM t"}));
  EXPECT_EQ(Split({"INSERT INTO t (k, v) VALUES (1, $$a;", "b$$);"}),
            (std::vector<std::string>{"INSERT INTO t (k, v) VALUES (1, $$a;\nb$$)"}));
  EXPECT_EQ(Split({"SELECT * -- a comment; still a comment", "FROM t;"}),
            (std::vector<std::string>{"SELECT * \nFROM t"}));
  EXPECT_EQ(Split({"SELECT /* ; */ k FROM t // ;", ";"}),
            (std::vector<std::string>{"SELECT   k FROM t"}));
}

TEST(StatementSplitterTest, BatchesHoldTheirStatements) {
  EXPECT_EQ(Split({"BEGIN BATCH", "INSERT INTO t (k) VALUES (1);", "INSERT INTO t (k) VALUES (2);",
                   "APPLY BATCH;", "SELECT * FROM t;"}),
            (std::vector<std::string>{"BEGIN BATCH\nINSERT INTO t (k) VALUES (1);\nINSERT INTO t "
                                      "(k) VALUES (2);\nAPPLY BATCH",
                                      "SELECT * FROM t"}));
  EXPECT_EQ(Split({"begin unlogged batch insert into t (k) values (1); apply batch; select 1;"}),
            (std::vector<std::string>{
                "begin unlogged batch insert into t (k) values (1); apply batch", "select 1"}));
}

TEST(StatementSplitterTest, ShellCommandsEndAtTheEndOfTheirLine) {
  EXPECT_EQ(
      Split({"EXPAND ON", "paging 50", "HELP", "DESCRIBE TABLE t", "? COPY"}),
      (std::vector<std::string>{"EXPAND ON", "paging 50", "HELP", "DESCRIBE TABLE t", "? COPY"}));
  EXPECT_EQ(Split({"tracing off; SELECT 1;"}),
            (std::vector<std::string>{"tracing off", "SELECT 1"}));
  // COPY is not one of them: it waits for its ';' as in cqlsh.
  StatementSplitter splitter;
  EXPECT_TRUE(splitter.AddLine("COPY t TO 'f.csv'").empty());
  EXPECT_EQ(splitter.AddLine(";"), (std::vector<std::string>{"COPY t TO 'f.csv'"}));
}

TEST(StatementSplitterTest, BlankLinesAndLoneSemicolonsAreNothing) {
  EXPECT_TRUE(Split({"", "   ", ";", " ; ;"}).empty());
  StatementSplitter splitter;
  splitter.AddLine("SELECT");
  EXPECT_EQ(splitter.pending(), "SELECT");
  splitter.Reset();
  EXPECT_FALSE(splitter.in_statement());
  EXPECT_EQ(splitter.pending(), "");
}

}  // namespace
}  // namespace sibyl::tools::shell
