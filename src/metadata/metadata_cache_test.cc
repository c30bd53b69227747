#include "metadata/metadata_cache.h"

#include <gtest/gtest.h>

#include <fstream>

#include "metadata/etcd_test_util.h"

namespace sibyl::metadata {
namespace {

TEST(MetadataCacheTest, SavesAndLoads) {
  testing::TempDirectory directory("sibyl-metadata-cache");
  const std::filesystem::path where = directory.path() / "metadata";
  EXPECT_EQ(LoadMetadataCache(where), std::nullopt);
  const CachedMetadata cached{9, LogEntry{4, EntryKind::kSchema, 4, 9, "schema"},
                              LogEntry{9, EntryKind::kDirectory, 4, 9, "directory"}};
  SaveMetadataCache(where, cached);
  EXPECT_EQ(LoadMetadataCache(where), cached);
  const CachedMetadata empty{0, std::nullopt, std::nullopt};
  SaveMetadataCache(where, empty);
  EXPECT_EQ(LoadMetadataCache(where), empty);
}

TEST(MetadataCacheTest, RefusesDamageNamingTheFile) {
  const Bytes encoded =
      EncodeMetadataCache({3, std::nullopt, LogEntry{3, EntryKind::kDirectory, 0, 3, "d"}});
  for (size_t i = 0; i < encoded.size(); ++i) {
    Bytes damaged = encoded;
    damaged[i] = static_cast<char>(damaged[i] ^ 0x10);
    EXPECT_THROW((void)DecodeMetadataCache(damaged), std::runtime_error) << "byte " << i;
  }
  testing::TempDirectory directory("sibyl-metadata-cache");
  std::ofstream(directory.path() / "metadata.db") << "garbage";
  try {
    (void)LoadMetadataCache(directory.path());
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("metadata.db"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sibyl::metadata
