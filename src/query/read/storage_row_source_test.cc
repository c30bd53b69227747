// SELECT over stored tables: the engine reads a SELECT's restrictions turn
// into, and the rows read partitions turn into (collections rebuilt from
// their cells, static values, writetime() and ttl()).

#include "query/read/storage_row_source.h"

#include "dht/token.h"
#include "query/read/engine_test_util.h"
#include "types/collection_value.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using storage::ReadCell;
using storage::ReadPartition;
using storage::ReadResult;
using storage::ReadRow;
using Fixture = testing::StorageQueryTest<testing::RecordingEngine>;

class StorageRowSourceTest : public Fixture {
 protected:
  void SetUp() override {
    CreateKeyspace();
    (void)Run(
        "CREATE TABLE ks.t (k int, c int, d text, s int STATIC, v int, "
        "PRIMARY KEY (k, c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)");
  }
  const storage::ReadCommand& LastRead() {
    EXPECT_FALSE(engine_.reads().empty());
    return engine_.reads().back();
  }
  static storage::PartitionKey IntKey(int32_t k) {
    storage::PartitionKey key;
    key.key = types::EncodeInt(k);
    key.token = dht::Murmur3Token(key.key);
    return key;
  }
  static ReadCell Cell(std::string column, Bytes value, int64_t timestamp = 10) {
    ReadCell cell;
    cell.column = std::move(column);
    cell.value = std::move(value);
    cell.timestamp = timestamp;
    return cell;
  }
};

TEST_F(StorageRowSourceTest, PartitionKeyEqualityNamesOnePartition) {
  (void)Rows("SELECT * FROM ks.t WHERE k = 1");
  const storage::ReadCommand& read = LastRead();
  EXPECT_EQ(read.table_id, Table("t").id);
  ASSERT_EQ(read.partitions.size(), 1u);
  EXPECT_EQ(read.partitions[0].key, types::EncodeInt(1));
  EXPECT_EQ(read.partitions[0].token, -4069959284402364209);  // Cassandra's token of int 1
  EXPECT_TRUE(read.slices.empty());
  EXPECT_EQ(read.now_seconds, clock_.NowSeconds());
}

TEST_F(StorageRowSourceTest, InReadsEveryPartitionOnceInKeyOrder) {
  size_t reads = engine_.reads().size();
  (void)Rows("SELECT * FROM ks.t WHERE k IN (2, 1, 2)");
  // One engine read per partition, in the order of the key values.
  ASSERT_EQ(engine_.reads().size(), reads + 2);
  const auto& first = engine_.reads()[reads];
  ASSERT_EQ(first.partitions.size(), 1u);
  EXPECT_EQ(first.partitions[0], IntKey(1));
  EXPECT_EQ(engine_.reads()[reads + 1].partitions[0], IntKey(2));
  reads = engine_.reads().size();
  EXPECT_TRUE(Rows("SELECT * FROM ks.t WHERE k IN ()").rows.empty());
  EXPECT_EQ(engine_.reads().size(), reads);  // nothing to read
}

TEST_F(StorageRowSourceTest, NoPartitionRestrictionScansTheRing) {
  (void)Rows("SELECT * FROM ks.t");
  EXPECT_TRUE(LastRead().partitions.empty());
  EXPECT_EQ(LastRead().range.start, dht::kMinimumToken);
  EXPECT_EQ(LastRead().range.end, dht::kMinimumToken);
}

TEST_F(StorageRowSourceTest, AnIndexReadCarriesItsIndexQuery) {
  ReadPlan plan;
  plan.range = {5, 500};
  plan.index = storage::IndexQuery{types::Uuid::NameBased("idx"), types::EncodeInt(3), "e"};
  const auto snapshot = store_.snapshot();
  const ReadRequest request{*snapshot, Table("t"), &plan};
  const storage::ReadCommand command = StorageRowSource::MakeReadCommand(request, 0);
  EXPECT_TRUE(command.partitions.empty());
  EXPECT_EQ(command.range.start, 5);
  EXPECT_EQ(command.range.end, 500);
  EXPECT_EQ(command.index, plan.index);
}

// A SELECT on a table with an index on v (added to the schema as CREATE
// INDEX would add it).
class IndexedSelectTest : public StorageRowSourceTest {
 protected:
  void SetUp() override {
    StorageRowSourceTest::SetUp();
    auto table = std::make_shared<schema::TableMetadata>(Table("t"));
    schema::IndexMetadata index;
    index.name = "t_v_idx";
    index.kind = "COMPOSITES";
    index.options["target"] = "v";
    index.id = types::Uuid::NameBased("t_v_idx");
    table->indexes.push_back(index);
    auto keyspaces = store_.snapshot()->keyspaces();
    auto keyspace = std::make_shared<schema::KeyspaceMetadata>(*keyspaces.at("ks"));
    keyspace->tables["t"] = table;
    keyspaces["ks"] = keyspace;
    store_.Publish(std::make_shared<schema::Schema>(std::move(keyspaces)));
  }
};

TEST_F(IndexedSelectTest, AnIndexedRestrictionReadsThroughTheIndex) {
  (void)Rows("SELECT * FROM ks.t WHERE v = 4");
  ASSERT_TRUE(LastRead().index.has_value());
  EXPECT_TRUE(LastRead().partitions.empty());
  EXPECT_EQ(LastRead().index->index_id, types::Uuid::NameBased("t_v_idx"));
  EXPECT_EQ(LastRead().index->value, types::EncodeInt(4));

  (void)Rows("SELECT * FROM ks.t WHERE token(k) > 0 AND v = 4");
  ASSERT_TRUE(LastRead().index.has_value());
  EXPECT_EQ(LastRead().range.start, 0);

  (void)Rows("SELECT * FROM ks.t WHERE k = 1 AND v = 4");
  EXPECT_FALSE(LastRead().index.has_value());
  EXPECT_EQ(LastRead().partitions, std::vector<storage::PartitionKey>{IntKey(1)});
}

TEST_F(IndexedSelectTest, Refusals) {
  EXPECT_STREQ(Error("SELECT * FROM ks.t WHERE k = 1 AND v = 4 ORDER BY c ASC").what(),
               "ORDER BY with 2ndary indexes is not supported.");
  EXPECT_STREQ(Error("SELECT * FROM ks.t WHERE v = 4 AND s = 1").what(),
               std::string(kRequiresAllowFilteringMessage).c_str());
  EXPECT_STREQ(
      Error("SELECT * FROM ks.t WHERE k IN (1, 2) AND v = 4").what(),
      "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
  (void)Rows("SELECT * FROM ks.t WHERE v = 4 AND s = 1 ALLOW FILTERING");
  EXPECT_TRUE(LastRead().index.has_value());
}

TEST_F(StorageRowSourceTest, ClusteringPrefixesBecomeSlicesInClusteringOrder) {
  (void)Rows("SELECT * FROM ks.t WHERE k = 1 AND c IN (1, 3, 2)");
  const auto& slices = LastRead().slices;
  ASSERT_EQ(slices.size(), 3u);
  // c is DESC: 3, 2, 1.
  EXPECT_EQ(slices[0].start.prefix, storage::Clustering{types::EncodeInt(3)});
  EXPECT_EQ(slices[0].end.prefix, storage::Clustering{types::EncodeInt(3)});
  EXPECT_EQ(slices[2].start.prefix, storage::Clustering{types::EncodeInt(1)});
}

TEST_F(StorageRowSourceTest, SliceOnADescendingColumnStartsAtItsUpperBound) {
  (void)Rows("SELECT * FROM ks.t WHERE k = 1 AND c > 1 AND c <= 5");
  const auto& slices = LastRead().slices;
  ASSERT_EQ(slices.size(), 1u);
  EXPECT_EQ(slices[0].start.prefix, storage::Clustering{types::EncodeInt(5)});
  EXPECT_TRUE(slices[0].start.inclusive);
  EXPECT_EQ(slices[0].end.prefix, storage::Clustering{types::EncodeInt(1)});
  EXPECT_FALSE(slices[0].end.inclusive);

  (void)Rows("SELECT * FROM ks.t WHERE k = 1 AND c = 2 AND d >= 'b'");
  const auto& prefixed = LastRead().slices;
  ASSERT_EQ(prefixed.size(), 1u);
  EXPECT_EQ(prefixed[0].start.prefix, (storage::Clustering{types::EncodeInt(2), "b"}));
  EXPECT_TRUE(prefixed[0].start.inclusive);
  EXPECT_EQ(prefixed[0].end.prefix, storage::Clustering{types::EncodeInt(2)});
}

TEST_F(StorageRowSourceTest, RowsCarryKeysStaticValuesAndCells) {
  ReadResult result;
  ReadPartition partition;
  partition.key = IntKey(1);
  ReadRow static_row;
  static_row.cells.push_back(Cell("s", types::EncodeInt(7)));
  partition.static_row = static_row;
  for (int c : {2, 1}) {
    ReadRow row;
    row.clustering = {types::EncodeInt(c), "x"};
    row.cells.push_back(Cell("v", types::EncodeInt(c * 10)));
    partition.rows.push_back(row);
  }
  result.partitions.push_back(partition);
  engine_.set_result(result);

  RowsResult rows = Rows("SELECT k, c, d, s, v FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[0][0], types::EncodeInt(1));
  EXPECT_EQ(rows.rows[0][1], types::EncodeInt(2));
  EXPECT_EQ(rows.rows[0][2], Bytes("x"));
  EXPECT_EQ(rows.rows[0][3], types::EncodeInt(7));
  EXPECT_EQ(rows.rows[0][4], types::EncodeInt(20));
  EXPECT_EQ(rows.rows[1][4], types::EncodeInt(10));
  EXPECT_EQ(rows.rows[1][3], types::EncodeInt(7));
}

TEST_F(StorageRowSourceTest, StaticOnlyPartitionIsOneRowUnlessClusteringIsRestricted) {
  ReadResult result;
  ReadPartition partition;
  partition.key = IntKey(1);
  ReadRow static_row;
  static_row.cells.push_back(Cell("s", types::EncodeInt(7)));
  partition.static_row = static_row;
  result.partitions.push_back(partition);
  engine_.set_result(result);

  RowsResult rows = Rows("SELECT k, c, s FROM ks.t WHERE k = 1");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][1], std::nullopt);
  EXPECT_EQ(rows.rows[0][2], types::EncodeInt(7));
  EXPECT_TRUE(Rows("SELECT k, c, s FROM ks.t WHERE k = 1 AND c = 1").rows.empty());
}

TEST_F(StorageRowSourceTest, WritetimeAndTtl) {
  ReadResult result;
  ReadPartition partition;
  partition.key = IntKey(1);
  ReadRow row;
  row.clustering = {types::EncodeInt(1), "x"};
  ReadCell v = Cell("v", types::EncodeInt(5), 1234);
  v.ttl = 100;
  v.local_expiration_time = clock_.NowSeconds() + 60;
  row.cells.push_back(v);
  partition.rows.push_back(row);
  ReadRow static_row;
  static_row.cells.push_back(Cell("s", types::EncodeInt(7), 99));
  partition.static_row = static_row;
  result.partitions.push_back(partition);
  engine_.set_result(result);

  RowsResult rows = Rows("SELECT writetime(v), ttl(v), writetime(s), ttl(s) AS t FROM ks.t");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(ColumnNames(rows),
            (std::vector<std::string>{"writetime(v)", "ttl(v)", "writetime(s)", "t"}));
  EXPECT_EQ((*rows.columns)[0].type->kind(), types::Kind::kBigint);
  EXPECT_EQ((*rows.columns)[1].type->kind(), types::Kind::kInt);
  EXPECT_EQ(rows.rows[0][0], types::EncodeBigint(1234));
  EXPECT_EQ(rows.rows[0][1], types::EncodeInt(60));
  EXPECT_EQ(rows.rows[0][2], types::EncodeBigint(99));
  EXPECT_EQ(rows.rows[0][3], std::nullopt);  // no TTL
}

TEST_F(StorageRowSourceTest, WritetimeAndTtlRefusals) {
  (void)Run("CREATE TABLE ks.c (k int PRIMARY KEY, l list<int>, f frozen<list<int>>)");
  EXPECT_STREQ(Error("SELECT writetime(k) FROM ks.c").what(),
               "Cannot use selection function writeTime on PRIMARY KEY part k");
  EXPECT_STREQ(Error("SELECT ttl(l) FROM ks.c").what(),
               "Cannot use selection function ttl on collections");
  EXPECT_STREQ(Error("SELECT writetime(f) FROM ks.c").what(),
               "Cannot use selection function writeTime on collections");
}

using Collections = Fixture;

TEST_F(Collections, RebuiltFromTheirCells) {
  CreateKeyspace();
  (void)Run("CREATE TYPE ks.pair (a int, b text)");
  (void)Run(
      "CREATE TABLE ks.c (k int PRIMARY KEY, l list<text>, s set<int>, "
      "m map<text, int>, u pair, e set<int>)");
  const types::Uuid early = types::Uuid::TimeBased(1000, 1);
  const types::Uuid late = types::Uuid::TimeBased(2000, 1);
  ReadResult result;
  ReadPartition partition;
  partition.key.key = types::EncodeInt(1);
  ReadRow row;
  auto cell = [](std::string column, Bytes path, Bytes value) {
    ReadCell c;
    c.column = std::move(column);
    c.path = std::move(path);
    c.value = std::move(value);
    return c;
  };
  // Cells sorted by column name, list paths deliberately out of time order.
  row.cells.push_back(cell("l", late.ToBytes(), "second"));
  row.cells.push_back(cell("l", early.ToBytes(), "first"));
  row.cells.push_back(cell("m", "a", types::EncodeInt(1)));
  row.cells.push_back(cell("m", "b", types::EncodeInt(2)));
  row.cells.push_back(cell("s", types::EncodeInt(-1), ""));
  row.cells.push_back(cell("s", types::EncodeInt(3), ""));
  row.cells.push_back(cell("u", Bytes("\x00\x01", 2), "bee"));
  partition.rows.push_back(row);
  result.partitions.push_back(partition);
  engine_.set_result(result);

  RowsResult rows = Rows("SELECT l, s, m, u, e FROM ks.c WHERE k = 1");
  ASSERT_EQ(rows.rows.size(), 1u);
  EXPECT_EQ(rows.rows[0][0], types::EncodeList({"first", "second"}));
  EXPECT_EQ(rows.rows[0][1], types::EncodeList({types::EncodeInt(-1), types::EncodeInt(3)}));
  EXPECT_EQ(rows.rows[0][2],
            types::EncodeMap({{"a", types::EncodeInt(1)}, {"b", types::EncodeInt(2)}}));
  EXPECT_EQ(rows.rows[0][3], types::EncodeTuple({std::nullopt, BytesView("bee")}));
  EXPECT_EQ(rows.rows[0][4], std::nullopt);  // no cells: null
}

}  // namespace
}  // namespace sibyl::query
