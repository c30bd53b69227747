#pragma once
// The on-disk form of the schema a node's LocalMetadataStore keeps: every
// keyspace that is not built in (keyspaces, user types, tables, columns,
// options, dropped columns, table ids) plus the replication of the
// replicated system keyspaces, which users may ALTER. Built-in tables are
// not stored: they come from the code of the running version.
//
// Format, version 3 (integers big-endian; see docs/dev/schema-store.md):
//
//   file      := magic "SIBYLSCH" | u32 format_version (3) | u64 epoch
//                | u32 body_length | body | u32 crc32(body)   (zlib's CRC-32)
//   body      := u32 n | keyspace × n
//   keyspace  := str name | u8 durable_writes | map replication
//                | u8 has_contents                     (0: a system keyspace, params only)
//                [ u32 n | user_type × n               (dependencies first)
//                  u32 n | table × n
//                  u32 n | view × n ]
//   user_type := str name | u32 n | (str field_name | str field_type) × n
//   table     := str name | 16 bytes id | u32 n | column × n | params
//                | u32 n | str flag × n | u32 n | index × n | u32 n | dropped × n
//   column    := str name | str type | u8 kind | i32 position | u8 clustering_order
//   params    := str additional_write_policy | f64 bloom_filter_fp_chance | map caching
//                | u8 cdc | str comment | map compaction | map compression
//                | f64 crc_check_chance | i32 default_time_to_live | map extensions
//                | i32 gc_grace_seconds | i32 max_index_interval
//                | u8 has_memtable [str memtable] | i32 memtable_flush_period_in_ms
//                | i32 min_index_interval | str read_repair | str speculative_retry
//   index     := str name | str kind | map options | 16 bytes id
//   view      := table | str base_table | 16 bytes base_table_id
//                | u8 include_all_columns | str where_clause
//                | u32 n | (str column | u8 op | u32 n | str value × n) × n
//   dropped   := str name | str type | u8 kind | i64 dropped_time_micros
//   str       := u32 length | bytes           map := u32 n | (str key | str value) × n
//   f64       := the IEEE 754 bits as a u64
//
// Types are stored as their CQL text (types::CqlType::ToCql) and read back
// with types::ParseCqlType, user types resolved against the keyspace's
// types read before them. Enum values (kind, order) are ColumnKind and
// ClusteringOrder's, op is ViewRestriction::Op's — do not change them.

#include <cstdint>
#include <stdexcept>

#include "common/bytes.h"
#include "schema/schema.h"

namespace sibyl::schema {

inline constexpr uint32_t kSchemaSnapshotFormatVersion = 3;  // 2: IndexMetadata::id; 3: views

[[nodiscard]] Bytes EncodeSchemaSnapshot(const Schema& schema, uint64_t epoch);

struct DecodedSchemaSnapshot {
  Schema::KeyspaceMap keyspaces;
  uint64_t epoch = 0;
};

// The stored keyspaces laid over `built_in` (the keyspaces every node
// starts with). Throws std::runtime_error saying what is wrong when the
// bytes are not a snapshot this version can read.
[[nodiscard]] DecodedSchemaSnapshot DecodeSchemaSnapshot(BytesView data,
                                                         const Schema::KeyspaceMap& built_in);

}  // namespace sibyl::schema
