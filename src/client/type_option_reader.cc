#include "client/type_option_reader.h"

#include <string>
#include <vector>

#include "common/error.h"

namespace sibyl::client {

namespace {

// Bounds the recursion a hostile server could ask for.
constexpr int kMaxDepth = 64;

types::TypePtr ReadOption(protocol::WireReader& reader, int depth) {
  if (depth > kMaxDepth) ThrowProtocol("Type option nested too deeply");
  using types::CqlType;
  using types::Kind;
  const uint16_t id = reader.ReadShort("a type option id");
  const auto kind = static_cast<Kind>(id);
  switch (kind) {
    case Kind::kCustom:
      return CqlType::Custom(std::string(reader.ReadString()));
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
