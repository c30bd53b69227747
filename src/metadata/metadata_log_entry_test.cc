#include "metadata/metadata_log_entry.h"

#include <gtest/gtest.h>

namespace sibyl::metadata {
namespace {

TEST(MetadataLogEntryTest, RoundTripsAndRefusesDamage) {
  const LogEntry entry{7, EntryKind::kDirectory, 5, 7, Bytes("payload\0bytes", 13)};
  const Bytes encoded = EncodeLogEntry(entry);
  EXPECT_EQ(DecodeLogEntry(encoded), entry);
  for (size_t i = 0; i < encoded.size(); ++i) {
    Bytes damaged = encoded;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x01);
    EXPECT_THROW((void)DecodeLogEntry(damaged), std::runtime_error) << "byte " << i;
  }
  EXPECT_THROW((void)DecodeLogEntry(BytesView(encoded).substr(0, encoded.size() - 1)),
               std::runtime_error);
}

TEST(MetadataLogEntryTest, RefusesAnUnknownFormatVersionByName) {
  Bytes encoded = EncodeLogEntry({1, EntryKind::kSchema, 1, 0, "s"});
  encoded[11] = 2;  // format version 2
  try {
    (void)DecodeLogEntry(encoded);
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "metadata log entry format 2 is not supported (this version reads 1)");
  }
}

}  // namespace
}  // namespace sibyl::metadata
