#pragma once
// The typed syntax tree the parser produces. Names are already normalized
// with Cassandra's case rules: unquoted identifiers are lower-cased, quoted
// identifiers keep their case (and "" inside them becomes ").
//
// This is the raw (unprepared) form: nothing here has been checked against
// the schema. The lifecycle is AST → Prepare(schema) → prepared statement →
// Execute.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace sibyl::cql {

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

// One item of the select clause.
struct Selector {
  enum class Kind {
    kColumn,       // name
    kFunction,     // name(args...), including token(...) and the special forms
                   // writetime(c), ttl(c) and maxwritetime(c) (name "writetime", ...)
    kCast,         // CAST(args[0] AS type): text holds the type
    kTerm,         // a literal or bind marker used as a selector: terms[0]
    kFieldAccess,  // args[0].name
    kElement,      // args[0][terms[0]]
    kSlice,        // args[0][slice_from..slice_to]
    kCountStar,    // count(*) / COUNT(1): COUNT of any constant counts rows; `terms` holds it
    kArithmetic,   // arg op arg: text holds the operator
    // Added with the parser:
    kNegation,  // - args[0]
    kTypeHint,  // (type) args[0]: text holds the type's CQL spelling
    kList,      // [args...]
    kSet,       // {args...}; {} is an empty set, as in Cassandra
    kMapOrUdt,  // {args[0]: args[1], args[2]: args[3], ...}: a map or UDT literal, told apart
                // when prepared against the receiver's type
    kTuple,     // (args...) with two or more elements; (x) is just x
  };
  Kind kind = Kind::kColumn;
  std::string name;  // column, function or field name
  std::string text;
  std::vector<Selector> args;
  std::vector<Term> terms;
  std::optional<std::string> alias;
  std::string keyspace;  // for kFunction: the keyspace qualifier (ks.fn(...)), empty if none
  // For kSlice: the bounds of args[0][from..to]; either may be omitted.
  std::optional<Term> slice_from;
  std::optional<Term> slice_to;
};

struct QualifiedName {
  std::optional<std::string> keyspace;
  std::string name;
};

struct Ordering {
  std::string column;
  bool descending = false;
};

struct SelectStatement {
  bool json = false;
  bool distinct = false;
  bool select_star = false;  // SELECT * (then `selectors` is empty)
  std::vector<Selector> selectors;
  QualifiedName table;
  std::vector<Relation> where;
  std::vector<std::string> group_by;
  std::vector<Ordering> order_by;
  std::optional<Term> per_partition_limit;
  std::optional<Term> limit;
  bool allow_filtering = false;
};

struct UseStatement {
  std::string keyspace;
};

// A statement the grammar accepts but that Sibyl cannot execute yet.
// `kind` names it as Cassandra's documentation does, e.g. "CREATE TABLE",
// "INSERT", "BATCH"; executing it fails with an InvalidRequest naming it.
struct PendingStatement {
  std::string kind;
};

using Statement = std::variant<SelectStatement, UseStatement, PendingStatement>;

struct ParsedStatement {
  Statement statement;
  int bind_marker_count = 0;
  std::vector<std::string> bind_marker_names;  // per marker; empty string for positional `?`
};

}  // namespace sibyl::cql
