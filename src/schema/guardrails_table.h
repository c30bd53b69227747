#pragma once
// system_views.guardrails: every guardrail with its live settings, one row a
// guardrail, and the means to change them at once, on this node (Sibyl's:
// Cassandra 4.1 and 5.0 change them through JMX only):
//
//   SELECT * FROM system_views.guardrails WHERE name = 'page_size';
//   UPDATE system_views.guardrails SET warn_threshold = '1000',
//       fail_threshold = '5000' WHERE name = 'page_size';
//   UPDATE system_views.guardrails SET enabled = false WHERE name = 'allow_filtering';
//   UPDATE system_views.guardrails SET max_disk_size = '500GiB'
//       WHERE name = 'local_data_disk_usage';   -- data_disk_usage_max_disk_size
//
// Values are cassandra.yaml's text forms ('64KiB', '-1', '[ALL, ANY]');
// setting one to null disables a threshold and empties a set. A change is
// checked as a whole (guardrails::Guardrails::Apply) and refused with
// InvalidRequest and GuardrailsOptions' message; it is not persisted: the
// node starts again from its configuration.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

[[nodiscard]] std::unique_ptr<VirtualTable> MakeGuardrailsTable();

}  // namespace sibyl::schema
