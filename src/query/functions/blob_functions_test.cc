// <type>asblob and blobas<type>.

#include <gtest/gtest.h>

#include "common/error.h"
#include "query/functions/function_test_util.h"

namespace sibyl::query {
namespace {

using testing::Overload;
using testing::T;
using types::Kind;

class BlobFunctionsTest : public testing::FunctionTest {
 protected:
  std::string ErrorOf(const std::string& name, const Bytes& blob) {
    try {
      (void)Call1(name, Kind::kBlob, blob);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    return "no error";
  }
};

TEST_F(BlobFunctionsTest, ToBlobKeepsTheBytes) {
  EXPECT_EQ(Call1("intasblob", Kind::kInt, types::EncodeInt(123)), types::EncodeInt(123));
  EXPECT_EQ(Call1("textasblob", Kind::kText, Bytes("héllo")), Bytes("héllo"));
  EXPECT_EQ(Call1("varcharasblob", Kind::kText, Bytes("x")), Bytes("x"));
  EXPECT_EQ(Call1("bigintasblob", Kind::kBigint, std::nullopt), std::nullopt);
  EXPECT_EQ(Overload("counterasblob", {T(Kind::kCounter)})->return_type()->kind(), Kind::kBlob);
  EXPECT_EQ(Overload("durationasblob", {T(Kind::kDuration)})->name(), "durationasblob");
}

TEST_F(BlobFunctionsTest, FromBlobValidates) {
  EXPECT_EQ(Call1("blobasint", Kind::kBlob, types::EncodeInt(-7)), types::EncodeInt(-7));
  EXPECT_EQ(Call1("blobasvarchar", Kind::kBlob, Bytes("abc")), Bytes("abc"));
  EXPECT_EQ(Call1("blobasuuid", Kind::kBlob, std::nullopt), std::nullopt);
  EXPECT_EQ(Overload("blobasint", {T(Kind::kBlob)})->return_type()->kind(), Kind::kInt);
  EXPECT_EQ(ErrorOf("blobasbigint", types::EncodeInt(123)),
            "In call to function blobasbigint, value 0x0000007b is not a valid binary "
            "representation for type bigint");
  EXPECT_EQ(ErrorOf("blobastext", Bytes("\xff")),
            "In call to function blobastext, value 0xff is not a valid binary representation for "
            "type text");
  EXPECT_EQ(ErrorOf("blobasascii", Bytes("\xc3\xa9")),
            "In call to function blobasascii, value 0xc3a9 is not a valid binary representation "
            "for type ascii");
  EXPECT_EQ(ErrorOf("blobasboolean", Bytes("\x01\x02")),
            "In call to function blobasboolean, value 0x0102 is not a valid binary "
            "representation for type boolean");
}

TEST_F(BlobFunctionsTest, EmptyBlobsWhereTheTypeAllowsThem) {
  // As Cassandra: int, bigint, text... accept an empty value; tinyint,
  // smallint, date and time do not.
  EXPECT_EQ(Call1("blobasint", Kind::kBlob, Bytes()), Bytes());
  EXPECT_EQ(Call1("blobastext", Kind::kBlob, Bytes()), Bytes());
  EXPECT_EQ(ErrorOf("blobastinyint", Bytes()),
            "In call to function blobastinyint, value 0x is not a valid binary representation "
            "for type tinyint");
  EXPECT_EQ(ErrorOf("blobasdate", Bytes()),
            "In call to function blobasdate, value 0x is not a valid binary representation for "
            "type date");
}

}  // namespace
}  // namespace sibyl::query
