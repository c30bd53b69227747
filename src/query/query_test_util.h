#pragma once
// Shared fixture for the query tests: a processor over the initial schema
// and the system virtual tables, and helpers to run CQL and read results.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "common/error.h"
#include "query/query_processor.h"
#include "schema/system_keyspaces.h"
#include "schema/virtual_tables.h"
#include "types/value_codec.h"

namespace sibyl::query::testing {

inline protocol::QueryParameters WithValues(std::vector<Value> values) {
  protocol::QueryParameters params;
  params.flags = protocol::kQueryFlagValues;
  params.values = std::move(values);
  return params;
}

// An int's wire form.
inline Bytes Int(int32_t v) { return types::EncodeInt(v); }

// The INSERT, UPDATE or DELETE a parsed statement is.
inline cql::ModificationStatement ToModification(cql::Statement statement) {
  if (auto* s = std::get_if<cql::InsertStatement>(&statement)) return std::move(*s);
  if (auto* s = std::get_if<cql::UpdateStatement>(&statement)) return std::move(*s);
  if (auto* s = std::get_if<cql::DeleteStatement>(&statement)) return std::move(*s);
  ADD_FAILURE() << "not a modification statement";
  return cql::InsertStatement{};
}

class QueryTest : public ::testing::Test {
 protected:
  QueryTest()
      : store_(schema::MakeInitialSchema()),
        tables_(schema::VirtualTables::SystemTables()),
        processor_(store_, tables_, node_) {
    node_.host_id = *types::Uuid::Parse("5f1e8b2a-0c3d-4e5f-8a9b-0c1d2e3f4a5b");
    node_.tokens = {"-3074457345618258603", "3074457345618258602"};
  }

  RowsResult Rows(std::string_view query, const protocol::QueryParameters& params = {}) {
    Result result = processor_.Process(query, params, client_);
    EXPECT_TRUE(std::holds_alternative<RowsResult>(result)) << query;
    if (!std::holds_alternative<RowsResult>(result)) return {};
    return std::get<RowsResult>(std::move(result));
  }

  // The error a statement fails with; fails the test if it succeeds.
  CqlError Error(std::string_view query, const protocol::QueryParameters& params = {}) {
    try {
      (void)processor_.Process(query, params, client_);
    } catch (const CqlError& e) {
      return e;
    }
    ADD_FAILURE() << "expected an error from: " << query;
    return CqlError(ErrorCode::kServerError, "no error");
  }

  static std::vector<std::string> ColumnNames(const RowsResult& rows) {
    std::vector<std::string> names;
    for (const auto& c : *rows.columns) names.push_back(c.name);
    return names;
  }

  // The text of column `index` of every row.
  static std::vector<std::string> Texts(const RowsResult& rows, size_t index) {
    std::vector<std::string> out;
    for (const auto& row : rows.rows) out.push_back(row.at(index).value_or("<null>"));
    return out;
  }

  // Every row of `query`, read in pages of `page_size`; counts the pages.
  std::vector<schema::Row> AllPages(std::string_view query, int page_size, int& pages) {
    std::vector<schema::Row> all;
    protocol::QueryParameters params;
    params.page_size = page_size;
    Bytes state;
    pages = 0;
    while (true) {
      RowsResult page = Rows(query, params);
      ++pages;
      EXPECT_LE(page.rows.size(), static_cast<size_t>(page_size));
      for (auto& row : page.rows) all.push_back(std::move(row));
      if (!page.paging_state) break;
      EXPECT_EQ(page.rows.size(), static_cast<size_t>(page_size));
      state = *page.paging_state;
      params.paging_state = BytesView(state);
      if (pages > 10000) break;
    }
    return all;
  }

  schema::SchemaStore store_;
  schema::VirtualTables tables_;
  schema::LocalNodeInfo node_;
  QueryProcessor processor_;
  ClientState client_;
};

}  // namespace sibyl::query::testing
