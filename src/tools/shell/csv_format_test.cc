#include "tools/shell/csv_format.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace sibyl::tools::shell {
namespace {

std::vector<std::vector<CsvField>> ReadAll(const std::string& text, CsvDialect dialect = {}) {
  std::FILE* file = fmemopen(const_cast<char*>(text.data()), text.size(), "r");
  CsvReader reader(file, dialect);
  std::vector<std::vector<CsvField>> records;
  std::string raw;
  while (auto record = reader.Next(raw)) records.push_back(std::move(*record));
  std::fclose(file);
  return records;
}

TEST(CsvFormatTest, ReadsQuotedFieldsAcrossLines) {
  const auto records =
      ReadAll("1,plain,\"a, b\"\n2,\"say \"\"hi\"\"\",\"two\nlines\"\r\n3,,\"\"\n");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0][2].text, "a, b");
  EXPECT_TRUE(records[0][2].quoted);
  EXPECT_FALSE(records[0][1].quoted);
  EXPECT_EQ(records[1][1].text, "say \"hi\"");
  EXPECT_EQ(records[1][2].text, "two\nlines");
  EXPECT_EQ(records[2][1].text, "");
  EXPECT_FALSE(records[2][1].quoted);  // null with NULL=''
  EXPECT_TRUE(records[2][2].quoted);   // an empty string
}

TEST(CsvFormatTest, EscapeAndDelimiterOptions) {
  const auto records = ReadAll("1|\"a\\\"b\\\\c\"\n", CsvDialect{'|', '"', '\\'});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0][1].text, "a\"b\\c");
}

TEST(CsvFormatTest, WritesWhatReadsBack) {
  const std::vector<std::optional<std::string>> fields = {
      "plain", "", std::nullopt, "a,b", "say \"hi\"", "two\nlines", "back\\slash", "ünï ✓"};
  const CsvWriter writer(CsvDialect{}, "");
  std::string text;
  writer.AppendRecord(text, fields);
  EXPECT_EQ(text,
            "plain,\"\",,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"back\\\\slash\",ünï ✓\n");
  const auto records = ReadAll(text);
  ASSERT_EQ(records.size(), 1u);
  ASSERT_EQ(records[0].size(), fields.size());
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!fields[i]) {
      EXPECT_FALSE(records[0][i].quoted);
      EXPECT_EQ(records[0][i].text, "");
    } else {
      EXPECT_EQ(records[0][i].text, *fields[i]);
    }
  }
}

TEST(CsvFormatTest, ANullStringIsQuotedWhenItIsAValue) {
  const CsvWriter writer(CsvDialect{}, "NULL");
  std::string text;
  writer.AppendRecord(text, {std::string("NULL"), std::nullopt, std::string("")});
  EXPECT_EQ(text, "\"NULL\",NULL,\n");  // "" is not the null string here
}

}  // namespace
}  // namespace sibyl::tools::shell
