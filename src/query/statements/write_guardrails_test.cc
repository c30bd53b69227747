#include "query/statements/write_guardrails.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "schema/table_builder.h"

namespace sibyl::query {
namespace {

using Warnings = std::vector<std::string>;

storage::CellWrite Element(std::string column, std::string path, std::string value) {
  storage::CellWrite cell;
  cell.column = std::move(column);
  cell.path = Bytes(path.begin(), path.end());
  cell.cell.value = Bytes(value.begin(), value.end());
  return cell;
}

storage::CellWrite Value(std::string column, Bytes value) {
  storage::CellWrite cell;
  cell.column = std::move(column);
  cell.cell.value = std::move(value);
  return cell;
}

// A frozen collection's value: its element count, then (here) filler.
Bytes FrozenWithCount(uint32_t count, size_t filler) {
  Bytes value{static_cast<char>(count >> 24), static_cast<char>(count >> 16),
              static_cast<char>(count >> 8), static_cast<char>(count)};
  value.resize(4 + filler, 'x');
  return value;
}

class WriteGuardrailsTest : public ::testing::Test {
 protected:
  WriteGuardrailsTest()
      : table_(schema::TableBuilder("ks", "t")
                   .PartitionKey("k", "int")
                   .Column("v", "text")
                   .Column("m", "map<text, text>")
                   .Column("s", "set<text>")
                   .Column("f", "frozen<list<int>>")
                   .Build()) {}

  Warnings Check(std::vector<storage::CellWrite> cells) {
    storage::Mutation mutation;
    storage::RowWrite row;
    row.cells = std::move(cells);
    mutation.rows.push_back(std::move(row));
    Warnings warnings;
    GuardWrittenValues(*table_, {mutation}, {&guardrails_, &warnings});
    return warnings;
  }

  schema::TablePtr table_;
  guardrails::Guardrails guardrails_;
};

TEST_F(WriteGuardrailsTest, ItemsAreCountedPerCollectionWritten) {
  guardrails_.Apply({{"items_per_collection_warn_threshold", "2"}});
  EXPECT_EQ(Check({Element("m", "a", "1"), Element("m", "b", "2"), Element("s", "x", "")}),
            Warnings{});
  EXPECT_EQ(Check({Element("m", "a", "1"), Element("m", "b", "2"), Element("m", "c", "3"),
                   Element("s", "x", "")}),
            Warnings{"Guardrail items_per_collection violated: Detected collection m with 3 "
                     "items, this exceeds the warning threshold of 2."});
  // A frozen collection is one cell: its elements are counted from its value.
  EXPECT_EQ(Check({Value("f", FrozenWithCount(3, 12))}),
            Warnings{"Guardrail items_per_collection violated: Detected collection f with 3 "
                     "items, this exceeds the warning threshold of 2."});
}

TEST_F(WriteGuardrailsTest, CollectionSizeCountsKeysValuesAndEachCellsOverhead) {
  guardrails_.Apply(
      {{"items_per_collection_warn_threshold", "-1"}, {"collection_size_fail_threshold", "40B"}});
  // Two elements of 1 + 1 bytes and 16 bytes each: 36.
  EXPECT_EQ(Check({Element("m", "a", "1"), Element("m", "b", "2")}), Warnings{});
  try {
    Check({Element("m", "a", "1"), Element("m", "b", "2"), Element("m", "c", "3")});
    ADD_FAILURE() << "no error";
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(),
                 "Guardrail collection_size violated: Detected collection m of size 54, this "
                 "exceeds the failure threshold of 40.");
  }
}

TEST_F(WriteGuardrailsTest, ValueSizeIsEachValueWithItsKey) {
  guardrails_.Apply(
      {{"items_per_collection_warn_threshold", "-1"}, {"column_value_size_warn_threshold", "4B"}});
  EXPECT_EQ(Check({Value("v", Bytes(4, 'x')), Element("m", "ab", "cd")}), Warnings{});
  EXPECT_EQ(Check({Value("v", Bytes(5, 'x')), Element("m", "ab", "cde")}),
            (Warnings{"Guardrail column_value_size violated: Value of column 'v' has size 5, this "
                      "exceeds the warning threshold of 4.",
                      "Guardrail column_value_size violated: Value of column 'm' has size 5, this "
                      "exceeds the warning threshold of 4."}));
}

TEST_F(WriteGuardrailsTest, TablesWithoutCollectionsAreNotLookedAt) {
  const schema::TablePtr plain =
      schema::TableBuilder("ks", "p").PartitionKey("k", "int").Column("v", "text").Build();
  guardrails_.Apply({{"items_per_collection_warn_threshold", "1"}});
  storage::Mutation mutation;
  storage::RowWrite row;
  // A cell naming a column the table lacks would not be found: it is never asked for.
  row.cells.push_back(Element("nowhere", "a", "1"));
  row.cells.push_back(Element("nowhere", "b", "1"));
  mutation.rows.push_back(std::move(row));
  Warnings warnings;
  GuardWrittenValues(*plain, {mutation}, {&guardrails_, &warnings});
  EXPECT_EQ(warnings, Warnings{});
}

}  // namespace
}  // namespace sibyl::query
