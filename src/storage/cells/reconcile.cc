#include "storage/cells/reconcile.h"

#include "storage/cells/counter_context.h"

namespace sibyl::storage {
namespace {

bool IsExpiringOrTombstone(const StoredCell& cell) {
  return cell.kind == Cell::Kind::kExpiring || cell.kind == Cell::Kind::kTombstone;
}

}  // namespace

bool RegularCellWins(const StoredCell& a, const StoredCell& b) {
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
  bool a_special = IsExpiringOrTombstone(a);
  bool b_special = IsExpiringOrTombstone(b);
  if (a_special || b_special) {
    if (a_special != b_special) return a_special;
    if (a.is_tombstone() != b.is_tombstone()) return a.is_tombstone();
    if (a.local_deletion_time != b.local_deletion_time) {
      return a.local_deletion_time > b.local_deletion_time;
    }
  }
  int order = a.value.compare(b.value);  // std::string_view compares as unsigned bytes
  if (order != 0) return order > 0;
  // Equal in all Cassandra looks at: keep the larger ttl, so that the result
  // never depends on the order of arrival.
  return a.ttl >= b.ttl;
}

void ReconcileCells(const StoredCell& a, const StoredCell& b, Bytes& out) {
  out.clear();
  bool a_counter = a.kind == Cell::Kind::kCounter;
  bool b_counter = b.kind == Cell::Kind::kCounter;
  if (a_counter || b_counter) {
    // A deleted counter stays deleted (CASSANDRA-7346).
    if (a.is_tombstone()) return EncodeCell(a, out);
    if (b.is_tombstone()) return EncodeCell(b, out);
    if (a_counter && b_counter) {
      // Counters are never empty, except as Cassandra's placeholders for
      // unqueried columns, which resolveCounter prefers as they are.
      if (a.value.empty() != b.value.empty()) return EncodeCell(a.value.empty() ? a : b, out);
      if (a.value.empty()) return EncodeCell(a.timestamp >= b.timestamp ? a : b, out);
      // Apply validated both; a value corrupted on disk is left out rather
      // than merged into nonsense.
      if (!IsValidCounterValue(b.value)) return EncodeCell(a, out);
      if (!IsValidCounterValue(a.value)) return EncodeCell(b, out);
      Bytes merged;
      MergeCounterValues(a.value, b.value, merged);
      StoredCell sum{Cell::Kind::kCounter, std::max(a.timestamp, b.timestamp), 0, kNoDeletionTime,
                     merged};
      return EncodeCell(sum, out);
    }
    // A counter against a live non-counter cell cannot happen in a valid
    // schema (a table's counter columns are all counters); keep the newer.
  }
  EncodeCell(RegularCellWins(a, b) ? a : b, out);
}

Cell Reconcile(const Cell& a, const Cell& b) {
  Bytes encoded;
  ReconcileCells(StoredCell::Of(a), StoredCell::Of(b), encoded);
  return DecodeCell(encoded)->ToCell();
}

bool LivenessSupersedes(const LivenessInfo& a, const LivenessInfo& b) {
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp;
  bool a_expiring = a.ttl != 0;
  bool b_expiring = b.ttl != 0;
  if (a_expiring != b_expiring) return a_expiring;
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time > b.local_expiration_time;
  }
  return a.ttl > b.ttl;  // beyond Cassandra: order-independent
}

LivenessInfo Reconcile(const LivenessInfo& a, const LivenessInfo& b) {
  return LivenessSupersedes(b, a) ? b : a;
}

DeletionTime Reconcile(const DeletionTime& a, const DeletionTime& b) {
  return b.Supersedes(a) ? b : a;
}

bool ReconcileValues(BytesView a, BytesView b, Bytes& out) {
  auto tag = PeekValueTag(a);
  if (!tag || tag != PeekValueTag(b)) return false;
  switch (*tag) {
    case ValueTag::kCell: {
      auto left = DecodeCell(a);
      auto right = DecodeCell(b);
      if (!left || !right) return false;
      ReconcileCells(*left, *right, out);
      return true;
    }
    case ValueTag::kDeletion: {
      auto left = DecodeDeletion(a);
      auto right = DecodeDeletion(b);
      if (!left || !right) return false;
      out.clear();
      EncodeDeletion(Reconcile(*left, *right), out);
      return true;
    }
    case ValueTag::kLiveness: {
      auto left = DecodeLiveness(a);
      auto right = DecodeLiveness(b);
      if (!left || !right) return false;
      out.clear();
      EncodeLiveness(Reconcile(*left, *right), out);
      return true;
    }
  }
  return false;
}

}  // namespace sibyl::storage
