#pragma once
// A materialized view's WHERE clause, as CREATE MATERIALIZED VIEW keeps it:
// the text system_schema.views shows (Cassandra 4.1's WhereClause.toString:
// the relations in the order written, joined by " AND ", each as
// Relation.toCQLString writes it: `k IS NOT NULL`, `c > 5`, `c IN (1, 2)`,
// `"Name" = 'x'`), and the restrictions the indexing engine applies, one per
// relation, with their values serialized in the restricted column's type.

#include <string>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "schema/table_metadata.h"

namespace sibyl::query::ddl {

struct ViewWhereClause {
  std::string text;
  std::vector<schema::ViewRestriction> restrictions;
};

// The WHERE clause of a view of `base`. REQUIRES: every relation is on
// single columns of `base` (token relations and custom index expressions
// already refused), with no bind markers. Throws CqlError(kInvalid):
//   Unsupported "!=" relation: c != 1                  (4.1's message)
//   Invalid null value in condition for column c       (4.1's message)
//   the literal's conversion errors (literal_conversion.h), and, for forms
//   4.1 accepts but a ViewRestriction cannot hold:
//   Multi-column relations (a, b) > (1, 2) are not supported by Sibyl in a
//   materialized view's WHERE clause
//   (likewise CONTAINS, CONTAINS KEY, LIKE and map element relations).
[[nodiscard]] ViewWhereClause PrepareViewWhereClause(const schema::TableMetadata& base,
                                                     const std::vector<cql::Relation>& where);

// The where_clause text of `restrictions` on the columns of `table` (a base
// or its view, which share the restricted columns' names and types), values
// written back with types::ToCqlLiteral: the text after a primary key
// column of the base is renamed (4.1 renames the identifier in the stored
// clause; Sibyl writes the clause again, its literals in canonical form).
[[nodiscard]] std::string ViewWhereClauseText(
    const schema::TableMetadata& table, const std::vector<schema::ViewRestriction>& restrictions);

}  // namespace sibyl::query::ddl
