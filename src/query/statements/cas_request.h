#pragma once
// Lightweight transactions (Cassandra 4.1's CQL3CasRequest and
// ModificationStatement / BatchStatement executeWithConditions): the
// conditional INSERT, UPDATE or DELETE, or a conditional BATCH, as one
// read-check-write of one partition under that partition's LWT lock
// (cluster::Coordinator::ReadThenMutate: Paxos among the replicas on a
// cluster, a local lock on one node), which makes the transactions on a
// partition linearizable.
//
// What is read: the rows the conditions are about (or, with only static
// conditions, the static row and the partition's first row, to tell a
// missing partition from one without static values); of their columns, every
// regular column when a statement writes regular rows, every static column
// when a conditional statement writes static columns, else those the
// conditions name.
//
// The write timestamp is the Paxos ballot's (on one node a
// clock.NextTimestampMicros() taken under the lock), so successive
// transactions on a partition write at increasing timestamps. As Paxos does
// (PartitionUpdate.updateAllTimestamp), every cell and row marker of the
// write gets it, and every deletion (row, range, partition, collection) gets
// it minus one; USING TIMESTAMP of a batch's unconditional statements and the
// request's default timestamp are thus ignored.
//
// The result set (ModificationStatement.buildCasResultSet): one boolean
// column `[applied]` (keyspace and table of the statement). When not applied
// it is followed, for every row read, by the values of
//   - IF NOT EXISTS / IF EXISTS anywhere: every column (SELECT * order);
//   - else the conditioned columns, without duplicates: the regular ones in
//     IF order, then the static ones; a BATCH puts the primary key columns
//     first and lists the columns statement by statement.
// When nothing was read, `[applied]` = false alone.
//
// Messages (InvalidRequest):
//   IN on the partition key is not supported with conditional updates|deletions
//   IN on the clustering key columns is not supported with conditional updates|deletions
//   Batch with conditions cannot span multiple tables
//   Batch with conditions cannot span multiple partitions
//   Batch with conditions cannot span multiple partitions (you cannot use IN on the partition key)
//   Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row
//   Cannot mix IF conditions and IF [NOT ]EXISTS for the same row
// and those of the consistency levels (consistency_rules.h).

#include <utility>
#include <vector>

#include "cluster/coordinator.h"
#include "common/clock.h"
#include "protocol/request.h"
#include "query/statements/modification_statement.h"
#include "query/statements/result.h"
#include "query/terms/bind_variables.h"

namespace sibyl::query {

// One statement of a transaction with its request's values.
struct CasStatement {
  const ModificationStatement* statement = nullptr;
  const BoundValues* values = nullptr;
};

// Runs the transaction. `is_batch` selects the BATCH form of the result set.
// `params` gives now_in_seconds (else clock.NowSeconds()) and the
// consistency levels: once every statement is bound and checked (4.1's
// makeCasRequest), they are checked as StorageProxy.cas checks them
// (ValidateConsistencyForCas, consistency_rules.h), against the keyspace's
// replication strategy in `schema`.
// REQUIRES: at least one statement has conditions; all on one table.
[[nodiscard]] RowsResult ExecuteCas(const std::vector<CasStatement>& statements, bool is_batch,
                                    const protocol::QueryParameters& params,
                                    const schema::Schema& schema, Clock& clock,
                                    cluster::Coordinator& coordinator);

// A conditional BATCH (some statement has IF ...): every statement must
// write the one partition of one table. Returns the batch's CAS result set.
// `params` is the batch's (now_in_seconds, consistency levels); each
// statement brings its values.
[[nodiscard]] RowsResult ExecuteConditionalBatch(
    const std::vector<std::pair<const ModificationStatement*, const BoundValues*>>& statements,
    const protocol::QueryParameters& params, const schema::Schema& schema, Clock& clock,
    cluster::Coordinator& coordinator);

// The prepare-time rule of a conditional BATCH (BatchStatement.validate):
// throws CqlError(kInvalid, "Batch with conditions cannot span multiple
// tables") unless every statement is on one table. No-op without conditions.
void ValidateConditionalBatch(const std::vector<const ModificationStatement*>& statements);

}  // namespace sibyl::query
