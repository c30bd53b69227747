#include "types/json_to_value.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "common/check.h"
#include "common/error.h"
#include "types/literal.h"

namespace sibyl::types {

std::string JsonKeyName(const std::string& key) {
  if (key.size() >= 2 && key.front() == '"' && key.back() == '"') {
    return key.substr(1, key.size() - 2);
  }
  std::string lower = key;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower;
}

namespace {

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
    return ParseJsonDocument(value.text);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("Could not decode JSON string '" + value.text + "': " + e.what());
  }
}

Literal ToLiteral(const JsonValue& value, const CqlType& type);

// Collections, tuples, UDTs and vectors: a JSON array or object.
Literal CompositeLiteral(const JsonValue& value, const CqlType& type) {
  using Kind = JsonValue::Kind;
  auto elements_of = [&](const types::CqlType& element_type) {
    std::vector<Literal> out;
    for (const auto& e : value.elements) out.push_back(ToLiteral(e, element_type));
    return out;
  };
  switch (type.kind()) {
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
        const std::string name = JsonKeyName(key);
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
      SIBYL_CHECK(false, "not a composite type: " + type.ToCql());
  }
}

// Native types: numbers, strings and booleans map onto CQL constants.
Literal NativeLiteral(const JsonValue& value, const CqlType& type) {
  using Kind = JsonValue::Kind;
  const types::Kind kind = type.kind();
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

// The CQL literal a JSON value of `type` stands for (each type's fromJSONObject).
Literal ToLiteral(const JsonValue& value, const CqlType& type) {
  if (value.kind == JsonValue::Kind::kNull) return Literal::Null();
  const types::Kind kind = type.kind();
  const bool composite = type.is_collection() || kind == types::Kind::kTuple ||
                         kind == types::Kind::kUdt || kind == types::Kind::kVector;
  if (!composite) return NativeLiteral(value, type);
  // A string holding JSON stands for its content.
  if (value.kind == JsonValue::Kind::kString) return ToLiteral(ReparseString(value), type);
  return CompositeLiteral(value, type);
}

int64_t NowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::optional<Bytes> JsonToValue(const JsonValue& value, const CqlType& type,
                                 std::string_view receiver) {
  try {
    return ConvertLiteral(ToLiteral(value, type), std::string(receiver), type, NowMillis());
  } catch (const std::invalid_argument& e) {
    throw JsonValueError(JsonValueError::Kind::kConversion, e.what());
  } catch (const CqlError& e) {
    throw JsonValueError(JsonValueError::Kind::kConversion, e.what());
  }
}

std::optional<Bytes> ParseJsonValue(std::string_view json, const CqlType& type) {
  JsonValue value;
  try {
    value = ParseJsonDocument(json);
  } catch (const std::invalid_argument& e) {
    throw JsonValueError(JsonValueError::Kind::kSyntax, e.what());
  }
  if (value.kind == JsonValue::Kind::kNull) return std::nullopt;
  return JsonToValue(value, type, "fromjson");
}

}  // namespace sibyl::types
