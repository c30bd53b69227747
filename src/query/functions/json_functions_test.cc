// toJson() and fromJson().

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "query/functions/function_test_util.h"
#include "query/functions/function_value_text.h"
#include "types/big_number.h"

namespace sibyl::query {
namespace {

using testing::T;
using types::CqlType;
using types::Kind;

class JsonFunctionsTest : public testing::FunctionTest {
 protected:
  std::string ToJson(const types::TypePtr& type, const std::optional<Bytes>& value) {
    return *Execute(*ToJsonFunction(type), {value});
  }
  OptBytes FromJson(const types::TypePtr& type, const std::optional<Bytes>& json) {
    return Execute(*FromJsonFunction(type), {json});
  }
  std::string FromJsonError(const types::TypePtr& type, const Bytes& json) {
    try {
      (void)FromJson(type, json);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kFunctionFailure);
      return e.what();
    }
    return "no error";
  }
};

TEST_F(JsonFunctionsTest, Scalars) {
  EXPECT_EQ(ToJson(T(Kind::kInt), types::EncodeInt(-3)), "-3");
  EXPECT_EQ(ToJson(T(Kind::kBigint), std::nullopt), "null");
  EXPECT_EQ(ToJson(T(Kind::kInt), Bytes()), "\"\"");
  EXPECT_EQ(ToJson(T(Kind::kText), Bytes("say \"hi\"\n\x01/é")), "\"say \\\"hi\\\"\\n\\u0001/é\"");
  EXPECT_EQ(ToJson(T(Kind::kAscii), Bytes("")), "\"\"");
  EXPECT_EQ(ToJson(T(Kind::kDouble), types::EncodeDouble(1.0)), "1.0");
  EXPECT_EQ(ToJson(T(Kind::kFloat), types::EncodeFloat(std::nanf(""))), "null");
  EXPECT_EQ(ToJson(T(Kind::kDouble), types::EncodeDouble(-INFINITY)), "null");
  EXPECT_EQ(ToJson(T(Kind::kDecimal), *types::ParseDecimal("1E+3")), "1E+3");
  EXPECT_EQ(ToJson(T(Kind::kBoolean), types::EncodeBoolean(true)), "true");
  EXPECT_EQ(ToJson(T(Kind::kBlob), Bytes("\xca\xfe")), "\"0xcafe\"");
  EXPECT_EQ(ToJson(T(Kind::kTimestamp), types::EncodeTimestamp(1296705900000)),
            "\"2011-02-03 04:05:00.000Z\"");
  EXPECT_EQ(ToJson(T(Kind::kDate), types::EncodeDate(15008)), "\"2011-02-03\"");
  EXPECT_EQ(ToJson(T(Kind::kTime), types::EncodeTime(1)), "\"00:00:00.000000001\"");
  EXPECT_EQ(ToJson(T(Kind::kInet), types::EncodeInet("10.0.0.1")), "\"10.0.0.1\"");
  EXPECT_EQ(ToJson(T(Kind::kDuration), types::EncodeDuration(1, 2, 3'000'000'000)), "\"1mo2d3s\"");
  EXPECT_EQ(
      ToJson(T(Kind::kUuid), types::Uuid::Parse("550e8400-e29b-41d4-a716-446655440000")->ToBytes()),
      "\"550e8400-e29b-41d4-a716-446655440000\"");
}

TEST_F(JsonFunctionsTest, Collections) {
  const auto list = CqlType::List(T(Kind::kInt));
  EXPECT_EQ(ToJson(list, types::EncodeList({types::EncodeInt(1), types::EncodeInt(2)})), "[1, 2]");
  EXPECT_EQ(ToJson(CqlType::Set(T(Kind::kText)), types::EncodeList({})), "[]");
  const auto map = CqlType::Map(T(Kind::kInt), T(Kind::kText));
  EXPECT_EQ(ToJson(map, types::EncodeMap({{types::EncodeInt(1), Bytes("a")}})), "{\"1\": \"a\"}");
  const auto text_map = CqlType::Map(T(Kind::kText), T(Kind::kBoolean));
  EXPECT_EQ(ToJson(text_map, types::EncodeMap({{Bytes("k"), types::EncodeBoolean(false)}})),
            "{\"k\": false}");
  const auto tuple = CqlType::Tuple({T(Kind::kInt), T(Kind::kText)});
  const Bytes one = types::EncodeInt(1);
  EXPECT_EQ(ToJson(tuple, types::EncodeTuple({BytesView(one), std::nullopt})), "[1, null]");
  const auto udt =
      CqlType::Udt("ks", "address", {"street", "Zip"}, {T(Kind::kText), T(Kind::kInt)});
  EXPECT_EQ(ToJson(udt, types::EncodeTuple({BytesView("Main"), BytesView(one)})),
            "{\"street\": \"Main\", \"\\\"Zip\\\"\": 1}");
}

TEST_F(JsonFunctionsTest, ToJsonOfNullIsTheTextNull) {
  const FunctionPtr f = ToJsonFunction(T(Kind::kInt));
  EXPECT_EQ(f->return_type()->kind(), Kind::kText);
  EXPECT_EQ(Execute(*f, {std::nullopt}), Bytes("null"));
}

TEST_F(JsonFunctionsTest, FromJson) {
  EXPECT_EQ(FromJson(T(Kind::kInt), Bytes("5")), types::EncodeInt(5));
  EXPECT_EQ(FromJson(T(Kind::kInt), Bytes("\"6\"")), types::EncodeInt(6));
  EXPECT_EQ(FromJson(T(Kind::kText), Bytes("\"abc\"")), Bytes("abc"));
  EXPECT_EQ(FromJson(T(Kind::kText), Bytes("null")), std::nullopt);
  EXPECT_EQ(FromJson(T(Kind::kText), std::nullopt), std::nullopt);
  EXPECT_EQ(FromJson(CqlType::List(T(Kind::kInt)), Bytes("[1, 2]")),
            types::EncodeList({types::EncodeInt(1), types::EncodeInt(2)}));
  EXPECT_EQ(FromJson(T(Kind::kTimestamp), Bytes("\"2011-02-03 04:05:00.000Z\"")),
            types::EncodeTimestamp(1296705900000));
}

TEST_F(JsonFunctionsTest, FromJsonFailures) {
  EXPECT_EQ(
      FromJsonError(T(Kind::kInt), Bytes("{"))
          .rfind("execution of 'system.fromjson[text]' failed: Could not decode JSON string '{': ",
                 0),
      0u);
  // Exactly one JSON value: trailing content is refused.
  EXPECT_EQ(
      FromJsonError(T(Kind::kInt), Bytes("1, \"v\": 2"))
          .rfind("execution of 'system.fromjson[text]' failed: Could not decode JSON string", 0),
      0u);
  const std::string mismatch = FromJsonError(T(Kind::kInt), Bytes("[1]"));
  EXPECT_EQ(mismatch.rfind("org.apache.cassandra.serializers.MarshalException: ", 0), 0u)
      << mismatch;
}

}  // namespace
}  // namespace sibyl::query
