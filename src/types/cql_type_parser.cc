// ParseCqlType: the CQL spelling of a type back into a CqlType.
//
// Two passes, as Cassandra does it: the text is parsed into a raw tree
// (CQL3Type.Raw: what was written, frozen<> applied), then the raw tree is
// checked and turned into types (Raw.prepare), so the errors and their
// wording match Cassandra's.

#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "types/cql_identifier.h"
#include "types/cql_type.h"

namespace sibyl::types {
namespace {

// Deeper nesting than any real schema; a bound keeps hostile input from
// exhausting the stack.
constexpr int kMaxDepth = 64;

struct NativeSpelling {
  const char* name;
  Kind kind;
};

constexpr NativeSpelling kNativeSpellings[] = {
    {"ascii", Kind::kAscii},         {"bigint", Kind::kBigint},     {"blob", Kind::kBlob},
    {"boolean", Kind::kBoolean},     {"counter", Kind::kCounter},   {"date", Kind::kDate},
    {"decimal", Kind::kDecimal},     {"double", Kind::kDouble},     {"duration", Kind::kDuration},
    {"float", Kind::kFloat},         {"inet", Kind::kInet},         {"int", Kind::kInt},
    {"smallint", Kind::kSmallint},   {"text", Kind::kText},         {"time", Kind::kTime},
    {"timestamp", Kind::kTimestamp}, {"timeuuid", Kind::kTimeuuid}, {"tinyint", Kind::kTinyint},
    {"uuid", Kind::kUuid},           {"varchar", Kind::kText},      {"varint", Kind::kVarint},
};

enum class RawKind { kNative, kList, kSet, kMap, kTuple, kUdt, kVector, kCustom };

// What the text said, before validation (Cassandra's CQL3Type.Raw).
struct RawType {
  RawKind raw_kind = RawKind::kNative;
  Kind native = Kind::kCustom;
  std::string spelling;  // native name as written (lower case) or custom class
  bool frozen = false;
  std::vector<RawType> params;
  std::string keyspace;   // UDT
  std::string name;       // UDT
  int64_t dimension = 0;  // vector

  bool SupportsFreezing() const {
    return raw_kind != RawKind::kNative && raw_kind != RawKind::kCustom;
  }
  bool IsCounter() const { return raw_kind == RawKind::kNative && native == Kind::kCounter; }
  bool IsDuration() const { return raw_kind == RawKind::kNative && native == Kind::kDuration; }
};

// The raw tree as Cassandra's Raw.toString() writes it, for error messages.
void AppendRaw(std::string& out, const RawType& raw) {
  auto collection = [&](const char* name) {
    if (raw.frozen) out.append("frozen<");
    out.append(name).push_back('<');
    for (size_t i = 0; i < raw.params.size(); ++i) {
      if (i > 0) out.append(", ");
      AppendRaw(out, raw.params[i]);
    }
    out.push_back('>');
    if (raw.frozen) out.push_back('>');
  };
  switch (raw.raw_kind) {
    case RawKind::kNative:
      out.append(raw.spelling);
      break;
    case RawKind::kCustom:
      out.append("'").append(raw.spelling).append("'");
      break;
    case RawKind::kList:
      collection("list");
      break;
    case RawKind::kSet:
      collection("set");
      break;
    case RawKind::kMap:
      collection("map");
      break;
    case RawKind::kTuple:
      out.append("tuple<");
      for (size_t i = 0; i < raw.params.size(); ++i) {
        if (i > 0) out.append(", ");
        AppendRaw(out, raw.params[i]);
      }
      out.push_back('>');
      break;
    case RawKind::kUdt:
      if (raw.frozen) out.append("frozen<");
      if (!raw.keyspace.empty()) out.append(raw.keyspace).push_back('.');
      out.append(raw.name);
      if (raw.frozen) out.push_back('>');
      break;
    case RawKind::kVector:
      out.append("vector<");
      AppendRaw(out, raw.params[0]);
      out.append(", ").append(std::to_string(raw.dimension)).push_back('>');
      break;
  }
}

std::string RawToString(const RawType& raw) {
  std::string out;
  AppendRaw(out, raw);
  return out;
}

// Raw.freeze(): collections freeze what they hold, UDTs are marked, tuples and
// vectors are frozen already; anything else cannot be frozen.
void Freeze(RawType& raw) {
  switch (raw.raw_kind) {
    case RawKind::kList:
    case RawKind::kSet:
    case RawKind::kMap:
      for (auto& param : raw.params) {
        if (param.SupportsFreezing()) Freeze(param);
      }
      raw.frozen = true;
      break;
    case RawKind::kUdt:
      raw.frozen = true;
      break;
    case RawKind::kTuple:
    case RawKind::kVector:
      break;
    case RawKind::kNative:
    case RawKind::kCustom:
      ThrowInvalid("frozen<> is only allowed on collections, tuples, and user-defined types (got " +
                   RawToString(raw) + ")");
  }
}

class TypeTextParser {
 public:
  explicit TypeTextParser(std::string_view text) : text_(text) {}

  RawType ParseWhole() {
    RawType raw = ParseType(0);
    SkipSpace();
    if (pos_ != text_.size()) Fail("unexpected text after the type");
    return raw;
  }

 private:
  [[noreturn]] void Fail(const std::string& why) {
    throw CqlError(ErrorCode::kSyntaxError, "Invalid type '" + std::string(text_) + "': " + why +
                                                " at character " + std::to_string(pos_ + 1));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  void Expect(char c) {
    if (!Peek(c)) Fail(std::string("expected '") + c + "'");
    ++pos_;
  }

  struct Identifier {
    std::string name;
    bool quoted = false;
  };

  // An identifier: unquoted names fold to lower case, "quoted" ones keep
  // their case with "" standing for one quote.
  Identifier ParseIdentifier() {
    SkipSpace();
    if (pos_ >= text_.size()) Fail("expected a type");
    std::string name;
    if (text_[pos_] == '"') {
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) Fail("unterminated quoted name");
        const char c = text_[pos_++];
        if (c == '"') {
          if (pos_ < text_.size() && text_[pos_] == '"') {
            name.push_back('"');
            ++pos_;
            continue;
          }
          break;
        }
        name.push_back(c);
      }
      if (name.empty()) Fail("empty quoted name");
      return {std::move(name), true};
    }
    if (!std::isalpha(static_cast<unsigned char>(text_[pos_]))) Fail("expected a type");
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_]))));
      ++pos_;
    }
    return {std::move(name), false};
  }

  int64_t ParseDimension() {
    SkipSpace();
    const size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    int64_t value = 0;
    bool any = false;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_] - '0');
      if (value > INT32_MAX) Fail("vector dimension too large");
      any = true;
      ++pos_;
    }
    if (!any) Fail("expected the vector dimension");
    return text_[start] == '-' ? -value : value;
  }

  std::string ParseStringLiteral() {
    ++pos_;  // opening quote
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) Fail("unterminated string");
      const char c = text_[pos_++];
      if (c == '\'') {
        if (pos_ < text_.size() && text_[pos_] == '\'') {
          value.push_back('\'');
          ++pos_;
          continue;
        }
        return value;
      }
      value.push_back(c);
    }
  }

  RawType ParseType(int depth) {
    if (depth > kMaxDepth) Fail("type nested too deeply");
    SkipSpace();
    RawType raw;
    if (pos_ < text_.size() && text_[pos_] == '\'') {
      raw.raw_kind = RawKind::kCustom;
      raw.spelling = ParseStringLiteral();
      return raw;
    }
    auto [word, quoted] = ParseIdentifier();
    if (!quoted) {
      if (word == "frozen") {
        Expect('<');
        raw = ParseType(depth + 1);
        Expect('>');
        Freeze(raw);
        return raw;
      }
      if (word == "list" || word == "set") {
        raw.raw_kind = word == "list" ? RawKind::kList : RawKind::kSet;
        Expect('<');
        raw.params.push_back(ParseType(depth + 1));
        Expect('>');
        return raw;
      }
      if (word == "map") {
        raw.raw_kind = RawKind::kMap;
        Expect('<');
        raw.params.push_back(ParseType(depth + 1));
        Expect(',');
        raw.params.push_back(ParseType(depth + 1));
        Expect('>');
        return raw;
      }
      if (word == "tuple") {
        raw.raw_kind = RawKind::kTuple;
        raw.frozen = true;
        Expect('<');
        while (true) {
          raw.params.push_back(ParseType(depth + 1));
          // Tuples are implicitly frozen and freeze what they hold.
          if (raw.params.back().SupportsFreezing()) Freeze(raw.params.back());
          if (!Peek(',')) break;
          ++pos_;
        }
        Expect('>');
        return raw;
      }
      if (word == "vector") {
        raw.raw_kind = RawKind::kVector;
        raw.frozen = true;
        Expect('<');
        raw.params.push_back(ParseType(depth + 1));
        Expect(',');
        raw.dimension = ParseDimension();
        Expect('>');
        return raw;
      }
      for (const auto& native : kNativeSpellings) {
        if (word == native.name) {
          raw.native = native.kind;
          raw.spelling = word;
          return raw;
        }
      }
      if (IsReservedKeyword(word)) Fail("'" + word + "' is a reserved keyword, not a type");
    }
    // A user type, possibly qualified by its keyspace.
    raw.raw_kind = RawKind::kUdt;
    raw.name = std::move(word);
    if (Peek('.')) {
      ++pos_;
      raw.keyspace = std::move(raw.name);
      auto type_name = ParseIdentifier();
      raw.name = std::move(type_name.name);
      if (!type_name.quoted && IsReservedKeyword(raw.name)) {
        Fail("'" + raw.name + "' is a reserved keyword, not a type");
      }
    }
    return raw;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

void ThrowNestedNonFrozen(const RawType& collection, const RawType& inner) {
  const char* what = inner.raw_kind == RawKind::kUdt ? "UDTs" : "collections";
  ThrowInvalid(std::string("Non-frozen ") + what +
               " are not allowed inside collections: " + RawToString(collection));
}

// Raw.prepare(): Cassandra's checks, in Cassandra's order, then the type.
TypePtr Prepare(const RawType& raw) {
  switch (raw.raw_kind) {
    case RawKind::kNative:
      return CqlType::Native(raw.native);
    case RawKind::kCustom:
      return CqlType::Custom(raw.spelling);
    case RawKind::kUdt:
      return CqlType::Udt(raw.keyspace, raw.name, {}, {}, raw.frozen);
    case RawKind::kTuple: {
      std::vector<TypePtr> elements;
      for (const auto& element : raw.params) {
        if (element.IsCounter()) ThrowInvalid("Counters are not allowed inside tuples");
        elements.push_back(Prepare(element));
      }
      return CqlType::Tuple(std::move(elements));
    }
    case RawKind::kVector: {
      TypePtr element = Prepare(raw.params[0]);
      if (raw.dimension <= 0) {
        ThrowInvalid("vectors may only have positive dimensions; given " +
                     std::to_string(raw.dimension));
      }
      return CqlType::Vector(std::move(element), static_cast<int32_t>(raw.dimension));
    }
    case RawKind::kList:
    case RawKind::kSet:
    case RawKind::kMap:
      break;
  }
  const RawType& values = raw.params.back();
  const RawType* keys = raw.raw_kind == RawKind::kMap ? &raw.params[0] : nullptr;
  if (!raw.frozen && values.SupportsFreezing() && !values.frozen) {
    ThrowNestedNonFrozen(raw, values);
  }
  if (values.IsCounter()) {
    ThrowInvalid("Counters are not allowed inside collections: " + RawToString(raw));
  }
  if (values.IsDuration() && raw.raw_kind == RawKind::kSet) {
    ThrowInvalid("Durations are not allowed inside sets: " + RawToString(raw));
  }
  if (keys != nullptr) {
    if (keys->IsCounter()) {
      ThrowInvalid("Counters are not allowed inside collections: " + RawToString(raw));
    }
    if (keys->IsDuration()) {
      ThrowInvalid("Durations are not allowed as map keys: " + RawToString(raw));
    }
    if (!raw.frozen && keys->SupportsFreezing() && !keys->frozen) {
      ThrowNestedNonFrozen(raw, *keys);
    }
  }
  TypePtr value_type = Prepare(values);
  switch (raw.raw_kind) {
    case RawKind::kList:
      return CqlType::List(std::move(value_type), raw.frozen);
    case RawKind::kSet:
      return CqlType::Set(std::move(value_type), raw.frozen);
    default:
      return CqlType::Map(Prepare(*keys), std::move(value_type), raw.frozen);
  }
}

}  // namespace

TypePtr ParseCqlType(std::string_view text) {
  TypeTextParser parser(text);
  return Prepare(parser.ParseWhole());
}

}  // namespace sibyl::types
