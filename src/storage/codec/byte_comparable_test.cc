#include "storage/codec/byte_comparable.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/hex.h"
#include "types/big_number.h"
#include "types/uuid.h"
#include "types/value_codec.h"
#include "types/vint.h"

namespace sibyl::storage {
namespace {

using types::CqlType;
using types::Kind;
using types::TypePtr;

int Sign(int v) { return v < 0 ? -1 : (v > 0 ? 1 : 0); }

int MemcmpSign(const Bytes& a, const Bytes& b) {
  const int c = a.compare(b);  // char_traits<char> compares as unsigned char
  return Sign(c);
}

Bytes Enc(const CqlType& type, BytesView v, bool desc = false) {
  Bytes out;
  AppendComparable(type, v, desc, out);
  return out;
}

// Random values of a type, biased towards the edges where encodings break.
class ValueGenerator {
 public:
  explicit ValueGenerator(uint64_t seed) : rng_(seed) {}

  Bytes Value(const CqlType& type) {
    if (OneIn(20) && AllowsEmpty(type)) return {};
    switch (type.kind()) {
      case Kind::kAscii:
      case Kind::kText:
      case Kind::kBlob:
      case Kind::kCustom:
        return SmallAlphabet(Uniform(0, 5));
      case Kind::kInet:
        return SmallAlphabet(OneIn(2) ? 4 : 16);
      case Kind::kBoolean:
        return Bytes(1, static_cast<char>(Uniform(0, 2)));  // 2: a non-canonical true
      case Kind::kTinyint:
        return FixedInt(1);
      case Kind::kSmallint:
        return FixedInt(2);
      case Kind::kInt:
      case Kind::kDate:
        return FixedInt(4);
      case Kind::kBigint:
      case Kind::kTimestamp:
      case Kind::kTime:
        return FixedInt(8);
      case Kind::kFloat:
        return Float();
      case Kind::kDouble:
        return Double();
      case Kind::kUuid:
        return Uuid(kVersions[Uniform(0, 4)]);
      case Kind::kTimeuuid:
        return Uuid(1);
      case Kind::kVarint:
        return Varint();
      case Kind::kDecimal:
        return Decimal();
      case Kind::kList:
      case Kind::kSet: {
        std::vector<Bytes> elements(Uniform(0, 3));
        for (auto& e : elements) e = Value(*type.params()[0]);
        return types::EncodeList(elements);
      }
      case Kind::kMap: {
        std::vector<std::pair<Bytes, Bytes>> entries(Uniform(0, 3));
        for (auto& [k, v] : entries) {
          k = Value(*type.params()[0]);
          v = Value(*type.params()[1]);
        }
        return types::EncodeMap(entries);
      }
      case Kind::kTuple:
      case Kind::kUdt: {
        std::vector<Bytes> fields;
        std::vector<std::optional<BytesView>> views;
        fields.reserve(type.params().size());
        for (const auto& field_type : type.params()) {
          if (OneIn(5)) {
            fields.emplace_back();
            views.push_back(std::nullopt);
          } else {
            fields.push_back(Value(*field_type));
            views.push_back(fields.back());
          }
        }
        return types::EncodeTuple(views);
      }
      case Kind::kVector: {
        Bytes out;
        const auto& element_type = *type.params()[0];
        const bool fixed = element_type.kind() == Kind::kFloat || element_type.kind() == Kind::kInt;
        for (int i = 0; i < type.vector_dimension(); ++i) {
          Bytes e = Value(element_type);
          if (fixed && e.empty()) e = Value(element_type);
          if (fixed && e.empty()) e = Bytes(4, '\0');
          if (!fixed) types::AppendUnsignedVint(out, e.size());
          out += e;
        }
        return out;
      }
      default:
        ADD_FAILURE() << "no generator for " << type.ToCql();
        return {};
    }
  }

 private:
  static constexpr int kVersions[5] = {1, 4, 3, 0, 15};

  static bool AllowsEmpty(const CqlType& type) { return type.kind() != Kind::kVector; }

  bool OneIn(int n) { return Uniform(0, n - 1) == 0; }
  size_t Uniform(size_t lo, size_t hi) {
    return std::uniform_int_distribution<size_t>(lo, hi)(rng_);
  }

  Bytes SmallAlphabet(size_t n) {
    static constexpr char kAlphabet[] = {'\x00', '\x01', '\x7f', '\x80', '\xfe', '\xff', 'a'};
    Bytes out;
    for (size_t i = 0; i < n; ++i) out.push_back(kAlphabet[Uniform(0, sizeof(kAlphabet) - 1)]);
    return out;
  }

  Bytes FixedInt(size_t width) {
    static constexpr uint8_t kEdgeBytes[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    Bytes out;
    const bool edges = OneIn(2);
    for (size_t i = 0; i < width; ++i) {
      out.push_back(static_cast<char>(edges ? kEdgeBytes[Uniform(0, 4)] : Uniform(0, 255)));
    }
    return out;
  }

  Bytes Float() {
    static constexpr uint32_t kEdges[] = {0x00000000, 0x80000000, 0x7FC00000, 0xFFC00001,
                                          0x7F800001, 0x7F800000, 0xFF800000, 0x00000001,
                                          0x80000001, 0x7F7FFFFF, 0x3F800000, 0xBF800000};
    Bytes out;
    AppendBE32(out, OneIn(2) ? kEdges[Uniform(0, std::size(kEdges) - 1)]
                             : static_cast<uint32_t>(Uniform(0, 0xFFFFFFFFu)));
    return out;
  }

  Bytes Double() {
    static constexpr uint64_t kEdges[] = {0x0ULL,
                                          0x8000000000000000ULL,
                                          0x7FF8000000000000ULL,
                                          0xFFF8000000000001ULL,
                                          0x7FF0000000000001ULL,
                                          0x7FF0000000000000ULL,
                                          0xFFF0000000000000ULL,
                                          0x1ULL,
                                          0x8000000000000001ULL,
                                          0x3FF0000000000000ULL,
                                          0xBFF0000000000000ULL};
    Bytes out;
    AppendBE64(out, OneIn(2) ? kEdges[Uniform(0, std::size(kEdges) - 1)] : rng_());
    return out;
  }

  Bytes Uuid(int version) {
    Bytes out = FixedInt(16);
    out[6] = static_cast<char>((version << 4) | (static_cast<uint8_t>(out[6]) & 0x0F));
    return out;
  }

  Bytes Varint() {
    switch (Uniform(0, 4)) {
      case 0: {
        static constexpr int64_t kEdges[] = {0,
                                             1,
                                             -1,
                                             127,
                                             128,
                                             -128,
                                             -129,
                                             255,
                                             256,
                                             -256,
                                             std::numeric_limits<int64_t>::max(),
                                             std::numeric_limits<int64_t>::min()};
        return types::EncodeVarintFromInt64(kEdges[Uniform(0, std::size(kEdges) - 1)]);
      }
      case 1: {  // non-minimal sign extension
        Bytes v = types::EncodeVarintFromInt64(static_cast<int64_t>(Uniform(0, 600)) - 300);
        v.insert(v.begin(), (static_cast<uint8_t>(v[0]) & 0x80) ? '\xff' : '\x00');
        return v;
      }
      case 2: {  // long: more than 125 magnitude bytes
        Bytes v = FixedInt(Uniform(124, 130));
        return v;
      }
      default:
        return FixedInt(Uniform(1, 10));
    }
  }

  Bytes Decimal() {
    static constexpr int32_t kScales[] = {0,
                                          1,
                                          2,
                                          -1,
                                          -2,
                                          3,
                                          std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int32_t>::max()};
    Bytes out;
    const int32_t scale = kScales[Uniform(0, std::size(kScales) - 1)];
    AppendBE32(out, static_cast<uint32_t>(scale));
    // Small unscaled values collide often (1.5 == 1.50), which is the point.
    static constexpr int64_t kUnscaled[] = {0, 1, -1, 15, 150, 1500, -15, -150, 10, 100, 99, 101};
    if (OneIn(3)) {
      out += Varint();
    } else {
      out += types::EncodeVarintFromInt64(kUnscaled[Uniform(0, std::size(kUnscaled) - 1)]);
    }
    return out;
  }

  std::mt19937_64 rng_;
};

std::vector<TypePtr> KeyTypes() {
  auto n = [](Kind k) { return CqlType::Native(k); };
  return {
      n(Kind::kAscii),
      n(Kind::kText),
      n(Kind::kBlob),
      n(Kind::kBoolean),
      n(Kind::kTinyint),
      n(Kind::kSmallint),
      n(Kind::kInt),
      n(Kind::kBigint),
      n(Kind::kVarint),
      n(Kind::kDecimal),
      n(Kind::kFloat),
      n(Kind::kDouble),
      n(Kind::kDate),
      n(Kind::kTime),
      n(Kind::kTimestamp),
      n(Kind::kUuid),
      n(Kind::kTimeuuid),
      n(Kind::kInet),
      CqlType::List(n(Kind::kInt), /*frozen=*/true),
      CqlType::Set(n(Kind::kText), /*frozen=*/true),
      CqlType::Map(n(Kind::kInt), n(Kind::kBlob), /*frozen=*/true),
      CqlType::List(CqlType::Tuple({n(Kind::kVarint), n(Kind::kText)}), /*frozen=*/true),
      CqlType::Tuple({n(Kind::kInt), n(Kind::kText)}),
      CqlType::Tuple({n(Kind::kDecimal), CqlType::List(n(Kind::kDouble), true), n(Kind::kBoolean)}),
      CqlType::Udt("ks", "point", {"x", "label"}, {n(Kind::kBigint), n(Kind::kAscii)},
                   /*frozen=*/true),
      CqlType::Vector(n(Kind::kFloat), 3),
      CqlType::Vector(n(Kind::kText), 2),
  };
}

// The core property: for every pair, memcmp of the encodings has the sign of
// types::Compare, ascending and descending, and every encoding reads back.
TEST(ByteComparableTest, OrdersAsCompareForEveryKeyType) {
  for (const auto& type : KeyTypes()) {
    SCOPED_TRACE(type->ToCql());
    ValueGenerator gen(0x5eed ^
                       (static_cast<uint64_t>(type->kind()) * 7919 + type->ToCql().size()));
    std::vector<Bytes> values;
    for (int i = 0; i < 250; ++i) values.push_back(gen.Value(*type));
    std::vector<Bytes> asc, desc;
    for (const auto& v : values) {
      asc.push_back(Enc(*type, v));
      desc.push_back(Enc(*type, v, /*desc=*/true));
    }
    int failures = 0;
    for (size_t i = 0; i < values.size() && failures < 5; ++i) {
      for (size_t j = 0; j < values.size() && failures < 5; ++j) {
        const int expected = Sign(types::Compare(*type, values[i], values[j]));
        if (MemcmpSign(asc[i], asc[j]) != expected || MemcmpSign(desc[i], desc[j]) != -expected) {
          ++failures;
          ADD_FAILURE() << "values " << types::Format(*type, values[i]) << " and "
                        << types::Format(*type, values[j]) << ": Compare says " << expected;
        }
      }
    }
    for (size_t i = 0; i < values.size(); ++i) {
      for (bool descending : {false, true}) {
        const Bytes& encoded = descending ? desc[i] : asc[i];
        std::string_view in = encoded;
        const Bytes decoded = ReadComparable(*type, descending, in);
        EXPECT_TRUE(in.empty());
        EXPECT_EQ(types::Compare(*type, decoded, values[i]), 0) << types::Format(*type, values[i]);
        // The decoded form is canonical: it encodes to the same bytes.
        EXPECT_EQ(Enc(*type, decoded, descending), encoded);
      }
    }
  }
}

// Keys are concatenations of components; prefix-freeness makes them compare
// like tuples, column by column, each in its own direction.
TEST(ByteComparableTest, ConcatenationsCompareLikeTuples) {
  const auto types = KeyTypes();
  ValueGenerator gen(42);
  std::mt19937_64 rng(7);
  for (int round = 0; round < 3000; ++round) {
    const auto& t1 = types[rng() % types.size()];
    const auto& t2 = types[rng() % types.size()];
    const bool d1 = rng() % 2, d2 = rng() % 2;
    const Bytes a1 = gen.Value(*t1), a2 = gen.Value(*t2);
    const Bytes b1 = rng() % 3 == 0 ? a1 : gen.Value(*t1);
    const Bytes b2 = gen.Value(*t2);
    const Bytes ka = Enc(*t1, a1, d1) + Enc(*t2, a2, d2);
    const Bytes kb = Enc(*t1, b1, d1) + Enc(*t2, b2, d2);
    int expected = Sign(types::Compare(*t1, a1, b1)) * (d1 ? -1 : 1);
    if (expected == 0) expected = Sign(types::Compare(*t2, a2, b2)) * (d2 ? -1 : 1);
    ASSERT_EQ(MemcmpSign(ka, kb), expected)
        << t1->ToCql() << (d1 ? " desc" : "") << ", " << t2->ToCql() << (d2 ? " desc" : "");
    std::string_view in = ka;
    EXPECT_EQ(types::Compare(*t1, ReadComparable(*t1, d1, in), a1), 0);
    EXPECT_EQ(types::Compare(*t2, ReadComparable(*t2, d2, in), a2), 0);
    EXPECT_TRUE(in.empty());
  }
}

TEST(ByteComparableTest, CassandraOrderingQuirks) {
  auto dbl = CqlType::Native(Kind::kDouble);
  const Bytes neg_zero = types::EncodeDouble(-0.0), zero = types::EncodeDouble(0.0);
  const Bytes nan = types::EncodeDouble(std::nan("")), inf = types::EncodeDouble(INFINITY);
  EXPECT_LT(Enc(*dbl, neg_zero), Enc(*dbl, zero));
  EXPECT_LT(Enc(*dbl, inf), Enc(*dbl, nan));
  Bytes other_nan;
  AppendBE64(other_nan, 0xFFF8000000000123ULL);
  EXPECT_EQ(Enc(*dbl, other_nan), Enc(*dbl, nan));
  EXPECT_LT(Enc(*dbl, ""), Enc(*dbl, types::EncodeDouble(-INFINITY)));

  // Equal decimals encode equally whatever their scale.
  auto dec = CqlType::Native(Kind::kDecimal);
  EXPECT_EQ(Enc(*dec, *types::ParseDecimal("1.5")), Enc(*dec, *types::ParseDecimal("1.50")));
  EXPECT_EQ(Enc(*dec, *types::ParseDecimal("0")), Enc(*dec, *types::ParseDecimal("0.000")));
  // A scale without unscaled bytes validates, and is zero (found by the statement fuzzer).
  EXPECT_EQ(Enc(*dec, Bytes("\xd5\x1b\x65\xec", 4)), Enc(*dec, *types::ParseDecimal("0")));
  EXPECT_LT(Enc(*dec, *types::ParseDecimal("-1E+5")), Enc(*dec, *types::ParseDecimal("-99999")));
  EXPECT_LT(Enc(*dec, *types::ParseDecimal("0.001")), Enc(*dec, *types::ParseDecimal("0.01")));

  // A boolean is true for any non-zero byte.
  auto boolean = CqlType::Native(Kind::kBoolean);
  EXPECT_EQ(Enc(*boolean, Bytes(1, '\x02')), Enc(*boolean, Bytes(1, '\x01')));

  // A tuple written with fewer fields reads as one padded with nulls.
  auto tuple = CqlType::Tuple({CqlType::Native(Kind::kInt), CqlType::Native(Kind::kText)});
  const Bytes one = types::EncodeInt(1);
  EXPECT_EQ(Enc(*tuple, types::EncodeTuple({BytesView(one)})),
            Enc(*tuple, types::EncodeTuple({BytesView(one), std::nullopt})));

  // DESC: the empty value sorts last, as ReversedType has it.
  auto text = CqlType::Native(Kind::kText);
  EXPECT_GT(Enc(*text, "", true), Enc(*text, "a", true));
}

// The encodings are on disk: each type's layout (the table at the top of
// byte_comparable.cc) pinned on a few values, byte for byte.
TEST(ByteComparableTest, EncodingsAreTheDocumentedLayouts) {
  auto n = [](Kind k) { return CqlType::Native(k); };
  auto uuid = [](std::string_view text) { return types::EncodeUuid(*types::Uuid::Parse(text)); };
  Bytes other_nan;
  AppendBE32(other_nan, 0x7FC00001u);
  const Bytes one = types::EncodeInt(1);
  const struct {
    TypePtr type;
    Bytes value;
    bool descending;
    std::string hex;
  } cases[] = {
      {n(Kind::kText), Bytes("a\0b", 3), false, "6100ff620000"},
      {n(Kind::kText), "", false, "0000"},
      {n(Kind::kText), "", true, "ffff"},
      {n(Kind::kInet), types::EncodeInet("127.0.0.1"), false, "7f00ff00ff010000"},
      {n(Kind::kBoolean), types::EncodeBoolean(false), false, "01"},
      {n(Kind::kBoolean), types::EncodeBoolean(true), false, "02"},
      {n(Kind::kInt), "", false, "00"},
      {n(Kind::kInt), one, false, "0180000001"},
      {n(Kind::kInt), one, true, "fe7ffffffe"},
      {n(Kind::kTinyint), types::EncodeTinyint(-2), false, "017e"},
      {n(Kind::kSmallint), types::EncodeSmallint(300), false, "01812c"},
      {n(Kind::kBigint), types::EncodeBigint(-1), false, "017fffffffffffffff"},
      {n(Kind::kTimestamp), types::EncodeTimestamp(1000), false, "0180000000000003e8"},
      {n(Kind::kDate), types::EncodeDate(0), false, "0180000000"},
      {n(Kind::kTime), types::EncodeTime(5), false, "010000000000000005"},
      {n(Kind::kFloat), types::EncodeFloat(1.5f), false, "01bfc00000"},
      {n(Kind::kFloat), types::EncodeFloat(-1.5f), false, "01403fffff"},
      {n(Kind::kFloat), other_nan, false, "01ffc00000"},
      {n(Kind::kDouble), types::EncodeDouble(-0.0), false, "017fffffffffffffff"},
      {n(Kind::kDouble), types::EncodeDouble(2.0), false, "01c000000000000000"},
      {n(Kind::kUuid), uuid("550e8400-e29b-41d4-a716-446655440000"), false,
       "05550e8400e29b41d4a716446655440000"},
      {n(Kind::kUuid), uuid("c1d2e3f4-a5b6-11c7-8899-aabbccddeeff"), false,
       "0211c7a5b6c1d2e3f48899aabbccddeeff"},
      {n(Kind::kTimeuuid), uuid("c1d2e3f4-a5b6-11c7-8899-aabbccddeeff"), false,
       "0191c7a5b6c1d2e3f408192a3b4c5d6e7f"},
      {n(Kind::kVarint), types::EncodeVarint(0), false, "80"},
      {n(Kind::kVarint), types::EncodeVarint(300), false, "82012c"},
      {n(Kind::kVarint), types::EncodeVarint(-300), false, "7dfed3"},
      {n(Kind::kDecimal), *types::ParseDecimal("0"), false, "02"},
      {n(Kind::kDecimal), *types::ParseDecimal("1.50"), false, "0381011000"},
      {n(Kind::kDecimal), *types::ParseDecimal("-12"), false, "017efdf2ff"},
      {n(Kind::kDecimal), *types::ParseDecimal("0.001"), false, "037efd0b00"},
      {CqlType::List(n(Kind::kInt), /*frozen=*/true), "", false, "00"},
      {CqlType::List(n(Kind::kInt), /*frozen=*/true), types::EncodeList({}), false, "01"},
      {CqlType::List(n(Kind::kInt), /*frozen=*/true),
       types::EncodeList({types::EncodeInt(1), types::EncodeInt(2)}), false,
       "02018000000102018000000201"},
      {CqlType::Map(n(Kind::kInt), n(Kind::kBlob), /*frozen=*/true),
       types::EncodeMap({{types::EncodeInt(1), Bytes(1, '\0')}}), false, "02018000000100ff000001"},
      {CqlType::Tuple({n(Kind::kInt), n(Kind::kText)}),
       types::EncodeTuple({BytesView(one), std::nullopt}), false, "02018000000101"},
      {CqlType::Udt("ks", "point", {"x"}, {n(Kind::kInt)}, /*frozen=*/true),
       types::EncodeTuple({BytesView(one)}), false, "020180000001"},
      {CqlType::Vector(n(Kind::kFloat), 2), types::EncodeFloat(1.5f) + types::EncodeFloat(-1.5f),
       false, "0101bfc0000001403fffff"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ToHex(Enc(*c.type, c.value, c.descending)), c.hex)
        << c.type->ToCql() << (c.descending ? " desc " : " ") << ToHex(c.value);
  }
}

// A duration is never a key column, but a set element or map key may hold
// one (set<tuple<inet, duration>>, allowed by Cassandra): byte order, as
// types::Compare has it (found by the statement fuzzer).
TEST(ByteComparableTest, DurationsInsideElementsAreInByteOrder) {
  auto tuple = CqlType::Tuple({CqlType::Native(Kind::kInet), CqlType::Native(Kind::kDuration)});
  const Bytes a = types::EncodeDuration(0, 1, 0);
  const Bytes b = types::EncodeDuration(2, 0, 0);
  const Bytes ta = types::EncodeTuple({std::nullopt, BytesView(a)});
  const Bytes tb = types::EncodeTuple({std::nullopt, BytesView(b)});
  EXPECT_EQ(Enc(*tuple, ta) < Enc(*tuple, tb), types::Compare(*tuple, ta, tb) < 0);
  const Bytes encoded = Enc(*tuple, tb);
  std::string_view in = encoded;
  EXPECT_EQ(ReadComparable(*tuple, false, in), tb);
}

TEST(ByteComparableTest, RefusesTypesThatCannotBeKeys) {
  Bytes out;
  EXPECT_THROW(
      AppendComparable(*CqlType::Native(Kind::kCounter), types::EncodeBigint(1), false, out),
      std::invalid_argument);
  EXPECT_THROW(AppendComparable(*CqlType::List(CqlType::Native(Kind::kInt)), types::EncodeList({}),
                                false, out),
               std::invalid_argument);
  EXPECT_THROW(AppendComparable(*CqlType::Native(Kind::kInt), "abc", false, out),
               std::invalid_argument);
}

TEST(ByteComparableTest, MalformedInputThrowsNeverCrashes) {
  // Every proper prefix of an encoding is incomplete (prefix-freeness).
  ValueGenerator gen(99);
  for (const auto& type : KeyTypes()) {
    for (int i = 0; i < 40; ++i) {
      const Bytes encoded = Enc(*type, gen.Value(*type), i % 2);
      for (size_t n = 0; n < encoded.size(); ++n) {
        std::string_view in(encoded.data(), n);
        EXPECT_THROW(ReadComparable(*type, i % 2, in), std::runtime_error) << type->ToCql();
      }
    }
  }
  // Garbage either decodes or throws std::runtime_error.
  std::mt19937_64 rng(3);
  for (const auto& type : KeyTypes()) {
    for (int i = 0; i < 300; ++i) {
      Bytes garbage(rng() % 24, '\0');
      for (char& c : garbage) c = static_cast<char>(rng());
      std::string_view in = garbage;
      try {
        (void)ReadComparable(*type, rng() % 2, in);
      } catch (const std::runtime_error&) {
      }
    }
  }
}

}  // namespace
}  // namespace sibyl::storage
