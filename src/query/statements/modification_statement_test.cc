// INSERT, UPDATE and DELETE turned into Mutations: the cells, markers and
// tombstones each form writes, timestamps and TTLs, collection operations,
// and Cassandra 4.1's validation messages.

#include "query/statements/modification_statement.h"

#include <variant>

#include "cql/parser.h"
#include "dht/token.h"
#include "query/query_test_util.h"
#include "storage/engine.h"

namespace sibyl::query {
namespace {

using storage::Cell;
using storage::Mutation;

constexpr int64_t kNowMicros = 1'700'000'000'000'000;
constexpr int32_t kNowSeconds = 1'700'000'000;

// An engine that answers every read with a canned result and records the command.
class CannedEngine final : public storage::Engine {
 public:
  void SyncTables(const std::vector<storage::TableLayout>&) override {}
  void Apply(const Mutation&) override {}
  void ApplyAll(const std::vector<const Mutation*>&) override {}
  void ApplyAllSynced(const std::vector<const Mutation*>&) override {}
  storage::ReadResult Read(const storage::ReadCommand& command) const override {
    last_command = command;
    ++reads;
    return result;
  }
  std::vector<Mutation> ReadUnfiltered(const storage::ReadCommand&) const override { return {}; }
  void Truncate(const types::Uuid&) override {}
  void Flush() override {}
  void Flush(const types::Uuid&) override {}
  void Compact(const types::Uuid&) override {}

  storage::ReadResult result;
  mutable storage::ReadCommand last_command;
  mutable int reads = 0;
};

using testing::Int;
using testing::ToModification;

class ModificationTest : public testing::QueryTest {
 protected:
  ModificationTest() : clock_(kNowMicros), coordinator_(engine_, clock_) {
    Run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Run("CREATE TABLE ks.t (k int, c int, v text, w int, s int static, PRIMARY KEY (k, c))");
    Run("CREATE TABLE ks.kv (k int PRIMARY KEY, v text, n int)");
    Run("CREATE TYPE ks.addr (street text, zip int)");
    Run("CREATE TABLE ks.coll (k int PRIMARY KEY, l list<int>, st set<text>, m map<text, int>, "
        "fl frozen<list<int>>, u addr, fu frozen<addr>, c2 int)");
    Run("CREATE TABLE ks.cnt (k int PRIMARY KEY, hits counter, misses counter)");
    Run("CREATE TABLE ks.ck2 (k int, a int, b text, v int, PRIMARY KEY (k, a, b)) "
        "WITH CLUSTERING ORDER BY (a DESC, b ASC)");
    Run("CREATE TABLE ks.comp (k1 int, k2 text, v int, PRIMARY KEY ((k1, k2)))");
    Run("CREATE TABLE ks.ttl (k int PRIMARY KEY, v int) WITH default_time_to_live = 50");
  }

  void Run(std::string_view query) { (void)processor_.Process(query, {}, client_); }

  std::shared_ptr<const ModificationStatement> Prepare(std::string_view query) {
    cql::ParsedStatement parsed = cql::ParseStatement(query);
    return ModificationStatement::Prepare(ToModification(std::move(parsed.statement)),
                                          parsed.bind_marker_count, *store_.snapshot(), "ks");
  }

  std::vector<Mutation> Build(std::string_view query, const protocol::QueryParameters& params = {},
                              bool with_reader = false) {
    auto statement = Prepare(query);
    BoundValues values(statement->bind_specs(), params);
    return statement->BuildMutations(values, params, clock_, with_reader ? &coordinator_ : nullptr);
  }

  // The single mutation `query` writes.
  Mutation One(std::string_view query, const protocol::QueryParameters& params = {},
               bool with_reader = false) {
    std::vector<Mutation> mutations = Build(query, params, with_reader);
    EXPECT_EQ(mutations.size(), 1u) << query;
    return mutations.empty() ? Mutation{} : mutations.front();
  }

  std::string PrepareError(std::string_view query) {
    try {
      (void)Prepare(query);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    ADD_FAILURE() << "expected a prepare error from: " << query;
    return "";
  }

  std::string BuildError(std::string_view query, const protocol::QueryParameters& params = {},
                         bool with_reader = false) {
    try {
      (void)Build(query, params, with_reader);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    ADD_FAILURE() << "expected an error from: " << query;
    return "";
  }

  static protocol::QueryParameters Values(std::vector<Value> values) {
    protocol::QueryParameters params;
    params.values = std::move(values);
    return params;
  }

  types::Uuid TableId(std::string_view name) {
    return store_.snapshot()->FindTable("ks", name)->id;
  }

  ManualClock clock_;
  CannedEngine engine_;
  cluster::Coordinator coordinator_;
};

// --- INSERT -----------------------------------------------------------------

TEST_F(ModificationTest, InsertWritesMarkerAndCells) {
  Mutation m = One("INSERT INTO t (k, c, v) VALUES (1, 2, 'a')");
  EXPECT_EQ(m.table_id, TableId("t"));
  EXPECT_EQ(m.partition.key, Int(1));
  EXPECT_EQ(m.partition.token, -4069959284402364209);  // Murmur3 of int 1
  EXPECT_TRUE(m.partition_deletion.is_live());
  ASSERT_EQ(m.rows.size(), 1u);
  const storage::RowWrite& row = m.rows[0];
  EXPECT_FALSE(row.is_static);
  EXPECT_EQ(row.clustering, storage::Clustering{Int(2)});
  EXPECT_EQ(row.marker.timestamp, kNowMicros);
  EXPECT_EQ(row.marker.ttl, 0);
  EXPECT_EQ(row.marker.local_expiration_time, storage::kNoDeletionTime);
  ASSERT_EQ(row.cells.size(), 1u);
  EXPECT_EQ(row.cells[0].column, "v");
  EXPECT_FALSE(row.cells[0].path);
  EXPECT_EQ(row.cells[0].cell.kind, Cell::Kind::kRegular);
  EXPECT_EQ(row.cells[0].cell.timestamp, kNowMicros);
  EXPECT_EQ(row.cells[0].cell.value, "a");
}

TEST_F(ModificationTest, InsertOnlyKeyWritesOnlyTheMarker) {
  Mutation m = One("INSERT INTO kv (k) VALUES (7)");
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_TRUE(m.rows[0].clustering.empty());
  EXPECT_FALSE(m.rows[0].marker.is_empty());
  EXPECT_TRUE(m.rows[0].cells.empty());
}

TEST_F(ModificationTest, NullWritesATombstoneAndUnsetLeavesTheColumn) {
  Mutation m = One("INSERT INTO kv (k, v, n) VALUES (1, null, ?)", Values({Value::Unset()}));
  ASSERT_EQ(m.rows.size(), 1u);
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_EQ(m.rows[0].cells[0].column, "v");
  EXPECT_EQ(m.rows[0].cells[0].cell.kind, Cell::Kind::kTombstone);
  EXPECT_EQ(m.rows[0].cells[0].cell.local_deletion_time, kNowSeconds);
}

TEST_F(ModificationTest, CompositePartitionKeyUsesTheCompositeRoutingKey) {
  Mutation m = One("INSERT INTO comp (k1, k2, v) VALUES (1, 'x', 3)");
  const Bytes one = Int(1);
  const Bytes expected = dht::CompositeRoutingKey({one, "x"});
  EXPECT_EQ(m.partition.key, expected);
  EXPECT_EQ(m.partition.token, dht::Murmur3Token(expected));
}

TEST_F(ModificationTest, InsertValidation) {
  EXPECT_EQ(PrepareError("INSERT INTO t (k, c, v) VALUES (1, 2)"), "Unmatched column names/values");
  EXPECT_EQ(PrepareError("INSERT INTO t (k, c, v, v) VALUES (1, 2, 'a', 'b')"),
            "The column names contains duplicates");
  EXPECT_EQ(PrepareError("INSERT INTO t (k, c, x) VALUES (1, 2, 3)"),
            "Undefined column name x in table ks.t");
  EXPECT_EQ(PrepareError("INSERT INTO t (c, v) VALUES (2, 'a')"),
            "Some partition key parts are missing: k");
  EXPECT_EQ(PrepareError("INSERT INTO t (k, v) VALUES (1, 'a')"),
            "Some clustering keys are missing: c");
  EXPECT_EQ(PrepareError("INSERT INTO comp (k1, v) VALUES (1, 2)"),
            "Some partition key parts are missing: k2");
  EXPECT_EQ(PrepareError("INSERT INTO cnt (k, hits) VALUES (1, 2)"),
            "INSERT statements are not allowed on counter tables, use UPDATE instead");
  EXPECT_EQ(PrepareError("INSERT INTO kv (k, v) VALUES (1, 2)"),
            "Invalid INTEGER constant (2) for \"v\" of type text");
  EXPECT_EQ(PrepareError("INSERT INTO nope (k) VALUES (1)"), "table nope does not exist");
}

TEST_F(ModificationTest, InsertOfStaticColumnsOnlyWritesTheStaticRow) {
  Mutation m = One("INSERT INTO t (k, s) VALUES (1, 5)");
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_TRUE(m.rows[0].is_static);
  EXPECT_TRUE(m.rows[0].marker.is_empty());
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_EQ(m.rows[0].cells[0].column, "s");
}

TEST_F(ModificationTest, InsertOfRowAndStaticWritesBoth) {
  Mutation m = One("INSERT INTO t (k, c, v, s) VALUES (1, 2, 'a', 5)");
  ASSERT_EQ(m.rows.size(), 2u);
  EXPECT_FALSE(m.rows[0].is_static);
  EXPECT_FALSE(m.rows[0].marker.is_empty());
  EXPECT_TRUE(m.rows[1].is_static);
}

// --- Keys -------------------------------------------------------------------

TEST_F(ModificationTest, NullAndUnsetKeyParts) {
  EXPECT_EQ(BuildError("INSERT INTO t (k, c) VALUES (null, 1)"),
            "Invalid null value in condition for column k");
  EXPECT_EQ(BuildError("INSERT INTO t (k, c) VALUES (1, ?)", Values({Value::Null()})),
            "Invalid null value in condition for column c");
  EXPECT_EQ(BuildError("UPDATE t SET v = 'a' WHERE k = ? AND c = 1", Values({Value::Unset()})),
            "Invalid unset value for column k");
}

TEST_F(ModificationTest, EmptyAndOversizedKeys) {
  Run("CREATE TABLE ks.tk (k text PRIMARY KEY, v int)");
  EXPECT_EQ(BuildError("INSERT INTO tk (k, v) VALUES ('', 1)"), "Key may not be empty");
  const Bytes big(65536, 'x');
  EXPECT_EQ(BuildError("INSERT INTO tk (k, v) VALUES (?, 1)", Values({Value::Of(big)})),
            "Key length of 65536 is longer than maximum of 65535");
  const Bytes ok(65535, 'x');
  EXPECT_EQ(One("INSERT INTO tk (k, v) VALUES (?, 1)", Values({Value::Of(ok)})).partition.key, ok);
}

TEST_F(ModificationTest, InOnKeysWritesEveryPartitionAndRow) {
  std::vector<Mutation> mutations =
      Build("UPDATE t SET v = 'a' WHERE k IN (1, 2, 1) AND c IN (3, 4)");
  ASSERT_EQ(mutations.size(), 2u);
  EXPECT_EQ(mutations[0].partition.key, Int(1));
  EXPECT_EQ(mutations[1].partition.key, Int(2));
  ASSERT_EQ(mutations[0].rows.size(), 2u);
  EXPECT_EQ(mutations[0].rows[0].clustering, storage::Clustering{Int(3)});
  EXPECT_EQ(mutations[0].rows[1].clustering, storage::Clustering{Int(4)});
  EXPECT_TRUE(mutations[0].rows[0].marker.is_empty());  // UPDATE writes no marker
}

TEST_F(ModificationTest, InMarkerAndEmptyIn) {
  const Bytes list = types::EncodeList({Int(5), Int(6)});
  std::vector<Mutation> mutations =
      Build("UPDATE kv SET n = 1 WHERE k IN ?", Values({Value::Of(list)}));
  EXPECT_EQ(mutations.size(), 2u);
  EXPECT_TRUE(Build("UPDATE t SET v = 'a' WHERE k = 1 AND c IN ()").empty());
}

TEST_F(ModificationTest, PartitionKeyMarkersAndSpecs) {
  auto insert = Prepare("INSERT INTO comp (v, k2, k1) VALUES (?, ?, ?)");
  EXPECT_EQ(insert->partition_key_markers(), (std::vector<uint16_t>{2, 1}));
  ASSERT_EQ(insert->bind_specs().size(), 3u);
  EXPECT_EQ(insert->bind_specs()[0].name, "v");
  EXPECT_EQ(insert->bind_specs()[1].name, "k2");
  auto update = Prepare(
      "UPDATE ks.coll USING TTL ? AND TIMESTAMP ? SET l[?] = ?, m[?] = ? "
      "WHERE k = ?");
  EXPECT_TRUE(update->fully_qualified());
  std::vector<std::string> names;
  for (const auto& spec : update->bind_specs()) names.push_back(spec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"[ttl]", "[timestamp]", "idx(l)", "value(l)", "key(m)",
                                             "value(m)", "k"}));
  EXPECT_EQ(update->partition_key_markers(), (std::vector<uint16_t>{6}));
  EXPECT_TRUE(Prepare("UPDATE kv SET v = 'a' WHERE k = 1")->partition_key_markers().empty());
}

// --- UPDATE validation ------------------------------------------------------

TEST_F(ModificationTest, UpdateValidation) {
  EXPECT_EQ(PrepareError("UPDATE t SET c = 1 WHERE k = 1 AND c = 2"),
            "PRIMARY KEY part c found in SET part");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE k = 1"),
            "Some clustering keys are missing: c");
  EXPECT_EQ(PrepareError("UPDATE ck2 SET v = 1 WHERE k = 1"),
            "Some clustering keys are missing: a, b");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE c = 1"),
            "Some partition key parts are missing: k");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE k > 1 AND c = 1"),
            "Only EQ and IN relation are supported on the partition key (unless you use the "
            "token() function) for UPDATE statements");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE k = 1 AND c > 1"),
            "Slice restrictions are not supported on the clustering columns in UPDATE statements");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE k = 1 AND c = 1 AND w = 2"),
            "Non PRIMARY KEY columns found in where clause: w ");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE token(k) = 1 AND c = 1"),
            "The token function cannot be used in WHERE clauses for UPDATE statements");
  EXPECT_EQ(PrepareError("UPDATE t SET s = 1 WHERE k = 1 AND c = 1"),
            "Invalid restrictions on clustering columns since the UPDATE statement modifies "
            "only static columns");
  EXPECT_EQ(PrepareError("UPDATE t SET w = w + 1 WHERE k = 1 AND c = 1"),
            "Invalid operation (w = w + 1) for non counter column w");
  EXPECT_EQ(PrepareError("UPDATE cnt SET hits = 5 WHERE k = 1"),
            "Cannot set the value of counter column hits (counters can only be "
            "incremented/decremented, not set)");
  EXPECT_EQ(PrepareError("UPDATE t SET x = 1 WHERE k = 1 AND c = 1"),
            "Undefined column name x in table ks.t");
  EXPECT_EQ(PrepareError("UPDATE t SET \"X\" = 1 WHERE k = 1 AND c = 1"),
            "Undefined column name \"X\" in table ks.t");
  EXPECT_EQ(PrepareError("UPDATE t SET v = 'a' WHERE k = 1 AND k = 2 AND c = 1"),
            "k cannot be restricted by more than one relation if it includes an Equal");
}

TEST_F(ModificationTest, CollectionOperationValidation) {
  EXPECT_EQ(PrepareError("UPDATE coll SET fl = fl + [1] WHERE k = 1"),
            "Invalid operation (fl = fl + [1]) for frozen collection column fl");
  EXPECT_EQ(PrepareError("UPDATE coll SET c2 = ? + c2 WHERE k = 1"),
            "Invalid operation (c2 = ? - c2) for non list column c2");
  EXPECT_EQ(PrepareError("UPDATE coll SET fl = [1] + fl WHERE k = 1"),
            "Invalid operation (fl = [1] - fl) for frozen list column fl");
  EXPECT_EQ(PrepareError("UPDATE coll SET st['a'] = 'b' WHERE k = 1"),
            "Invalid operation (st['a'] = 'b') for set column st");
  EXPECT_EQ(PrepareError("UPDATE coll SET c2[0] = 1 WHERE k = 1"),
            "Invalid operation (c2[0] = 1) for non collection column c2");
  EXPECT_EQ(PrepareError("UPDATE coll SET fl[0] = 1 WHERE k = 1"),
            "Invalid operation (fl[0] = 1) for frozen collection column fl");
  EXPECT_EQ(PrepareError("UPDATE coll SET fu.zip = 1 WHERE k = 1"),
            "Invalid operation (fu.zip = 1) for frozen UDT column fu");
  EXPECT_EQ(PrepareError("UPDATE coll SET c2.zip = 1 WHERE k = 1"),
            "Invalid operation (c2.zip = 1) for non-UDT column c2");
  EXPECT_EQ(PrepareError("UPDATE coll SET u.nope = 1 WHERE k = 1"),
            "UDT column u does not have a field named nope");
  EXPECT_EQ(PrepareError("DELETE c2[0] FROM coll WHERE k = 1"),
            "Invalid deletion operation for non collection column c2");
  EXPECT_EQ(PrepareError("DELETE fl[0] FROM coll WHERE k = 1"),
            "Invalid deletion operation for frozen collection column fl");
  EXPECT_EQ(PrepareError("DELETE c2.zip FROM coll WHERE k = 1"),
            "Invalid field deletion operation for non-UDT column c2");
  EXPECT_EQ(PrepareError("DELETE fu.zip FROM coll WHERE k = 1"),
            "Frozen UDT column fu does not support field deletions");
}

TEST_F(ModificationTest, UpdateWithOnlyUnsetValuesWritesNothing) {
  EXPECT_TRUE(Build("UPDATE kv SET v = ? WHERE k = 1", Values({Value::Unset()})).empty());
}

TEST_F(ModificationTest, UpdateOfStaticColumnWritesTheStaticRow) {
  Mutation m = One("UPDATE t SET s = 3 WHERE k = 1");
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_TRUE(m.rows[0].is_static);
  EXPECT_TRUE(m.rows[0].clustering.empty());
}

// --- Timestamps and TTLs ------------------------------------------------------

TEST_F(ModificationTest, TimestampSources) {
  EXPECT_EQ(
      One("INSERT INTO kv (k, v) VALUES (1, 'a') USING TIMESTAMP 42").rows[0].marker.timestamp, 42);
  protocol::QueryParameters params;
  params.default_timestamp = 777;
  EXPECT_EQ(One("INSERT INTO kv (k, v) VALUES (1, 'a')", params).rows[0].cells[0].cell.timestamp,
            777);
  // The clock's timestamps are unique and increasing.
  const int64_t first = One("INSERT INTO kv (k) VALUES (1)").rows[0].marker.timestamp;
  const int64_t second = One("INSERT INTO kv (k) VALUES (1)").rows[0].marker.timestamp;
  EXPECT_GT(second, first);
  const Bytes ts = types::EncodeBigint(99);
  EXPECT_EQ(One("UPDATE kv USING TIMESTAMP ? SET n = 1 WHERE k = 1", Values({Value::Of(ts)}))
                .rows[0]
                .cells[0]
                .cell.timestamp,
            99);
  EXPECT_EQ(
      BuildError("UPDATE kv USING TIMESTAMP ? SET n = 1 WHERE k = 1", Values({Value::Null()})),
      "Invalid null value of timestamp");
}

TEST_F(ModificationTest, TtlMakesExpiringCellsAndMarker) {
  Mutation m = One("INSERT INTO kv (k, v) VALUES (1, 'a') USING TTL 100");
  EXPECT_EQ(m.rows[0].marker.ttl, 100);
  EXPECT_EQ(m.rows[0].marker.local_expiration_time, kNowSeconds + 100);
  const Cell& cell = m.rows[0].cells[0].cell;
  EXPECT_EQ(cell.kind, Cell::Kind::kExpiring);
  EXPECT_EQ(cell.ttl, 100);
  EXPECT_EQ(cell.local_deletion_time, kNowSeconds + 100);
  // The request's now_in_seconds decides the expiry.
  protocol::QueryParameters params;
  params.now_in_seconds = 1000;
  EXPECT_EQ(One("INSERT INTO kv (k, v) VALUES (1, 'a') USING TTL 100", params)
                .rows[0]
                .cells[0]
                .cell.local_deletion_time,
            1100);
}

TEST_F(ModificationTest, DefaultTimeToLive) {
  EXPECT_EQ(One("INSERT INTO ttl (k, v) VALUES (1, 2)").rows[0].cells[0].cell.ttl, 50);
  EXPECT_EQ(One("INSERT INTO ttl (k, v) VALUES (1, 2) USING TTL 0").rows[0].cells[0].cell.kind,
            Cell::Kind::kRegular);
  EXPECT_EQ(One("INSERT INTO ttl (k, v) VALUES (1, 2) USING TTL ?", Values({Value::Unset()}))
                .rows[0]
                .cells[0]
                .cell.ttl,
            50);
  EXPECT_EQ(One("INSERT INTO ttl (k, v) VALUES (1, 2) USING TTL ?", Values({Value::Null()}))
                .rows[0]
                .cells[0]
                .cell.kind,
            Cell::Kind::kRegular);
}

TEST_F(ModificationTest, TtlLimits) {
  EXPECT_EQ(BuildError("INSERT INTO kv (k) VALUES (1) USING TTL -1"),
            "A TTL must be greater or equal to 0, but was -1");
  EXPECT_EQ(BuildError("INSERT INTO kv (k) VALUES (1) USING TTL 630720001"),
            "ttl is too large. requested (630720001) maximum (630720000)");
  protocol::QueryParameters params;
  params.now_in_seconds = 2147000000;
  EXPECT_EQ(BuildError("INSERT INTO kv (k) VALUES (1) USING TTL 630720000", params),
            "Request on table ks.kv with ttl of 630720000 seconds exceeds maximum supported "
            "expiration date of 2038-01-19T03:14:06+00:00. In order to avoid this use a lower "
            "TTL, change the expiration date overflow policy or upgrade to a version where this "
            "limitation is fixed. See CASSANDRA-14092 for more details.");
}

// --- Collections ------------------------------------------------------------

TEST_F(ModificationTest, ListAppendUsesIncreasingTimeuuidPaths) {
  Mutation m = One("UPDATE coll SET l = l + [1, 2] WHERE k = 1");
  ASSERT_EQ(m.rows.size(), 1u);
  const auto& cells = m.rows[0].cells;
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_TRUE(m.rows[0].collection_deletions.empty());
  const types::Uuid a = types::Uuid::FromBytes(*cells[0].path);
  const types::Uuid b = types::Uuid::FromBytes(*cells[1].path);
  EXPECT_EQ(a.version(), 1);
  EXPECT_LT(a.Timestamp(), b.Timestamp());
  EXPECT_EQ(cells[0].cell.value, Int(1));
  EXPECT_EQ(cells[1].cell.value, Int(2));
  // A later append lands after, even at the same clock reading.
  Mutation later = One("UPDATE coll SET l = l + [3] WHERE k = 1");
  EXPECT_LT(b.Timestamp(), types::Uuid::FromBytes(*later.rows[0].cells[0].path).Timestamp());
}

TEST_F(ModificationTest, ListPrependUsesPathsBeforeEveryAppend) {
  Mutation append = One("UPDATE coll SET l = l + [9] WHERE k = 1");
  Mutation first = One("UPDATE coll SET l = [1, 2] + l WHERE k = 1");
  Mutation second = One("UPDATE coll SET l = [0] + l WHERE k = 1");
  auto time = [](const storage::CellWrite& c) {
    return types::Uuid::FromBytes(*c.path).Timestamp();
  };
  ASSERT_EQ(first.rows[0].cells.size(), 2u);
  EXPECT_EQ(first.rows[0].cells[0].cell.value, Int(1));
  EXPECT_LT(time(first.rows[0].cells[0]), time(first.rows[0].cells[1]));
  EXPECT_LT(time(first.rows[0].cells[1]), time(append.rows[0].cells[0]));
  EXPECT_LT(time(second.rows[0].cells[0]), time(first.rows[0].cells[0]));
}

TEST_F(ModificationTest, SettingANonFrozenCollectionDeletesItFirst) {
  Mutation m =
      One("UPDATE coll USING TIMESTAMP 1000 SET st = {'b', 'a'}, m = {'x': 1} WHERE k = 1");
  const storage::RowWrite& row = m.rows[0];
  ASSERT_EQ(row.collection_deletions.size(), 2u);
  EXPECT_EQ(row.collection_deletions[0].column, "st");
  EXPECT_EQ(row.collection_deletions[0].deletion.marked_for_delete_at, 999);
  EXPECT_EQ(row.collection_deletions[0].deletion.local_deletion_time, kNowSeconds);
  ASSERT_EQ(row.cells.size(), 3u);
  EXPECT_EQ(row.cells[0].column, "st");
  EXPECT_EQ(*row.cells[0].path, "a");  // the literal's set is sorted
  EXPECT_EQ(row.cells[0].cell.value, "");
  EXPECT_EQ(*row.cells[1].path, "b");
  EXPECT_EQ(row.cells[2].column, "m");
  EXPECT_EQ(*row.cells[2].path, "x");
  EXPECT_EQ(row.cells[2].cell.value, Int(1));
}

TEST_F(ModificationTest, NullCollectionOnlyDeletes) {
  Mutation m = One("INSERT INTO coll (k, l) VALUES (1, null)");
  ASSERT_EQ(m.rows[0].collection_deletions.size(), 1u);
  EXPECT_TRUE(m.rows[0].cells.empty());
}

TEST_F(ModificationTest, FrozenCollectionIsOneCell) {
  Mutation m = One("INSERT INTO coll (k, fl) VALUES (1, [1, 2])");
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_FALSE(m.rows[0].cells[0].path);
  EXPECT_EQ(m.rows[0].cells[0].cell.value, types::EncodeList({Int(1), Int(2)}));
  EXPECT_TRUE(m.rows[0].collection_deletions.empty());
}

TEST_F(ModificationTest, SetAndMapElementOperations) {
  Mutation m = One("UPDATE coll SET st = st + {'a'}, m = m - {'x'}, m['y'] = 5 WHERE k = 1");
  const auto& cells = m.rows[0].cells;
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(*cells[0].path, "a");
  EXPECT_EQ(cells[0].cell.kind, Cell::Kind::kRegular);
  EXPECT_EQ(*cells[1].path, "x");
  EXPECT_EQ(cells[1].cell.kind, Cell::Kind::kTombstone);
  EXPECT_EQ(*cells[2].path, "y");
  EXPECT_EQ(cells[2].cell.value, Int(5));
  Mutation removal = One("UPDATE coll SET st = st - {'q'}, m['z'] = null WHERE k = 1");
  EXPECT_EQ(removal.rows[0].cells[0].cell.kind, Cell::Kind::kTombstone);
  EXPECT_EQ(removal.rows[0].cells[1].cell.kind, Cell::Kind::kTombstone);
  EXPECT_EQ(BuildError("UPDATE coll SET m[?] = 1 WHERE k = 1", Values({Value::Null()})),
            "Invalid null map key");
}

TEST_F(ModificationTest, UdtFieldsArePathsByIndex) {
  Mutation m = One("UPDATE coll SET u.zip = 7 WHERE k = 1");
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_EQ(*m.rows[0].cells[0].path, Bytes("\x00\x01", 2));
  EXPECT_EQ(m.rows[0].cells[0].cell.value, Int(7));
  Mutation whole = One("UPDATE coll SET u = {street: 'main'} WHERE k = 1");
  ASSERT_EQ(whole.rows[0].collection_deletions.size(), 1u);
  ASSERT_EQ(whole.rows[0].cells.size(), 1u);  // the null zip writes nothing
  EXPECT_EQ(*whole.rows[0].cells[0].path, Bytes("\x00\x00", 2));
  EXPECT_EQ(whole.rows[0].cells[0].cell.value, "main");
}

// --- Counters ---------------------------------------------------------------

TEST_F(ModificationTest, CounterDeltas) {
  Mutation m = One("UPDATE cnt SET hits = hits + 5, misses = misses - 2 WHERE k = 1");
  const auto& cells = m.rows[0].cells;
  ASSERT_EQ(cells.size(), 2u);
  EXPECT_EQ(cells[0].cell.kind, Cell::Kind::kCounter);
  EXPECT_EQ(cells[0].cell.value, types::EncodeBigint(5));
  EXPECT_EQ(cells[1].cell.value, types::EncodeBigint(-2));
  EXPECT_TRUE(m.rows[0].marker.is_empty());
  EXPECT_EQ(BuildError("UPDATE cnt SET hits = hits + ? WHERE k = 1", Values({Value::Null()})),
            "Invalid null value for counter increment");
  const Bytes min = types::EncodeBigint(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(BuildError("UPDATE cnt SET hits = hits - ? WHERE k = 1", Values({Value::Of(min)})),
            "The negation of -9223372036854775808 overflows supported counter precision "
            "(signed 8 bytes integer)");
}

TEST_F(ModificationTest, CounterValidation) {
  EXPECT_EQ(PrepareError("UPDATE cnt USING TTL 5 SET hits = hits + 1 WHERE k = 1"),
            "Cannot provide custom TTL for counter updates");
  EXPECT_EQ(PrepareError("UPDATE cnt USING TIMESTAMP 5 SET hits = hits + 1 WHERE k = 1"),
            "Cannot provide custom timestamp for counter updates");
  EXPECT_EQ(PrepareError("UPDATE cnt SET hits = hits + 1 WHERE k = 1 IF EXISTS"),
            "Conditional updates are not supported on counter tables");
  EXPECT_TRUE(Prepare("UPDATE cnt SET hits = hits + 1 WHERE k = 1")->is_counter());
  EXPECT_FALSE(Prepare("UPDATE kv SET n = 1 WHERE k = 1")->is_counter());
}

// --- Conditions ---------------------------------------------------------------

TEST_F(ModificationTest, ConditionsPrepareButDoNotBuild) {
  EXPECT_TRUE(Prepare("INSERT INTO kv (k) VALUES (1) IF NOT EXISTS")->has_conditions());
  EXPECT_TRUE(Prepare("UPDATE kv SET n = 1 WHERE k = 1 IF n = ?")->has_conditions());
  EXPECT_TRUE(Prepare("DELETE FROM kv WHERE k = 1 IF EXISTS")->has_conditions());
  EXPECT_FALSE(Prepare("DELETE FROM kv WHERE k = 1")->has_conditions());
  EXPECT_EQ(PrepareError("UPDATE kv USING TIMESTAMP 1 SET n = 1 WHERE k = 1 IF n = 2"),
            "Cannot provide custom timestamp for conditional updates");
  EXPECT_EQ(PrepareError("UPDATE kv SET n = 1 WHERE k = 1 IF k = 2"),
            "PRIMARY KEY column 'k' cannot have IF conditions");
  EXPECT_EQ(PrepareError("DELETE v FROM t WHERE k = 1 IF w = 2"),
            "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
            "order to delete non static columns");
}

// --- DELETE -----------------------------------------------------------------

TEST_F(ModificationTest, DeleteWholePartitionRowAndColumns) {
  Mutation partition = One("DELETE FROM t USING TIMESTAMP 10 WHERE k = 1");
  EXPECT_EQ(partition.partition_deletion, (storage::DeletionTime{10, kNowSeconds}));
  EXPECT_TRUE(partition.rows.empty());

  Mutation row = One("DELETE FROM t USING TIMESTAMP 10 WHERE k = 1 AND c = 2");
  ASSERT_EQ(row.rows.size(), 1u);
  EXPECT_EQ(row.rows[0].deletion, (storage::DeletionTime{10, kNowSeconds}));
  EXPECT_TRUE(row.partition_deletion.is_live());

  Mutation columns = One("DELETE v, s FROM t USING TIMESTAMP 10 WHERE k = 1 AND c = 2");
  ASSERT_EQ(columns.rows.size(), 2u);
  EXPECT_TRUE(columns.rows[0].deletion.is_live());
  EXPECT_EQ(columns.rows[0].cells[0].column, "v");
  EXPECT_EQ(columns.rows[0].cells[0].cell.kind, Cell::Kind::kTombstone);
  EXPECT_EQ(columns.rows[0].cells[0].cell.timestamp, 10);
  EXPECT_TRUE(columns.rows[1].is_static);

  Mutation collection =
      One("DELETE l, m['a'], st['x'], u.street FROM coll USING TIMESTAMP 10 "
          "WHERE k = 1");
  const storage::RowWrite& r = collection.rows[0];
  ASSERT_EQ(r.collection_deletions.size(), 1u);
  EXPECT_EQ(r.collection_deletions[0].deletion.marked_for_delete_at, 10);  // not timestamp - 1
  ASSERT_EQ(r.cells.size(), 3u);
  EXPECT_EQ(*r.cells[0].path, "a");
  EXPECT_EQ(*r.cells[1].path, "x");
  EXPECT_EQ(*r.cells[2].path, Bytes("\x00\x00", 2));
}

TEST_F(ModificationTest, DeleteStaticOnlyNeedsNoClustering) {
  Mutation m = One("DELETE s FROM t WHERE k = 1");
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_TRUE(m.rows[0].is_static);
  EXPECT_EQ(PrepareError("DELETE s FROM t WHERE k = 1 AND c = 1"),
            "Invalid restrictions on clustering columns since the DELETE statement modifies "
            "only static columns");
}

TEST_F(ModificationTest, DeleteRanges) {
  Mutation slice = One("DELETE FROM t USING TIMESTAMP 10 WHERE k = 1 AND c > 2 AND c <= 5");
  ASSERT_EQ(slice.range_tombstones.size(), 1u);
  const storage::RangeTombstone& rt = slice.range_tombstones[0];
  EXPECT_EQ(rt.start, (storage::ClusteringBound{{Int(2)}, false}));
  EXPECT_EQ(rt.end, (storage::ClusteringBound{{Int(5)}, true}));
  EXPECT_EQ(rt.deletion, (storage::DeletionTime{10, kNowSeconds}));

  Mutation open = One("DELETE FROM t WHERE k = 1 AND c >= 2");
  EXPECT_EQ(open.range_tombstones[0].start, (storage::ClusteringBound{{Int(2)}, true}));
  EXPECT_EQ(open.range_tombstones[0].end, (storage::ClusteringBound{{}, true}));

  // A prefix of the clustering deletes every row under it; the ranges come
  // in clustering order (a is DESC in ck2).
  Mutation prefix = One("DELETE FROM ck2 WHERE k = 1 AND a IN (1, 2)");
  ASSERT_EQ(prefix.range_tombstones.size(), 2u);
  EXPECT_EQ(prefix.range_tombstones[0].start, (storage::ClusteringBound{{Int(2)}, true}));
  EXPECT_EQ(prefix.range_tombstones[0].end, (storage::ClusteringBound{{Int(2)}, true}));
  EXPECT_EQ(prefix.range_tombstones[1].start, (storage::ClusteringBound{{Int(1)}, true}));

  // On a DESC column the upper bound starts the range.
  Mutation desc = One("DELETE FROM ck2 WHERE k = 1 AND a > 1 AND a < 9");
  EXPECT_EQ(desc.range_tombstones[0].start, (storage::ClusteringBound{{Int(9)}, false}));
  EXPECT_EQ(desc.range_tombstones[0].end, (storage::ClusteringBound{{Int(1)}, false}));

  Mutation inner = One("DELETE FROM ck2 WHERE k = 1 AND a = 3 AND b < 'm'");
  EXPECT_EQ(inner.range_tombstones[0].start, (storage::ClusteringBound{{Int(3)}, true}));
  EXPECT_EQ(inner.range_tombstones[0].end, (storage::ClusteringBound{{Int(3), "m"}, false}));

  // An empty range deletes nothing.
  EXPECT_TRUE(Build("DELETE FROM t WHERE k = 1 AND c > 5 AND c < 2").empty());
  EXPECT_TRUE(Build("DELETE FROM t WHERE k = 1 AND c > 5 AND c < 5").empty());
}

// Writes restrict rows with the relations reads take, tuple notation included.
TEST_F(ModificationTest, TupleRelationsNameRowsAndRanges) {
  // Each row once, in clustering order (a is DESC).
  Mutation rows =
      One("UPDATE ck2 SET v = 1 WHERE k = 1 AND (a, b) IN ((1, 'x'), (2, 'y'), (1, 'x'))");
  ASSERT_EQ(rows.rows.size(), 2u);
  EXPECT_EQ(rows.rows[0].clustering, (storage::Clustering{Int(2), "y"}));
  EXPECT_EQ(rows.rows[1].clustering, (storage::Clustering{Int(1), "x"}));

  // (a, b) > (1, 'm'): a > 1, or a = 1 and b > 'm'; on the DESC column a
  // the first piece runs from the partition's start to a = 1 (excluded).
  Mutation range = One("DELETE FROM ck2 WHERE k = 1 AND (a, b) > (1, 'm')");
  ASSERT_EQ(range.range_tombstones.size(), 2u);
  EXPECT_EQ(range.range_tombstones[0].start, (storage::ClusteringBound{{}, true}));
  EXPECT_EQ(range.range_tombstones[0].end, (storage::ClusteringBound{{Int(1)}, false}));
  EXPECT_EQ(range.range_tombstones[1].start, (storage::ClusteringBound{{Int(1), "m"}, false}));
  EXPECT_EQ(range.range_tombstones[1].end, (storage::ClusteringBound{{Int(1)}, true}));

  EXPECT_EQ(PrepareError("UPDATE ck2 SET v = 1 WHERE k = 1 AND (a, b) > (1, 'm')"),
            "Slice restrictions are not supported on the clustering columns in UPDATE statements");
  EXPECT_EQ(PrepareError("UPDATE ck2 SET v = 1 WHERE k = 1 AND (a) = (1)"),
            "Some clustering keys are missing: b");
  EXPECT_EQ(PrepareError("DELETE FROM ck2 WHERE k = 1 AND b = 'x'"),
            "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
            "restricted");
  EXPECT_EQ(PrepareError("DELETE FROM ck2 WHERE k = 1 AND a != 1"),
            "Unsupported \"!=\" relation: a != 1");
  EXPECT_EQ(PrepareError("DELETE FROM ck2 WHERE k = 1 AND v = 1 AND a = 1"),
            "Non PRIMARY KEY columns found in where clause: v ");
  EXPECT_EQ(PrepareError("DELETE FROM coll WHERE k = 1 AND m['a'] = 1"),
            "Non PRIMARY KEY columns found in where clause: m ");
  EXPECT_EQ(PrepareError("UPDATE ck2 SET v = 1 WHERE token(k) = 1 AND a = 1 AND b = 'x'"),
            "The token function cannot be used in WHERE clauses for UPDATE statements");
}

TEST_F(ModificationTest, DeleteValidation) {
  EXPECT_EQ(PrepareError("DELETE c FROM t WHERE k = 1 AND c = 1"),
            "Invalid identifier c for deletion (should not be a PRIMARY KEY part)");
  EXPECT_EQ(BuildError("DELETE v FROM t WHERE k = 1 AND c > 1"),
            "Range deletions are not supported for specific columns");
  EXPECT_EQ(BuildError("DELETE v FROM t WHERE k = 1"),
            "Range deletions are not supported for specific columns");
  EXPECT_EQ(BuildError("DELETE v FROM ck2 WHERE k = 1 AND a = 1"),
            "Range deletions are not supported for specific columns");
  EXPECT_EQ(PrepareError("DELETE FROM ck2 WHERE k = 1 AND b = 'x'"),
            "PRIMARY KEY column \"b\" cannot be restricted as preceding column \"a\" is not "
            "restricted");
  EXPECT_EQ(PrepareError("DELETE FROM ck2 WHERE k = 1 AND a > 1 AND b = 'x'"),
            "Clustering column \"b\" cannot be restricted (preceding column \"a\" is restricted "
            "by a non-EQ relation)");
  EXPECT_EQ(PrepareError("DELETE FROM t WHERE c = 1"), "Some partition key parts are missing: k");
  EXPECT_EQ(PrepareError("DELETE FROM t WHERE k = 1 AND v = 'a'"),
            "Non PRIMARY KEY columns found in where clause: v ");
}

// --- Operations that read the list first ----------------------------------------

class ListReadTest : public ModificationTest {
 protected:
  // The stored list [10, 20] of row k = 1, with paths p0 < p1.
  void StoreList() {
    storage::ReadPartition partition;
    partition.key = storage::PartitionKey{dht::Murmur3Token(Int(1)), Int(1)};
    storage::ReadRow row;
    for (int i = 0; i < 2; ++i) {
      storage::ReadCell cell;
      cell.column = "l";
      cell.path = path(i);
      cell.value = Int(10 * (i + 1));
      cell.timestamp = 5;
      row.cells.push_back(cell);
    }
    partition.rows.push_back(row);
    engine_.result.partitions = {partition};
  }
  static Bytes path(int i) { return types::Uuid::TimeBased(1000 + i, 42).ToBytes(); }
};

TEST_F(ListReadTest, SetByIndexOverwritesTheElementAtItsPath) {
  StoreList();
  Mutation m = One("UPDATE coll SET l[1] = 7 WHERE k = 1", {}, /*with_reader=*/true);
  ASSERT_EQ(m.rows[0].cells.size(), 1u);
  EXPECT_EQ(*m.rows[0].cells[0].path, path(1));
  EXPECT_EQ(m.rows[0].cells[0].cell.value, Int(7));
  EXPECT_EQ(engine_.last_command.table_id, TableId("coll"));
  ASSERT_EQ(engine_.last_command.partitions.size(), 1u);
  EXPECT_EQ(engine_.last_command.partitions[0].key, Int(1));
  EXPECT_EQ(engine_.last_command.columns, (std::vector<std::string>{"l"}));
  EXPECT_EQ(engine_.last_command.now_seconds, kNowSeconds);
}

TEST_F(ListReadTest, IndexOutOfBoundAndNullList) {
  StoreList();
  EXPECT_EQ(BuildError("UPDATE coll SET l[5] = 7 WHERE k = 1", {}, true),
            "List index 5 out of bound, list has size 2");
  EXPECT_EQ(BuildError("DELETE l[2] FROM coll WHERE k = 1", {}, true),
            "List index 2 out of bound, list has size 2");
  EXPECT_EQ(BuildError("UPDATE coll SET l[?] = 7 WHERE k = 1", Values({Value::Null()}), true),
            "Invalid null value for list index");
  // An empty int is a valid value but no index (Cassandra fails reading it).
  static const Bytes kEmpty;
  EXPECT_EQ(BuildError("UPDATE coll SET l[?] = 7 WHERE k = 1", Values({Value::Of(kEmpty)}), true),
            "Invalid empty value for list index");
  EXPECT_EQ(BuildError("DELETE l[?] FROM coll WHERE k = 1", Values({Value::Of(kEmpty)}), true),
            "Invalid empty value for list index");
  EXPECT_EQ(BuildError("UPDATE coll USING TIMESTAMP ? SET c2 = 1 WHERE k = 1",
                       Values({Value::Of(kEmpty)})),
            "Invalid timestamp value");
  engine_.result.partitions.clear();
  EXPECT_EQ(BuildError("UPDATE coll SET l[0] = 7 WHERE k = 1", {}, true),
            "Attempted to set an element on a list which is null");
  EXPECT_EQ(BuildError("DELETE l[0] FROM coll WHERE k = 1", {}, true),
            "Attempted to delete an element from a list which is null");
}

TEST_F(ListReadTest, DeleteByIndexAndRemoveByValue) {
  StoreList();
  Mutation del = One("DELETE l[0] FROM coll WHERE k = 1", {}, true);
  ASSERT_EQ(del.rows[0].cells.size(), 1u);
  EXPECT_EQ(*del.rows[0].cells[0].path, path(0));
  EXPECT_EQ(del.rows[0].cells[0].cell.kind, Cell::Kind::kTombstone);

  Mutation removal = One("UPDATE coll SET l = l - [20, 99] WHERE k = 1", {}, true);
  ASSERT_EQ(removal.rows[0].cells.size(), 1u);
  EXPECT_EQ(*removal.rows[0].cells[0].path, path(1));
  EXPECT_EQ(removal.rows[0].cells[0].cell.kind, Cell::Kind::kTombstone);

  // Removing from a list that is not there writes nothing.
  engine_.result.partitions.clear();
  EXPECT_TRUE(Build("UPDATE coll SET l = l - [20] WHERE k = 1", {}, true).empty());
}

TEST_F(ListReadTest, OnlyReadingOperationsRead) {
  EXPECT_TRUE(Prepare("UPDATE coll SET l[0] = 1 WHERE k = 1")->requires_read());
  EXPECT_FALSE(Prepare("UPDATE coll SET l = l + [1] WHERE k = 1")->requires_read());
  (void)Build("UPDATE coll SET l = l + [1] WHERE k = 1");
  EXPECT_EQ(engine_.reads, 0);
}

TEST_F(ListReadTest, StaticListReadsTheStaticRow) {
  storage::ReadPartition partition;
  partition.key = storage::PartitionKey{dht::Murmur3Token(Int(1)), Int(1)};
  storage::ReadRow row;
  storage::ReadCell cell;
  cell.column = "sl";
  cell.path = path(0);
  cell.value = Int(1);
  row.cells.push_back(cell);
  partition.static_row = row;
  engine_.result.partitions = {partition};
  Run("CREATE TABLE ks.sl (k int, c int, sl list<int> static, PRIMARY KEY (k, c))");
  Mutation m = One("UPDATE sl SET sl[0] = 3 WHERE k = 1", {}, true);
  ASSERT_EQ(m.rows.size(), 1u);
  EXPECT_TRUE(m.rows[0].is_static);
  EXPECT_EQ(*m.rows[0].cells[0].path, path(0));
  EXPECT_TRUE(engine_.last_command.slices.empty());
}

}  // namespace
}  // namespace sibyl::query
