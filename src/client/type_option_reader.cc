#include "client/type_option_reader.h"

#include <string>
#include <vector>

#include "common/error.h"

namespace sibyl::client {

namespace {

// Bounds the recursion a hostile server could ask for.
constexpr int kMaxDepth = 64;

std::string_view Trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// Splits the parameters of "Name(a, b(c, d), e)" at top-level commas.
std::vector<std::string_view> MarshalParameters(std::string_view inside) {
  std::vector<std::string_view> parts;
  int nesting = 0;
  size_t begin = 0;
  for (size_t i = 0; i < inside.size(); ++i) {
    if (inside[i] == '(') ++nesting;
    if (inside[i] == ')') --nesting;
    if (inside[i] == ',' && nesting == 0) {
      parts.push_back(Trimmed(inside.substr(begin, i - begin)));
      begin = i + 1;
    }
  }
  parts.push_back(Trimmed(inside.substr(begin)));
  return parts;
}

// A custom type's class name (CqlType::ToMarshal's spelling) read back:
// vectors travel that way, with elements of any type. Names of other custom
// classes stay custom.
types::TypePtr ParseMarshalText(std::string_view text, int depth) {
  using types::CqlType;
  using types::Kind;
  if (depth > kMaxDepth) ThrowProtocol("Type option nested too deeply");
  text = Trimmed(text);
  const size_t open = text.find('(');
  const std::string_view name = text.substr(0, open);
  if (open == std::string_view::npos) {
    for (uint16_t id = 0x0001; id <= 0x0015; ++id) {
      if (id == 0x000A) continue;
      const auto type = CqlType::Native(static_cast<Kind>(id));
      if (type->ToMarshal() == name) return type;
    }
    return CqlType::Custom(std::string(text));
  }
  if (text.back() != ')') return CqlType::Custom(std::string(text));
  const auto parts = MarshalParameters(text.substr(open + 1, text.size() - open - 2));
  const auto param = [&](size_t i) { return ParseMarshalText(parts.at(i), depth + 1); };
  constexpr std::string_view kPrefix = "org.apache.cassandra.db.marshal.";
  const std::string_view short_name =
      name.substr(0, kPrefix.size()) == kPrefix ? name.substr(kPrefix.size()) : name;
  if (short_name == "VectorType" && parts.size() == 2) {
    int dimension = 0;
    for (char c : parts[1]) {
      if (c < '0' || c > '9' || dimension > 100000000) ThrowProtocol("Bad vector dimension");
      dimension = dimension * 10 + (c - '0');
    }
    return CqlType::Vector(param(0), dimension);
  }
  if (short_name == "ListType" && parts.size() == 1) return CqlType::List(param(0));
  if (short_name == "SetType" && parts.size() == 1) return CqlType::Set(param(0));
  if (short_name == "MapType" && parts.size() == 2) return CqlType::Map(param(0), param(1));
  if (short_name == "FrozenType" && parts.size() == 1) return param(0);
  if (short_name == "TupleType") {
    std::vector<types::TypePtr> elements;
    for (size_t i = 0; i < parts.size(); ++i) elements.push_back(param(i));
    return CqlType::Tuple(std::move(elements));
  }
  return CqlType::Custom(std::string(text));
}

types::TypePtr ReadOption(protocol::WireReader& reader, int depth) {
  if (depth > kMaxDepth) ThrowProtocol("Type option nested too deeply");
  using types::CqlType;
  using types::Kind;
  const uint16_t id = reader.ReadShort("a type option id");
  const auto kind = static_cast<Kind>(id);
  switch (kind) {
    case Kind::kCustom:
      return ParseMarshalText(reader.ReadString(), depth);
    case Kind::kList:
      return CqlType::List(ReadOption(reader, depth + 1));
    case Kind::kSet:
      return CqlType::Set(ReadOption(reader, depth + 1));
    case Kind::kMap: {
      types::TypePtr key = ReadOption(reader, depth + 1);
      return CqlType::Map(std::move(key), ReadOption(reader, depth + 1));
    }
    case Kind::kUdt: {
      std::string keyspace(reader.ReadString());
      std::string name(reader.ReadString());
      const uint16_t n = reader.ReadShort("a UDT field count");
      std::vector<std::string> field_names;
      std::vector<types::TypePtr> field_types;
      for (uint16_t i = 0; i < n; ++i) {
        field_names.emplace_back(reader.ReadString());
        field_types.push_back(ReadOption(reader, depth + 1));
      }
      return CqlType::Udt(std::move(keyspace), std::move(name), std::move(field_names),
                          std::move(field_types));
    }
    case Kind::kTuple: {
      const uint16_t n = reader.ReadShort("a tuple element count");
      std::vector<types::TypePtr> elements;
      for (uint16_t i = 0; i < n; ++i) elements.push_back(ReadOption(reader, depth + 1));
      return CqlType::Tuple(std::move(elements));
    }
    case Kind::kVector:
      break;  // not a wire id
    default:
      // 0x000A was "text" in protocol v1/v2; v3+ servers send 0x000D.
      if (id == 0x000A) return CqlType::Native(Kind::kText);
      if (id >= 0x0001 && id <= 0x0015) return CqlType::Native(kind);
      break;
  }
  ThrowProtocol("Unknown type option id " + std::to_string(id));
}

}  // namespace

types::TypePtr ReadTypeOption(protocol::WireReader& reader) { return ReadOption(reader, 0); }

}  // namespace sibyl::client
