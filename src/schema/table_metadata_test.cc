// Which table changes affect prepared statements (Cassandra 4.1's
// TableMetadata.changeAffectsPreparedStatements).

#include "schema/table_metadata.h"

#include <gtest/gtest.h>

namespace sibyl::schema {
namespace {

using types::CqlType;
using types::Kind;

ColumnMetadata Column(std::string name, types::Kind kind, ColumnKind column_kind, int position = -1,
                      ClusteringOrder order = ClusteringOrder::kNone) {
  ColumnMetadata column;
  column.name = std::move(name);
  column.type = CqlType::Native(kind);
  column.kind = column_kind;
  column.position = position;
  column.order = order;
  return column;
}

TableMetadata Table() {
  TableMetadata table;
  table.keyspace = "ks";
  table.name = "t";
  table.columns = {Column("k", Kind::kInt, ColumnKind::kPartitionKey, 0),
                   Column("c", Kind::kInt, ColumnKind::kClustering, 0, ClusteringOrder::kAsc),
                   Column("v", Kind::kText, ColumnKind::kRegular)};
  return table;
}

TEST(TableMetadataTest, ChangesThatAffectPreparedStatements) {
  const TableMetadata before = Table();
  EXPECT_FALSE(ChangeAffectsPreparedStatements(before, Table()));

  TableMetadata options = Table();
  options.params.comment = "new";
  options.params.compaction = {{"class", "LeveledCompactionStrategy"}};
  options.params.caching = {{"keys", "NONE"}};
  options.dropped_columns["old"] = DroppedColumn{"old", CqlType::Native(Kind::kInt)};
  EXPECT_FALSE(ChangeAffectsPreparedStatements(before, options));

  TableMetadata added = Table();
  added.columns.push_back(Column("w", Kind::kInt, ColumnKind::kRegular));
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, added));
  EXPECT_TRUE(ChangeAffectsPreparedStatements(added, before));

  TableMetadata retyped = Table();
  retyped.columns[2].type = CqlType::Native(Kind::kAscii);
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, retyped));

  TableMetadata renamed = Table();
  renamed.columns[1].name = "c2";
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, renamed));

  TableMetadata made_static = Table();
  made_static.columns[2].kind = ColumnKind::kStatic;
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, made_static));

  TableMetadata reversed = Table();
  reversed.columns[1].order = ClusteringOrder::kDesc;
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, reversed));

  TableMetadata ttl = Table();
  ttl.params.default_time_to_live = 60;
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, ttl));

  TableMetadata gc_grace = Table();
  gc_grace.params.gc_grace_seconds = 0;
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, gc_grace));

  TableMetadata indexed = Table();
  indexed.indexes.push_back(IndexMetadata{"i", "COMPOSITES", {{"target", "v"}}});
  EXPECT_TRUE(ChangeAffectsPreparedStatements(before, indexed));
  TableMetadata indexed_again = indexed;
  EXPECT_FALSE(ChangeAffectsPreparedStatements(indexed, indexed_again));
  indexed_again.indexes[0].options["target"] = "keys(v)";
  EXPECT_TRUE(ChangeAffectsPreparedStatements(indexed, indexed_again));

  TableMetadata compact = Table();
  compact.flags = {"dense"};
  EXPECT_TRUE(ChangeAffectsPreparedStatements(compact, before));  // DROP COMPACT STORAGE
  EXPECT_FALSE(ChangeAffectsPreparedStatements(before, before));
}

}  // namespace
}  // namespace sibyl::schema
