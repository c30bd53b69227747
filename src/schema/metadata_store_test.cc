// MetadataStore's listeners: called once per change, before it is
// published, and able to veto it.

#include "schema/metadata_store.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "common/error.h"
#include "schema/system_keyspaces.h"

namespace sibyl::schema {
namespace {

Schema::KeyspaceMap WithKeyspace(const Schema& current, const std::string& name) {
  Schema::KeyspaceMap next = current.keyspaces();
  auto keyspace = std::make_shared<KeyspaceMetadata>();
  keyspace->name = name;
  keyspace->replication = {{"class", kSimpleStrategy}, {"replication_factor", "1"}};
  next[name] = keyspace;
  return next;
}

class MetadataStoreListenerTest : public ::testing::Test {
 protected:
  MetadataStoreListenerTest() : schemas_(MakeInitialSchema()), store_(schemas_) {}

  MetadataStore::CommitResult Add(const std::string& name) {
    return store_.Commit(
        [&](const Schema& current) { return std::optional(WithKeyspace(current, name)); });
  }

  SchemaStore schemas_;
  InMemoryMetadataStore store_;
};

TEST_F(MetadataStoreListenerTest, SeesEachChangeBeforeItIsPublished) {
  int calls = 0;
  store_.AddListener([&](const Schema& before, const Schema& after) {
    ++calls;
    EXPECT_EQ(before.FindKeyspace("ks"), nullptr);
    EXPECT_NE(after.FindKeyspace("ks"), nullptr);
    // Not published yet: readers still see `before`.
    EXPECT_EQ(schemas_.snapshot()->version(), before.version());
  });
  EXPECT_TRUE(Add("ks").changed);
  EXPECT_EQ(calls, 1);
  EXPECT_NE(schemas_.snapshot()->FindKeyspace("ks"), nullptr);
  // A no-op change calls no listener.
  EXPECT_FALSE(Add("ks").changed);
  EXPECT_EQ(calls, 1);
}

TEST_F(MetadataStoreListenerTest, ThrowingListenerAbortsTheChange) {
  store_.AddListener([](const Schema&, const Schema&) { throw std::runtime_error("no space"); });
  try {
    (void)Add("ks");
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kServerError);
    EXPECT_STREQ(e.what(), "Failed to apply the schema change: no space");
  }
  EXPECT_EQ(schemas_.snapshot()->FindKeyspace("ks"), nullptr);
  EXPECT_EQ(store_.epoch(), 0u);
}

TEST_F(MetadataStoreListenerTest, CqlErrorsPassThrough) {
  store_.AddListener(
      [](const Schema&, const Schema&) { throw CqlError(ErrorCode::kInvalid, "refused"); });
  try {
    (void)Add("ks");
    ADD_FAILURE() << "expected an error";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(), "refused");
  }
}

}  // namespace
}  // namespace sibyl::schema
