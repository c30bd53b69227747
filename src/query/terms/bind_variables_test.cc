#include "query/terms/bind_variables.h"

#include <gtest/gtest.h>

#include "common/check.h"
#include "common/error.h"
#include "types/cql_type.h"

namespace sibyl::query {
namespace {

std::vector<protocol::ColumnSpec> OneIntSpec() {
  return {protocol::ColumnSpec{"ks", "t", "k", types::CqlType::Native(types::Kind::kInt)}};
}

// A marker index the request has no value for is a bug of the statement
// layer: a failed check naming it (a Server error for the client), never a
// read past the end of the values (an INSERT JSON transaction once read its
// keys that way).
TEST(BoundValuesTest, AnIndexOutOfRangeIsAFailedCheckNotARead) {
  protocol::QueryParameters params;
  static const Bytes kOne("\0\0\0\1", 4);
  params.values = {Value::Of(kOne)};
  const BoundValues values(OneIntSpec(), params);
  EXPECT_EQ(values[0].kind, Value::Kind::kBytes);
  for (int index : {1, 7, -1}) {
    try {
      (void)values[index];
      ADD_FAILURE() << "index " << index << " was read";
    } catch (const InternalError& e) {
      EXPECT_NE(std::string(e.what()).find("Bind marker " + std::to_string(index)),
                std::string::npos);
    }
  }
}

TEST(BoundValuesTest, TheCountMustMatchTheMarkers) {
  protocol::QueryParameters params;
  try {
    const BoundValues values(OneIntSpec(), params);
    ADD_FAILURE() << "no values accepted for one marker";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(), "Invalid amount of bind variables");
  }
}

}  // namespace
}  // namespace sibyl::query
