#pragma once
// Encoders for response bodies (native_protocol_v5.spec section 4.2). Each
// appends a body to `out`; the caller has written the envelope header with
// BeginResponse and patches its length afterwards. Nothing here allocates per
// row: rows are streamed into the output buffer.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/bytes.h"
#include "common/error.h"
#include "types/cql_type.h"

namespace sibyl::protocol {

// RESULT kinds — wire values.
enum class ResultKind : int32_t {
  kVoid = 0x0001,
  kRows = 0x0002,
  kSetKeyspace = 0x0003,
  kPrepared = 0x0004,
  kSchemaChange = 0x0005,
};

// Rows metadata flags.
constexpr int32_t kRowsFlagGlobalTablesSpec = 0x0001;
constexpr int32_t kRowsFlagHasMorePages = 0x0002;
constexpr int32_t kRowsFlagNoMetadata = 0x0004;
constexpr int32_t kRowsFlagMetadataChanged = 0x0008;  // v5

struct ColumnSpec {
  std::string keyspace;
  std::string table;
  std::string name;
  types::TypePtr type;
};

// ERROR body: code, message, and the code's extra fields (read/write failures
// carry a failure count before v5 and a reason map from v5 on; a CAS write
// timeout carries its contentions from v5 on). Pass the connection's version.
void EncodeError(Bytes& out, const CqlError& error, int version = 4);
void EncodeError(Bytes& out, ErrorCode code, std::string_view message);

// SUPPORTED body: a [string multimap].
void EncodeSupported(Bytes& out, const std::map<std::string, std::vector<std::string>>& options);

// AUTHENTICATE body: the authenticator class name.
void EncodeAuthenticate(Bytes& out, std::string_view authenticator);

void EncodeVoidResult(Bytes& out);
void EncodeSetKeyspaceResult(Bytes& out, std::string_view keyspace);

// Streams a ROWS result:
//   RowsWriter w(out, columns, version, skip_metadata, paging_state, metadata_id);
//   for each row: for each column: w.AddValue(v);  ... w.Finish();
// REQUIRES: exactly columns.size() values per row; Finish() called once.
class RowsWriter {
 public:
  RowsWriter(Bytes& out, const std::vector<ColumnSpec>& columns, int version, bool skip_metadata,
             std::optional<BytesView> paging_state,
             std::optional<BytesView> new_metadata_id = std::nullopt);
  void AddValue(const OptBytes& value) { value ? AddValue(BytesView(*value)) : AddNull(); }
  void AddValue(BytesView value);
  void AddNull();
  void Finish();  // patches the row count
  int32_t row_count() const { return rows_; }

 private:
  Bytes& out_;
  size_t count_offset_;
  size_t columns_;
  size_t values_in_row_ = 0;
  int32_t rows_ = 0;
};

// Appends result metadata (flags, column count, optional paging state, global
// or per-column table spec, column types) as used in ROWS and PREPARED.
void EncodeResultMetadata(Bytes& out, const std::vector<ColumnSpec>& columns, int version,
                          int32_t extra_flags, std::optional<BytesView> paging_state,
                          std::optional<BytesView> new_metadata_id = std::nullopt);

struct PreparedResult {
  Bytes id;
  Bytes result_metadata_id;                     // v5
  std::vector<ColumnSpec> bind_variables;       // "prepared metadata"
  std::vector<uint16_t> partition_key_indexes;  // v4+
  std::vector<ColumnSpec> result_columns;       // empty: no result metadata
};
void EncodePreparedResult(Bytes& out, const PreparedResult& prepared, int version);

// SCHEMA_CHANGE, as a RESULT body (kind 0x0005 + change) or as an EVENT body.
struct SchemaChange {
  enum class Type { kCreated, kUpdated, kDropped };
  enum class Target { kKeyspace, kTable, kType, kFunction, kAggregate };
  Type type = Type::kCreated;
  Target target = Target::kKeyspace;
  std::string keyspace;
  std::string name;                         // table / type / function / aggregate name
  std::vector<std::string> argument_types;  // functions and aggregates
};
void EncodeSchemaChangeResult(Bytes& out, const SchemaChange& change);

// EVENT bodies.
void EncodeSchemaChangeEvent(Bytes& out, const SchemaChange& change);
// change: "NEW_NODE" / "REMOVED_NODE" (topology) or "UP" / "DOWN" (status);
// address: 4 or 16 bytes.
void EncodeTopologyChangeEvent(Bytes& out, std::string_view change, BytesView address,
                               int32_t port);
void EncodeStatusChangeEvent(Bytes& out, std::string_view change, BytesView address, int32_t port);

}  // namespace sibyl::protocol
