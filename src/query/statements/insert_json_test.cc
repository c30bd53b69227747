// INSERT JSON end to end: the document's values land in their columns (read
// back through storage::ReferenceEngine), with Cassandra's rules for column
// names, missing columns, DEFAULT UNSET and its error messages.

#include "query/statements/insert_json.h"

#include "query/read/engine_test_util.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::WithValues;

class InsertJsonTest : public testing::StorageQueryTest<storage::ReferenceEngine> {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run("CREATE TYPE ks.addr (street text, zip int)");
    (void)Run(
        "CREATE TABLE ks.j (k int, c text, v int, \"Mixed\" text, l list<int>, "
        "m map<int, text>, s set<text>, u frozen<addr>, b blob, f double, ok boolean, "
        "id uuid, PRIMARY KEY (k, c))");
  }
  schema::Row Row(std::string_view query) {
    RowsResult rows = Rows(query);
    EXPECT_EQ(rows.rows.size(), 1u) << query;
    return rows.rows.empty() ? schema::Row{} : rows.rows[0];
  }
};

TEST_F(InsertJsonTest, ValuesOfEveryKind) {
  (void)Run(
      "INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"v\": 5, \"\\\"Mixed\\\"\": \"X\", "
      "\"l\": [3, 1], \"m\": {\"7\": \"seven\"}, \"s\": [\"b\", \"a\"], "
      "\"u\": {\"street\": \"main\", \"zip\": 9}, \"b\": \"0x0102\", \"f\": 1.5, "
      "\"ok\": true, \"id\": \"550e8400-e29b-41d4-a716-446655440000\"}'");
  schema::Row row =
      Row("SELECT v, \"Mixed\", l, m, s, u, b, f, ok, id FROM ks.j WHERE k = 1 AND c = 'a'");
  ASSERT_EQ(row.size(), 10u);
  EXPECT_EQ(row[0], types::EncodeInt(5));
  EXPECT_EQ(row[1], "X");
  EXPECT_EQ(row[2], types::EncodeList({types::EncodeInt(3), types::EncodeInt(1)}));
  EXPECT_EQ(row[3], types::EncodeMap({{types::EncodeInt(7), "seven"}}));
  EXPECT_EQ(row[4], types::EncodeList({"a", "b"}));
  EXPECT_EQ(row[5], types::EncodeTuple({BytesView("main"), BytesView(types::EncodeInt(9))}));
  EXPECT_EQ(row[6], Bytes("\x01\x02", 2));
  EXPECT_EQ(row[7], types::EncodeDouble(1.5));
  EXPECT_EQ(row[8], types::EncodeBoolean(true));
  EXPECT_EQ(row[9], types::Uuid::Parse("550e8400-e29b-41d4-a716-446655440000")->ToBytes());
}

TEST_F(InsertJsonTest, MissingColumnsAreNullUnlessDefaultUnset) {
  (void)Run("INSERT INTO ks.j (k, c, v, l) VALUES (1, 'a', 5, [1])");
  (void)Run("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"ok\": false}' DEFAULT UNSET");
  schema::Row row = Row("SELECT v, l, ok FROM ks.j WHERE k = 1 AND c = 'a'");
  EXPECT_EQ(row[0], types::EncodeInt(5));
  EXPECT_TRUE(row[1]);
  EXPECT_EQ(row[2], types::EncodeBoolean(false));
  (void)Run("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"ok\": null}'");
  row = Row("SELECT v, l, ok FROM ks.j WHERE k = 1 AND c = 'a'");
  EXPECT_FALSE(row[0]);
  EXPECT_FALSE(row[1]);
  EXPECT_FALSE(row[2]);
}

TEST_F(InsertJsonTest, BoundDocumentAndNumbersAsStrings) {
  protocol::PreparedResult prepared =
      processor_.Prepare("INSERT INTO ks.j JSON ?", client_, std::nullopt);
  EXPECT_TRUE(prepared.partition_key_indexes.empty());
  const Bytes document = "{\"K\": \"2\", \"c\": \"b\", \"v\": \"7\"}";
  (void)processor_.Execute(prepared.id, WithValues({Value::Of(document)}), client_);
  EXPECT_EQ(Row("SELECT v FROM ks.j WHERE k = 2 AND c = 'b'")[0], types::EncodeInt(7));
}

TEST_F(InsertJsonTest, Errors) {
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"nope\": 1}'").what(),
               "JSON values map contains unrecognized column: nope");
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"v\": \"x\"}'").what(),
               "Error decoding JSON value for v: Unable to make int from 'x'");
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": 5}'").what(),
               "Error decoding JSON value for c: Expected a UTF-8 string, but got a Number: 5");
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON '{\"k\": 1, \"c\": \"a\", \"b\": \"12\"}'").what(),
               "Error decoding JSON value for b: String representation of blob is missing 0x "
               "prefix: 12");
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON '{\"c\": \"a\"}'").what(),
               "Invalid null value in condition for column k");
  EXPECT_STREQ(Error("INSERT INTO ks.j JSON 'null'").what(), "Got null for INSERT JSON values");
  const std::string bad = Error("INSERT INTO ks.j JSON '{\"k\": 1'").what();
  EXPECT_EQ(bad.rfind("Could not decode JSON string as a map: ", 0), 0u) << bad;
  protocol::PreparedResult prepared =
      processor_.Prepare("INSERT INTO ks.j JSON ?", client_, std::nullopt);
  try {
    (void)processor_.Execute(prepared.id, WithValues({Value::Null()}), client_);
    ADD_FAILURE() << "a null document was accepted";
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(), "Got null for INSERT JSON values");
  }
}

}  // namespace
}  // namespace sibyl::query
