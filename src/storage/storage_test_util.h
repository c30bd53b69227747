#pragma once
// Helpers shared by the storage tests: a scratch directory, tables and
// mutations built tersely.

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>

#include "storage/data/mutation.h"
#include "storage/data/read_command.h"
#include "storage/data/table_layout.h"

namespace sibyl::storage::testing {

// "Now" (seconds) for the tests' TTLs, deletion times and reads.
inline constexpr int32_t kNow = 1'700'000'000;

inline Bytes Int(int32_t v) {
  Bytes out;
  AppendBE32(out, static_cast<uint32_t>(v));
  return out;
}
inline Bytes Long(int64_t v) {
  Bytes out;
  AppendBE64(out, static_cast<uint64_t>(v));
  return out;
}

// A directory under /tmp removed (with its contents) on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("sibyl-storage-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline types::Uuid TableId(uint8_t n) {
  types::Uuid id;
  id.bytes[0] = 0x5b;
  id.bytes[15] = n;
  return id;
}

// pk int, c int (ASC or DESC), v int, w text, s int static, l list<int>,
// st set<int>, m map<int, int>.
inline TableLayout MakeTable(uint8_t id, bool descending = false) {
  using types::CqlType;
  using types::Kind;
  TableLayout table;
  table.id = TableId(id);
  table.keyspace = "ks";
  table.name = "t" + std::to_string(id);
  table.partition_key_types = {CqlType::Native(Kind::kInt)};
  table.clustering = {{CqlType::Native(Kind::kInt), descending}};
  auto i = CqlType::Native(Kind::kInt);
  table.columns = {{"v", i, false},
                   {"w", CqlType::Native(Kind::kText), false},
                   {"s", i, true},
                   {"l", CqlType::List(i), false},
                   {"st", CqlType::Set(i), false},
                   {"m", CqlType::Map(i, i), false}};
  return table;
}

// pk int, c int, n counter.
inline TableLayout MakeCounterTable(uint8_t id) {
  using types::CqlType;
  using types::Kind;
  TableLayout table;
  table.id = TableId(id);
  table.keyspace = "ks";
  table.name = "counters";
  table.partition_key_types = {CqlType::Native(Kind::kInt)};
  table.clustering = {{CqlType::Native(Kind::kInt), false}};
  table.columns = {{"n", CqlType::Native(Kind::kCounter), false}};
  return table;
}

// Tokens need not be Murmur3 here: any int64 orders partitions.
inline PartitionKey Pk(int32_t k) { return {static_cast<int64_t>(k) * 1000 - 7, Int(k)}; }

inline Cell Live(int64_t ts, Bytes value) {
  return {Cell::Kind::kRegular, ts, 0, kNoDeletionTime, std::move(value)};
}
inline Cell Ttl(int64_t ts, int32_t ttl, int32_t expires_at, Bytes value) {
  return {Cell::Kind::kExpiring, ts, ttl, expires_at, std::move(value)};
}
inline Cell Dead(int64_t ts, int32_t deleted_at = kNow) {
  return {Cell::Kind::kTombstone, ts, 0, deleted_at, {}};
}
inline Cell Delta(int64_t ts, int64_t amount) {
  return {Cell::Kind::kCounter, ts, 0, kNoDeletionTime, Long(amount)};
}

inline Mutation MutationOf(const TableLayout& table, int32_t pk) {
  Mutation m;
  m.table_id = table.id;
  m.partition = Pk(pk);
  return m;
}
inline RowWrite& RowOf(Mutation& m, int32_t c) {
  RowWrite& row = m.rows.emplace_back();
  row.clustering = {Int(c)};
  return row;
}
inline RowWrite& StaticRowOf(Mutation& m) {
  RowWrite& row = m.rows.emplace_back();
  row.is_static = true;
  return row;
}
inline void Set(RowWrite& row, std::string column, Cell cell) {
  row.cells.push_back({std::move(column), std::nullopt, std::move(cell)});
}
inline void SetElement(RowWrite& row, std::string column, Bytes path, Cell cell) {
  row.cells.push_back({std::move(column), std::move(path), std::move(cell)});
}

inline ReadCommand ReadOf(const TableLayout& table, std::vector<int32_t> pks, int32_t now) {
  ReadCommand command;
  command.table_id = table.id;
  for (int32_t pk : pks) command.partitions.push_back(Pk(pk));
  command.now_seconds = now;
  return command;
}
inline ReadCommand ScanOf(const TableLayout& table, int32_t now) {
  ReadCommand command;
  command.table_id = table.id;
  command.now_seconds = now;
  return command;
}

}  // namespace sibyl::storage::testing
