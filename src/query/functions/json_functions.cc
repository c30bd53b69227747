// Cassandra 4.1's ToJsonFct and FromJsonFct. Both take their types from the
// call site rather than from a declared signature: toJson(x) exists for
// every argument type (selection only), fromJson(text) for every receiver
// type (terms only), so the registry makes an instance per type.
//
// fromJson reads its text with INSERT JSON's parser and conversions
// (types/json_to_value.h), so both accept and refuse the same values.

#include "common/error.h"
#include "query/functions/function_registry.h"
#include "query/functions/function_value_text.h"
#include "types/json_to_value.h"

namespace sibyl::query {
FunctionPtr ToJsonFunction(const types::TypePtr& argument_type) {
  return Function::Scalar("tojson", types::CqlType::Native(types::Kind::kText), {argument_type},
                          [argument_type](FunctionArgs a, FunctionContext&) -> OptBytes {
                            // A null argument is the JSON text null, not a null result.
                            return ToJsonText(*argument_type, a[0]);
                          });
}

FunctionPtr FromJsonFunction(const types::TypePtr& result_type) {
  return Function::Scalar(
      "fromjson", result_type, {types::CqlType::Native(types::Kind::kText)},
      [result_type](FunctionArgs a, FunctionContext&) -> OptBytes {
        if (!a[0]) return std::nullopt;
        const std::string_view json = *a[0];
        try {
          return types::ParseJsonValue(json, *result_type);
        } catch (const types::JsonValueError& e) {
          if (e.kind() == types::JsonValueError::Kind::kConversion) {
            ThrowFunctionFailureCause(
                "fromjson", {"text"},
                "org.apache.cassandra.serializers.MarshalException: " + std::string(e.what()));
          }
          ThrowFunctionFailure(
              "fromjson", {"text"},
              "Could not decode JSON string '" + std::string(json) + "': " + std::string(e.what()));
        }
      });
}

}  // namespace sibyl::query
