#pragma once
// The binary forms of ReadCommand and ReadResult that travel between a
// coordinator and its replicas (Mutation::SerializeTo is the writes' one).
// Versioned: the first byte is the format version, which changes whenever
// the layout does; readers keep accepting every older version. Integers are
// Cassandra-style vints (types/vint.h); `bytes` is uvint(length) then the
// bytes; `[x]` is present when its flag bit is set.
//
//   command   := version(1 byte = 1) table_id(16) flags(1)
//                (uvint(n) partition_key*n | svint(range.start) svint(range.end))
//                uvint(n) (bound(start) bound(end))*n   -- slices
//                [uvint(n) bytes(column)*n]              -- columns
//                svint(row_limit) svint(per_partition_limit) svint(partition_limit)
//                [position(resume_after)] svint(now_seconds)
//                [uuid(index_id)(16) bytes(value) [bytes(entry_value)]]  -- index
//   flags     := 1: reversed, 2: columns, 4: resume_after, 8: named partitions,
//                16: index, 32: the index query has an entry_value (only with
//                16; 16 never with 8)
//   partition_key := svint(token) bytes(key)
//   bound     := uvint(values << 1 | inclusive) bytes(value)*values
//   position  := flags(1: last_row, 2: last_was_static) partition_key
//                [uvint(n) bytes(value)*n] svint(rows_in_partition)
//
//   result    := version(1 byte = 1) flags(1: next) uvint(n) partition*n
//                [position(next)] svint(tombstones_scanned)
//   partition := partition_key flags(1: static row) [row] uvint(n) row*n
//   row       := uvint(n) bytes(value)*n                 -- clustering
//                svint(timestamp) svint(ttl) svint(local_expiration_time)  -- marker
//                uvint(n) cell*n
//   cell      := flags(1: path) bytes(column) [bytes(path)] bytes(value)
//                svint(timestamp) svint(ttl) svint(local_expiration_time)
//
// Decoding trusts nothing it reads: a length or count beyond the input, an
// unknown version or flag, a 32-bit field out of range, or bytes left over
// are std::runtime_error, never a crash; memory grows only with what
// decoded (no allocation is sized by a count read from the input).

#include "common/bytes.h"
#include "storage/data/read_command.h"

namespace sibyl::storage {

void SerializeReadCommand(const ReadCommand& command, Bytes& out);
// Throws std::runtime_error on bytes that are not a serialized ReadCommand.
[[nodiscard]] ReadCommand DeserializeReadCommand(BytesView bytes);

void SerializeReadResult(const ReadResult& result, Bytes& out);
// Throws std::runtime_error on bytes that are not a serialized ReadResult.
[[nodiscard]] ReadResult DeserializeReadResult(BytesView bytes);

}  // namespace sibyl::storage
