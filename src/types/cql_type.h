#pragma once
// The CQL type system: a type is an immutable tree shared by pointer.
// Kind values for native and collection kinds are the protocol's [option]
// ids (native_protocol_v5.spec 4.2.5.2) — do not change them.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"

namespace sibyl::types {

enum class Kind : uint16_t {
  kCustom = 0x0000,
  kAscii = 0x0001,
  kBigint = 0x0002,
  kBlob = 0x0003,
  kBoolean = 0x0004,
  kCounter = 0x0005,
  kDecimal = 0x0006,
  kDouble = 0x0007,
  kFloat = 0x0008,
  kInt = 0x0009,
  kTimestamp = 0x000B,
  kUuid = 0x000C,
  kText = 0x000D,  // varchar and text are one type
  kVarint = 0x000E,
  kTimeuuid = 0x000F,
  kInet = 0x0010,
  kDate = 0x0011,
  kTime = 0x0012,
  kSmallint = 0x0013,
  kTinyint = 0x0014,
  kDuration = 0x0015,
  kList = 0x0020,
  kMap = 0x0021,
  kSet = 0x0022,
  kUdt = 0x0030,
  kTuple = 0x0031,
  kVector = 0x0100,  // not a protocol id: sent as a custom type (VectorType)
};

class CqlType;
using TypePtr = std::shared_ptr<const CqlType>;

class CqlType {
 public:
  // Shared singletons for the native kinds.
  static TypePtr Native(Kind kind);
  static TypePtr List(TypePtr element, bool frozen = false);
  static TypePtr Set(TypePtr element, bool frozen = false);
  static TypePtr Map(TypePtr key, TypePtr value, bool frozen = false);
  static TypePtr Tuple(std::vector<TypePtr> elements);  // tuples are always frozen
  static TypePtr Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<TypePtr> field_types, bool frozen = false);
  static TypePtr Vector(TypePtr element, int32_t dimension);
  static TypePtr Custom(std::string class_name);
  // The same type with frozen set (collections and UDTs; others unchanged).
  static TypePtr Frozen(const TypePtr& type);

  Kind kind() const { return kind_; }
  // True when the value is one cell: frozen collections and UDTs, and always
  // for tuples and vectors (which Cassandra freezes implicitly).
  bool frozen() const { return frozen_; }
  bool is_collection() const {
    return kind_ == Kind::kList || kind_ == Kind::kSet || kind_ == Kind::kMap;
  }
  bool is_native() const { return IsNativeKind(kind_); }
  // A user type known only by name, as ParseCqlType returns it: no fields
  // yet. The schema layer swaps it for the keyspace's definition (a defined
  // UDT always has at least one field).
  bool is_unresolved_udt() const { return kind_ == Kind::kUdt && field_names_.empty(); }
  static bool IsNativeKind(Kind kind) {
    return kind != Kind::kCustom && kind != Kind::kList && kind != Kind::kMap &&
           kind != Kind::kSet && kind != Kind::kUdt && kind != Kind::kTuple &&
           kind != Kind::kVector;
  }
  // list/set/vector: [element]; map: [key, value]; tuple: elements; udt: field types.
  const std::vector<TypePtr>& params() const { return params_; }
  const std::string& udt_keyspace() const { return udt_keyspace_; }
  const std::string& udt_name() const { return udt_name_; }
  const std::vector<std::string>& field_names() const { return field_names_; }
  int32_t vector_dimension() const { return vector_dimension_; }
  const std::string& custom_class() const { return custom_class_; }

  // The CQL spelling as system_schema and DESCRIBE show it, e.g.
  // "frozen<map<text, text>>", "text", "frozen<tuple<int, text>>".
  std::string ToCql() const;

  // The class name Cassandra's AbstractType.toString() gives this type, e.g.
  // "org.apache.cassandra.db.marshal.Int32Type",
  // "org.apache.cassandra.db.marshal.FrozenType(org.apache.cassandra.db.marshal.ListType(...))",
  // "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType , 3)".
  // Drivers parse it from custom [option]s; vectors travel that way.
  std::string ToMarshal() const;

  // Appends the protocol [option] for result and bind-variable metadata.
  // REQUIRES: no unresolved UDT inside (the option carries the UDT's fields).
  void EncodeOption(Bytes& out) const;

  // Structural equality, frozenness included.
  bool Equals(const CqlType& other) const;

 private:
  CqlType(Kind kind) : kind_(kind) {}

  Kind kind_;
  bool frozen_ = false;
  std::vector<TypePtr> params_;
  std::string udt_keyspace_;
  std::string udt_name_;
  std::vector<std::string> field_names_;
  int32_t vector_dimension_ = 0;
  std::string custom_class_;
};

// Parses the CQL spelling of a type ("frozen<map<text, int>>", "varchar",
// "list<frozen<tuple<int,text>>>"). Keywords are case-insensitive; frozen<>
// freezes nested collections and UDTs, and tuple elements are frozen, as
// Cassandra does. Throws CqlError(kSyntaxError) when the text is not a type
// and CqlError(kInvalid) with Cassandra's message when it is a type Cassandra
// refuses ("Non-frozen collections are not allowed inside collections: ...").
// User types are not resolved here: a name such as `address` or `ks."Addr"`
// comes back as an unresolved UDT (is_unresolved_udt()) carrying the name,
// the keyspace if one was written, and frozenness; the schema layer resolves
// it or fails with "Unknown type ...".
TypePtr ParseCqlType(std::string_view text);

}  // namespace sibyl::types
