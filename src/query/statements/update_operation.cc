#include "query/statements/update_operation.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <limits>
#include <random>

#include "common/check.h"
#include "common/error.h"
#include "cql/term_text.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using Kind = UpdateOperation::Kind;
using schema::ColumnMetadata;
using types::CqlType;

bool IsMultiCell(const CqlType& type) {
  return !type.frozen() && (type.is_collection() || type.kind() == types::Kind::kUdt);
}

int FieldIndex(const CqlType& udt, const std::string& field) {
  const auto& names = udt.field_names();
  auto it = std::find(names.begin(), names.end(), field);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

Bytes FieldPath(int field) {
  Bytes path;
  AppendBE16(path, static_cast<uint16_t>(field));
  return path;
}

// The node part of the timeuuids that name list elements: random once per
// process, as Cassandra's is fixed per node.
uint64_t ListPathNode() {
  static const uint64_t node = [] {
    std::random_device device;
    return (uint64_t{device()} << 32) | device();
  }();
  return node;
}

// List elements are ordered by their timeuuid path. Appends take paths from
// the current time, each later than the last; prepends take paths mirrored
// before 2010-01-01 (Cassandra's Lists.PrecisionTime.REFERENCE_TIME), each
// batch earlier than the last, so a later prepend lands in front.
std::atomic<int64_t> last_append_100ns{0};
std::atomic<int64_t> last_prepend_100ns{std::numeric_limits<int64_t>::max()};
constexpr int64_t kPrependReferenceMillis = 1262304000000;

// The first of `count` consecutive fresh append timestamps (100 ns since the UUID epoch).
int64_t NextAppendTimes(Clock& clock, int64_t count) {
  const int64_t now = clock.NowMicros() * 10 + types::Uuid::kUnixEpochIn100ns;
  int64_t last = last_append_100ns.load();
  for (;;) {
    const int64_t first = std::max(now, last + 1);
    if (last_append_100ns.compare_exchange_weak(last, first + count - 1)) return first;
  }
}

int64_t NextPrependTimes(Clock& clock, int64_t count) {
  const int64_t now_millis = clock.NowMicros() / 1000;
  const int64_t mirrored = kPrependReferenceMillis - (now_millis - kPrependReferenceMillis);
  const int64_t wanted = mirrored * 10000 + types::Uuid::kUnixEpochIn100ns;
  int64_t last = last_prepend_100ns.load();
  for (;;) {
    const int64_t first = std::min(wanted, last - count);
    if (last_prepend_100ns.compare_exchange_weak(last, first)) return first;
  }
}

Bytes ListPath(int64_t time_100ns) {
  return types::Uuid::TimeBased(time_100ns, ListPathNode()).ToBytes();
}

std::string OperationText(const cql::UpdateOperation& raw) {
  const std::string& c = raw.column;
  const std::string v = cql::TermText(raw.value);
  switch (raw.kind) {
    case cql::UpdateOperation::Kind::kSet:
      return c + " = " + v;
    case cql::UpdateOperation::Kind::kPrepend:
      // Cassandra's Operation.Prepend writes a '-' here.
      return c + " = " + v + " - " + c;
    case cql::UpdateOperation::Kind::kAdd:
      return c + " = " + c + " + " + v;
    case cql::UpdateOperation::Kind::kSubtract:
      return c + " = " + c + " - " + v;
    case cql::UpdateOperation::Kind::kSetElement:
      return c + "[" + cql::TermText(*raw.element) + "] = " + v;
    case cql::UpdateOperation::Kind::kSetField:
      return c + "." + raw.field + " = " + v;
  }
  return c;
}

// The live cells of `column` in the row read before the write, in list order.
std::vector<const storage::ReadCell*> ExistingCells(const storage::ReadRow* row,
                                                    const std::string& column) {
  std::vector<const storage::ReadCell*> cells;
  if (row == nullptr) return cells;
  for (const auto& cell : row->cells) {
    if (cell.column == column && cell.path) cells.push_back(&cell);
  }
  return cells;
}

void AddCell(storage::RowWrite& row, const std::string& column, std::optional<Bytes> path,
             storage::Cell cell) {
  row.cells.push_back(storage::CellWrite{column, std::move(path), std::move(cell)});
}

}  // namespace

storage::Cell WriteContext::Live(Bytes value) const {
  storage::Cell cell;
  cell.timestamp = timestamp;
  cell.value = std::move(value);
  if (ttl > 0) {
    cell.kind = storage::Cell::Kind::kExpiring;
    cell.ttl = ttl;
    cell.local_deletion_time = now_seconds + ttl;
  }
  return cell;
}

storage::Cell WriteContext::Tombstone() const {
  storage::Cell cell;
  cell.kind = storage::Cell::Kind::kTombstone;
  cell.timestamp = timestamp;
  cell.local_deletion_time = now_seconds;
  return cell;
}

UpdateOperation UpdateOperation::PrepareSetValue(const ColumnMetadata& column, size_t column_index,
                                                 const cql::Term& value, BindSpecCollector& binds) {
  UpdateOperation op;
  op.column_ = column_index;
  op.value_ = PrepareTerm(value, column.name, column.type, binds);
  if (column.type->kind() == types::Kind::kCounter) {
    ThrowInvalid("Cannot set the value of counter column " + column.name +
                 " (counters can only be incremented/decremented, not set)");
  }
  op.kind_ = IsMultiCell(*column.type) ? Kind::kSetMultiCell : Kind::kSetSimple;
  return op;
}

namespace {

[[noreturn]] void ThrowInvalidOperation(const cql::UpdateOperation& raw, const std::string& what,
                                        const std::string& column) {
  ThrowInvalid("Invalid operation (" + OperationText(raw) + ") for " + what + " column " + column);
}

}  // namespace

// `c = c + v` and `c = c - v`: counters, and adding to or removing from collections.
UpdateOperation UpdateOperation::PrepareArithmetic(const ColumnMetadata& column,
                                                   size_t column_index,
                                                   const cql::UpdateOperation& raw,
                                                   BindSpecCollector& binds) {
  const CqlType& type = *column.type;
  const std::string& name = column.name;
  const bool add = raw.kind == cql::UpdateOperation::Kind::kAdd;
  UpdateOperation op;
  op.column_ = column_index;
  // As Cassandra, an addition converts its value before checking the column.
  if (add) op.value_ = PrepareTerm(raw.value, name, column.type, binds);
  if (!type.is_collection()) {
    if (type.kind() != types::Kind::kCounter) ThrowInvalidOperation(raw, "non counter", name);
    op.kind_ = Kind::kCounterAdd;
    op.field_ = add ? 1 : -1;  // the sign of the delta
    if (!add) op.value_ = PrepareTerm(raw.value, name, column.type, binds);
    return op;
  }
  if (type.frozen()) ThrowInvalidOperation(raw, "frozen collection", name);
  switch (type.kind()) {
    case types::Kind::kList:
      op.kind_ = add ? Kind::kListAppend : Kind::kListRemove;
      if (!add) op.value_ = PrepareTerm(raw.value, name, column.type, binds);
      break;
    case types::Kind::kSet:
      op.kind_ = add ? Kind::kSetAdd : Kind::kSetRemove;
      if (!add) op.value_ = PrepareTerm(raw.value, name, column.type, binds);
      break;
    default:  // map: adds entries, or removes a set of keys
      op.kind_ = add ? Kind::kMapPut : Kind::kSetRemove;
      if (!add) op.value_ = PrepareTerm(raw.value, name, CqlType::Set(type.params()[0]), binds);
      break;
  }
  return op;
}

UpdateOperation UpdateOperation::PrepareUpdate(const ColumnMetadata& column, size_t column_index,
                                               const cql::UpdateOperation& raw,
                                               BindSpecCollector& binds) {
  using RawKind = cql::UpdateOperation::Kind;
  const CqlType& type = *column.type;
  const std::string& name = column.name;
  auto invalid = [&](const std::string& what) { ThrowInvalidOperation(raw, what, name); };
  UpdateOperation op;
  op.column_ = column_index;
  switch (raw.kind) {
    case RawKind::kSet:
      return PrepareSetValue(column, column_index, raw.value, binds);
    case RawKind::kAdd:
    case RawKind::kSubtract:
      return PrepareArithmetic(column, column_index, raw, binds);
    case RawKind::kPrepend:
      op.value_ = PrepareTerm(raw.value, name, column.type, binds);
      if (type.kind() != types::Kind::kList) invalid("non list");
      if (type.frozen()) invalid("frozen list");
      op.kind_ = Kind::kListPrepend;
      return op;
    case RawKind::kSetElement:
      if (!type.is_collection()) invalid("non collection");
      if (type.frozen()) invalid("frozen collection");
      if (type.kind() == types::Kind::kSet) invalid("set");
      if (type.kind() == types::Kind::kList) {
        op.kind_ = Kind::kListSetIndex;
        op.key_ = PrepareTerm(*raw.element, "idx(" + name + ")", CqlType::Native(types::Kind::kInt),
                              binds);
        op.value_ = PrepareTerm(raw.value, "value(" + name + ")", type.params()[0], binds);
      } else {
        op.kind_ = Kind::kMapSetKey;
        op.key_ = PrepareTerm(*raw.element, "key(" + name + ")", type.params()[0], binds);
        op.value_ = PrepareTerm(raw.value, "value(" + name + ")", type.params()[1], binds);
      }
      return op;
    case RawKind::kSetField: {
      if (type.kind() != types::Kind::kUdt) invalid("non-UDT");
      if (type.frozen()) invalid("frozen UDT");
      const int field = FieldIndex(type, raw.field);
      if (field < 0) {
        ThrowInvalid("UDT column " + name + " does not have a field named " + raw.field);
      }
      op.kind_ = Kind::kFieldSet;
      op.field_ = field;
      op.value_ = PrepareTerm(raw.value, name + "." + raw.field,
                              type.params()[static_cast<size_t>(field)], binds);
      return op;
    }
  }
  return op;
}

UpdateOperation UpdateOperation::PrepareDeletion(const ColumnMetadata& column, size_t column_index,
                                                 const cql::Deletion& raw,
                                                 BindSpecCollector& binds) {
  const CqlType& type = *column.type;
  const std::string& name = column.name;
  UpdateOperation op;
  op.column_ = column_index;
  switch (raw.kind) {
    case cql::Deletion::Kind::kColumn:
      op.kind_ = Kind::kDeleteColumn;
      return op;
    case cql::Deletion::Kind::kElement:
      if (!type.is_collection()) {
        ThrowInvalid("Invalid deletion operation for non collection column " + name);
      }
      if (type.frozen()) {
        ThrowInvalid("Invalid deletion operation for frozen collection column " + name);
      }
      switch (type.kind()) {
        case types::Kind::kList:
          op.kind_ = Kind::kDeleteListIndex;
          op.key_ = PrepareTerm(*raw.element, "idx(" + name + ")",
                                CqlType::Native(types::Kind::kInt), binds);
          break;
        case types::Kind::kSet:
          op.kind_ = Kind::kDeleteSetElement;
          op.key_ = PrepareTerm(*raw.element, "value(" + name + ")", type.params()[0], binds);
          break;
        default:
          op.kind_ = Kind::kDeleteMapKey;
          op.key_ = PrepareTerm(*raw.element, "key(" + name + ")", type.params()[0], binds);
          break;
      }
      return op;
    case cql::Deletion::Kind::kField: {
      if (type.kind() != types::Kind::kUdt) {
        ThrowInvalid("Invalid field deletion operation for non-UDT column " + name);
      }
      if (type.frozen()) {
        ThrowInvalid("Frozen UDT column " + name + " does not support field deletions");
      }
      const int field = FieldIndex(type, raw.field);
      if (field < 0) {
        ThrowInvalid("UDT column " + name + " does not have a field named " + raw.field);
      }
      op.kind_ = Kind::kDeleteField;
      op.field_ = field;
      return op;
    }
  }
  return op;
}

namespace {

// One operation's inputs for one row: the handlers below each write one kind.
struct Application {
  const std::string& name;  // the column's
  const CqlType& type;
  const Value& value;
  const Value& key;  // list index, map key, set element
  int field;         // UDT field index
  const WriteContext& ctx;
  const storage::ReadRow* existing;
  storage::RowWrite& row;

  void Cell(std::optional<Bytes> path, storage::Cell cell) const {
    AddCell(row, name, std::move(path), std::move(cell));
  }
  // The value as a live cell, or a tombstone for null.
  storage::Cell ValueOrTombstone() const {
    return value.is_null() ? ctx.Tombstone() : ctx.Live(Bytes(value.bytes));
  }
  void DeleteCollection(int64_t at) const {
    row.collection_deletions.push_back(
        storage::CollectionDeletion{name, storage::DeletionTime{at, ctx.now_seconds}});
  }
  // New list elements, after (or before) every existing one.
  void AddListElements(const std::vector<BytesView>& elements, bool prepend) const {
    if (elements.empty()) return;
    const auto count = static_cast<int64_t>(elements.size());
    const int64_t first =
        prepend ? NextPrependTimes(*ctx.clock, count) : NextAppendTimes(*ctx.clock, count);
    for (size_t i = 0; i < elements.size(); ++i) {
      Cell(ListPath(first + static_cast<int64_t>(i)), ctx.Live(Bytes(elements[i])));
    }
  }
  // The path of the list element `key` addresses by position.
  Bytes ListElementPath(const char* null_list_message) const {
    // An empty int passes validation (Cassandra then fails reading it).
    if (key.bytes.empty()) ThrowInvalid("Invalid empty value for list index");
    const int32_t index = types::DecodeInt(key.bytes);
    const auto cells = ExistingCells(existing, name);
    if (cells.empty()) ThrowInvalid(null_list_message);
    if (index < 0 || static_cast<size_t>(index) >= cells.size()) {
      ThrowInvalid("List index " + std::to_string(index) + " out of bound, list has size " +
                   std::to_string(cells.size()));
    }
    return *cells[static_cast<size_t>(index)]->path;
  }
  bool ValueAbsent() const { return value.is_null() || value.is_unset(); }
};

void SetSimple(const Application& a) {
  if (!a.value.is_unset()) a.Cell(std::nullopt, a.ValueOrTombstone());
}

// c = v on a non-frozen collection or UDT: the old value goes, the new one's
// elements (or non-null fields) come in.
void SetMultiCell(const Application& a) {
  if (a.value.is_unset()) return;
  a.DeleteCollection(a.ctx.timestamp - 1);
  if (a.value.is_null()) return;
  switch (a.type.kind()) {
    case types::Kind::kList:
      a.AddListElements(types::DecodeListElements(a.value.bytes), /*prepend=*/false);
      return;
    case types::Kind::kSet:
      for (BytesView element : types::DecodeListElements(a.value.bytes)) {
        a.Cell(Bytes(element), a.ctx.Live(Bytes()));
      }
      return;
    case types::Kind::kMap:
      for (const auto& [k, v] : types::DecodeMapEntries(a.value.bytes)) {
        a.Cell(Bytes(k), a.ctx.Live(Bytes(v)));
      }
      return;
    default: {
      const auto fields = types::DecodeTupleComponents(a.value.bytes);
      for (size_t i = 0; i < fields.size(); ++i) {
        if (fields[i]) a.Cell(FieldPath(int(i)), a.ctx.Live(Bytes(*fields[i])));
      }
      return;
    }
  }
}

// c = c + n, or c = c - n (field < 0: negate).
void CounterAdd(const Application& a) {
  const bool add = a.field > 0;
  const char* null_message =
      add ? "Invalid null value for counter increment" : "Invalid null value for counter decrement";
  if (a.value.is_null()) ThrowInvalid(null_message);
  if (a.value.is_unset()) return;
  if (a.value.bytes.size() != 8) ThrowInvalid(null_message);
  int64_t delta = types::DecodeBigint(a.value.bytes);
  if (!add) {
    if (delta == std::numeric_limits<int64_t>::min()) {
      ThrowInvalid("The negation of " + std::to_string(delta) +
                   " overflows supported counter precision (signed 8 bytes integer)");
    }
    delta = -delta;
  }
  storage::Cell cell;
  cell.kind = storage::Cell::Kind::kCounter;
  cell.timestamp = a.ctx.timestamp;
  cell.value = types::EncodeBigint(delta);
  a.Cell(std::nullopt, std::move(cell));
}

void ListAppend(const Application& a) {
  if (!a.ValueAbsent()) a.AddListElements(types::DecodeListElements(a.value.bytes), false);
}

void ListPrepend(const Application& a) {
  if (!a.ValueAbsent()) a.AddListElements(types::DecodeListElements(a.value.bytes), true);
}

void ListSetIndex(const Application& a) {
  if (a.key.is_null()) ThrowInvalid("Invalid null value for list index");
  if (a.key.is_unset()) ThrowInvalid("Invalid unset value for list index");
  Bytes path = a.ListElementPath("Attempted to set an element on a list which is null");
  if (!a.value.is_unset()) a.Cell(std::move(path), a.ValueOrTombstone());
}

void ListRemove(const Application& a) {
  if (a.ValueAbsent()) return;
  const auto discard = types::DecodeListElements(a.value.bytes);
  for (const storage::ReadCell* cell : ExistingCells(a.existing, a.name)) {
    if (std::find(discard.begin(), discard.end(), BytesView(cell->value)) != discard.end()) {
      a.Cell(*cell->path, a.ctx.Tombstone());
    }
  }
}

void SetAdd(const Application& a) {
  if (a.ValueAbsent()) return;
  for (BytesView element : types::DecodeListElements(a.value.bytes)) {
    a.Cell(Bytes(element), a.ctx.Live(Bytes()));
  }
}

void SetRemove(const Application& a) {
  if (a.ValueAbsent()) return;
  for (BytesView element : types::DecodeListElements(a.value.bytes)) {
    a.Cell(Bytes(element), a.ctx.Tombstone());
  }
}

void MapPut(const Application& a) {
  if (a.ValueAbsent()) return;
  for (const auto& [k, v] : types::DecodeMapEntries(a.value.bytes)) {
    a.Cell(Bytes(k), a.ctx.Live(Bytes(v)));
  }
}

void MapSetKey(const Application& a) {
  if (a.key.is_null()) ThrowInvalid("Invalid null map key");
  if (a.key.is_unset()) ThrowInvalid("Invalid unset map key");
  if (!a.value.is_unset()) a.Cell(Bytes(a.key.bytes), a.ValueOrTombstone());
}

void FieldSet(const Application& a) {
  if (!a.value.is_unset()) a.Cell(FieldPath(a.field), a.ValueOrTombstone());
}

void DeleteColumn(const Application& a) {
  if (IsMultiCell(a.type)) {
    a.DeleteCollection(a.ctx.timestamp);
  } else {
    a.Cell(std::nullopt, a.ctx.Tombstone());
  }
}

void DeleteListIndex(const Application& a) {
  if (a.key.is_null()) ThrowInvalid("Invalid null value for list index");
  if (a.key.is_unset()) return;
  a.Cell(a.ListElementPath("Attempted to delete an element from a list which is null"),
         a.ctx.Tombstone());
}

void DeleteSetElement(const Application& a) {
  if (a.key.is_null()) ThrowInvalid("Invalid null set element");
  if (!a.key.is_unset()) a.Cell(Bytes(a.key.bytes), a.ctx.Tombstone());
}

void DeleteMapKey(const Application& a) {
  if (a.key.is_null()) ThrowInvalid("Invalid null map key");
  if (a.key.is_unset()) ThrowInvalid("Invalid unset map key");
  a.Cell(Bytes(a.key.bytes), a.ctx.Tombstone());
}

void DeleteField(const Application& a) { a.Cell(FieldPath(a.field), a.ctx.Tombstone()); }

// The handler of each Kind, in the enum's order.
using Handler = void (*)(const Application&);
constexpr Handler kHandlers[] = {
    SetSimple,    SetMultiCell,    CounterAdd,       ListAppend,   ListPrepend, ListSetIndex,
    ListRemove,   SetAdd,          SetRemove,        MapPut,       MapSetKey,   FieldSet,
    DeleteColumn, DeleteListIndex, DeleteSetElement, DeleteMapKey, DeleteField,
};
static_assert(std::size(kHandlers) == static_cast<size_t>(Kind::kDeleteField) + 1,
              "one handler per UpdateOperation::Kind");

}  // namespace

void UpdateOperation::Apply(const ColumnMetadata& column, const BoundValues& values,
                            const WriteContext& ctx, const storage::ReadRow* existing,
                            storage::RowWrite& row) const {
  const Value value = value_ ? value_->Bind(values) : Value::Unset();
  const Value key = key_ ? key_->Bind(values) : Value::Unset();
  const auto kind = static_cast<size_t>(kind_);
  SIBYL_CHECK(kind < std::size(kHandlers), "update operation kind " + std::to_string(kind));
  kHandlers[kind](Application{column.name, *column.type, value, key, field_, ctx, existing, row});
}

}  // namespace sibyl::query
