#include "fuzz/statements/value_generator.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "types/big_number.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::fuzz {
namespace {

using types::Kind;

Bytes RandomUuid(Choices& choices) {
  static const char* const kUuids[] = {
      "00000000-0000-0000-0000-000000000000", "550e8400-e29b-41d4-a716-446655440000",
      "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "ffffffff-ffff-ffff-ffff-ffffffffffff"};
  return types::EncodeUuid(*types::Uuid::Parse(choices.Pick(kUuids)));
}

Bytes RandomTimeUuid(Choices& choices) {
  // Version 1 UUIDs: a few times, a few nodes (ties on time are ordered by the rest).
  static const int64_t kTimes[] = {0x1E0000000000000, 0x1E0000000000001, 0x1EF000000000000};
  static const uint64_t kNodes[] = {0x8000000000000001ull, 0x8000000000000002ull};
  return types::EncodeUuid(types::Uuid::TimeBased(choices.Pick(kTimes), choices.Pick(kNodes)));
}

Bytes RandomCollection(const types::CqlType& type, Choices& choices, bool for_binding, int depth) {
  const size_t count = depth > 2 ? 0 : choices.Below(4);
  if (type.kind() == Kind::kMap) {
    std::vector<std::pair<Bytes, Bytes>> entries;
    for (size_t i = 0; i < count; ++i) {
      entries.emplace_back(RandomValue(*type.params()[0], choices, for_binding, depth + 1),
                           RandomValue(*type.params()[1], choices, for_binding, depth + 1));
    }
    return types::EncodeMap(entries);
  }
  std::vector<Bytes> elements;
  for (size_t i = 0; i < count; ++i) {
    elements.push_back(RandomValue(*type.params()[0], choices, for_binding, depth + 1));
  }
  return types::EncodeList(elements);
}

Bytes RandomComponents(const types::CqlType& type, Choices& choices, bool for_binding, int depth) {
  // Tuples and user types share the layout; a user type's value may stop
  // after any field (the rest are null), a tuple's may not.
  size_t count = type.params().size();
  if (type.kind() == Kind::kUdt && for_binding && choices.Percent(10)) {
    count = choices.Below(count + 1);
  }
  std::vector<Bytes> owned(count);
  std::vector<std::optional<BytesView>> components(count);
  for (size_t i = 0; i < count; ++i) {
    if (choices.Percent(20)) continue;  // null
    owned[i] = RandomValue(*type.params()[i], choices, for_binding, depth + 1);
    components[i] = owned[i];
  }
  return types::EncodeTuple(components);
}

}  // namespace

Bytes RandomValue(const types::CqlType& type, Choices& choices, bool for_binding, int depth) {
  switch (type.kind()) {
    case Kind::kAscii: {
      static const char* const kValues[] = {"", "a", "b", "ab", "it's", "Z"};
      return types::EncodeText(choices.Pick(kValues));
    }
    case Kind::kText: {
      static const char* const kValues[] = {"",    "a", "b",    "é", "ΎΔδϠ", "\xF0\x9F\x98\x80",
                                            "a b", "'", "\"q\""};
      return types::EncodeText(choices.Pick(kValues));
    }
    case Kind::kBigint:
    case Kind::kCounter: {
      static const int64_t kValues[] = {
          -1, 0, 1, 2, 3, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
      return types::EncodeBigint(choices.Pick(kValues));
    }
    case Kind::kInt: {
      static const int32_t kValues[] = {
          -1, 0, 1, 2, 3, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()};
      return types::EncodeInt(choices.Pick(kValues));
    }
    case Kind::kSmallint:
      return types::EncodeSmallint(static_cast<int16_t>(choices.Between(-2, 3)));
    case Kind::kTinyint:
      return types::EncodeTinyint(static_cast<int8_t>(choices.Pick({-128, -1, 0, 1, 2, 127})));
    case Kind::kBlob: {
      static const std::string kValues[] = {"", std::string(1, '\0'), "\x01", "\xff\x00", "ab"};
      return Bytes(choices.Pick(kValues));
    }
    case Kind::kBoolean:
      return types::EncodeBoolean(choices.Percent(50));
    case Kind::kDecimal: {
      static const char* const kValues[] = {"0", "1.5", "1.50", "-2", "100", "1E+3", "0.001"};
      return *types::ParseDecimal(choices.Pick(kValues));
    }
    case Kind::kDouble: {
      static const double kValues[] = {0.0,  -0.0,         1.5,
                                       -1.0, std::nan(""), std::numeric_limits<double>::infinity()};
      return types::EncodeDouble(choices.Pick(kValues));
    }
    case Kind::kFloat: {
      static const float kValues[] = {
          0.0f, -0.0f, 1.5f, -1.0f, std::nanf(""), -std::numeric_limits<float>::infinity()};
      return types::EncodeFloat(choices.Pick(kValues));
    }
    case Kind::kTimestamp: {
      static const int64_t kValues[] = {0, 1, -1000, 1700000000000};
      return types::EncodeTimestamp(choices.Pick(kValues));
    }
    case Kind::kUuid:
      return choices.Percent(50) ? RandomUuid(choices) : RandomTimeUuid(choices);
    case Kind::kTimeuuid:
      return RandomTimeUuid(choices);
    case Kind::kVarint: {
      if (for_binding && choices.Percent(10)) return Bytes("\x00\x01", 2);  // 1, not minimal
      static const char* const kValues[] = {"0", "1", "-1", "127", "128", "1180591620717411303424"};
      return *types::ParseVarint(choices.Pick(kValues));
    }
    case Kind::kInet: {
      static const char* const kValues[] = {"127.0.0.1", "::1", "10.0.0.1"};
      return types::EncodeInet(choices.Pick(kValues));
    }
    case Kind::kDate:
      return types::EncodeDate(static_cast<int32_t>(choices.Pick({0, 1, -1, 19000})));
    case Kind::kTime: {
      static const int64_t kValues[] = {0, 1, 86399999999999};
      return types::EncodeTime(choices.Pick(kValues));
    }
    case Kind::kDuration: {
      // All three parts share one sign.
      const int sign = choices.Percent(20) ? -1 : 1;
      return types::EncodeDuration(sign * static_cast<int32_t>(choices.Between(0, 2)),
                                   sign * static_cast<int32_t>(choices.Between(0, 1)),
                                   sign * choices.Between(0, 2) * 1000000000);
    }
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      return RandomCollection(type, choices, for_binding, depth);
    case Kind::kTuple:
    case Kind::kUdt:
      return RandomComponents(type, choices, for_binding, depth);
    case Kind::kVector: {
      std::vector<Bytes> elements;
      for (int32_t i = 0; i < type.vector_dimension(); ++i) {
        elements.push_back(RandomValue(*type.params()[0], choices, for_binding, depth + 1));
      }
      Bytes out;
      for (const Bytes& e : elements) out += e;  // fixed-size elements: no lengths
      return out;
    }
    case Kind::kCustom:
      break;
  }
  return Bytes();
}

Bytes GarbageValue(Choices& choices) {
  Bytes out;
  const size_t length = choices.Below(9);
  for (size_t i = 0; i < length; ++i) out.push_back(static_cast<char>(choices.Below(256)));
  return out;
}

}  // namespace sibyl::fuzz
