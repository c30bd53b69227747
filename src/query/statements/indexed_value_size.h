#pragma once
// Cassandra 4.1's refusal of a write whose indexed value is too large to be
// an index's partition key (CassandraIndex.validate): "Cannot index value of
// size N for index i on ks.t(c) (maximum allowed size=65535)", checked when
// the statement builds its mutations, before anything is written.

#include <vector>

#include "schema/table_metadata.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

// Throws CqlError(kInvalid) when a cell `mutations` writes holds a value an
// index of `table` would index and it is larger than 65535 bytes.
void CheckIndexedValueSizes(const schema::TableMetadata& table,
                            const std::vector<storage::Mutation>& mutations);

}  // namespace sibyl::query
