#include "schema/schema.h"

#include <cstring>

#include "schema/view_lookup.h"
#include "schema/virtual_keyspaces.h"

namespace sibyl::schema {
namespace {

// The digest input is a canonical, unambiguous serialization of the schema:
// every field is length-prefixed and every collection is written in its
// (sorted) map order, so equal contents always give equal bytes.
void AppendField(Bytes& out, std::string_view field) {
  AppendBE32(out, static_cast<uint32_t>(field.size()));
  out.append(field);
}

void AppendNumber(Bytes& out, int64_t v) { AppendBE64(out, static_cast<uint64_t>(v)); }

void AppendDouble(Bytes& out, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  AppendBE64(out, bits);
}

template <typename Map>
void AppendMap(Bytes& out, const Map& map) {
  AppendBE32(out, static_cast<uint32_t>(map.size()));
  for (const auto& [key, value] : map) {
    AppendField(out, key);
    AppendField(out, value);
  }
}

void AppendParams(Bytes& out, const TableParams& p) {
  AppendField(out, p.additional_write_policy);
  AppendDouble(out, p.bloom_filter_fp_chance);
  AppendMap(out, p.caching);
  AppendNumber(out, p.cdc);
  AppendField(out, p.comment);
  AppendMap(out, p.compaction);
  AppendMap(out, p.compression);
  AppendDouble(out, p.crc_check_chance);
  AppendNumber(out, p.default_time_to_live);
  AppendMap(out, p.extensions);
  AppendNumber(out, p.gc_grace_seconds);
  AppendNumber(out, p.max_index_interval);
  AppendField(out, p.memtable.value_or(""));
  AppendNumber(out, p.memtable.has_value());
  AppendNumber(out, p.memtable_flush_period_in_ms);
  AppendNumber(out, p.min_index_interval);
  AppendField(out, p.read_repair);
  AppendField(out, p.speculative_retry);
}

void AppendTable(Bytes& out, const TableMetadata& table) {
  AppendField(out, table.name);
  out.append(table.id.View());
  AppendBE32(out, static_cast<uint32_t>(table.columns.size()));
  for (const auto& column : table.columns) {
    AppendField(out, column.name);
    AppendField(out, column.type->ToCql());
    AppendNumber(out, static_cast<int64_t>(column.kind));
    AppendNumber(out, column.position);
    AppendNumber(out, static_cast<int64_t>(column.order));
  }
  AppendParams(out, table.params);
  AppendBE32(out, static_cast<uint32_t>(table.flags.size()));
  for (const auto& flag : table.flags) AppendField(out, flag);
  AppendBE32(out, static_cast<uint32_t>(table.indexes.size()));
  for (const auto& index : table.indexes) {
    AppendField(out, index.name);
    AppendField(out, index.kind);
    AppendMap(out, index.options);
  }
  AppendBE32(out, static_cast<uint32_t>(table.dropped_columns.size()));
  for (const auto& [name, dropped] : table.dropped_columns) {
    AppendField(out, name);
    AppendField(out, dropped.type->ToCql());
    AppendNumber(out, static_cast<int64_t>(dropped.kind));
    AppendNumber(out, dropped.dropped_time_micros);
  }
  // What makes a view a view: its base, selection and WHERE clause.
  AppendNumber(out, table.view.has_value());
  if (table.view) {
    const ViewDefinition& view = *table.view;
    AppendField(out, view.base_table);
    out.append(view.base_table_id.View());
    AppendNumber(out, view.include_all_columns);
    AppendField(out, view.where_clause);
    AppendBE32(out, static_cast<uint32_t>(view.restrictions.size()));
    for (const ViewRestriction& restriction : view.restrictions) {
      AppendField(out, restriction.column);
      AppendNumber(out, static_cast<int64_t>(restriction.op));
      AppendBE32(out, static_cast<uint32_t>(restriction.values.size()));
      for (const Bytes& value : restriction.values) AppendField(out, value);
    }
  }
}

void AppendUserType(Bytes& out, const types::CqlType& type) {
  AppendField(out, type.ToCql());
  for (size_t i = 0; i < type.field_names().size(); ++i) {
    AppendField(out, type.field_names()[i]);
    AppendField(out, type.params()[i]->ToCql());
  }
}

types::Uuid ComputeVersion(const Schema::KeyspaceMap& keyspaces) {
  Bytes digest_input;
  for (const auto& [name, keyspace] : keyspaces) {
    AppendField(digest_input, name);
    AppendNumber(digest_input, keyspace->durable_writes);
    AppendMap(digest_input, keyspace->replication);
    AppendBE32(digest_input, static_cast<uint32_t>(keyspace->tables.size()));
    for (const auto& [table_name, table] : keyspace->tables) AppendTable(digest_input, *table);
    AppendBE32(digest_input, static_cast<uint32_t>(keyspace->views.size()));
    for (const auto& [view_name, view] : keyspace->views) AppendTable(digest_input, *view);
    AppendBE32(digest_input, static_cast<uint32_t>(keyspace->user_types.size()));
    for (const auto& [type_name, type] : keyspace->user_types) {
      AppendField(digest_input, type_name);
      AppendUserType(digest_input, *type);
    }
  }
  return types::Uuid::NameBased(digest_input);
}

}  // namespace

bool SameTableDefinition(const TableMetadata& a, const TableMetadata& b) {
  Bytes left;
  Bytes right;
  AppendTable(left, a);
  AppendTable(right, b);
  return left == right;
}

bool SameUserType(const types::CqlType& a, const types::CqlType& b) {
  Bytes left;
  Bytes right;
  AppendUserType(left, a);
  AppendUserType(right, b);
  return left == right;
}

Schema::Schema(KeyspaceMap keyspaces)
    : keyspaces_(std::move(keyspaces)), version_(ComputeVersion(keyspaces_)) {}

const KeyspaceMetadata* Schema::FindKeyspace(std::string_view name) const {
  auto it = keyspaces_.find(name);
  return it == keyspaces_.end() ? FindVirtualKeyspace(name) : it->second.get();
}

TablePtr Schema::FindTable(std::string_view keyspace, std::string_view table) const {
  const KeyspaceMetadata* ks = FindKeyspace(keyspace);
  return ks == nullptr ? nullptr : FindTableOrView(*ks, table);
}

}  // namespace sibyl::schema
