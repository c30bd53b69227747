// ParseStatement on the statements a CQL server parses most: a typical
// INSERT (what prepared-statement-less clients send per write), a SELECT
// with a WHERE clause, and a CREATE TABLE (rare, but large).

#include <benchmark/benchmark.h>

#include <string_view>

#include "cql/parser.h"

namespace {

constexpr std::string_view kInsert =
    "INSERT INTO shop.orders (order_id, customer_id, placed_at, status, total, items) "
    "VALUES (5b6962dd-3f90-4c93-8f61-eabfa4a803e2, 42, '2026-01-26 10:30:00', 'paid', 99.99, "
    "{'ABC123': 2, 'XYZ789': 1}) USING TTL 86400";

constexpr std::string_view kPreparedInsert =
    "INSERT INTO shop.orders (order_id, customer_id, placed_at, status, total, items) "
    "VALUES (?, ?, ?, ?, ?, ?)";

constexpr std::string_view kSelect =
    "SELECT order_id, status, total FROM shop.orders_by_customer "
    "WHERE customer_id = 42 AND placed_at >= '2026-01-01' AND placed_at < '2026-02-01' "
    "ORDER BY placed_at DESC LIMIT 50";

constexpr std::string_view kCreateTable = R"(CREATE TABLE IF NOT EXISTS shop.orders_by_customer (
    customer_id bigint,
    placed_at timestamp,
    order_id uuid,
    status text,
    total decimal,
    items map<text, int>,
    tags set<text>,
    PRIMARY KEY ((customer_id), placed_at, order_id)
) WITH CLUSTERING ORDER BY (placed_at DESC, order_id ASC)
  AND default_time_to_live = 2592000
  AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS',
                    'compaction_window_size': 1}
  AND comment = 'orders of a customer, newest first')";

void BM_Parse(benchmark::State& state, std::string_view query) {
  for (auto _ : state) {
    sibyl::cql::ParsedStatement parsed = sibyl::cql::ParseStatement(query);
    benchmark::DoNotOptimize(parsed);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * query.size()));
}

BENCHMARK_CAPTURE(BM_Parse, Insert, kInsert);
BENCHMARK_CAPTURE(BM_Parse, PreparedInsert, kPreparedInsert);
BENCHMARK_CAPTURE(BM_Parse, SelectWhere, kSelect);
BENCHMARK_CAPTURE(BM_Parse, CreateTable, kCreateTable);

}  // namespace

BENCHMARK_MAIN();
