#include "query/terms/bind_variables.h"

#include "common/check.h"
#include "common/clock.h"
#include "common/error.h"

namespace sibyl::query {

FunctionContext* DefaultFunctionContext() {
  // Shared by every request that does not bring a context: the clock is
  // thread-safe and the context is never written after it is made.
  static SystemClock clock;
  static FunctionContext context{&clock, 4};
  return &context;
}

BindSpecCollector::BindSpecCollector(std::string keyspace, std::string table, int marker_count)
    : keyspace_(std::move(keyspace)), table_(std::move(table)), specs_(marker_count) {}

void BindSpecCollector::Receive(const cql::Term& marker, std::string receiver,
                                types::TypePtr type) {
  auto& spec = specs_.at(static_cast<size_t>(marker.bind_index));
  spec.keyspace = keyspace_;
  spec.table = table_;
  spec.name = marker.bind_name.empty() ? std::move(receiver) : marker.bind_name;
  spec.type = std::move(type);
}

std::vector<protocol::ColumnSpec> BindSpecCollector::Take() {
  for (const auto& spec : specs_) {
    if (!spec.type) ThrowInvalid("Bind markers in this position are not supported by Sibyl yet");
  }
  return std::move(specs_);
}

BoundValues::BoundValues(const std::vector<protocol::ColumnSpec>& specs,
                         const protocol::QueryParameters& params)
    : values_(&params.values), function_context_(DefaultFunctionContext()) {
  const bool named = (params.flags & protocol::kQueryFlagNamesForValues) != 0;
  if (named) {
    // As Cassandra's QueryOptions: each marker takes the value whose name is
    // the marker's spec name; a marker no name matches leaves the count short.
    reordered_.reserve(specs.size());
    for (const auto& spec : specs) {
      for (size_t j = 0; j < params.names.size() && j < params.values.size(); ++j) {
        if (params.names[j] == spec.name) {
          reordered_.push_back(params.values[j]);
          break;
        }
      }
    }
    values_ = &reordered_;
  }
  if (values_->size() != specs.size()) ThrowInvalid("Invalid amount of bind variables");
}

void BoundValues::ThrowBadIndex(int index) const {
  SIBYL_CHECK(false, "Bind marker " + std::to_string(index) +
                         " is out of range: the request binds " + std::to_string(values_->size()) +
                         " values");
}

}  // namespace sibyl::query
