#include "schema/schema_snapshot_codec.h"

#include <cstring>
#include <functional>
#include <set>
#include <string>

#include "common/crc32.h"
#include "schema/system_keyspaces.h"
#include "schema/user_types.h"

namespace sibyl::schema {
namespace {

constexpr std::string_view kMagic = "SIBYLSCH";

// ---------------------------------------------------------------------------
// Writing.

void PutString(Bytes& out, std::string_view s) {
  AppendBE32(out, static_cast<uint32_t>(s.size()));
  out.append(s);
}

template <typename Map>
void PutMap(Bytes& out, const Map& map) {
  AppendBE32(out, static_cast<uint32_t>(map.size()));
  for (const auto& [key, value] : map) {
    PutString(out, key);
    PutString(out, value);
  }
}

void PutDouble(Bytes& out, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  AppendBE64(out, bits);
}

void PutInt(Bytes& out, int32_t v) { AppendBE32(out, static_cast<uint32_t>(v)); }

// User types in an order where each comes after the types it uses.
std::vector<const types::TypePtr*> TypesInDependencyOrder(const KeyspaceMetadata& keyspace) {
  std::vector<const types::TypePtr*> ordered;
  std::set<std::string> visited;
  std::function<void(const std::string&)> visit = [&](const std::string& name) {
    auto it = keyspace.user_types.find(name);
    if (it == keyspace.user_types.end() || !visited.insert(name).second) return;
    for (const auto& [other, type] : keyspace.user_types) {
      if (other == name) continue;
      for (const auto& field : it->second->params()) {
        if (ReferencesUserType(*field, keyspace.name, other)) {
          visit(other);
          break;
        }
      }
    }
    ordered.push_back(&it->second);
  };
  for (const auto& [name, type] : keyspace.user_types) visit(name);
  return ordered;
}

void PutParams(Bytes& out, const TableParams& p) {
  PutString(out, p.additional_write_policy);
  PutDouble(out, p.bloom_filter_fp_chance);
  PutMap(out, p.caching);
  AppendU8(out, p.cdc ? 1 : 0);
  PutString(out, p.comment);
  PutMap(out, p.compaction);
  PutMap(out, p.compression);
  PutDouble(out, p.crc_check_chance);
  PutInt(out, p.default_time_to_live);
  PutMap(out, p.extensions);
  PutInt(out, p.gc_grace_seconds);
  PutInt(out, p.max_index_interval);
  AppendU8(out, p.memtable ? 1 : 0);
  if (p.memtable) PutString(out, *p.memtable);
  PutInt(out, p.memtable_flush_period_in_ms);
  PutInt(out, p.min_index_interval);
  PutString(out, p.read_repair);
  PutString(out, p.speculative_retry);
}

void PutTable(Bytes& out, const TableMetadata& table) {
  PutString(out, table.name);
  out.append(table.id.View());
  AppendBE32(out, static_cast<uint32_t>(table.columns.size()));
  for (const ColumnMetadata& column : table.columns) {
    PutString(out, column.name);
    PutString(out, column.type->ToCql());
    AppendU8(out, static_cast<uint8_t>(column.kind));
    PutInt(out, column.position);
    AppendU8(out, static_cast<uint8_t>(column.order));
  }
  PutParams(out, table.params);
  AppendBE32(out, static_cast<uint32_t>(table.flags.size()));
  for (const auto& flag : table.flags) PutString(out, flag);
  AppendBE32(out, static_cast<uint32_t>(table.indexes.size()));
  for (const IndexMetadata& index : table.indexes) {
    PutString(out, index.name);
    PutString(out, index.kind);
    PutMap(out, index.options);
    out.append(index.id.View());
  }
  AppendBE32(out, static_cast<uint32_t>(table.dropped_columns.size()));
  for (const auto& [name, dropped] : table.dropped_columns) {
    PutString(out, name);
    PutString(out, dropped.type->ToCql());
    AppendU8(out, static_cast<uint8_t>(dropped.kind));
    AppendBE64(out, static_cast<uint64_t>(dropped.dropped_time_micros));
  }
}

// A materialized view: its table, then its ViewDefinition.
void PutView(Bytes& out, const TableMetadata& view) {
  PutTable(out, view);
  const ViewDefinition& definition = *view.view;
  PutString(out, definition.base_table);
  out.append(definition.base_table_id.View());
  AppendU8(out, definition.include_all_columns ? 1 : 0);
  PutString(out, definition.where_clause);
  AppendBE32(out, static_cast<uint32_t>(definition.restrictions.size()));
  for (const ViewRestriction& restriction : definition.restrictions) {
    PutString(out, restriction.column);
    AppendU8(out, static_cast<uint8_t>(restriction.op));
    AppendBE32(out, static_cast<uint32_t>(restriction.values.size()));
    for (const Bytes& value : restriction.values) PutString(out, value);
  }
}

// ---------------------------------------------------------------------------
// Reading.

class Reader {
 public:
  explicit Reader(BytesView data) : data_(data) {}

  BytesView Take(size_t n) {
    if (data_.size() - pos_ < n) throw std::runtime_error("schema snapshot is truncated");
    BytesView out = data_.substr(pos_, n);
    pos_ += n;
    return out;
  }
  uint8_t U8() { return static_cast<uint8_t>(Take(1)[0]); }
  uint32_t U32() { return LoadBE32(Take(4).data()); }
  uint64_t U64() { return LoadBE64(Take(8).data()); }
  int32_t I32() { return static_cast<int32_t>(U32()); }
  double F64() {
    const uint64_t bits = U64();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  std::string String() { return std::string(Take(U32())); }
  template <typename Map>
  Map ReadMap() {
    Map map;
    const uint32_t n = U32();
    for (uint32_t i = 0; i < n; ++i) {
      std::string key = String();
      map[std::move(key)] = String();
    }
    return map;
  }
  bool done() const { return pos_ == data_.size(); }

 private:
  BytesView data_;
  size_t pos_ = 0;
};

types::TypePtr ReadType(Reader& in, const std::string& keyspace, const UserTypeMap& user_types) {
  const std::string text = in.String();
  try {
    return ResolveUserTypes(types::ParseCqlType(text), keyspace, user_types);
  } catch (const std::exception& e) {
    throw std::runtime_error("schema snapshot has a type that does not resolve (" + text +
                             "): " + e.what());
  }
}

ColumnKind ReadKind(Reader& in) {
  const uint8_t kind = in.U8();
  if (kind > static_cast<uint8_t>(ColumnKind::kStatic)) {
    throw std::runtime_error("schema snapshot has an unknown column kind");
  }
  return static_cast<ColumnKind>(kind);
}

TableParams ReadParams(Reader& in) {
  TableParams p;
  p.additional_write_policy = in.String();
  p.bloom_filter_fp_chance = in.F64();
  p.caching = in.ReadMap<std::map<std::string, std::string>>();
  p.cdc = in.U8() != 0;
  p.comment = in.String();
  p.compaction = in.ReadMap<std::map<std::string, std::string>>();
  p.compression = in.ReadMap<std::map<std::string, std::string>>();
  p.crc_check_chance = in.F64();
  p.default_time_to_live = in.I32();
  p.extensions = in.ReadMap<std::map<std::string, Bytes>>();
  p.gc_grace_seconds = in.I32();
  p.max_index_interval = in.I32();
  if (in.U8() != 0) p.memtable = in.String();
  p.memtable_flush_period_in_ms = in.I32();
  p.min_index_interval = in.I32();
  p.read_repair = in.String();
  p.speculative_retry = in.String();
  return p;
}

TablePtr ReadTable(Reader& in, const std::string& keyspace, const UserTypeMap& user_types) {
  auto table = std::make_shared<TableMetadata>();
  table->keyspace = keyspace;
  table->name = in.String();
  table->id = types::Uuid::FromBytes(in.Take(16));
  const uint32_t columns = in.U32();
  for (uint32_t i = 0; i < columns; ++i) {
    ColumnMetadata column;
    column.name = in.String();
    column.type = ReadType(in, keyspace, user_types);
    column.kind = ReadKind(in);
    column.position = in.I32();
    const uint8_t order = in.U8();
    if (order > static_cast<uint8_t>(ClusteringOrder::kDesc)) {
      throw std::runtime_error("schema snapshot has an unknown clustering order");
    }
    column.order = static_cast<ClusteringOrder>(order);
    table->columns.push_back(std::move(column));
  }
  table->params = ReadParams(in);
  table->flags.clear();
  const uint32_t flags = in.U32();
  for (uint32_t i = 0; i < flags; ++i) table->flags.insert(in.String());
  const uint32_t indexes = in.U32();
  for (uint32_t i = 0; i < indexes; ++i) {
    IndexMetadata index;
    index.name = in.String();
    index.kind = in.String();
    index.options = in.ReadMap<std::map<std::string, std::string>>();
    index.id = types::Uuid::FromBytes(in.Take(16));
    table->indexes.push_back(std::move(index));
  }
  const uint32_t dropped = in.U32();
  for (uint32_t i = 0; i < dropped; ++i) {
    DroppedColumn column;
    column.name = in.String();
    column.type = ReadType(in, keyspace, user_types);
    column.kind = ReadKind(in);
    column.dropped_time_micros = static_cast<int64_t>(in.U64());
    table->dropped_columns.emplace(column.name, column);
  }
  return table;
}

TablePtr ReadView(Reader& in, const std::string& keyspace, const UserTypeMap& user_types) {
  auto view = std::make_shared<TableMetadata>(*ReadTable(in, keyspace, user_types));
  ViewDefinition& definition = view->view.emplace();
  definition.base_table = in.String();
  definition.base_table_id = types::Uuid::FromBytes(in.Take(16));
  definition.include_all_columns = in.U8() != 0;
  definition.where_clause = in.String();
  const uint32_t restrictions = in.U32();
  for (uint32_t i = 0; i < restrictions; ++i) {
    ViewRestriction restriction;
    restriction.column = in.String();
    const uint8_t op = in.U8();
    if (op > static_cast<uint8_t>(ViewRestriction::Op::kGte)) {
      throw std::runtime_error("schema snapshot has an unknown view restriction");
    }
    restriction.op = static_cast<ViewRestriction::Op>(op);
    const uint32_t values = in.U32();
    for (uint32_t v = 0; v < values; ++v) restriction.values.push_back(in.String());
    definition.restrictions.push_back(std::move(restriction));
  }
  return view;
}

}  // namespace

Bytes EncodeSchemaSnapshot(const Schema& schema, uint64_t epoch) {
  Bytes body;
  std::vector<const KeyspaceMetadata*> stored;
  for (const auto& [name, keyspace] : schema.keyspaces()) {
    if (!IsLocalSystemKeyspace(name)) stored.push_back(keyspace.get());
  }
  AppendBE32(body, static_cast<uint32_t>(stored.size()));
  for (const KeyspaceMetadata* keyspace : stored) {
    PutString(body, keyspace->name);
    AppendU8(body, keyspace->durable_writes ? 1 : 0);
    PutMap(body, keyspace->replication);
    const bool has_contents = !IsSystemKeyspace(keyspace->name);
    AppendU8(body, has_contents ? 1 : 0);
    if (!has_contents) continue;
    const auto ordered = TypesInDependencyOrder(*keyspace);
    AppendBE32(body, static_cast<uint32_t>(ordered.size()));
    for (const types::TypePtr* type : ordered) {
      PutString(body, (*type)->udt_name());
      AppendBE32(body, static_cast<uint32_t>((*type)->field_names().size()));
      for (size_t i = 0; i < (*type)->field_names().size(); ++i) {
        PutString(body, (*type)->field_names()[i]);
        PutString(body, (*type)->params()[i]->ToCql());
      }
    }
    AppendBE32(body, static_cast<uint32_t>(keyspace->tables.size()));
    for (const auto& [name, table] : keyspace->tables) PutTable(body, *table);
    AppendBE32(body, static_cast<uint32_t>(keyspace->views.size()));
    for (const auto& [name, view] : keyspace->views) PutView(body, *view);
  }

  Bytes out(kMagic);
  AppendBE32(out, kSchemaSnapshotFormatVersion);
  AppendBE64(out, epoch);
  AppendBE32(out, static_cast<uint32_t>(body.size()));
  out.append(body);
  AppendBE32(out, ZlibCrc32(body));
  return out;
}

DecodedSchemaSnapshot DecodeSchemaSnapshot(BytesView data, const Schema::KeyspaceMap& built_in) {
  Reader file(data);
  if (file.Take(kMagic.size()) != kMagic) throw std::runtime_error("not a schema snapshot");
  const uint32_t version = file.U32();
  if (version != kSchemaSnapshotFormatVersion) {
    throw std::runtime_error("schema snapshot format " + std::to_string(version) +
                             " is not one this version reads (" +
                             std::to_string(kSchemaSnapshotFormatVersion) + ")");
  }
  DecodedSchemaSnapshot decoded;
  decoded.epoch = file.U64();
  const BytesView body = file.Take(file.U32());
  const uint32_t checksum = file.U32();
  if (!file.done()) throw std::runtime_error("schema snapshot has trailing bytes");
  if (checksum != ZlibCrc32(body)) {
    throw std::runtime_error("schema snapshot checksum mismatch");
  }

  decoded.keyspaces = built_in;
  Reader in(body);
  const uint32_t keyspaces = in.U32();
  for (uint32_t k = 0; k < keyspaces; ++k) {
    auto keyspace = std::make_shared<KeyspaceMetadata>();
    keyspace->name = in.String();
    keyspace->durable_writes = in.U8() != 0;
    keyspace->replication = in.ReadMap<std::map<std::string, std::string>>();
    if (in.U8() == 0) {
      // A built-in keyspace: its tables come from the code, its parameters from here.
      auto it = decoded.keyspaces.find(keyspace->name);
      if (it == decoded.keyspaces.end()) continue;  // no longer built in: nothing to apply
      auto updated = std::make_shared<KeyspaceMetadata>(*it->second);
      updated->durable_writes = keyspace->durable_writes;
      updated->replication = std::move(keyspace->replication);
      it->second = std::move(updated);
      continue;
    }
    const uint32_t user_types = in.U32();
    for (uint32_t t = 0; t < user_types; ++t) {
      std::string name = in.String();
      const uint32_t fields = in.U32();
      std::vector<std::string> field_names;
      std::vector<types::TypePtr> field_types;
      for (uint32_t f = 0; f < fields; ++f) {
        field_names.push_back(in.String());
        field_types.push_back(ReadType(in, keyspace->name, keyspace->user_types));
      }
      keyspace->user_types.emplace(name,
                                   types::CqlType::Udt(keyspace->name, name, std::move(field_names),
                                                       std::move(field_types), /*frozen=*/false));
    }
    const uint32_t tables = in.U32();
    for (uint32_t t = 0; t < tables; ++t) {
      TablePtr table = ReadTable(in, keyspace->name, keyspace->user_types);
      keyspace->tables.emplace(table->name, std::move(table));
    }
    const uint32_t views = in.U32();
    for (uint32_t v = 0; v < views; ++v) {
      TablePtr view = ReadView(in, keyspace->name, keyspace->user_types);
      keyspace->views.emplace(view->name, std::move(view));
    }
    decoded.keyspaces[keyspace->name] = std::move(keyspace);
  }
  if (!in.done()) throw std::runtime_error("schema snapshot has trailing bytes in its body");
  return decoded;
}

}  // namespace sibyl::schema
