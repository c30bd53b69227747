#pragma once
// Relations and operators written back as Cassandra 4.1 writes them in its
// messages (Operator.toString, Relation.toString): "b != 1",
// "(b, c) > (1, 2)", "token(k) > 5", "m['a'] = 1", "k IN [1, 2]". Used by the
// restrictions' refusals and by the IF conditions of writes.

#include <string>

#include "cql/ast.h"

namespace sibyl::query {

// "=", "IN", "CONTAINS KEY", ...
const char* OperatorText(cql::Relation::Op op);
std::string RelationText(const cql::Relation& relation);

}  // namespace sibyl::query
