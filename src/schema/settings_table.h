#pragma once
// system_views.settings: one row per configuration key of the node, from
// LocalNodeInfo::settings, as Cassandra 4.1's SettingsTable lists its
// cassandra.yaml properties (name → value as text, null when unset). The
// server decides which keys and how each value is written.

#include <memory>

#include "schema/virtual_table.h"

namespace sibyl::schema {

std::unique_ptr<VirtualTable> MakeSettingsTable();

}  // namespace sibyl::schema
