#include "cluster/read/read_request_codec.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "storage/codec/read_command_codec.h"

namespace sibyl::cluster {
namespace {

storage::ReadCommand Command() {
  storage::ReadCommand command;
  command.partitions = {{42, "key"}};
  command.row_limit = 10;
  command.now_seconds = 77;
  return command;
}

TEST(ReadRequestCodecTest, RequestsRoundTrip) {
  for (ReadRequestKind kind :
       {ReadRequestKind::kData, ReadRequestKind::kDigest, ReadRequestKind::kUnfiltered}) {
    const ReadRequest decoded = DecodeReadRequest(EncodeReadRequest(kind, Command()));
    EXPECT_EQ(decoded.kind, kind);
    Bytes expected;
    Bytes actual;
    storage::SerializeReadCommand(Command(), expected);
    storage::SerializeReadCommand(decoded.command, actual);
    EXPECT_EQ(actual, expected);
  }
}

TEST(ReadRequestCodecTest, UnfilteredAnswersRoundTrip) {
  storage::Mutation first;
  first.partition = {1, "a"};
  first.partition_deletion = {.marked_for_delete_at = 5, .local_deletion_time = 6};
  storage::Mutation second;
  second.partition = {2, "b"};
  const std::vector<storage::Mutation> mutations{first, second};
  EXPECT_EQ(DecodeUnfiltered(EncodeUnfiltered(mutations)), mutations);
  EXPECT_TRUE(DecodeUnfiltered(EncodeUnfiltered({})).empty());
}

TEST(ReadRequestCodecTest, MalformedPayloadsAreErrors) {
  EXPECT_THROW((void)DecodeReadRequest(""), std::runtime_error);
  Bytes unknown_kind = EncodeReadRequest(ReadRequestKind::kData, Command());
  unknown_kind[0] = 9;
  EXPECT_THROW((void)DecodeReadRequest(unknown_kind), std::runtime_error);
  storage::Mutation one;
  const Bytes encoded = EncodeUnfiltered({one});
  for (size_t cut = 0; cut < encoded.size(); ++cut) {
    EXPECT_THROW((void)DecodeUnfiltered(encoded.substr(0, cut)), std::runtime_error) << cut;
  }
  EXPECT_THROW((void)DecodeUnfiltered(encoded + "x"), std::runtime_error);
}

}  // namespace
}  // namespace sibyl::cluster
