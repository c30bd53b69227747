// Lightweight transactions (IF NOT EXISTS, IF EXISTS, IF conditions and
// conditional batches) executed against the reference engine and RocksDB:
// whether each condition kind applies, the result sets Cassandra 4.1
// returns, the write timestamps, the messages, and linearizability under
// concurrent compare-and-set.

#include "query/statements/cas_request.h"

#include <atomic>
#include <filesystem>
#include <random>
#include <thread>
#include <variant>

#include "cql/parser.h"
#include "query/query_test_util.h"
#include "query/read/engine_test_util.h"
#include "query/read/storage_row_source.h"
#include "schema/storage_layout.h"
#include "storage/engine.h"
#include "storage/reference/reference_engine.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using testing::TempDirectory;

using testing::Int;
using testing::ToModification;

protocol::QueryParameters Values(std::vector<Value> values) {
  protocol::QueryParameters params;
  params.values = std::move(values);
  return params;
}

// The parameter: true runs over RocksDB in a temporary directory.
class CasTest : public testing::QueryTest, public ::testing::WithParamInterface<bool> {
 protected:
  CasTest() : engine_(MakeEngine()), coordinator_(*engine_, clock_) {}

  std::unique_ptr<storage::Engine> MakeEngine() {
    if (GetParam()) return storage::Engine::Open({.directory = dir_.path()}, clock_);
    return storage::ReferenceEngine::Create();
  }

  void SetUp() override {
    Ddl("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}");
    Ddl("CREATE TABLE ks.kv (k int PRIMARY KEY, v int, t text)");
    Ddl("CREATE TABLE ks.t (k int, c int, v int, w int, s int static, PRIMARY KEY (k, c))");
    Ddl("CREATE TYPE ks.addr (street text, zip int)");
    Ddl("CREATE TABLE ks.coll (k int PRIMARY KEY, l list<int>, st set<text>, m map<text, int>, "
        "fm frozen<map<text, int>>, u addr, fu frozen<addr>)");
    Ddl("CREATE TABLE ks.cnt (k int PRIMARY KEY, hits counter)");
    Ddl("CREATE TABLE ks.tl (k int, c int, v int, l list<int>, PRIMARY KEY (k, c))");
    Ddl("CREATE TABLE ks.dur (k int PRIMARY KEY, d duration, ld list<duration>)");
    engine_->SyncTables(schema::StoredTableLayouts(*store_.snapshot()));
  }

  void Ddl(std::string_view query) { (void)processor_.Process(query, {}, client_); }

  std::shared_ptr<const ModificationStatement> Prepare(std::string_view query) {
    cql::ParsedStatement parsed = cql::ParseStatement(query);
    return ModificationStatement::Prepare(ToModification(std::move(parsed.statement)),
                                          parsed.bind_marker_count, *store_.snapshot(), "ks");
  }

  RowsResult Cas(std::string_view query, const protocol::QueryParameters& params = {}) {
    auto statement = Prepare(query);
    BoundValues values(statement->bind_specs(), params);
    return statement->ExecuteConditional(values, params, *store_.snapshot(), clock_, coordinator_);
  }

  // "[applied],v | false,2": the column names, then each row's values.
  std::string Show(std::string_view query, const protocol::QueryParameters& params = {}) {
    return Render(Cas(query, params));
  }

  static std::string Render(const RowsResult& result) {
    std::string out;
    for (size_t i = 0; i < result.columns->size(); ++i) {
      if (i > 0) out += ",";
      out += (*result.columns)[i].name;
    }
    for (const schema::Row& row : result.rows) {
      out += " |";
      for (size_t i = 0; i < row.size(); ++i) {
        out += i > 0 ? "," : " ";
        out += row[i] ? types::Format(*(*result.columns)[i].type, *row[i]) : "null";
      }
    }
    return out;
  }

  void Write(std::string_view query) {
    auto statement = Prepare(query);
    protocol::QueryParameters params;
    BoundValues values(statement->bind_specs(), params);
    coordinator_.Mutate(statement->BuildMutations(values, params, clock_, &coordinator_),
                        {.type = cluster::WriteType::kBatch});
  }

  // Every row of a table's partition, as "k,c,..." in SELECT * order.
  std::vector<std::string> Select(std::string_view table_name, int32_t key) {
    schema::TablePtr table = store_.snapshot()->FindTable("ks", table_name);
    storage::ReadCommand command;
    command.table_id = table->id;
    command.partitions = {storage::PartitionKey{dht::Murmur3Token(Int(key)), Int(key)}};
    command.now_seconds = clock_.NowSeconds();
    const ReadRequest request{
        .schema = *store_.snapshot(), .table = *table, .now_seconds = command.now_seconds};
    std::vector<std::string> out;
    for (const schema::Row& row : StorageRowSource::ToRows(request, coordinator_.Read(command))) {
      std::string text;
      for (size_t i = 0; i < row.size(); ++i) {
        if (i > 0) text += ",";
        text += row[i] ? types::Format(*table->columns[i].type, *row[i]) : "null";
      }
      out.push_back(text);
    }
    return out;
  }

  std::string Error(std::string_view query, const protocol::QueryParameters& params = {}) {
    try {
      (void)Cas(query, params);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    ADD_FAILURE() << "expected an error from: " << query;
    return "";
  }

  TempDirectory dir_;
  ManualClock clock_;
  std::unique_ptr<storage::Engine> engine_;
  cluster::Coordinator coordinator_;
};

INSTANTIATE_TEST_SUITE_P(Engines, CasTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "RocksDB" : "Reference"; });

// --- IF NOT EXISTS / IF EXISTS ------------------------------------------------

TEST_P(CasTest, InsertIfNotExistsTwice) {
  EXPECT_EQ(Show("INSERT INTO kv (k, v) VALUES (1, 10) IF NOT EXISTS"), "[applied] | True");
  // Not applied: the whole existing row, in SELECT * order.
  EXPECT_EQ(Show("INSERT INTO kv (k, v, t) VALUES (1, 20, 'x') IF NOT EXISTS"),
            "[applied],k,t,v | False,1,null,10");
  EXPECT_EQ(Select("kv", 1), std::vector<std::string>{"1,null,10"});
}

TEST_P(CasTest, ResultMetadataNamesTheTable) {
  RowsResult result = Cas("INSERT INTO kv (k, v) VALUES (1, 10) IF NOT EXISTS");
  ASSERT_EQ(result.columns->size(), 1u);
  EXPECT_EQ((*result.columns)[0].keyspace, "ks");
  EXPECT_EQ((*result.columns)[0].table, "kv");
  EXPECT_EQ((*result.columns)[0].type->kind(), types::Kind::kBoolean);
  result = Cas("INSERT INTO kv (k, v) VALUES (1, 10) IF NOT EXISTS");
  ASSERT_EQ(result.columns->size(), 4u);
  EXPECT_EQ((*result.columns)[3].keyspace, "ks");
  EXPECT_EQ((*result.columns)[3].table, "kv");
  EXPECT_EQ((*result.columns)[3].type->kind(), types::Kind::kInt);
}

TEST_P(CasTest, IfExists) {
  EXPECT_EQ(Show("UPDATE kv SET v = 1 WHERE k = 1 IF EXISTS"), "[applied] | False");
  EXPECT_EQ(Show("DELETE FROM kv WHERE k = 1 IF EXISTS"), "[applied] | False");
  EXPECT_TRUE(Select("kv", 1).empty());
  Write("INSERT INTO kv (k, v) VALUES (1, 5)");
  EXPECT_EQ(Show("UPDATE kv SET v = 6 WHERE k = 1 IF EXISTS"), "[applied] | True");
  EXPECT_EQ(Select("kv", 1), std::vector<std::string>{"1,null,6"});
  EXPECT_EQ(Show("DELETE FROM kv WHERE k = 1 IF EXISTS"), "[applied] | True");
  EXPECT_TRUE(Select("kv", 1).empty());
}

TEST_P(CasTest, RowWrittenByUpdateExists) {
  Write("UPDATE kv SET t = 'a' WHERE k = 2");  // no row marker, one live cell
  EXPECT_EQ(Show("INSERT INTO kv (k, v) VALUES (2, 1) IF NOT EXISTS"),
            "[applied],k,t,v | False,2,a,null");
}

TEST_P(CasTest, StaticRowIfNotExists) {
  // Only static columns: the condition is about the static row.
  EXPECT_EQ(Show("INSERT INTO t (k, s) VALUES (1, 7) IF NOT EXISTS"), "[applied] | True");
  EXPECT_EQ(Show("INSERT INTO t (k, s) VALUES (1, 8) IF NOT EXISTS"),
            "[applied],k,c,s,v,w | False,1,null,7,null,null");
  // A regular row of the same partition does not exist yet.
  EXPECT_EQ(Show("INSERT INTO t (k, c, v) VALUES (1, 1, 3) IF NOT EXISTS"), "[applied] | True");
  // Not applied: the static column is not read (the INSERT writes none), so it shows null.
  EXPECT_EQ(Show("INSERT INTO t (k, c, v) VALUES (1, 1, 4) IF NOT EXISTS"),
            "[applied],k,c,s,v,w | False,1,1,null,3,null");
  // Writing a static column reads them all.
  EXPECT_EQ(Show("INSERT INTO t (k, c, v, s) VALUES (1, 1, 4, 9) IF NOT EXISTS"),
            "[applied],k,c,s,v,w | False,1,1,7,3,null");
}

// --- Conditions on columns ------------------------------------------------------

TEST_P(CasTest, EveryOperator) {
  Write("INSERT INTO kv (k, v, t) VALUES (1, 5, 'b')");
  struct Case {
    const char* condition;
    bool applies;
  };
  const Case cases[] = {
      {"v = 5", true},
      {"v = 4", false},
      {"v != 4", true},
      {"v != 5", false},
      {"v < 6", true},
      {"v < 5", false},
      {"v <= 5", true},
      {"v <= 4", false},
      {"v > 4", true},
      {"v > 5", false},
      {"v >= 5", true},
      {"v >= 6", false},
      {"v IN (1, 5)", true},
      {"v IN (1, 2)", false},
      {"v IN ()", false},
      {"t = 'b'", true},
      {"t > 'a'", true},
      {"t < 'a'", false},
      {"v = 5 AND t = 'b'", true},
      {"v = 5 AND t = 'c'", false},
  };
  for (const Case& c : cases) {
    // The SET writes the value it already has, so every case sees the same row.
    RowsResult result = Cas(std::string("UPDATE kv SET v = 5 WHERE k = 1 IF ") + c.condition);
    ASSERT_FALSE(result.rows.empty());
    EXPECT_EQ(result.rows[0][0], types::EncodeBoolean(c.applies)) << c.condition;
  }
  EXPECT_EQ(Show("UPDATE kv SET v = 6 WHERE k = 1 IF v = 4"), "[applied],v | False,5");
  // Several conditions: the columns once each, in the order of the IF.
  EXPECT_EQ(Show("UPDATE kv SET v = 6 WHERE k = 1 IF t = 'z' AND v = 5 AND t != 'y'"),
            "[applied],t,v | False,b,5");
  EXPECT_EQ(Show("UPDATE kv SET v = 6 WHERE k = 1 IF v IN (4, 5)"), "[applied] | True");
  EXPECT_EQ(Select("kv", 1), std::vector<std::string>{"1,b,6"});
}

TEST_P(CasTest, BindMarkers) {
  Write("INSERT INTO kv (k, v) VALUES (1, 5)");
  EXPECT_EQ(Show("UPDATE kv SET v = ? WHERE k = 1 IF v = ?",
                 Values({Value::Of(Int(6)), Value::Of(Int(4))})),
            "[applied],v | False,5");
  const Bytes list = types::EncodeList({Int(3), Int(5)});
  EXPECT_EQ(Show("UPDATE kv SET v = ? WHERE k = 1 IF v IN ?",
                 Values({Value::Of(Int(6)), Value::Of(list)})),
            "[applied] | True");
  EXPECT_EQ(Error("UPDATE kv SET v = 1 WHERE k = 1 IF v = ?", Values({Value::Unset()})),
            "Invalid 'unset' value in condition");
  EXPECT_EQ(Error("UPDATE kv SET v = 1 WHERE k = 1 IF v IN ?", Values({Value::Null()})),
            "Invalid null list in IN condition");
  // IN skips unset values.
  EXPECT_EQ(Show("UPDATE kv SET v = 7 WHERE k = 1 IF v IN (?, ?)",
                 Values({Value::Unset(), Value::Of(Int(6))})),
            "[applied] | True");
}

TEST_P(CasTest, NullComparisons) {
  Write("INSERT INTO kv (k, v) VALUES (1, 5)");
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF t = null"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF t != null"), "[applied],t | False,null");
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF v = null"), "[applied],v | False,5");
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF v != null"), "[applied] | True");
  // A null cell matches only != against a value.
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF t > 'a'"), "[applied],t | False,null");
  EXPECT_EQ(Show("UPDATE kv SET v = 5 WHERE k = 1 IF t != 'a'"), "[applied] | True");
  EXPECT_EQ(Error("UPDATE kv SET v = 5 WHERE k = 1 IF v < null"),
            "Invalid comparison with null for operator \"<\"");
  // A missing row has only null cells: `IF v = null` applies and writes it.
  EXPECT_EQ(Show("UPDATE kv SET v = 1 WHERE k = 9 IF v = null"), "[applied] | True");
  EXPECT_EQ(Select("kv", 9), std::vector<std::string>{"9,null,1"});
  // Not applied on a missing row: nothing to show but [applied].
  EXPECT_EQ(Show("UPDATE kv SET v = 1 WHERE k = 10 IF v = 3"), "[applied] | False");
}

TEST_P(CasTest, CollectionElements) {
  Write(
      "INSERT INTO coll (k, l, st, m, fm, u, fu) VALUES (1, [10, 20], {'a', 'b'}, "
      "{'x': 1, 'y': 2}, {'x': 1}, {street: 'main', zip: 7}, {street: 'side', zip: 8})");
  auto applies = [&](const std::string& condition) {
    RowsResult r = Cas("UPDATE coll SET l = [10, 20] WHERE k = 1 IF " + condition);
    return !r.rows.empty() && r.rows[0][0] == types::EncodeBoolean(true);
  };
  EXPECT_TRUE(applies("m['x'] = 1"));
  EXPECT_FALSE(applies("m['x'] = 2"));
  EXPECT_TRUE(applies("m['y'] > 1"));
  EXPECT_TRUE(applies("m['z'] = null"));
  EXPECT_FALSE(applies("m['z'] = 1"));
  EXPECT_TRUE(applies("m['x'] IN (0, 1)"));
  EXPECT_TRUE(applies("fm['x'] = 1"));
  EXPECT_FALSE(applies("fm['y'] = 2"));
  EXPECT_TRUE(applies("l[0] = 10"));
  EXPECT_TRUE(applies("l[1] >= 20"));
  EXPECT_FALSE(applies("l[1] = 10"));
  EXPECT_TRUE(applies("l[5] = null"));
  EXPECT_TRUE(applies("u.zip = 7"));
  EXPECT_FALSE(applies("u.zip = 8"));
  EXPECT_TRUE(applies("u.street = 'main'"));
  EXPECT_TRUE(applies("fu.zip = 8"));
  EXPECT_TRUE(applies("fu.street IN ('side')"));
  // Whole collections and user types.
  EXPECT_TRUE(applies("l = [10, 20]"));
  EXPECT_TRUE(applies("l < [10, 21]"));
  EXPECT_TRUE(applies("l > [10]"));
  EXPECT_FALSE(applies("l = [20, 10]"));
  EXPECT_TRUE(applies("st = {'b', 'a'}"));
  EXPECT_TRUE(applies("m = {'y': 2, 'x': 1}"));
  EXPECT_TRUE(applies("m != {'x': 1}"));
  EXPECT_TRUE(applies("u = {street: 'main', zip: 7}"));
  EXPECT_TRUE(applies("fu = {street: 'side', zip: 8}"));
  EXPECT_EQ(Error("UPDATE coll SET l = [1] WHERE k = 1 IF l[-1] = 1"),
            "Invalid negative list index -1");
  EXPECT_EQ(Error("UPDATE coll SET l = [1] WHERE k = 1 IF m[?] = 1", Values({Value::Null()})),
            "Invalid null value for map element access");
  static const Bytes kEmpty;
  EXPECT_EQ(Error("UPDATE coll SET l = [1] WHERE k = 1 IF l[?] = 1", Values({Value::Of(kEmpty)})),
            "Invalid empty value for list index");
  // The failure shows the whole column.
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 1 IF m['x'] = 5 AND u.zip = 7"),
            "[applied],m,u | False,{'x': 1, 'y': 2},{street: 'main', zip: 7}");
}

TEST_P(CasTest, EmptyCollectionConditions) {
  Write("INSERT INTO coll (k, fm) VALUES (2, {'x': 1})");
  // A non-frozen collection without cells reads as the empty collection...
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF m = {}"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF m = null"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF m != null"), "[applied],m | False,null");
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF m > {}"), "[applied],m | False,null");
  // ... a frozen one holds one value, compared as such, and {} is not null.
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF fm = {}"),
            "[applied],fm | False,{'x': 1}");
  EXPECT_EQ(Show("UPDATE coll SET fm = {} WHERE k = 2 IF fm = {'x': 1}"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF fm = null"), "[applied],fm | False,{}");
  EXPECT_EQ(Show("UPDATE coll SET l = [1] WHERE k = 2 IF fm = {}"), "[applied] | True");
}

// --- Static columns -------------------------------------------------------------

TEST_P(CasTest, StaticConditions) {
  // A missing partition: nothing to show.
  EXPECT_EQ(Show("UPDATE t SET s = 2 WHERE k = 1 IF s = 1"), "[applied] | False");
  Write("INSERT INTO t (k, c, v) VALUES (1, 1, 10)");
  // The partition exists, but without static values.
  EXPECT_EQ(Show("UPDATE t SET s = 2 WHERE k = 1 IF s = 1"), "[applied],s | False,null");
  EXPECT_EQ(Show("UPDATE t SET s = 2 WHERE k = 1 IF s = null"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE t SET s = 3 WHERE k = 1 IF s = 2"), "[applied] | True");
  // Static and regular conditions together: regular columns first.
  EXPECT_EQ(Show("UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF s = 3 AND v = 9"),
            "[applied],v,s | False,10,3");
  EXPECT_EQ(Show("UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF s = 3 AND v = 10"),
            "[applied] | True");
  // A row of the partition that does not exist, with a static condition that holds.
  EXPECT_EQ(Show("UPDATE t SET v = 1 WHERE k = 1 AND c = 5 IF s = 3 AND v = 1"),
            "[applied],v,s | False,null,3");
  EXPECT_EQ(Show("UPDATE t SET s = 4 WHERE k = 1 IF EXISTS"), "[applied] | True");
  EXPECT_EQ(Select("t", 1), std::vector<std::string>{"1,1,4,11,null"});
  EXPECT_EQ(Show("DELETE s FROM t WHERE k = 1 IF s = 4"), "[applied] | True");
  EXPECT_EQ(Select("t", 1), std::vector<std::string>{"1,1,null,11,null"});
}

// --- Timestamps -----------------------------------------------------------------

TEST_P(CasTest, WritesAtAFreshTimestampEvenOverDefaultTimestamp) {
  protocol::QueryParameters params;
  params.default_timestamp = 5;  // Paxos ignores it
  EXPECT_EQ(Render(Cas("INSERT INTO kv (k, v) VALUES (1, 1) IF NOT EXISTS", params)),
            "[applied] | True");
  schema::TablePtr table = store_.snapshot()->FindTable("ks", "kv");
  storage::ReadCommand command;
  command.table_id = table->id;
  command.partitions = {storage::PartitionKey{dht::Murmur3Token(Int(1)), Int(1)}};
  command.now_seconds = clock_.NowSeconds();
  storage::ReadResult read = coordinator_.Read(command);
  ASSERT_EQ(read.partitions.size(), 1u);
  ASSERT_EQ(read.partitions[0].rows.size(), 1u);
  const storage::ReadRow& row = read.partitions[0].rows[0];
  EXPECT_GE(row.marker.timestamp, clock_.NowMicros());
  ASSERT_EQ(row.cells.size(), 1u);
  EXPECT_EQ(row.cells[0].timestamp, row.marker.timestamp);
  // A later transaction writes later, so its deletion (at its timestamp - 1) wins.
  EXPECT_EQ(Show("DELETE FROM kv WHERE k = 1 IF v = 1"), "[applied] | True");
  EXPECT_TRUE(Select("kv", 1).empty());
  EXPECT_EQ(Show("INSERT INTO kv (k, v) VALUES (1, 2) IF NOT EXISTS"), "[applied] | True");
  EXPECT_EQ(Select("kv", 1), std::vector<std::string>{"1,null,2"});
}

TEST_P(CasTest, ListOperationsReadUnderTheLock) {
  Write("INSERT INTO coll (k, l) VALUES (3, [1, 2, 3])");
  EXPECT_EQ(Show("UPDATE coll SET l[1] = 20 WHERE k = 3 IF l[1] = 2"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET l = l - [1] WHERE k = 3 IF l = [1, 20, 3]"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET l = l + [4] WHERE k = 3 IF l = [20, 3]"), "[applied] | True");
  EXPECT_EQ(Show("DELETE l[0] FROM coll WHERE k = 3 IF l[0] = 20"), "[applied] | True");
  EXPECT_EQ(Show("UPDATE coll SET st = {'q'} WHERE k = 3 IF l = [1]"),
            "[applied],l | False,[3, 4]");
}

// --- Messages -------------------------------------------------------------------

TEST_P(CasTest, PrepareMessages) {
  auto prepare_error = [&](std::string_view query) -> std::string {
    try {
      (void)Prepare(query);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid) << query;
      return e.what();
    }
    ADD_FAILURE() << "expected a prepare error from: " << query;
    return "";
  };
  EXPECT_EQ(prepare_error("UPDATE cnt SET hits = hits + 1 WHERE k = 1 IF hits = 1"),
            "Conditions on counters are not supported");
  EXPECT_EQ(prepare_error("UPDATE cnt SET hits = hits + 1 WHERE k = 1 IF EXISTS"),
            "Conditional updates are not supported on counter tables");
  EXPECT_EQ(prepare_error("UPDATE coll SET l = [1] WHERE k = 1 IF st['a'] = 'a'"),
            "Invalid element access syntax for set column st");
  EXPECT_EQ(prepare_error("UPDATE kv SET v = 1 WHERE k = 1 IF v[0] = 1"),
            "Invalid element access syntax for non-collection column v");
  EXPECT_EQ(prepare_error("UPDATE coll SET l = [1] WHERE k = 1 IF u.nope = 1"),
            "Unknown field nope for column u");
  EXPECT_EQ(prepare_error("UPDATE dur SET d = 1h WHERE k = 1 IF d < 2h"),
            "Slice conditions ( < ) are not supported on durations");
  EXPECT_EQ(prepare_error("UPDATE dur SET d = 1h WHERE k = 1 IF ld > [2h]"),
            "Slice conditions are not supported on collections containing durations");
  EXPECT_EQ(prepare_error("UPDATE kv SET v = 1 WHERE k = 1 IF k = 1"),
            "PRIMARY KEY column 'k' cannot have IF conditions");
  EXPECT_EQ(prepare_error("UPDATE kv USING TIMESTAMP 3 SET v = 1 WHERE k = 1 IF v = 1"),
            "Cannot provide custom timestamp for conditional updates");
  EXPECT_EQ(prepare_error("INSERT INTO kv (k, v) VALUES (1, 1) IF NOT EXISTS USING TIMESTAMP 3"),
            "Cannot provide custom timestamp for conditional updates");
  EXPECT_EQ(prepare_error("UPDATE kv SET v = 1 WHERE k = 1 IF nope = 1"),
            "Undefined column name nope in table ks.kv");
  // A whole partition of a table with clustering columns cannot be deleted conditionally.
  EXPECT_EQ(prepare_error("DELETE FROM t WHERE k = 1 IF s = 1"),
            "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
            "order to delete non static columns");
  EXPECT_EQ(prepare_error("DELETE FROM t WHERE k = 1 IF EXISTS"),
            "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
            "order to delete non static columns");
  EXPECT_EQ(prepare_error("DELETE s FROM t WHERE k = 1 IF v = 1"),
            "DELETE statements must restrict all PRIMARY KEY columns with equality relations in "
            "order to use IF condition on non static columns");
}

TEST_P(CasTest, ExecuteMessages) {
  EXPECT_EQ(Error("UPDATE kv SET v = 1 WHERE k IN (1, 2) IF v = 1"),
            "IN on the partition key is not supported with conditional updates");
  EXPECT_EQ(Error("DELETE FROM kv WHERE k IN (1, 2) IF EXISTS"),
            "IN on the partition key is not supported with conditional deletions");
  EXPECT_EQ(Error("UPDATE t SET v = 1 WHERE k = 1 AND c IN (1, 2) IF v = 1"),
            "IN on the clustering key columns is not supported with conditional updates");
  // One value in IN is an equality.
  EXPECT_EQ(Show("UPDATE kv SET v = 1 WHERE k IN (1) IF v = null"), "[applied] | True");
}

// --- BATCH ----------------------------------------------------------------------

TEST_P(CasTest, ConditionalBatch) {
  auto batch = [&](std::vector<std::string> queries) {
    std::vector<std::shared_ptr<const ModificationStatement>> statements;
    std::vector<std::unique_ptr<BoundValues>> values;
    protocol::QueryParameters params;
    std::vector<std::pair<const ModificationStatement*, const BoundValues*>> entries;
    for (const std::string& q : queries) {
      statements.push_back(Prepare(q));
      values.push_back(std::make_unique<BoundValues>(statements.back()->bind_specs(), params));
      entries.emplace_back(statements.back().get(), values.back().get());
    }
    return Render(
        ExecuteConditionalBatch(entries, params, *store_.snapshot(), clock_, coordinator_));
  };
  EXPECT_EQ(batch({"INSERT INTO t (k, c, v) VALUES (1, 1, 10) IF NOT EXISTS",
                   "INSERT INTO t (k, c, v) VALUES (1, 2, 20) IF NOT EXISTS",
                   "UPDATE t SET s = 5 WHERE k = 1"}),
            "[applied] | True");
  EXPECT_EQ(Select("t", 1), (std::vector<std::string>{"1,1,5,10,null", "1,2,5,20,null"}));
  // Not applied: the primary key, then the conditioned columns; a row per row read.
  EXPECT_EQ(batch({"UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10",
                   "UPDATE t SET v = 21 WHERE k = 1 AND c = 2 IF v = 0 AND w = null"}),
            "[applied],k,c,v,w | False,1,1,10,null | False,1,2,20,null");
  EXPECT_EQ(batch({"UPDATE t SET v = 11 WHERE k = 1 AND c = 1 IF v = 10",
                   "UPDATE t SET v = 21 WHERE k = 1 AND c = 2 IF v = 20",
                   "DELETE FROM t WHERE k = 1 AND c > 5"}),
            "[applied] | True");
  EXPECT_EQ(Select("t", 1), (std::vector<std::string>{"1,1,5,11,null", "1,2,5,21,null"}));
  // IF NOT EXISTS anywhere: every column; the static ones are not read
  // unless a conditional statement writes one or a condition names one.
  EXPECT_EQ(batch({"INSERT INTO t (k, c, v) VALUES (1, 1, 0) IF NOT EXISTS",
                   "UPDATE t SET v = 0 WHERE k = 1 AND c = 2 IF v = 21"}),
            "[applied],k,c,s,v,w | False,1,1,null,11,null | False,1,2,null,21,null");
  EXPECT_EQ(batch({"INSERT INTO t (k, c, v) VALUES (1, 1, 0) IF NOT EXISTS",
                   "UPDATE t SET v = 0 WHERE k = 1 AND c = 2 IF v = 21 AND s = 4"}),
            "[applied],k,c,s,v,w | False,1,1,5,11,null | False,1,2,5,21,null");
  // The same IF NOT EXISTS twice on a row is allowed (CASSANDRA-12867).
  EXPECT_EQ(batch({"INSERT INTO t (k, c, v) VALUES (1, 3, 1) IF NOT EXISTS",
                   "INSERT INTO t (k, c, w) VALUES (1, 3, 2) IF NOT EXISTS"}),
            "[applied] | True");

  auto batch_error = [&](std::vector<std::string> queries) -> std::string {
    try {
      (void)batch(std::move(queries));
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kInvalid);
      return e.what();
    }
    ADD_FAILURE() << "expected an error";
    return "";
  };
  EXPECT_EQ(batch_error({"UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
                         "UPDATE t SET v = 1 WHERE k = 2 AND c = 1"}),
            "Batch with conditions cannot span multiple partitions");
  EXPECT_EQ(batch_error({"UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
                         "UPDATE kv SET v = 1 WHERE k = 1"}),
            "Batch with conditions cannot span multiple tables");
  EXPECT_EQ(batch_error({"UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
                         "UPDATE t SET v = 1 WHERE k IN (1, 2) AND c = 1"}),
            "Batch with conditions cannot span multiple partitions (you cannot use IN on the "
            "partition key)");
  EXPECT_EQ(batch_error({"UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
                         "INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS"}),
            "Cannot mix IF conditions and IF NOT EXISTS for the same row");
  EXPECT_EQ(batch_error({"INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS",
                         "UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1"}),
            "Cannot mix IF conditions and IF NOT EXISTS for the same row");
  EXPECT_EQ(batch_error({"INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS",
                         "UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF EXISTS"}),
            "Cannot mix IF EXISTS and IF NOT EXISTS conditions for the same row");
  EXPECT_EQ(batch_error({"UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF v = 1",
                         "UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF EXISTS"}),
            "Cannot mix IF conditions and IF EXISTS for the same row");
  // Nothing was written by the failed batches.
  EXPECT_EQ(Select("t", 2), std::vector<std::string>{});

  // A list operation that needs the list finds it in what the transaction
  // read, the rows with conditions (4.1's CQL3CasRequest): another row's
  // list is not read, so it is null there.
  Write("INSERT INTO tl (k, c, v, l) VALUES (1, 1, 0, [1, 2])");
  Write("INSERT INTO tl (k, c, v, l) VALUES (1, 2, 0, [5, 6])");
  EXPECT_EQ(batch({"UPDATE tl SET l[0] = 10 WHERE k = 1 AND c = 1 IF v = 0",
                   "UPDATE tl SET l = l - [2] WHERE k = 1 AND c = 1"}),
            "[applied] | True");
  EXPECT_EQ(Select("tl", 1), (std::vector<std::string>{"1,1,[10],0", "1,2,[5, 6],0"}));
  EXPECT_EQ(batch_error({"UPDATE tl SET v = 1 WHERE k = 1 AND c = 1 IF v = 0",
                         "UPDATE tl SET l[0] = 50 WHERE k = 1 AND c = 2"}),
            "Attempted to set an element on a list which is null");
  EXPECT_EQ(Select("tl", 1), (std::vector<std::string>{"1,1,[10],0", "1,2,[5, 6],0"}));
}

// --- Linearizability ------------------------------------------------------------

// INSERT JSON binds its key columns to the document, not to the request's
// values: the transaction must read and write the document's partition (it
// once read the request's values by the document's marker indexes, past
// their end).
TEST_P(CasTest, InsertJsonIfNotExists) {
  EXPECT_EQ(Show(R"(INSERT INTO ks.t JSON '{"k": 1, "c": 2, "v": 3}' IF NOT EXISTS)"),
            "[applied] | True");
  EXPECT_EQ(Show(R"(INSERT INTO ks.t JSON '{"k": 1, "c": 2, "v": 4}' IF NOT EXISTS)"),
            "[applied],k,c,s,v,w | False,1,2,null,3,null");
  const Bytes document = R"({"k": 1, "c": 3, "w": 5})";
  EXPECT_EQ(Show("INSERT INTO ks.t JSON ? IF NOT EXISTS", Values({Value::Of(document)})),
            "[applied] | True");
  EXPECT_EQ(Select("t", 1), (std::vector<std::string>{"1,2,null,3,null", "1,3,null,null,5"}));
  try {
    (void)Cas(R"(INSERT INTO ks.t JSON '{"c": 2}' IF NOT EXISTS)");
    ADD_FAILURE() << "a document without its key was accepted";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(), "Invalid null value in condition for column k");
  }
}

// A term in the key is evaluated once per execution: what the transaction
// reads is the partition it writes, and each execution of uuid() is a new row.
TEST_P(CasTest, NonDeterministicKeyIsEvaluatedOnce) {
  Ddl("CREATE TABLE ks.u (k uuid PRIMARY KEY, v int)");
  engine_->SyncTables(schema::StoredTableLayouts(*store_.snapshot()));
  auto statement = Prepare("INSERT INTO ks.u (k, v) VALUES (uuid(), 1) IF NOT EXISTS");
  for (int i = 0; i < 5; ++i) {
    protocol::QueryParameters params;
    BoundValues values(statement->bind_specs(), params);
    EXPECT_EQ(Render(statement->ExecuteConditional(values, params, *store_.snapshot(), clock_,
                                                   coordinator_)),
              "[applied] | True");
  }
  storage::ReadCommand command;
  command.table_id = store_.snapshot()->FindTable("ks", "u")->id;
  command.now_seconds = clock_.NowSeconds();
  EXPECT_EQ(coordinator_.Read(command).partitions.size(), 5u);
}

TEST_P(CasTest, ConcurrentCompareAndSetCountsExactly) {
  Write("INSERT INTO kv (k, v) VALUES (0, 0)");
  auto statement = Prepare("UPDATE kv SET v = ? WHERE k = 0 IF v = ?");
  const schema::SchemaPtr schema = store_.snapshot();
  constexpr int kThreads = 8;
  constexpr int kAttemptsPerThread = 60;
  std::atomic<int> successes{0};
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      int32_t expected = 0;
      for (int i = 0; i < kAttemptsPerThread; ++i) {
        const Bytes next = Int(expected + 1);
        const Bytes old = Int(expected);
        protocol::QueryParameters params = Values({Value::Of(next), Value::Of(old)});
        BoundValues values(statement->bind_specs(), params);
        RowsResult result =
            statement->ExecuteConditional(values, params, *schema, clock_, coordinator_);
        if (result.rows.size() != 1) {
          failed = true;
          return;
        }
        if (result.rows[0][0] == types::EncodeBoolean(true)) {
          ++successes;
          ++expected;
        } else if (result.rows[0].size() == 2 && result.rows[0][1]) {
          expected = types::DecodeInt(*result.rows[0][1]);  // the value another thread wrote
        } else {
          failed = true;
          return;
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_FALSE(failed.load());
  EXPECT_GT(successes.load(), 0);
  EXPECT_EQ(Select("kv", 0), std::vector<std::string>{"0,null," + std::to_string(successes)});
}

}  // namespace
}  // namespace sibyl::query
