#pragma once
// Which consistency levels a statement accepts, as Cassandra 4.1 checks them
// (db/ConsistencyLevel.java's validateFor* methods, and the statements and
// StorageProxy paths that call them). Each function throws
// CqlError(kInvalid) with 4.1's message; docs/dev/query.md says which
// statement calls which, and when.
//
//   ANY ConsistencyLevel is only supported for writes
//   You must use conditional updates for serializable writes
//   Consistency level ANY is not yet supported for counter table <table>
//   Counter operations are inherently non-serializable
//   Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL
//   <CL> is not supported as conditional update commit consistency. Use ANY if you mean
//     "make sure it is accepted but I don't care how many replicas commit it for non-SERIAL reads"
//   consistency level EACH_QUORUM not compatible with replication strategy (<class>)
//   Write operation require a read but consistency <CL> is not supported on reads
//   SERIAL/LOCAL_SERIAL consistency may only be requested for one partition at a time
//   NODE_LOCAL consistency level is highly dangerous and should be used only for debugging
//     purposes

#include <cstddef>
#include <cstdint>

#include "protocol/request.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// SERIAL or LOCAL_SERIAL (ConsistencyLevel.isSerialConsistency).
[[nodiscard]] bool IsSerialConsistency(uint16_t consistency);

// The serial consistency a request asks for: the protocol's optional
// field, SERIAL when absent (QueryOptions' default).
[[nodiscard]] uint16_t SerialConsistencyOf(const protocol::QueryParameters& params);

// QueryProcessor.processStatement: every QUERY and EXECUTE at NODE_LOCAL is
// refused (4.1's cassandra.enable_nodelocal_queries, false by default).
void RefuseNodeLocal(uint16_t consistency);

// ConsistencyLevel.validateForRead: a SELECT at ANY.
void ValidateConsistencyForRead(uint16_t consistency);

// ConsistencyLevel.validateForWrite (a non-counter table) or
// validateCounterForWrite (a counter table): an INSERT, UPDATE or DELETE
// without conditions at SERIAL or LOCAL_SERIAL; a counter update (`table`
// has counter columns) at ANY too.
void ValidateConsistencyForWrite(uint16_t consistency, const schema::TableMetadata& table,
                                 bool is_counter);

// A lightweight transaction: ConsistencyLevel.validateForCas on the serial
// consistency, then validateForCasCommit on the (commit) consistency, which
// refuses SERIAL, LOCAL_SERIAL, and EACH_QUORUM unless the keyspace of
// `table` uses NetworkTopologyStrategy (StorageProxy.doPaxos).
void ValidateConsistencyForCas(const protocol::QueryParameters& params,
                               const schema::TableMetadata& table, const schema::Schema& schema);

// ModificationStatement.readRequiredLists: a write whose list operation
// reads the current list first (l[i] = v, l = l - [...], DELETE l[i]) reads
// at the write's consistency: ANY is refused, and SERIAL / LOCAL_SERIAL (a
// BATCH, where nothing else refuses them) reads each of `partitions` with
// Paxos, one partition at a time.
void ValidateConsistencyForReadBeforeWrite(uint16_t consistency, size_t partitions);

// StorageProxy.read at SERIAL / LOCAL_SERIAL: a read of `partitions`
// named partitions in one go (a SELECT that is not paged) is refused when
// there are several. Paged reads and range reads are not refused.
void ValidateSerialReadPartitions(uint16_t consistency, size_t partitions);

}  // namespace sibyl::query
