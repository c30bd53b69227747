#include "types/cql_type.h"

#include <array>
#include <stdexcept>
#include <utility>

#include "common/check.h"
#include "common/hex.h"
#include "types/cql_identifier.h"

namespace sibyl::types {
namespace {

struct NativeName {
  Kind kind;
  const char* cql;      // CQL3Type.Native's lower-case name
  const char* marshal;  // the AbstractType class, without its package
};

constexpr std::array<NativeName, 20> kNativeNames = {{
    {Kind::kAscii, "ascii", "AsciiType"},
    {Kind::kBigint, "bigint", "LongType"},
    {Kind::kBlob, "blob", "BytesType"},
    {Kind::kBoolean, "boolean", "BooleanType"},
    {Kind::kCounter, "counter", "CounterColumnType"},
    {Kind::kDecimal, "decimal", "DecimalType"},
    {Kind::kDouble, "double", "DoubleType"},
    {Kind::kFloat, "float", "FloatType"},
    {Kind::kInt, "int", "Int32Type"},
    {Kind::kTimestamp, "timestamp", "TimestampType"},
    {Kind::kUuid, "uuid", "UUIDType"},
    {Kind::kText, "text", "UTF8Type"},
    {Kind::kVarint, "varint", "IntegerType"},
    {Kind::kTimeuuid, "timeuuid", "TimeUUIDType"},
    {Kind::kInet, "inet", "InetAddressType"},
    {Kind::kDate, "date", "SimpleDateType"},
    {Kind::kTime, "time", "TimeType"},
    {Kind::kSmallint, "smallint", "ShortType"},
    {Kind::kTinyint, "tinyint", "ByteType"},
    {Kind::kDuration, "duration", "DurationType"},
}};

constexpr std::string_view kMarshalPackage = "org.apache.cassandra.db.marshal.";

const NativeName& NativeNameOf(Kind kind) {
  for (const auto& entry : kNativeNames) {
    if (entry.kind == kind) return entry;
  }
  SIBYL_CHECK(false, "not a native CQL type kind: " + std::to_string(static_cast<int>(kind)));
}

void AppendString(Bytes& out, std::string_view s) {
  SIBYL_CHECK(s.size() <= 0xFFFF);
  AppendBE16(out, static_cast<uint16_t>(s.size()));
  out.append(s);
}

// Mirrors AbstractType.toString(ignoreFreezing): a frozen collection or UDT is
// wrapped in FrozenType(...) unless an enclosing frozen type already says so.
void AppendMarshal(std::string& out, const CqlType& type, bool ignore_freezing) {
  const bool wrap_frozen =
      !ignore_freezing && type.frozen() && (type.is_collection() || type.kind() == Kind::kUdt);
  if (wrap_frozen) out.append(kMarshalPackage).append("FrozenType(");
  const bool inner_ignore = ignore_freezing || type.frozen();
  auto append_params = [&](bool ignore) {
    out.push_back('(');
    for (size_t i = 0; i < type.params().size(); ++i) {
      if (i > 0) out.push_back(',');
      AppendMarshal(out, *type.params()[i], ignore);
    }
    out.push_back(')');
  };
  switch (type.kind()) {
    case Kind::kList:
      out.append(kMarshalPackage).append("ListType");
      append_params(inner_ignore);
      break;
    case Kind::kSet:
      out.append(kMarshalPackage).append("SetType");
      append_params(inner_ignore);
      break;
    case Kind::kMap:
      out.append(kMarshalPackage).append("MapType");
      append_params(inner_ignore);
      break;
    case Kind::kTuple:
      out.append(kMarshalPackage).append("TupleType");
      append_params(true);
      break;
    case Kind::kUdt:
      out.append(kMarshalPackage).append("UserType(").append(type.udt_keyspace()).push_back(',');
      AppendHex(out, type.udt_name());
      for (size_t i = 0; i < type.field_names().size(); ++i) {
        out.push_back(',');
        AppendHex(out, type.field_names()[i]);
        out.push_back(':');
        AppendMarshal(out, *type.params()[i], inner_ignore);
      }
      out.push_back(')');
      break;
    case Kind::kVector:
      // TypeParser.stringifyVectorParameters: note the spaces around the comma.
      out.append(kMarshalPackage).append("VectorType(");
      AppendMarshal(out, *type.params()[0], ignore_freezing);
      out.append(" , ").append(std::to_string(type.vector_dimension())).push_back(')');
      break;
    case Kind::kCustom:
      out.append(type.custom_class());
      break;
    default:
      out.append(kMarshalPackage).append(NativeNameOf(type.kind()).marshal);
      break;
  }
  if (wrap_frozen) out.push_back(')');
}

void AppendCql(std::string& out, const CqlType& type) {
  auto open_collection = [&](const char* name) {
    if (type.frozen()) out.append("frozen<");
    out.append(name).push_back('<');
  };
  auto close_collection = [&] {
    out.push_back('>');
    if (type.frozen()) out.push_back('>');
  };
  switch (type.kind()) {
    case Kind::kList:
      open_collection("list");
      AppendCql(out, *type.params()[0]);
      close_collection();
      break;
    case Kind::kSet:
      open_collection("set");
      AppendCql(out, *type.params()[0]);
      close_collection();
      break;
    case Kind::kMap:
      open_collection("map");
      AppendCql(out, *type.params()[0]);
      out.append(", ");
      AppendCql(out, *type.params()[1]);
      close_collection();
      break;
    case Kind::kTuple:
      // CQL3Type.Tuple.toString() always writes the frozen<> it implies.
      out.append("frozen<tuple<");
      for (size_t i = 0; i < type.params().size(); ++i) {
        if (i > 0) out.append(", ");
        AppendCql(out, *type.params()[i]);
      }
      out.append(">>");
      break;
    case Kind::kUdt:
      if (type.frozen()) out.append("frozen<");
      out.append(MaybeQuoteIdentifier(type.udt_name()));
      if (type.frozen()) out.push_back('>');
      break;
    case Kind::kVector:
      out.append("vector<");
      AppendCql(out, *type.params()[0]);
      out.append(", ").append(std::to_string(type.vector_dimension())).push_back('>');
      break;
    case Kind::kCustom:
      out.push_back('\'');
      out.append(type.custom_class());
      out.push_back('\'');
      break;
    default:
      out.append(NativeNameOf(type.kind()).cql);
      break;
  }
}

// Freezing reaches into collections (RawCollection.freeze()): a frozen
// list<set<int>> is a frozen list of frozen sets. UDT fields keep their own
// definition; tuples and vectors are frozen already.
TypePtr FreezeForNesting(const TypePtr& type) {
  if (type->is_collection() || type->kind() == Kind::kUdt) return CqlType::Frozen(type);
  return type;
}

}  // namespace

TypePtr CqlType::Native(Kind kind) {
  static const std::array<TypePtr, kNativeNames.size()> kSingletons = [] {
    std::array<TypePtr, kNativeNames.size()> types;
    for (size_t i = 0; i < kNativeNames.size(); ++i) {
      types[i] = TypePtr(new CqlType(kNativeNames[i].kind));
    }
    return types;
  }();
  for (size_t i = 0; i < kNativeNames.size(); ++i) {
    if (kNativeNames[i].kind == kind) return kSingletons[i];
  }
  SIBYL_CHECK(false, "CqlType::Native called with a non-native kind " +
                         std::to_string(static_cast<int>(kind)));
}

TypePtr CqlType::List(TypePtr element, bool frozen) {
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kList));
  type->frozen_ = frozen;
  type->params_.push_back(frozen ? FreezeForNesting(element) : std::move(element));
  return type;
}

TypePtr CqlType::Set(TypePtr element, bool frozen) {
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kSet));
  type->frozen_ = frozen;
  type->params_.push_back(frozen ? FreezeForNesting(element) : std::move(element));
  return type;
}

TypePtr CqlType::Map(TypePtr key, TypePtr value, bool frozen) {
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kMap));
  type->frozen_ = frozen;
  type->params_.push_back(frozen ? FreezeForNesting(key) : std::move(key));
  type->params_.push_back(frozen ? FreezeForNesting(value) : std::move(value));
  return type;
}

TypePtr CqlType::Tuple(std::vector<TypePtr> elements) {
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kTuple));
  type->frozen_ = true;
  for (auto& element : elements) element = FreezeForNesting(element);
  type->params_ = std::move(elements);
  return type;
}

TypePtr CqlType::Udt(std::string keyspace, std::string name, std::vector<std::string> field_names,
                     std::vector<TypePtr> field_types, bool frozen) {
  SIBYL_CHECK(field_names.size() == field_types.size());
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kUdt));
  type->frozen_ = frozen;
  type->udt_keyspace_ = std::move(keyspace);
  type->udt_name_ = std::move(name);
  type->field_names_ = std::move(field_names);
  type->params_ = std::move(field_types);
  return type;
}

TypePtr CqlType::Vector(TypePtr element, int32_t dimension) {
  SIBYL_CHECK(dimension > 0);
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kVector));
  type->frozen_ = true;
  type->vector_dimension_ = dimension;
  type->params_.push_back(std::move(element));
  return type;
}

TypePtr CqlType::Custom(std::string class_name) {
  auto type = std::shared_ptr<CqlType>(new CqlType(Kind::kCustom));
  type->custom_class_ = std::move(class_name);
  return type;
}

TypePtr CqlType::Frozen(const TypePtr& type) {
  if (type->frozen_) return type;
  switch (type->kind_) {
    case Kind::kList:
      return List(type->params_[0], true);
    case Kind::kSet:
      return Set(type->params_[0], true);
    case Kind::kMap:
      return Map(type->params_[0], type->params_[1], true);
    case Kind::kUdt:
      return Udt(type->udt_keyspace_, type->udt_name_, type->field_names_, type->params_, true);
    default:
      return type;
  }
}

std::string CqlType::ToCql() const {
  std::string out;
  AppendCql(out, *this);
  return out;
}

std::string CqlType::ToMarshal() const {
  std::string out;
  AppendMarshal(out, *this, false);
  return out;
}

void CqlType::EncodeOption(Bytes& out) const {
  if (kind_ == Kind::kVector) {
    // Not a protocol type: Cassandra 5.0 sends it as a custom type whose
    // class string drivers parse.
    AppendBE16(out, static_cast<uint16_t>(Kind::kCustom));
    AppendString(out, ToMarshal());
    return;
  }
  AppendBE16(out, static_cast<uint16_t>(kind_));
  switch (kind_) {
    case Kind::kCustom:
      AppendString(out, custom_class_);
      break;
    case Kind::kList:
    case Kind::kSet:
    case Kind::kMap:
      for (const auto& param : params_) param->EncodeOption(out);
      break;
    case Kind::kUdt:
      SIBYL_CHECK(!is_unresolved_udt());
      AppendString(out, udt_keyspace_);
      AppendString(out, udt_name_);
      AppendBE16(out, static_cast<uint16_t>(field_names_.size()));
      for (size_t i = 0; i < field_names_.size(); ++i) {
        AppendString(out, field_names_[i]);
        params_[i]->EncodeOption(out);
      }
      break;
    case Kind::kTuple:
      AppendBE16(out, static_cast<uint16_t>(params_.size()));
      for (const auto& param : params_) param->EncodeOption(out);
      break;
    default:
      break;  // native types: the id is the whole option
  }
}

bool CqlType::Equals(const CqlType& other) const {
  if (this == &other) return true;
  if (kind_ != other.kind_ || frozen_ != other.frozen_ || params_.size() != other.params_.size() ||
      udt_keyspace_ != other.udt_keyspace_ || udt_name_ != other.udt_name_ ||
      field_names_ != other.field_names_ || vector_dimension_ != other.vector_dimension_ ||
      custom_class_ != other.custom_class_) {
    return false;
  }
  for (size_t i = 0; i < params_.size(); ++i) {
    if (!params_[i]->Equals(*other.params_[i])) return false;
  }
  return true;
}

}  // namespace sibyl::types
