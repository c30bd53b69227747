#include "query/insert_json.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <string>

#include "common/error.h"
#include "types/literal.h"

namespace sibyl::query {
namespace {

// A parsed JSON value. Numbers keep their text, so no precision is lost
// before the column's type reads them.
struct JsonMember;

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  std::string text;  // bool ("true"/"false"), number, string
  std::vector<JsonValue> elements;
  // A vector of a type completed below (a pair of this incomplete type does
  // not compile with clang and libstdc++).
  std::vector<JsonMember> members;
};

struct JsonMember {
  std::string first;
  JsonValue second;
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view input) : in_(input) {}

  // Throws std::invalid_argument naming the problem.
  JsonValue ParseDocument() {
    JsonValue value = ParseValue(0);
    SkipSpace();
    if (pos_ != in_.size()) Fail("unexpected content after the JSON value");
    return value;
  }

 private:
  static constexpr int kMaxDepth = 256;

  [[noreturn]] void Fail(const std::string& what) const {
    throw std::invalid_argument(what + " at character " + std::to_string(pos_));
  }
  void SkipSpace() {
    while (pos_ < in_.size() && std::isspace(static_cast<unsigned char>(in_[pos_]))) ++pos_;
  }
  bool Consume(char c) {
    SkipSpace();
    if (pos_ < in_.size() && in_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void Expect(char c) {
    if (!Consume(c)) Fail(std::string("expected '") + c + "'");
  }
  // The whole (UTF-8) character at `at`, so a message never quotes half of one.
  std::string_view CharacterAt(size_t at) const {
    const auto lead = static_cast<unsigned char>(in_[at]);
    const size_t length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    return in_.substr(at, length);
  }
  bool ConsumeWord(std::string_view word) {
    if (in_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  JsonValue ParseValue(int depth) {
    if (depth > kMaxDepth) Fail("JSON nested too deeply");
    SkipSpace();
    if (pos_ >= in_.size()) Fail("unexpected end of input");
    JsonValue value;
    const char c = in_[pos_];
    if (c == '{') {
      ++pos_;
      value.kind = JsonValue::Kind::kObject;
      if (Consume('}')) return value;
      do {
        SkipSpace();
        if (pos_ >= in_.size() || in_[pos_] != '"') Fail("expected a string key");
        std::string key = ParseString();
        Expect(':');
        JsonValue member = ParseValue(depth + 1);
        // As a Java map: a repeated key keeps its last value.
        auto it = std::find_if(value.members.begin(), value.members.end(),
                               [&](const auto& m) { return m.first == key; });
        if (it != value.members.end()) {
          it->second = std::move(member);
        } else {
          value.members.push_back(JsonMember{std::move(key), std::move(member)});
        }
      } while (Consume(','));
      Expect('}');
    } else if (c == '[') {
      ++pos_;
      value.kind = JsonValue::Kind::kArray;
      if (Consume(']')) return value;
      do {
        value.elements.push_back(ParseValue(depth + 1));
      } while (Consume(','));
      Expect(']');
    } else if (c == '"') {
      value.kind = JsonValue::Kind::kString;
      value.text = ParseString();
    } else if (ConsumeWord("true") || ConsumeWord("false")) {
      value.kind = JsonValue::Kind::kBool;
      value.text = c == 't' ? "true" : "false";
    } else if (ConsumeWord("null")) {
      value.kind = JsonValue::Kind::kNull;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      value.kind = JsonValue::Kind::kNumber;
      const size_t start = pos_;
      if (in_[pos_] == '-') ++pos_;
      auto digits = [&] {
        const size_t from = pos_;
        while (pos_ < in_.size() && std::isdigit(static_cast<unsigned char>(in_[pos_]))) ++pos_;
        if (pos_ == from) Fail("malformed number");
      };
      digits();
      if (pos_ < in_.size() && in_[pos_] == '.') {
        ++pos_;
        digits();
      }
      if (pos_ < in_.size() && (in_[pos_] == 'e' || in_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < in_.size() && (in_[pos_] == '+' || in_[pos_] == '-')) ++pos_;
        digits();
      }
      value.text = std::string(in_.substr(start, pos_ - start));
    } else {
      Fail("unexpected character '" + std::string(CharacterAt(pos_)) + "'");
    }
    return value;
  }

  uint32_t ParseHex4() {
    if (pos_ + 4 > in_.size()) Fail("truncated \\u escape");
    uint32_t code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = in_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= uint32_t(h - 'A' + 10);
      else
        Fail("malformed \\u escape");
    }
    return code;
  }

  static void AppendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  // REQUIRES: in_[pos_] == '"'.
  std::string ParseString() {
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ >= in_.size()) Fail("unterminated string");
      const char c = in_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) Fail("control character in string");
      if (c != '\\') {
        out.push_back(c);
        continue;
      }
      if (pos_ >= in_.size()) Fail("unterminated string");
      const char e = in_[pos_++];
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u': {
          uint32_t code = ParseHex4();
          if (code >= 0xD800 && code < 0xDC00 && in_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            const uint32_t low = ParseHex4();
            if (low < 0xDC00 || low > 0xDFFF) Fail("malformed surrogate pair");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          AppendUtf8(out, code);
          break;
        }
        default:
          Fail(std::string("malformed escape \\") + e);
      }
    }
  }

  std::string_view in_;
  size_t pos_ = 0;
};

// Cassandra's Json.handleCaseSensitivity: "\"Name\"" keeps its case, others are lower-cased.
std::string ColumnKey(const std::string& key) {
  if (key.size() >= 2 && key.front() == '"' && key.back() == '"') {
    return key.substr(1, key.size() - 2);
  }
  std::string lower = key;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

bool IsTextType(types::Kind kind) {
  return kind == types::Kind::kText || kind == types::Kind::kAscii;
}

bool IsIntegral(types::Kind kind) {
  switch (kind) {
    case types::Kind::kInt:
    case types::Kind::kBigint:
    case types::Kind::kSmallint:
    case types::Kind::kTinyint:
    case types::Kind::kVarint:
    case types::Kind::kCounter:
      return true;
    default:
      return false;
  }
}

std::string KindName(JsonValue::Kind kind) {
  switch (kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return "Boolean";
    case JsonValue::Kind::kNumber:
      return "Number";
    case JsonValue::Kind::kString:
      return "String";
    case JsonValue::Kind::kArray:
      return "ArrayList";
    case JsonValue::Kind::kObject:
      return "LinkedHashMap";
  }
  return "value";
}

[[noreturn]] void Mismatch(const types::CqlType& type, const JsonValue& value) {
  throw std::invalid_argument("Expected a value of type " + type.ToCql() + ", but got a " +
                              KindName(value.kind));
}

JsonValue ReparseString(const JsonValue& value) {
  try {
    return JsonParser(value.text).ParseDocument();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("Could not decode JSON string '" + value.text + "': " + e.what());
  }
}

// The CQL literal a JSON value of `type` stands for (each type's fromJSONObject).
types::Literal ToLiteral(const JsonValue& value, const types::CqlType& type) {
  using types::ConstantKind;
  using types::Literal;
  using Kind = JsonValue::Kind;
  if (value.kind == Kind::kNull) return Literal::Null();
  const types::Kind kind = type.kind();
  const bool composite = type.is_collection() || kind == types::Kind::kTuple ||
                         kind == types::Kind::kUdt || kind == types::Kind::kVector;
  if (composite && value.kind == Kind::kString) return ToLiteral(ReparseString(value), type);

  auto elements_of = [&](const types::CqlType& element_type) {
    std::vector<Literal> out;
    for (const auto& e : value.elements) out.push_back(ToLiteral(e, element_type));
    return out;
  };
  switch (kind) {
    case types::Kind::kList:
    case types::Kind::kVector:
      if (value.kind != Kind::kArray) Mismatch(type, value);
      return Literal::Collection(Literal::Kind::kList, elements_of(*type.params()[0]));
    case types::Kind::kSet:
      if (value.kind != Kind::kArray) Mismatch(type, value);
      return Literal::Collection(Literal::Kind::kSet, elements_of(*type.params()[0]));
    case types::Kind::kTuple: {
      if (value.kind != Kind::kArray) Mismatch(type, value);
      if (value.elements.size() > type.params().size()) {
        throw std::invalid_argument("Tuple contains extra items (expected " +
                                    std::to_string(type.params().size()) + ")");
      }
      std::vector<Literal> out;
      for (size_t i = 0; i < value.elements.size(); ++i) {
        out.push_back(ToLiteral(value.elements[i], *type.params()[i]));
      }
      return Literal::Collection(Literal::Kind::kTuple, std::move(out));
    }
    case types::Kind::kMap: {
      if (value.kind != Kind::kObject) Mismatch(type, value);
      const types::CqlType& key_type = *type.params()[0];
      std::vector<Literal> out;
      for (const auto& [key, mapped] : value.members) {
        JsonValue key_value;
        key_value.kind = Kind::kString;
        key_value.text = key;
        // Keys of non-text types are written as JSON inside the key string.
        out.push_back(ToLiteral(IsTextType(key_type.kind()) ? key_value : ReparseString(key_value),
                                key_type));
        out.push_back(ToLiteral(mapped, *type.params()[1]));
      }
      return Literal::Collection(Literal::Kind::kMap, std::move(out));
    }
    case types::Kind::kUdt: {
      if (value.kind != Kind::kObject) Mismatch(type, value);
      std::vector<std::string> names;
      std::vector<Literal> out;
      for (const auto& [key, field] : value.members) {
        const std::string name = ColumnKey(key);
        const auto& fields = type.field_names();
        auto it = std::find(fields.begin(), fields.end(), name);
        if (it == fields.end()) {
          throw std::invalid_argument("Unknown field '" + name +
                                      "' in value of user defined type " + type.udt_name());
        }
        names.push_back(name);
        out.push_back(ToLiteral(field, *type.params()[size_t(it - fields.begin())]));
      }
      return Literal::Udt(std::move(names), std::move(out));
    }
    default:
      break;
  }
  // Native types: numbers, strings and booleans map onto CQL constants.
  if (value.kind == Kind::kArray || value.kind == Kind::kObject) Mismatch(type, value);
  if (IsTextType(kind)) {
    if (value.kind != Kind::kString) {
      throw std::invalid_argument("Expected a UTF-8 string, but got a " + KindName(value.kind) +
                                  ": " + value.text);
    }
    return Literal::Constant(ConstantKind::kString, value.text);
  }
  if (kind == types::Kind::kBoolean) {
    std::string text = value.text;
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (text != "true" && text != "false") {
      throw std::invalid_argument("Unable to make boolean from '" + value.text + "'");
    }
    return Literal::Constant(ConstantKind::kBoolean, text);
  }
  if (kind == types::Kind::kBlob) {
    if (value.kind != Kind::kString) Mismatch(type, value);
    if (value.text.rfind("0x", 0) != 0) {
      throw std::invalid_argument("String representation of blob is missing 0x prefix: " +
                                  value.text);
    }
    return Literal::Constant(ConstantKind::kHex, value.text);
  }
  if (kind == types::Kind::kUuid || kind == types::Kind::kTimeuuid) {
    if (value.kind != Kind::kString) Mismatch(type, value);
    return Literal::Constant(ConstantKind::kUuid, value.text);
  }
  if (kind == types::Kind::kDuration) {
    if (value.kind != Kind::kString) Mismatch(type, value);
    return Literal::Constant(ConstantKind::kDuration, value.text);
  }
  if (IsIntegral(kind) || kind == types::Kind::kFloat || kind == types::Kind::kDouble ||
      kind == types::Kind::kDecimal) {
    // Numbers, or strings holding one.
    const std::string& text = value.text;
    const bool integral = text.find_first_of(".eE") == std::string::npos;
    if (value.kind == Kind::kString &&
        (text == "NaN" || text == "Infinity" || text == "-Infinity")) {
      return Literal::Constant(ConstantKind::kFloat, text);
    }
    if (value.kind == Kind::kBool) Mismatch(type, value);
    return Literal::Constant(integral ? ConstantKind::kInteger : ConstantKind::kFloat, text);
  }
  // timestamp, date, time, inet: a string in CQL's form, or a number (timestamps in ms).
  if (value.kind == Kind::kNumber) return Literal::Constant(ConstantKind::kInteger, value.text);
  if (value.kind != Kind::kString) Mismatch(type, value);
  return Literal::Constant(ConstantKind::kString, value.text);
}

}  // namespace

JsonColumnValues ParseInsertJson(std::string_view json, const schema::TableMetadata& table) {
  JsonValue document;
  try {
    document = JsonParser(json).ParseDocument();
  } catch (const std::invalid_argument& e) {
    ThrowInvalid(std::string("Could not decode JSON string as a map: ") + e.what());
  }
  if (document.kind == JsonValue::Kind::kNull) ThrowInvalid("Got null for INSERT JSON values");
  if (document.kind != JsonValue::Kind::kObject) {
    ThrowInvalid("Could not decode JSON string as a map: not a JSON object");
  }
  JsonColumnValues out;
  out.values.resize(table.columns.size());
  out.present.resize(table.columns.size(), false);
  const int64_t now_millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
  for (const auto& [key, value] : document.members) {
    const std::string name = ColumnKey(key);
    const int index = table.ColumnIndex(name);
    if (index < 0) ThrowInvalid("JSON values map contains unrecognized column: " + name);
    const schema::ColumnMetadata& column = table.columns[static_cast<size_t>(index)];
    out.present[size_t(index)] = true;
    if (value.kind == JsonValue::Kind::kNull) continue;
    try {
      out.values[size_t(index)] = types::ConvertLiteral(ToLiteral(value, *column.type), column.name,
                                                        *column.type, now_millis);
    } catch (const std::invalid_argument& e) {
      ThrowInvalid("Error decoding JSON value for " + column.name + ": " + e.what());
    } catch (const CqlError& e) {
      ThrowInvalid("Error decoding JSON value for " + column.name + ": " + e.what());
    }
  }
  return out;
}

std::optional<Bytes> ParseJsonValue(std::string_view json, const types::CqlType& type) {
  JsonValue value;
  try {
    value = JsonParser(json).ParseDocument();
  } catch (const std::invalid_argument& e) {
    throw JsonValueError(JsonValueError::Kind::kSyntax, e.what());
  }
  if (value.kind == JsonValue::Kind::kNull) return std::nullopt;
  const int64_t now_millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
  try {
    return types::ConvertLiteral(ToLiteral(value, type), "fromjson", type, now_millis);
  } catch (const std::invalid_argument& e) {
    throw JsonValueError(JsonValueError::Kind::kConversion, e.what());
  } catch (const CqlError& e) {
    throw JsonValueError(JsonValueError::Kind::kConversion, e.what());
  }
}

}  // namespace sibyl::query
