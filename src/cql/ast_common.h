#pragma once
// The building blocks every statement's syntax tree shares: qualified names,
// terms (literals, bind markers, collection and function terms) and the
// relations of WHERE clauses. See ast.h for the conventions.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sibyl::cql {

// [keyspace.]name: tables, views, user types, functions, indexes.
// `keyspace` is unset when the statement did not name one (the session's
// keyspace applies).
struct QualifiedName {
  std::optional<std::string> keyspace;
  std::string name;
};

// A literal, a bind marker or a composite term as written in the query.
struct Term {
  enum class Kind {
    kString,    // 'text' or $$text$$; `text` holds the unescaped contents
    kInteger,   // `text` holds the digits as written (may have a leading '-')
    kFloat,     // includes NaN / Infinity / -Infinity
    kBoolean,   // `text` is "true" or "false"
    kUuid,      // `text` is the 36-char form
    kBlob,      // `text` is the 0x... form
    kDuration,  // `text` as written (1h30m, P1D, ...)
    kNull,
    kBindMarker,    // ? (positional) or :name
    kList,          // [a, b]
    kSet,           // {a, b}
    kMap,           // {k: v, ...}; elements alternate key, value
    kTuple,         // (a, b)
    kUdt,           // {field: value, ...}; field names in `field_names`
    kFunctionCall,  // e.g. now(), token(...): `text` is the function name
    kTypeHint,      // (type) term: `text` is the type's CQL spelling, elements[0] the term
    // Added with the parser:
    kArithmetic,  // elements[0] op elements[1]: `text` is the operator, one of + - * / %
    kNegation,    // - elements[0], when the '-' is not part of a number (`- 5`, `-f(x)`)
    kCast,        // CAST(elements[0] AS type): `text` is the type's CQL spelling
  };
  Kind kind = Kind::kNull;
  std::string text;
  int bind_index = -1;    // for kBindMarker: 0-based position among all markers of the statement
  std::string bind_name;  // for named markers (:name), normalized
  std::vector<Term> elements;
  std::vector<std::string> field_names;
  std::string keyspace;  // for kFunctionCall: the keyspace qualifier (ks.fn()), empty if none
};

// A relation in a WHERE clause: `col op term`, `(c1, c2) op (t1, t2)`,
// `token(k1, k2) op term`, `col IN (...)`, `col CONTAINS term`, ...
struct Relation {
  enum class Op {
    kEq,
    kNeq,
    kLt,
    kLte,
    kGt,
    kGte,
    kIn,
    kContains,
    kContainsKey,
    kLike,
    kIsNotNull
  };
  // kCustomIndexExpression is `expr(index_name, term)`: columns[0] holds the
  // index name, terms[0] the expression.
  enum class Lhs { kColumn, kColumnTuple, kToken, kMapElement, kCustomIndexExpression };
  Lhs lhs = Lhs::kColumn;
  std::vector<std::string> columns;  // one for kColumn / kMapElement, several for tuples and token
  std::optional<Term> map_key;       // for kMapElement: m['k'] = v
  Op op = Op::kEq;
  // The right-hand side: one term, or for IN the list of terms (an IN with a
  // single bind marker `IN ?` is one kBindMarker term with in_marker = true).
  // IS NOT NULL has no term. A tuple relation `(a, b) > (1, 2)` has one kTuple
  // term (or one marker); `(a, b) IN ((1, 2), ...)` one term per tuple.
  std::vector<Term> terms;
  bool in_marker = false;
};

}  // namespace sibyl::cql
