#pragma once
// One execution of an INSERT, UPDATE or DELETE, bound to its request: the
// values its key columns and column operations take, and the partitions,
// rows and clustering ranges it writes, worked out once
// (ModificationStatement::Bind). Plain writes, batches and lightweight
// transactions all take their keys from here, so a term in a key
// (`VALUES (uuid())`, `WHERE k = ? + 1`) is evaluated once per execution, as
// Cassandra evaluates it, and what a transaction reads is the partition it
// writes.
//
// The values are the request's, except for INSERT JSON: there every column
// of the table is bound to a private marker of its own (index = column
// index) whose value comes from the parsed document (modification_statement.h).
//
// A BoundWrite views the request's BoundValues: they must outlive it. Not
// thread-safe; one request uses it.

#include <memory>
#include <vector>

#include "common/bytes.h"
#include "protocol/request.h"
#include "query/restrictions/restrictions.h"
#include "query/statements/insert_json.h"
#include "query/terms/bind_variables.h"
#include "storage/data/mutation.h"

namespace sibyl::query {

class ModificationStatement;

class BoundWrite {
 public:
  BoundWrite(BoundWrite&&) = default;
  BoundWrite& operator=(BoundWrite&&) = default;

  // The values of the statement's own markers (USING TTL / TIMESTAMP, IF conditions).
  const BoundValues& request() const { return *request_; }
  // The values of the key columns and the column operations: the request's,
  // or the INSERT JSON document's.
  const BoundValues& data() const { return json_ ? json_->values : *request_; }

  // The partitions written, each once, in the order of their key values.
  // Never empty but for an empty IN.
  const std::vector<storage::PartitionKey>& partition_keys() const { return keys_.partitions; }
  // The rows written, when the statement deletes no clustering ranges: every
  // combination of the clustering's = and IN values, once each in
  // clustering order (none for an empty IN), or one empty clustering when no
  // clustering column is restricted (a table without clustering columns,
  // the static row, a whole partition).
  const std::vector<storage::Clustering>& clusterings() const { return keys_.clusterings; }
  // The clustering ranges a DELETE removes, when it deletes ranges (empty
  // when the range is empty).
  const std::vector<storage::ClusteringSlice>& ranges() const { return keys_.ranges; }

 private:
  friend class ModificationStatement;

  // INSERT JSON's document and the column values bound from it.
  struct JsonValues {
    JsonValues(JsonColumnValues parsed, bool default_unset,
               const std::vector<protocol::ColumnSpec>& column_specs);
    JsonColumnValues document;         // owns the bytes `params` views
    protocol::QueryParameters params;  // one value per column
    BoundValues values;
  };

  explicit BoundWrite(const BoundValues& request) : request_(&request) {}

  const BoundValues* request_;
  std::unique_ptr<const JsonValues> json_;  // INSERT JSON only
  BoundWriteKeys keys_;
};

}  // namespace sibyl::query
