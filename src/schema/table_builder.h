#pragma once
// Builds a TableMetadata from its column declarations, putting the columns
// in the order TableMetadata promises (partition key, clustering, then the
// rest by name). Used for the built-in system tables and, later, by
// CREATE TABLE.
//
//   TablePtr local = TableBuilder("system", "local")
//                        .SystemTableId()
//                        .PartitionKey("key", "text")
//                        .Column("cluster_name", "text")
//                        .Comment("information about the local node")
//                        .Build();

#include <string>
#include <string_view>
#include <vector>

#include "schema/table_metadata.h"

namespace sibyl::schema {

// Cassandra's TableId.forSystemTable: UUID.nameUUIDFromBytes(keyspace bytes ++ table bytes).
types::Uuid SystemTableId(std::string_view keyspace, std::string_view table);

class TableBuilder {
 public:
  TableBuilder(std::string keyspace, std::string name);

  // Types are CQL spellings ("text", "frozen<map<text, text>>"), parsed with types::ParseCqlType.
  // Key columns take their position from the order in which they are added.
  TableBuilder& PartitionKey(std::string name, std::string_view type);
  TableBuilder& Clustering(std::string name, std::string_view type,
                           ClusteringOrder order = ClusteringOrder::kAsc);
  TableBuilder& Column(std::string name, std::string_view type);
  TableBuilder& Static(std::string name, std::string_view type);

  TableBuilder& Id(const types::Uuid& id);
  TableBuilder& SystemTableId();  // Id(SystemTableId(keyspace, name))
  TableBuilder& Comment(std::string comment);
  TableBuilder& Index(IndexMetadata index);
  // Marks a table of a virtual keyspace (TableMetadata::is_virtual).
  TableBuilder& Virtual();
  // The table's options, to adjust before Build().
  TableParams& params() { return table_.params; }

  // REQUIRES: at least one partition key column; column names distinct.
  TablePtr Build();

 private:
  TableBuilder& Add(std::string name, std::string_view type, ColumnKind kind, int position,
                    ClusteringOrder order);

  TableMetadata table_;
  int partition_key_count_ = 0;
  int clustering_count_ = 0;
};

}  // namespace sibyl::schema
