#pragma once
// INSERT, UPDATE, DELETE and BATCH (Parser.g's insertStatement,
// updateStatement, deleteStatement, batchStatement), parallel to Cassandra
// 4.1's UpdateStatement.ParsedInsert / ParsedInsertJson / ParsedUpdate,
// DeleteStatement.Parsed and BatchStatement.Parsed.
//
// Nothing here is checked against the schema: column names, the number of
// values and the kinds of terms are validated when the statement is prepared.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cql/ast_common.h"

namespace sibyl::cql {

// USING TIMESTAMP t AND TTL n (Attributes.Raw). Each is an INTEGER term
// (`text` as written, possibly negative) or a bind marker; unset when not
// given. When one is given twice the last one wins, as in Cassandra.
struct Attributes {
  std::optional<Term> timestamp;
  std::optional<Term> ttl;
};

// INSERT INTO t (c1, c2) VALUES (v1, v2) [IF NOT EXISTS] [USING ...]
// INSERT INTO t JSON 'json' | ? [DEFAULT NULL | DEFAULT UNSET] [IF NOT EXISTS] [USING ...]
struct InsertStatement {
  QualifiedName table;
  bool json = false;
  // The normal form: the columns and their values, in the order written (the
  // counts may differ; Cassandra reports that when preparing).
  std::vector<std::string> columns;
  std::vector<Term> values;
  // The JSON form: a kString term holding the JSON text, or a bind marker
  // (whose receiver is the whole JSON document, named "[json]").
  std::optional<Term> json_value;
  bool default_unset = false;  // DEFAULT UNSET; DEFAULT NULL is the default
  bool if_not_exists = false;
  Attributes attributes;
};

// One assignment of UPDATE's SET clause (Operation.RawUpdate).
struct UpdateOperation {
  enum class Kind {
    kSet,         // c = t
    kPrepend,     // c = t + c (lists)
    kAdd,         // c = c + t, c += t, and c = c <negative integer> (lexed as c, c, -n)
    kSubtract,    // c = c - t, c -= t
    kSetElement,  // c[element] = t (list index or map key)
    kSetField,    // c.field = t (user types)
  };
  Kind kind = Kind::kSet;
  std::string column;
  Term value;
  std::optional<Term> element;  // kSetElement
  std::string field;            // kSetField
};

// One condition of IF (ColumnCondition.Raw): `c op t`, `c IN (...)`,
// `c[element] op t`, `c.field op t`.
struct Condition {
  enum class Lhs { kColumn, kElement, kField };
  Lhs lhs = Lhs::kColumn;
  std::string column;
  std::optional<Term> element;          // kElement
  std::string field;                    // kField
  Relation::Op op = Relation::Op::kEq;  // kEq, kNeq, kLt, kLte, kGt, kGte or kIn
  // One term; for IN the list (possibly empty), or one bind marker with
  // in_marker set for `IN ?`.
  std::vector<Term> values;
  bool in_marker = false;
};

// UPDATE t [USING ...] SET ops WHERE ... [IF EXISTS | IF conditions]
struct UpdateStatement {
  QualifiedName table;
  Attributes attributes;
  std::vector<UpdateOperation> operations;  // in the order written
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
};

// One item of DELETE's selection (Operation.RawDeletion).
struct Deletion {
  enum class Kind {
    kColumn,   // c
    kElement,  // c[element]
    kField,    // c.field
  };
  Kind kind = Kind::kColumn;
  std::string column;
  std::optional<Term> element;  // kElement
  std::string field;            // kField
};

// DELETE [selection] FROM t [USING TIMESTAMP t] WHERE ... [IF EXISTS | IF conditions]
struct DeleteStatement {
  QualifiedName table;
  std::vector<Deletion> deletions;  // empty: the whole row(s)
  Attributes attributes;            // only a timestamp is allowed by the grammar
  std::vector<Relation> where;
  bool if_exists = false;
  std::vector<Condition> conditions;
};

using ModificationStatement = std::variant<InsertStatement, UpdateStatement, DeleteStatement>;

// BEGIN [UNLOGGED | COUNTER] BATCH [USING ...] statements APPLY BATCH
struct BatchStatement {
  enum class Type { kLogged, kUnlogged, kCounter };
  Type type = Type::kLogged;
  Attributes attributes;
  std::vector<ModificationStatement> statements;
};

}  // namespace sibyl::cql
