#pragma once
// A term of a prepared statement: a literal already converted to the type
// that receives it, null, or a bind marker whose value each request brings.

#include <string>
#include <string_view>

#include "common/bytes.h"
#include "cql/ast.h"
#include "query/bind_variables.h"
#include "types/cql_type.h"

namespace sibyl::query {

struct PreparedTerm {
  enum class Kind { kNull, kConstant, kMarker };
  Kind kind = Kind::kNull;
  Bytes constant;       // kConstant: the serialized value
  int marker = -1;      // kMarker: the marker's index
  types::TypePtr type;  // the receiver's type, to validate bound values

  // The term's value for one request: a view into the constant or into the
  // request (null, unset or bytes). A bound value is validated against the
  // type, throwing CqlError(kInvalid) with Cassandra's message if it does not fit.
  [[nodiscard]] Value Bind(const BoundValues& values) const;
};

// Prepares `term` for a receiver named `receiver` of type `type`, recording
// the spec of a marker in `binds`.
[[nodiscard]] PreparedTerm PrepareTerm(const cql::Term& term, std::string_view receiver,
                                       types::TypePtr type, BindSpecCollector& binds);

}  // namespace sibyl::query
