#pragma once
// system_views.model_warnings: each rule of the data model a statement
// broke on this node since it started (guardrails/model_warnings.h), per
// table — how often, the last statement that broke it and what its client
// was told, when first and last:
//
//   SELECT rule, table_name, count, example FROM system_views.model_warnings;
//
// Read-only.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeModelWarningsTable();

}  // namespace sibyl::schema
