// Cassandra 4.1's BytesConversionFcts: <type>asblob and blobas<type> for
// every native type but blob, plus varcharasblob and blobasvarchar (text and
// varchar are one type, so their functions are declared twice). Converting
// to a blob returns the bytes as they are; converting from one validates
// them as the target type first.

#include "common/error.h"
#include "common/hex.h"
#include "query/functions/function_registry.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using types::CqlType;
using types::Kind;

void AddToBlob(FunctionRegistry& r, const std::string& type_name, Kind from) {
  r.Add(Function::Scalar(type_name + "asblob", CqlType::Native(Kind::kBlob),
                         {CqlType::Native(from)}, [](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (!a[0]) return std::nullopt;
                           return Bytes(*a[0]);
                         }));
}

void AddFromBlob(FunctionRegistry& r, const std::string& type_name, Kind to) {
  const std::string name = "blobas" + type_name;
  r.Add(Function::Scalar(name, CqlType::Native(to), {CqlType::Native(Kind::kBlob)},
                         [name, to](FunctionArgs a, FunctionContext&) -> OptBytes {
                           if (!a[0]) return std::nullopt;
                           const types::CqlType& type = *CqlType::Native(to);
                           try {
                             types::Validate(type, *a[0]);
                           } catch (const CqlError&) {
                             // The unqualified name, as Cassandra's message has it.
                             ThrowInvalid(
                                 "In call to function " + name + ", value 0x" + ToHex(*a[0]) +
                                 " is not a valid binary representation for type " + type.ToCql());
                           }
                           return Bytes(*a[0]);
                         }));
}

}  // namespace

void AddBlobFunctions(FunctionRegistry& r) {
  for (Kind kind : NativeKindsInCqlOrder()) {
    if (kind == Kind::kBlob) continue;
    const std::string type_name = CqlType::Native(kind)->ToCql();
    AddToBlob(r, type_name, kind);
    AddFromBlob(r, type_name, kind);
  }
  AddToBlob(r, "varchar", Kind::kText);
  AddFromBlob(r, "varchar", Kind::kText);
}

}  // namespace sibyl::query
