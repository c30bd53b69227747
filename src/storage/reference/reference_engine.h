#pragma once
// ReferenceEngine: an in-memory Engine that keeps every table in ordinary
// maps, written to be obviously correct rather than fast. It is the model
// the RocksDB engine is tested against (randomized, out-of-order writes) and
// a fake engine for query-layer tests. It orders clustering values with
// types::Compare, never with byte_comparable, so it checks the key codec
// instead of sharing its bugs. Flush() and Compact() do nothing (nothing is
// on disk, there is no memtable to write out, and nothing is purged);
// Flush(table) only refuses a table it does not know.
//
// THE SEMANTICS (the RocksDB engine must give the same answers)
//
// Reconciliation — every rule is commutative and associative, so the order
// writes arrive in never matters:
//  * Cells (Cassandra 4.1 Cells.reconcile / resolveRegular): the higher
//    timestamp wins; on a tie an expiring cell or a tombstone beats a
//    regular cell; then a tombstone beats an expiring cell; then (both
//    expiring or both tombstones) the later local_deletion_time wins; then
//    the greater value as unsigned bytes (a prefix is smaller). Where
//    Cassandra would keep either of two cells equal in all of that, the
//    larger ttl wins (so the result never depends on arrival order).
//    "Expiring" and "tombstone" are told by Cell::kind.
//  * Counters (resolveCounter): when either cell is a counter delta and the
//    other a tombstone, the tombstone wins whatever the timestamps
//    (CASSANDRA-7346: a deleted counter stays deleted until the tombstone is
//    purged); two tombstones reconcile as regular cells; two counters merge
//    into one (counter_context.h: deltas summed as 64-bit two's complement,
//    shards keeping each leader's higher clock), the larger timestamp. (As in Cassandra an empty
//    counter value, which Apply refuses anyway, wins over a non-empty one; two empty ones: the
//    larger timestamp.) So a counter cell's state is the reconciliation of all its writes, and a
//    deletion applies to that merged cell through its (largest) timestamp: increments written
//    before a row deletion count again once a later increment outlives it. Cassandra documents
//    counters reused after a deletion as unreliable; this is the order-independent reading of its
//    merge.
//  * Row markers (LivenessInfo.supersedes): higher timestamp; on a tie the
//    expiring one beats the non-expiring one; two expiring ones: the later
//    local_expiration_time (then the larger ttl).
//  * Deletions (partition, range, row, collection): the one with the higher
//    marked_for_delete_at, then the later local_deletion_time.
//
// Shadowing — a deletion D removes anything written at a timestamp <=
// D.marked_for_delete_at (a tie goes to the tombstone):
//  * the partition deletion: the static row and every row;
//  * a range tombstone: the rows its bounds cover (never the static row);
//  * a row deletion: its row's marker and cells;
//  * a collection deletion: the elements of that column in that row.
//  The deletion in force for a cell is the strongest of those that cover it.
//
// Liveness at ReadCommand::now_seconds:
//  * a regular cell and a counter live unless shadowed; an expiring cell
//    lives while now_seconds < local_deletion_time; a tombstone never.
//  * a row marker lives when set, not shadowed, and (ttl == 0 or
//    now_seconds < local_expiration_time).
//  * a regular row is returned when its marker or any cell of any regular
//    column lives — all columns count, not only the requested ones
//    (Cassandra fetches every column to decide liveness, CASSANDRA-10657).
//    So a row whose marker expired (INSERT ... USING TTL) while a later
//    UPDATE's cell lives is returned, with an empty marker and that cell.
//  * ReadRow::marker is the marker when it lives, else empty.
//  * ReadRow::cells holds the live cells of the requested columns, by
//    column name (bytes), then path in the element type's order (list:
//    timeuuid order; set: the element type; map: the key type; UDT field:
//    the 2-byte index). Counters come back as one cell whose value is the
//    8-byte big-endian total and whose timestamp is the merged one.
//  * the static row is returned (ReadPartition::static_row) when a requested
//    static column has a live cell; a marker on the static row does not
//    make it live (INSERT writes none there) but is returned when it lives.
//  * cells of columns the layout no longer has (dropped) are ignored.
//  * clustering values (or element paths) that compare equal but differ in
//    bytes (decimal 1.5 and 1.50, varint 01 and 00 01) name the same row
//    (element); which of the spellings a read returns is unspecified (here:
//    the first written; a byte-comparable key gives the canonical one).
//
// Reads:
//  * Partitions come in token order, then by key bytes (unsigned). Named
//    partitions may be listed in any order and more than once. A token range
//    is (start, end]; start == kMinimumToken means from the ring's start,
//    end == kMinimumToken to its end; start >= end (end not minimum) wraps
//    around the ring and is answered in ring order: the tokens after start
//    first, then those from the ring's start up to end (start == end is the
//    whole ring). resume_after follows the same order.
//  * Slices select rows in clustering order (DESC columns reversed);
//    `reversed` walks slices and rows backwards. A bound's prefix compares
//    with the first prefix.size() clustering values; an empty prefix is
//    unbounded whatever `inclusive` says.
//  * Counting (Cassandra's DataLimits.CQLLimits): every returned row counts
//    one against row_limit and per_partition_limit. A partition with no
//    live row in the selection but a live (requested) static row is
//    returned — and counts as one row — only when the read selects whole
//    partitions (no slices, or one slice unbounded at both ends) and does
//    not resume inside it; otherwise it is not returned at all (Cassandra's
//    SelectStatement drops such partitions). Every returned partition counts
//    one against partition_limit. A partition with nothing returned is left
//    out.
//  * `next` is set when the read stopped because row_limit or
//    partition_limit was reached — even if nothing is left (Cassandra does
//    not look ahead either: an exactly full page is followed by an empty
//    one). It names the last partition returned and, if the read stopped
//    inside it (row limit), last_row = the last row returned and
//    rows_in_partition = the rows of it returned so far (over all pages);
//    after a partition counted through its static row alone,
//    last_was_static = true and last_row is empty.
//  * resume_after: partitions before it are skipped. With last_row, the
//    read resumes in that partition after last_row (before it when
//    reversed): its static row comes again (each page's rows need the
//    static values), it does not count as static-only, and
//    per_partition_limit counts on from rows_in_partition. Without
//    last_row (or with last_was_static) the read starts at the next
//    partition.
//  * tombstones_scanned counts, in the partitions read: a partition
//    deletion, the range tombstones, row deletions and dead cells
//    (tombstones and expired or shadowed cells) of the rows looked at.
//    Approximate by design.
//
// ReadUnfiltered follows engine.h; range tombstones overlap slices by
// ClusteringRangesOverlap (clustering_order.h), as in the RocksDB engine.
//
// Apply validates the whole mutation (or, for ApplyAll, all of them) before
// changing anything: an unknown table is std::runtime_error; an unknown
// column, a counter delta in a non-counter column (or a value in a counter
// column), a path on a simple column or none on a multi-cell one, a static
// row with a regular column (or the reverse), and a clustering of the wrong
// size are std::invalid_argument.
//
// Thread-safety: all methods may be called concurrently (one shared mutex).

#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "storage/engine.h"

namespace sibyl::storage {

class ReferenceEngine final : public Engine {
 public:
  ReferenceEngine();
  ~ReferenceEngine() override;
  static std::unique_ptr<ReferenceEngine> Create() { return std::make_unique<ReferenceEngine>(); }

  void SyncTables(const std::vector<TableLayout>& tables) override;
  void Apply(const Mutation& mutation) override;
  void ApplyAll(const std::vector<const Mutation*>& mutations) override;
  // In memory: as durable as ApplyAll.
  void ApplyAllSynced(const std::vector<const Mutation*>& mutations) override {
    ApplyAll(mutations);
  }
  ReadResult Read(const ReadCommand& command) const override;
  std::vector<Mutation> ReadUnfiltered(const ReadCommand& command) const override;
  void Truncate(const types::Uuid& table_id) override;
  void Flush() override {}
  void Flush(const types::Uuid& table_id) override { (void)FindTable(table_id); }
  void Compact(const types::Uuid& table_id) override {}

  // The reconciliation rules above (exposed for tests, and for the RocksDB
  // engine's tests to compare against).
  [[nodiscard]] static Cell ReconcileCells(const Cell& a, const Cell& b);
  [[nodiscard]] static LivenessInfo ReconcileMarkers(const LivenessInfo& a, const LivenessInfo& b);
  [[nodiscard]] static DeletionTime ReconcileDeletions(const DeletionTime& a,
                                                       const DeletionTime& b);

 private:
  struct Table;

  Table& FindTable(const types::Uuid& id) const;
  void Validate(const Table& table, const Mutation& mutation) const;
  void ApplyLocked(Table& table, const Mutation& mutation);

  mutable std::shared_mutex mutex_;
  std::map<Bytes, std::unique_ptr<Table>> tables_;  // by table id bytes
};

}  // namespace sibyl::storage
