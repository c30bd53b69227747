#pragma once
// Bind markers (`?` and `:name`): what each receives, recorded while a
// statement is prepared, and the values a request binds to them.

#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "cql/ast.h"
#include "protocol/request.h"
#include "protocol/response.h"
#include "query/functions/function_definition.h"
#include "types/cql_type.h"

namespace sibyl::query {

// Collects the spec of every marker while a statement is prepared. A marker
// is described by what receives its value, as Cassandra names it: the
// column (`k`), `in(k)` for `k IN ?`, `t[0]` for a component of a tuple
// literal, `u.f` for a field of a UDT literal, `value(m)` / `key(m)` for
// `m[k] = v`, `[limit]` / `[per_partition_limit]`; a named marker takes its
// own name instead.
class BindSpecCollector {
 public:
  BindSpecCollector(std::string keyspace, std::string table, int marker_count);

  // REQUIRES: marker.kind == kBindMarker and 0 <= marker.bind_index < marker_count.
  void Receive(const cql::Term& marker, std::string receiver, types::TypePtr type);

  // The specs by marker index. Throws CqlError(kInvalid) naming a marker in a
  // place Sibyl cannot bind yet (none should be left unreceived).
  std::vector<protocol::ColumnSpec> Take();

  // The statement's table's partition key types, which token(...) in a term
  // takes as its arguments (4.1's TokenFct); empty: token() is refused.
  void set_partition_key_types(std::vector<types::TypePtr> types) {
    partition_key_types_ = std::move(types);
  }
  const std::vector<types::TypePtr>& partition_key_types() const { return partition_key_types_; }

 private:
  std::string keyspace_;
  std::string table_;
  std::vector<protocol::ColumnSpec> specs_;
  std::vector<types::TypePtr> partition_key_types_;
};

// The values of a request for a statement's markers, by marker index. Holds
// views into the request: the QueryParameters must outlive it.
class BoundValues {
 public:
  // Positional values are taken as given; named values are matched to the
  // specs' names. Throws CqlError(kInvalid, "Invalid amount of bind
  // variables") when the values do not cover the markers exactly.
  BoundValues(const std::vector<protocol::ColumnSpec>& specs,
              const protocol::QueryParameters& params);
  BoundValues(const BoundValues&) = delete;  // values_ may point into reordered_
  BoundValues& operator=(const BoundValues&) = delete;

  // The value of marker `index`. An index the statement does not have is a
  // bug of the statement layer, never of the request: it throws
  // CqlError(kServerError) naming the index rather than read past the end.
  const Value& operator[](int index) const {
    if (index < 0 || static_cast<size_t>(index) >= values_->size()) ThrowBadIndex(index);
    return (*values_)[static_cast<size_t>(index)];
  }
  size_t size() const { return values_->size(); }

  // What function calls in terms (now(), toTimestamp(now()), ...) run with.
  // Defaults to a context whose clock is a process-wide SystemClock; the
  // query processor sets the node's. `context` must outlive this object.
  void set_function_context(FunctionContext* context) { function_context_ = context; }
  FunctionContext& function_context() const { return *function_context_; }

  // Keeps a value computed while binding (a function call's result) for the
  // request's lifetime, so PreparedTerm::Bind can return a view of it.
  // References stay valid as more values are kept (std::deque).
  BytesView Keep(Bytes computed) const { return computed_.emplace_back(std::move(computed)); }

 private:
  [[noreturn]] void ThrowBadIndex(int index) const;

  const std::vector<Value>* values_;
  std::vector<Value> reordered_;  // used only for named values
  FunctionContext* function_context_;
  mutable std::deque<Bytes> computed_;
};

// The context BoundValues uses unless told otherwise: a process-wide
// SystemClock, protocol v4.
[[nodiscard]] FunctionContext* DefaultFunctionContext();

}  // namespace sibyl::query
