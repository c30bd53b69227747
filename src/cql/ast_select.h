#pragma once
// SELECT (Parser.g's selectStatement) and the select clause it shares with
// CREATE MATERIALIZED VIEW.

#include <optional>
#include <string>
#include <vector>

#include "cql/ast_common.h"

namespace sibyl::cql {

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

}  // namespace sibyl::cql
