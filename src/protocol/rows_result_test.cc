#include <gtest/gtest.h>

#include "protocol/response.h"
#include "protocol/wire_reader.h"

namespace sibyl::protocol {
namespace {

using types::CqlType;
using types::Kind;

std::vector<ColumnSpec> Columns() {
  return {{"ks", "t", "k", CqlType::Native(Kind::kInt)},
          {"ks", "t", "v", CqlType::List(CqlType::Native(Kind::kText))}};
}

TEST(RowsResultTest, RowsWithGlobalTableSpec) {
  Bytes out;
  RowsWriter writer(out, Columns(), 4, false, std::nullopt);
  writer.AddValue(BytesView("\0\0\0\1", 4));
  writer.AddNull();
  writer.AddValue(OptBytes(Bytes("\0\0\0\2", 4)));
  writer.AddValue(OptBytes());
  writer.Finish();
  EXPECT_EQ(writer.row_count(), 2);
  WireReader r(out);
  EXPECT_EQ(r.ReadInt("kind"), 2);
  EXPECT_EQ(r.ReadInt("flags"), kRowsFlagGlobalTablesSpec);
  EXPECT_EQ(r.ReadInt("columns"), 2);
  EXPECT_EQ(r.ReadString(), "ks");
  EXPECT_EQ(r.ReadString(), "t");
  EXPECT_EQ(r.ReadString(), "k");
  EXPECT_EQ(r.ReadShort("type"), 0x0009);
  EXPECT_EQ(r.ReadString(), "v");
  EXPECT_EQ(r.ReadShort("type"), 0x0020);
  EXPECT_EQ(r.ReadShort("element"), 0x000D);
  EXPECT_EQ(r.ReadInt("rows"), 2);
  EXPECT_EQ(r.ReadBytes("v"), BytesView("\0\0\0\1", 4));
  EXPECT_EQ(r.ReadBytes("v"), std::nullopt);
  EXPECT_EQ(r.ReadBytes("v"), BytesView("\0\0\0\2", 4));
  EXPECT_EQ(r.ReadBytes("v"), std::nullopt);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(RowsResultTest, SkipMetadataAndPaging) {
  Bytes out;
  RowsWriter writer(out, Columns(), 4, true, BytesView("state"));
  writer.Finish();
  WireReader r(out);
  EXPECT_EQ(r.ReadInt("kind"), 2);
  EXPECT_EQ(r.ReadInt("flags"), kRowsFlagNoMetadata | kRowsFlagHasMorePages);
  EXPECT_EQ(r.ReadInt("columns"), 2);
  EXPECT_EQ(r.ReadBytes("paging"), BytesView("state"));
  EXPECT_EQ(r.ReadInt("rows"), 0);
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(RowsResultTest, V5MetadataChangedOverridesSkipMetadata) {
  Bytes out;
  RowsWriter writer(out, Columns(), 5, true, std::nullopt, BytesView("new-id"));
  writer.Finish();
  WireReader r(out);
  r.ReadInt("kind");
  EXPECT_EQ(r.ReadInt("flags"), kRowsFlagMetadataChanged | kRowsFlagGlobalTablesSpec);
  EXPECT_EQ(r.ReadInt("columns"), 2);
  EXPECT_EQ(r.ReadShortBytes(), "new-id");
  EXPECT_EQ(r.ReadString(), "ks");
}

TEST(RowsResultTest, PerColumnSpecsWhenTablesDiffer) {
  std::vector<ColumnSpec> columns = Columns();
  columns[1].table = "other";
  Bytes out;
  EncodeResultMetadata(out, columns, 4, 0, std::nullopt);
  WireReader r(out);
  EXPECT_EQ(r.ReadInt("flags"), 0);
  EXPECT_EQ(r.ReadInt("columns"), 2);
  EXPECT_EQ(r.ReadString(), "ks");
  EXPECT_EQ(r.ReadString(), "t");
  EXPECT_EQ(r.ReadString(), "k");
}

TEST(RowsResultTest, Prepared) {
  PreparedResult prepared;
  prepared.id = "0123456789abcdef";
  prepared.result_metadata_id = "fedcba9876543210";
  prepared.bind_variables = Columns();
  prepared.partition_key_indexes = {0};
  for (int version : {3, 4, 5}) {
    Bytes out;
    EncodePreparedResult(out, prepared, version);
    WireReader r(out);
    EXPECT_EQ(r.ReadInt("kind"), 4);
    EXPECT_EQ(r.ReadShortBytes(), "0123456789abcdef");
    if (version >= 5) {
      EXPECT_EQ(r.ReadShortBytes(), "fedcba9876543210");
    }
    EXPECT_EQ(r.ReadInt("flags"), 1);
    EXPECT_EQ(r.ReadInt("columns"), 2);
    if (version >= 4) {
      EXPECT_EQ(r.ReadInt("pk count"), 1);
      EXPECT_EQ(r.ReadShort("pk index"), 0);
    }
    EXPECT_EQ(r.ReadString(), "ks");
    EXPECT_EQ(r.ReadString(), "t");
    r.ReadString();
    r.ReadShort("type");
    r.ReadString();
    r.ReadShort("list");
    r.ReadShort("text");
    // No result columns: NO_METADATA, zero columns.
    EXPECT_EQ(r.ReadInt("result flags"), kRowsFlagNoMetadata);
    EXPECT_EQ(r.ReadInt("result columns"), 0);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

}  // namespace
}  // namespace sibyl::protocol
