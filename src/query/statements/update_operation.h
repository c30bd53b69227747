#pragma once
// One column operation of INSERT, UPDATE or DELETE, prepared against its
// column (Cassandra 4.1's cql3/Operation.java and the Setter / Appender /
// Discarder classes of Constants, Lists, Sets, Maps and UserTypes), and the
// cells and tombstones it writes into a row for one request.
//
// How each operation is stored (the storage layout of mutation.h):
//   c = v                simple or frozen column: one cell; null: a cell tombstone
//   c = v (multi-cell)   non-frozen collection / UDT: a collection deletion at
//                        timestamp - 1, then one cell per element / field
//   c = c ± n            counter: a kCounter cell holding the 8-byte delta
//   l = l + [..]         one cell per element at a new timeuuid path (now)
//   l = [..] + l         one cell per element at a timeuuid path in the past
//   l[i] = v / DELETE l[i] / l = l - [..]
//                        read the list first, then write / delete its element cells
//   s = s + {..} / s - {..}   one cell (empty value) / tombstone per element
//   m = m + {..} / m[k] = v / m = m - {k}   cells / tombstones at the keys
//   u.f = v / DELETE u.f  the field's cell (path: field index, 2 bytes big-endian)
//   DELETE c              a cell tombstone, or a collection deletion at timestamp

#include <cstdint>
#include <optional>
#include <string>

#include "common/clock.h"
#include "cql/ast_dml.h"
#include "query/terms/bind_variables.h"
#include "query/terms/term.h"
#include "schema/table_metadata.h"
#include "storage/data/mutation.h"
#include "storage/data/read_command.h"

namespace sibyl::query {

// What every cell of one request's write shares.
struct WriteContext {
  int64_t timestamp = 0;    // microseconds
  int32_t ttl = 0;          // seconds; 0: the cells do not expire
  int32_t now_seconds = 0;  // local deletion / expiration times start here
  Clock* clock = nullptr;   // list element paths (timeuuids) come from its time

  storage::Cell Live(Bytes value) const;
  storage::Cell Tombstone() const;
};

class UpdateOperation {
 public:
  // Each kind has its handler in update_operation.cc (kHandlers, in this order).
  enum class Kind {
    kSetSimple,     // c = v on a simple, frozen or tuple column
    kSetMultiCell,  // c = v on a non-frozen collection or UDT
    kCounterAdd,    // c = c + n / c = c - n (negate)
    kListAppend,
    kListPrepend,
    kListSetIndex,  // l[i] = v (reads the list)
    kListRemove,    // l = l - [..] (reads the list)
    kSetAdd,
    kSetRemove,  // s = s - {..}, and m = m - {keys}
    kMapPut,
    kMapSetKey,  // m[k] = v
    kFieldSet,   // u.f = v
    kDeleteColumn,
    kDeleteListIndex,  // DELETE l[i] (reads the list)
    kDeleteSetElement,
    kDeleteMapKey,
    kDeleteField,
  };

  // UPDATE's `SET ...` item. Throws CqlError(kInvalid) with Cassandra's
  // messages ("Invalid operation (c = c + 1) for non counter column c", ...).
  static UpdateOperation PrepareUpdate(const schema::ColumnMetadata& column, size_t column_index,
                                       const cql::UpdateOperation& raw, BindSpecCollector& binds);
  // INSERT's `(c) VALUES (v)`.
  static UpdateOperation PrepareSetValue(const schema::ColumnMetadata& column, size_t column_index,
                                         const cql::Term& value, BindSpecCollector& binds);
  // One item of DELETE's selection.
  static UpdateOperation PrepareDeletion(const schema::ColumnMetadata& column, size_t column_index,
                                         const cql::Deletion& raw, BindSpecCollector& binds);

  Kind kind() const { return kind_; }
  size_t column() const { return column_; }
  // Lists' set-by-index, remove and delete-by-index read the current list first.
  bool requires_read() const {
    return kind_ == Kind::kListSetIndex || kind_ == Kind::kListRemove ||
           kind_ == Kind::kDeleteListIndex;
  }

  // Adds the operation's cells, tombstones and collection deletions to `row`.
  // `existing` is the row as read before the write (null when it has no live
  // cell, or the operation reads nothing). Throws CqlError(kInvalid) for bad
  // values ("List index 5 out of bound, list has size 2", ...).
  void Apply(const schema::ColumnMetadata& column, const BoundValues& values,
             const WriteContext& context, const storage::ReadRow* existing,
             storage::RowWrite& row) const;

 private:
  // PrepareUpdate's `c = c + v` and `c = c - v`.
  static UpdateOperation PrepareArithmetic(const schema::ColumnMetadata& column,
                                           size_t column_index, const cql::UpdateOperation& raw,
                                           BindSpecCollector& binds);

  Kind kind_ = Kind::kSetSimple;
  size_t column_ = 0;
  std::optional<PreparedTerm> value_;
  std::optional<PreparedTerm> key_;  // list index, map key, set element to delete
  int field_ = -1;                   // UDT field index
};

}  // namespace sibyl::query
