#include "tools/shell/completion.h"

#include <gtest/gtest.h>

namespace sibyl::tools::shell {
namespace {

SchemaCatalog Catalog() {
  SchemaCatalog c;
  c.keyspaces = {"killrvideo", "system", "MixedCase"};
  c.tables["killrvideo"] = {"users", "videos", "video_ratings"};
  c.tables["system"] = {"local", "peers"};
  c.columns["killrvideo.users"] = {"userid", "email", "firstname"};
  c.columns["killrvideo.videos"] = {"videoid", "name", "added_date"};
  c.user_types["killrvideo"] = {"address"};
  return c;
}

using Words = std::vector<std::string>;

TEST(CompletionTest, StatementStartersInUpperCase) {
  EXPECT_EQ(CompletionCandidates("SEL", Catalog(), ""), Words{"SELECT"});
  EXPECT_EQ(CompletionCandidates("de", Catalog(), ""), (Words{"DELETE", "DESC", "DESCRIBE"}));
}

TEST(CompletionTest, TablesAfterFromAndKeyspacesAfterUse) {
  EXPECT_EQ(CompletionCandidates("SELECT * FROM vi", Catalog(), "killrvideo"),
            (Words{"video_ratings", "videos"}));
  EXPECT_EQ(CompletionCandidates("SELECT * FROM sys", Catalog(), "killrvideo"), Words{"system"});
  EXPECT_EQ(CompletionCandidates("SELECT * FROM system.p", Catalog(), ""), Words{"system.peers"});
  EXPECT_EQ(CompletionCandidates("USE ki", Catalog(), ""), Words{"killrvideo"});
  // A name that needs quotes comes back quoted.
  EXPECT_EQ(CompletionCandidates("USE Mi", Catalog(), ""), Words{"\"MixedCase\""});
  EXPECT_EQ(CompletionCandidates("INSERT INTO us", Catalog(), "killrvideo"), Words{"users"});
}

TEST(CompletionTest, ColumnsOfTheTablesNamed) {
  const auto found = CompletionCandidates("SELECT * FROM killrvideo.users WHERE em", Catalog(), "");
  EXPECT_EQ(found, Words{"email"});
  const auto keyword_or_column =
      CompletionCandidates("UPDATE videos SET na", Catalog(), "killrvideo");
  EXPECT_EQ(keyword_or_column, Words{"name"});
  // The statement's earlier lines count.
  EXPECT_EQ(CompletionCandidates("SELECT *\nFROM users\nWHERE first", Catalog(), "killrvideo"),
            Words{"firstname"});
}

TEST(CompletionTest, TypesInColumnDefinitions) {
  EXPECT_EQ(CompletionCandidates("CREATE TABLE t (id uu", Catalog(), "killrvideo"), Words{"uuid"});
  EXPECT_EQ(CompletionCandidates("CREATE TABLE t (id uuid, a addr", Catalog(), "killrvideo"),
            Words{"address"});
  EXPECT_EQ(CompletionCandidates("ALTER TABLE users ADD age bigi", Catalog(), "killrvideo"),
            Words{"bigint"});
}

TEST(CompletionTest, KeywordsElsewhere) {
  const auto found = CompletionCandidates("SELECT * FROM users WH", Catalog(), "killrvideo");
  EXPECT_EQ(found, Words{"WHERE"});
  EXPECT_EQ(PartialWord("SELECT * FROM ks.ta"), "ks.ta");
  EXPECT_EQ(PartialWord("SELECT "), "");
}

}  // namespace
}  // namespace sibyl::tools::shell
