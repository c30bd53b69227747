#include "query/literal.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "common/error.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using types::Kind;

// Cassandra's names for the constant kinds (Constants.Type).
const char* ConstantKindName(cql::Term::Kind kind) {
  switch (kind) {
    case cql::Term::Kind::kString:
      return "STRING";
    case cql::Term::Kind::kInteger:
      return "INTEGER";
    case cql::Term::Kind::kFloat:
      return "FLOAT";
    case cql::Term::Kind::kBoolean:
      return "BOOLEAN";
    case cql::Term::Kind::kUuid:
      return "UUID";
    case cql::Term::Kind::kBlob:
      return "HEX";
    case cql::Term::Kind::kDuration:
      return "DURATION";
    default:
      return "UNKNOWN";
  }
}

[[noreturn]] void ThrowNotAssignable(const cql::Term& term, std::string_view receiver,
                                     const types::CqlType& type) {
  ThrowInvalid("Invalid " + std::string(ConstantKindName(term.kind)) + " constant (" + term.text +
               ") for \"" + std::string(receiver) + "\" of type " + type.ToCql());
}

[[noreturn]] void ThrowNotYet(std::string_view what, const types::CqlType& type) {
  ThrowInvalid(std::string(what) + " literals for type " + type.ToCql() +
               " are not supported by Sibyl yet");
}

// Parses a decimal integer into [min, max]; Cassandra's message names the Java type.
int64_t ParseInteger(const std::string& text, int64_t min, int64_t max, const char* java_name) {
  int64_t value = 0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) {
    ThrowInvalid("Unable to make " + std::string(java_name) + " from '" + text + "'");
  }
  return value;
}

// A decimal integer of any size as varint's minimal two's-complement big-endian bytes.
Bytes VarintFromDecimal(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == text.size()) ThrowInvalid("Unable to make integer from '" + text + "'");
  std::vector<uint8_t> magnitude{0};  // big-endian
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') ThrowInvalid("Unable to make integer from '" + text + "'");
    unsigned carry = static_cast<unsigned>(text[i] - '0');
    for (auto it = magnitude.rbegin(); it != magnitude.rend(); ++it) {
      unsigned v = *it * 10u + carry;
      *it = static_cast<uint8_t>(v);
      carry = v >> 8;
    }
    if (carry != 0) magnitude.insert(magnitude.begin(), static_cast<uint8_t>(carry));
  }
  // Room for the sign bit.
  if (magnitude.front() & 0x80) magnitude.insert(magnitude.begin(), 0);
  if (negative) {
    // Two's complement: invert and add one.
    for (auto& b : magnitude) b = static_cast<uint8_t>(~b);
    for (auto it = magnitude.rbegin(); it != magnitude.rend(); ++it) {
      if (++*it != 0) break;
    }
  }
  // Minimal form: drop leading bytes that only repeat the sign.
  size_t start = 0;
  while (start + 1 < magnitude.size() &&
         ((magnitude[start] == 0x00 && !(magnitude[start + 1] & 0x80)) ||
          (magnitude[start] == 0xFF && (magnitude[start + 1] & 0x80)))) {
    ++start;
  }
  return Bytes(reinterpret_cast<const char*>(magnitude.data()) + start, magnitude.size() - start);
}

double ParseFloating(const std::string& text, const char* java_name) {
  errno = 0;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size()) {
    ThrowInvalid("Unable to make " + std::string(java_name) + " from '" + text + "'");
  }
  return value;
}

Bytes HexToBytes(const std::string& literal) {
  // The literal is written 0x...; Cassandra reports the digits alone.
  std::string digits = literal.size() >= 2 ? literal.substr(2) : std::string();
  if (digits.size() % 2 != 0) ThrowInvalid("cannot parse '" + digits + "' as hex bytes");
  Bytes out;
  out.reserve(digits.size() / 2);
  auto nibble = [&](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    ThrowInvalid("cannot parse '" + digits + "' as hex bytes");
  };
  for (size_t i = 0; i < digits.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(digits[i]) << 4 | nibble(digits[i + 1])));
  }
  return out;
}

Bytes ConvertConstant(const cql::Term& term, std::string_view receiver,
                      const types::CqlType& type) {
  using TK = cql::Term::Kind;
  const Kind kind = type.kind();
  switch (term.kind) {
    case TK::kString:
      switch (kind) {
        case Kind::kText:
          return types::EncodeText(term.text);
        case Kind::kAscii: {
          Bytes value = types::EncodeText(term.text);
          types::Validate(type, value);
          return value;
        }
        case Kind::kInet:
          try {
            return types::EncodeInet(term.text);
          } catch (const CqlError&) {
            ThrowInvalid("Unable to make inet address from '" + term.text + "'");
          }
        case Kind::kDate:
        case Kind::kTime:
        case Kind::kTimestamp:
          ThrowNotYet("String", type);
        default:
          ThrowNotAssignable(term, receiver, type);
      }
    case TK::kInteger:
      switch (kind) {
        case Kind::kInt:
          return types::EncodeInt(
              static_cast<int32_t>(ParseInteger(term.text, std::numeric_limits<int32_t>::min(),
                                                std::numeric_limits<int32_t>::max(), "int")));
        case Kind::kBigint:
        case Kind::kCounter:
          return types::EncodeBigint(ParseInteger(term.text, std::numeric_limits<int64_t>::min(),
                                                  std::numeric_limits<int64_t>::max(), "long"));
        case Kind::kSmallint:
          return types::EncodeSmallint(
              static_cast<int16_t>(ParseInteger(term.text, -32768, 32767, "short")));
        case Kind::kTinyint:
          return types::EncodeTinyint(
              static_cast<int8_t>(ParseInteger(term.text, -128, 127, "byte")));
        case Kind::kVarint:
          return VarintFromDecimal(term.text);
        case Kind::kTimestamp:
          return types::EncodeTimestamp(ParseInteger(term.text, std::numeric_limits<int64_t>::min(),
                                                     std::numeric_limits<int64_t>::max(), "long"));
        case Kind::kDouble:
          return types::EncodeDouble(ParseFloating(term.text, "double"));
        case Kind::kFloat:
          return types::EncodeFloat(static_cast<float>(ParseFloating(term.text, "float")));
        case Kind::kDate:
        case Kind::kTime:
        case Kind::kDecimal:
        case Kind::kDuration:
          ThrowNotYet("Integer", type);
        default:
          ThrowNotAssignable(term, receiver, type);
      }
    case TK::kFloat:
      switch (kind) {
        case Kind::kDouble:
          return types::EncodeDouble(ParseFloating(term.text, "double"));
        case Kind::kFloat:
          return types::EncodeFloat(static_cast<float>(ParseFloating(term.text, "float")));
        case Kind::kDecimal:
          ThrowNotYet("Floating-point", type);
        default:
          ThrowNotAssignable(term, receiver, type);
      }
    case TK::kBoolean:
      if (kind != Kind::kBoolean) ThrowNotAssignable(term, receiver, type);
      return types::EncodeBoolean(term.text == "true" || term.text == "TRUE" ||
                                  term.text == "True");
    case TK::kUuid: {
      if (kind != Kind::kUuid && kind != Kind::kTimeuuid) ThrowNotAssignable(term, receiver, type);
      auto uuid = types::Uuid::Parse(term.text);
      if (!uuid) ThrowInvalid("Unable to make UUID from '" + term.text + "'");
      Bytes value = types::EncodeUuid(*uuid);
      types::Validate(type, value);  // a timeuuid must be a version 1 UUID
      return value;
    }
    case TK::kBlob:
      if (kind != Kind::kBlob) ThrowNotAssignable(term, receiver, type);
      return HexToBytes(term.text);
    case TK::kDuration:
      if (kind != Kind::kDuration) ThrowNotAssignable(term, receiver, type);
      ThrowNotYet("Duration", type);
    default:
      break;
  }
  ThrowInvalid("Unsupported literal for " + std::string(receiver));
}

std::string ElementReceiver(const char* role, std::string_view receiver) {
  return std::string(role) + "(" + std::string(receiver) + ")";
}

Bytes ConvertElement(const cql::Term& element, const std::string& receiver,
                     const types::CqlType& type) {
  if (element.kind == cql::Term::Kind::kNull) {
    ThrowInvalid("null is not supported inside collections");
  }
  if (element.kind == cql::Term::Kind::kBindMarker) {
    ThrowInvalid("Bind markers inside collection literals are not supported by Sibyl yet");
  }
  return ConvertLiteral(element, receiver, type);
}

// Sorts serialized elements in their type's order and drops duplicates, as
// sets and map keys are serialized.
void SortDistinct(std::vector<Bytes>& elements, const types::CqlType& type) {
  std::stable_sort(elements.begin(), elements.end(),
                   [&](const Bytes& a, const Bytes& b) { return types::Compare(type, a, b) < 0; });
  elements.erase(
      std::unique(elements.begin(), elements.end(),
                  [&](const Bytes& a, const Bytes& b) { return types::Compare(type, a, b) == 0; }),
      elements.end());
}

Bytes ConvertMap(const cql::Term& term, std::string_view receiver, const types::CqlType& type) {
  const auto& key_type = *type.params()[0];
  const auto& value_type = *type.params()[1];
  const std::string key_receiver = ElementReceiver("key", receiver);
  const std::string value_receiver = ElementReceiver("value", receiver);
  std::vector<std::pair<Bytes, Bytes>> entries;
  for (size_t i = 0; i + 1 < term.elements.size(); i += 2) {
    entries.emplace_back(ConvertElement(term.elements[i], key_receiver, key_type),
                         ConvertElement(term.elements[i + 1], value_receiver, value_type));
  }
  // Sorted by key; for a repeated key the last entry wins, as in Cassandra's TreeMap.
  std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    return types::Compare(key_type, a.first, b.first) < 0;
  });
  std::vector<std::pair<Bytes, Bytes>> distinct;
  for (auto& entry : entries) {
    if (!distinct.empty() && types::Compare(key_type, distinct.back().first, entry.first) == 0) {
      distinct.back() = std::move(entry);
    } else {
      distinct.push_back(std::move(entry));
    }
  }
  return types::EncodeMap(distinct);
}

Bytes ConvertTuple(const cql::Term& term, std::string_view receiver, const types::CqlType& type) {
  const auto& element_types = type.params();
  if (term.elements.size() > element_types.size()) {
    ThrowInvalid("Invalid tuple literal for " + std::string(receiver) +
                 ": too many elements. Type " + type.ToCql() + " expects " +
                 std::to_string(element_types.size()) + " but got " +
                 std::to_string(term.elements.size()));
  }
  Bytes out;
  for (size_t i = 0; i < element_types.size(); ++i) {
    if (i >= term.elements.size() || term.elements[i].kind == cql::Term::Kind::kNull) {
      AppendBE32(out, static_cast<uint32_t>(-1));
      continue;
    }
    if (term.elements[i].kind == cql::Term::Kind::kBindMarker) {
      ThrowInvalid("Bind markers inside tuple literals are not supported by Sibyl yet");
    }
    Bytes element = ConvertLiteral(
        term.elements[i], std::string(receiver) + "[" + std::to_string(i) + "]", *element_types[i]);
    AppendBE32(out, static_cast<uint32_t>(element.size()));
    out += element;
  }
  return out;
}

}  // namespace

Bytes ConvertLiteral(const cql::Term& term, std::string_view receiver, const types::CqlType& type) {
  using TK = cql::Term::Kind;
  const Kind kind = type.kind();
  switch (term.kind) {
    case TK::kList: {
      if (kind == Kind::kVector) ThrowNotYet("Vector", type);
      if (kind != Kind::kList) {
        ThrowInvalid("Invalid list literal for " + std::string(receiver) + " of type " +
                     type.ToCql());
      }
      std::vector<Bytes> elements;
      const std::string element_receiver = ElementReceiver("value", receiver);
      for (const auto& e : term.elements) {
        elements.push_back(ConvertElement(e, element_receiver, *type.params()[0]));
      }
      return types::EncodeList(elements);
    }
    case TK::kSet: {
      if (kind == Kind::kMap && term.elements.empty()) return types::EncodeMap({});
      if (kind != Kind::kSet) {
        ThrowInvalid("Invalid set literal for " + std::string(receiver) + " of type " +
                     type.ToCql());
      }
      std::vector<Bytes> elements;
      const std::string element_receiver = ElementReceiver("value", receiver);
      for (const auto& e : term.elements) {
        elements.push_back(ConvertElement(e, element_receiver, *type.params()[0]));
      }
      SortDistinct(elements, *type.params()[0]);
      return types::EncodeList(elements);
    }
    case TK::kMap: {
      if (kind == Kind::kSet && term.elements.empty()) return types::EncodeList({});
      if (kind != Kind::kMap) {
        ThrowInvalid("Invalid map literal for " + std::string(receiver) + " of type " +
                     type.ToCql());
      }
      return ConvertMap(term, receiver, type);
    }
    case TK::kTuple:
      if (kind != Kind::kTuple) {
        ThrowInvalid("Invalid tuple type literal for " + std::string(receiver) + " of type " +
                     type.ToCql());
      }
      return ConvertTuple(term, receiver, type);
    case TK::kUdt:
      ThrowInvalid("User type literals are not supported by Sibyl yet");
    case TK::kFunctionCall:
      ThrowInvalid("Function calls in terms (" + term.text + ") are not supported by Sibyl yet");
    case TK::kTypeHint:
      ThrowInvalid("Type hints in terms are not supported by Sibyl yet");
    case TK::kArithmetic:
    case TK::kNegation:
      ThrowInvalid("Arithmetic in terms is not supported by Sibyl yet");
    case TK::kCast:
      ThrowInvalid("CAST in terms is not supported by Sibyl yet");
    case TK::kNull:
    case TK::kBindMarker:
      ThrowInvalid("Invalid null or bind marker literal for " + std::string(receiver));
    default:
      return ConvertConstant(term, receiver, type);
  }
}

}  // namespace sibyl::query
