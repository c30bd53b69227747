#pragma once
// Helpers for the restrictions and read plan tests: a WHERE clause prepared
// from the text of a SELECT, and bound to values the test owns.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "cql/parser.h"
#include "query/restrictions/restrictions.h"
#include "schema/table_builder.h"
#include "types/value_codec.h"

namespace sibyl::query::testing {

// A SELECT's WHERE clause, prepared, with the request values it binds.
class PreparedWhere {
 public:
  PreparedWhere(const schema::TableMetadata& table, std::string_view select) : table_(table) {
    cql::ParsedStatement parsed = cql::ParseStatement(select);
    const auto& statement = std::get<cql::SelectStatement>(parsed.statement);
    BindSpecCollector binds(table.keyspace, table.name, parsed.bind_marker_count);
    restrictions_ = std::make_unique<Restrictions>(
        Restrictions::Prepare(table, statement.where, statement.allow_filtering, binds));
    specs_ = binds.Take();
  }

  const Restrictions& restrictions() const { return *restrictions_; }
  const std::vector<protocol::ColumnSpec>& specs() const { return specs_; }

  // Binds the values (nullopt: null; kUnset: unset) and builds the plan.
  BoundRestrictions Bind(std::vector<std::optional<Bytes>> values = {}, int unset_index = -1) {
    owned_ = std::move(values);
    params_.values.clear();
    for (size_t i = 0; i < owned_.size(); ++i) {
      if (static_cast<int>(i) == unset_index) {
        params_.values.push_back(Value::Unset());
      } else if (owned_[i]) {
        params_.values.push_back(Value::Of(*owned_[i]));
      } else {
        params_.values.push_back(Value::Null());
      }
    }
    bound_ = std::make_unique<BoundValues>(specs_, params_);
    return restrictions_->Bind(table_, *bound_);
  }

 private:
  const schema::TableMetadata& table_;
  std::unique_ptr<Restrictions> restrictions_;
  std::vector<protocol::ColumnSpec> specs_;
  std::vector<std::optional<Bytes>> owned_;
  protocol::QueryParameters params_;
  std::unique_ptr<BoundValues> bound_;
};

// The message of the CqlError `f` throws; fails the test when it does not throw.
template <typename F>
std::string ErrorOf(F&& f) {
  try {
    f();
  } catch (const CqlError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected an error";
  return "";
}

}  // namespace sibyl::query::testing
