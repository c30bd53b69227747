#include "tools/admin/admin_options.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

TEST(AdminOptionsTest, CommandsWithTheirKeyspace) {
  AdminOptions status = ParseAdminArguments({"status"});
  EXPECT_EQ(status.view, AdminView::kStatus);
  EXPECT_FALSE(status.keyspace.has_value());
  EXPECT_EQ(status.node.host, "127.0.0.1");
  EXPECT_EQ(status.node.port, 9042);

  AdminOptions ring = ParseAdminArguments({"--host", "127.0.0.2", "ring", "ks", "--port", "9142"});
  EXPECT_EQ(ring.view, AdminView::kRing);
  EXPECT_EQ(ring.keyspace, "ks");
  EXPECT_EQ(ring.node.host, "127.0.0.2");
  EXPECT_EQ(ring.node.port, 9142);

  AdminOptions describe = ParseAdminArguments({"describering", "ks"});
  EXPECT_EQ(describe.view, AdminView::kDescribeRing);
  EXPECT_EQ(describe.keyspace, "ks");

  AdminOptions indexes = ParseAdminArguments({"indexes"});
  EXPECT_EQ(indexes.view, AdminView::kIndexes);
  EXPECT_FALSE(indexes.keyspace.has_value());
  AdminOptions one_keyspace = ParseAdminArguments({"--port", "9142", "indexes", "shop"});
  EXPECT_EQ(one_keyspace.view, AdminView::kIndexes);
  EXPECT_EQ(one_keyspace.keyspace, "shop");
  EXPECT_EQ(one_keyspace.node.port, 9142);

  EXPECT_TRUE(ParseAdminArguments({"--help"}).help);
}

TEST(AdminOptionsTest, Views) {
  AdminOptions views = ParseAdminArguments({"views"});
  EXPECT_EQ(views.view, AdminView::kViews);
  EXPECT_FALSE(views.keyspace.has_value());
  AdminOptions one_keyspace = ParseAdminArguments({"--host", "127.0.0.2", "views", "shop"});
  EXPECT_EQ(one_keyspace.view, AdminView::kViews);
  EXPECT_EQ(one_keyspace.keyspace, "shop");
  EXPECT_EQ(one_keyspace.node.host, "127.0.0.2");
}

TEST(AdminOptionsTest, VerifyView) {
  AdminOptions check = ParseAdminArguments({"verify-view", "shop.users_by_age"});
  EXPECT_EQ(check.view, AdminView::kVerifyView);
  EXPECT_EQ(check.keyspace, "shop");
  EXPECT_EQ(check.view_name, "users_by_age");
  EXPECT_FALSE(check.repair);

  AdminOptions repair = ParseAdminArguments({"--repair", "--port", "9142", "verify-view", "ks.v"});
  EXPECT_EQ(repair.view, AdminView::kVerifyView);
  EXPECT_EQ(repair.keyspace, "ks");
  EXPECT_EQ(repair.view_name, "v");
  EXPECT_TRUE(repair.repair);
  EXPECT_EQ(repair.node.port, 9142);
  EXPECT_TRUE(ParseAdminArguments({"verify-view", "ks.v", "--repair"}).repair);
}

TEST(AdminOptionsTest, MistakesAreNamed) {
  auto message = [](std::vector<std::string> args) {
    try {
      (void)ParseAdminArguments(args);
    } catch (const AdminUsageError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({}), "missing command (see sibyl admin --help)");
  EXPECT_EQ(message({"describering"}), "describering needs a keyspace name");
  EXPECT_EQ(message({"repair"}), "unknown command 'repair' (see sibyl admin --help)");
  EXPECT_EQ(message({"status", "ks", "more"}),
            "unexpected argument 'more' (see sibyl admin --help)");
  EXPECT_EQ(message({"indexes", "ks", "more"}),
            "unexpected argument 'more' (see sibyl admin --help)");
  EXPECT_EQ(message({"--port", "0", "status"}), "--port expects a number from 1 to 65535, not '0'");
  EXPECT_EQ(message({"--port"}), "missing value for --port");
  EXPECT_EQ(message({"--verbose", "status"}), "unknown option --verbose (see sibyl admin --help)");
  EXPECT_EQ(message({"views", "ks", "more"}),
            "unexpected argument 'more' (see sibyl admin --help)");
  EXPECT_EQ(message({"verify-view"}), "verify-view needs KEYSPACE.VIEW");
  EXPECT_EQ(message({"verify-view", "v"}), "verify-view expects KEYSPACE.VIEW, not 'v'");
  EXPECT_EQ(message({"verify-view", ".v"}), "verify-view expects KEYSPACE.VIEW, not '.v'");
  EXPECT_EQ(message({"verify-view", "ks."}), "verify-view expects KEYSPACE.VIEW, not 'ks.'");
  EXPECT_EQ(message({"verify-view", "ks.v.w"}), "verify-view expects KEYSPACE.VIEW, not 'ks.v.w'");
  EXPECT_EQ(message({"verify-view", "ks.v", "ks.w"}),
            "unexpected argument 'ks.w' (see sibyl admin --help)");
  EXPECT_EQ(message({"views", "--repair"}),
            "--repair applies to verify-view only (see sibyl admin --help)");
  EXPECT_EQ(message({"flush", "ks", "--repair"}),
            "--repair applies to verify-view only (see sibyl admin --help)");
  EXPECT_EQ(message({"tablestats", "ks.t.u"}),
            "tablestats expects KEYSPACE or KEYSPACE.TABLE, not 'ks.t.u'");
  EXPECT_EQ(message({"tablestats", ".t"}),
            "tablestats expects KEYSPACE or KEYSPACE.TABLE, not '.t'");
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"tablehistograms"},
                                             {"tablehistograms", "ks"},
                                             {"tablehistograms", "ks."},
                                             {"tablehistograms", "ks.t.u"},
                                             {"tablehistograms", "ks", "t", "u"}}) {
    EXPECT_EQ(message(args), "tablehistograms requires keyspace and table name arguments");
  }
}

TEST(AdminOptionsTest, Flush) {
  const AdminOptions everything = ParseAdminArguments({"flush"});
  EXPECT_EQ(everything.view, AdminView::kFlush);
  EXPECT_FALSE(everything.keyspace.has_value());
  EXPECT_TRUE(everything.tables.empty());
  const AdminOptions keyspace = ParseAdminArguments({"--host", "127.0.0.2", "flush", "ks"});
  EXPECT_EQ(keyspace.keyspace, "ks");
  EXPECT_TRUE(keyspace.tables.empty());
  EXPECT_EQ(keyspace.node.host, "127.0.0.2");
  const AdminOptions tables = ParseAdminArguments({"flush", "ks", "a", "b"});
  EXPECT_EQ(tables.keyspace, "ks");
  EXPECT_EQ(tables.tables, (std::vector<std::string>{"a", "b"}));
}

TEST(AdminOptionsTest, Decommission) {
  const AdminOptions options = ParseAdminArguments({"--host", "127.0.0.4", "decommission"});
  EXPECT_EQ(options.view, AdminView::kDecommission);
  EXPECT_EQ(options.node.host, "127.0.0.4");
  EXPECT_FALSE(options.force);
  EXPECT_THROW((void)ParseAdminArguments({"decommission", "ks"}), AdminUsageError);
  EXPECT_TRUE(ParseAdminArguments({"decommission", "--force"}).force);
  EXPECT_TRUE(ParseAdminArguments({"-f", "decommission"}).force);
  EXPECT_THROW((void)ParseAdminArguments({"status", "--force"}), AdminUsageError);
}

TEST(AdminOptionsTest, RemoveNode) {
  const AdminOptions options = ParseAdminArguments({"removenode", "status"});
  EXPECT_EQ(options.view, AdminView::kRemoveNode);
  EXPECT_EQ(options.removal, "status");
  EXPECT_EQ(ParseAdminArguments({"removenode", "force"}).removal, "force");
  EXPECT_THROW((void)ParseAdminArguments({"removenode"}), AdminUsageError);
  EXPECT_THROW((void)ParseAdminArguments({"removenode", "a", "b"}), AdminUsageError);
}

TEST(AdminOptionsTest, TableStatsAndHistograms) {
  const AdminOptions all = ParseAdminArguments({"tablestats"});
  EXPECT_EQ(all.view, AdminView::kTableStats);
  EXPECT_TRUE(all.selections.empty());
  const AdminOptions some = ParseAdminArguments({"tablestats", "ks", "other.t", "--port", "9142"});
  EXPECT_EQ(some.selections, (std::vector<TableSelection>{{"ks", ""}, {"other", "t"}}));
  EXPECT_EQ(some.node.port, 9142);

  const AdminOptions two = ParseAdminArguments({"tablehistograms", "ks", "t"});
  EXPECT_EQ(two.view, AdminView::kTableHistograms);
  EXPECT_EQ(two.keyspace, "ks");
  EXPECT_EQ(two.tables, (std::vector<std::string>{"t"}));
  const AdminOptions dotted = ParseAdminArguments({"tablehistograms", "ks.t"});
  EXPECT_EQ(dotted.keyspace, "ks");
  EXPECT_EQ(dotted.tables, (std::vector<std::string>{"t"}));
}

}  // namespace
}  // namespace sibyl::tools::admin
