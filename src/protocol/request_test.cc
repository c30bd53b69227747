#include "protocol/request.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "protocol/wire_format.h"

namespace sibyl::protocol {
namespace {

using namespace std::string_view_literals;

template <typename T>
T Decode(Opcode opcode, BytesView body, int version) {
  Request r = DecodeRequest(static_cast<uint8_t>(opcode), 0, body, version);
  EXPECT_TRUE(std::holds_alternative<T>(r));
  return std::get<T>(std::move(r));
}

std::string ProtocolErrorOf(uint8_t opcode, BytesView body, int version) {
  try {
    DecodeRequest(opcode, 0, body, version);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kProtocolError);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

void AppendFlags(Bytes& out, uint32_t flags, int version) {
  if (version >= 5) {
    AppendBE32(out, flags);
  } else {
    AppendU8(out, static_cast<uint8_t>(flags));
  }
}

TEST(RequestTest, Startup) {
  Bytes body;
  AppendBE16(body, 2);
  AppendString(body, "CQL_VERSION");
  AppendString(body, "3.4.5");
  AppendString(body, "COMPRESSION");
  AppendString(body, "lz4");
  auto m = Decode<StartupMessage>(Opcode::kStartup, body, 4);
  ASSERT_EQ(m.options.size(), 2u);
  EXPECT_EQ(m.options[0].first, "CQL_VERSION");
  EXPECT_EQ(m.options[0].second, "3.4.5");
  EXPECT_EQ(m.options[1].second, "lz4");
}

TEST(RequestTest, OptionsIgnoresItsBody) {
  Decode<OptionsMessage>(Opcode::kOptions, "", 4);
  Decode<OptionsMessage>(Opcode::kOptions, "xyz", 5);
}

TEST(RequestTest, QueryWithEveryParameter) {
  for (int version : {3, 4, 5}) {
    Bytes body;
    AppendLongString(body, "SELECT * FROM t WHERE a = ? AND b = ?");
    AppendBE16(body, 0x0006);  // LOCAL_QUORUM
    uint32_t flags = kQueryFlagValues | kQueryFlagPageSize | kQueryFlagPagingState |
                     kQueryFlagSerialConsistency | kQueryFlagDefaultTimestamp;
    if (version >= 5) flags |= kQueryFlagKeyspace | kQueryFlagNowInSeconds;
    AppendFlags(body, flags, version);
    AppendBE16(body, 3);
    AppendBytes(body, Bytes("\0\0\0\1", 4));
    AppendBE32(body, 0xFFFFFFFF);  // null
    AppendBE32(body, 0xFFFFFFFE);  // unset (v4+), null before
    AppendBE32(body, 5000);
    AppendBytes(body, "page");
    AppendBE16(body, 0x0009);
    AppendBE64(body, 1234567890123);
    if (version >= 5) {
      AppendString(body, "ks");
      AppendBE32(body, 1700000000);
    }
    auto m = Decode<QueryMessage>(Opcode::kQuery, body, version);
    EXPECT_EQ(m.query, "SELECT * FROM t WHERE a = ? AND b = ?");
    const QueryParameters& p = m.params;
    EXPECT_EQ(p.consistency, 0x0006);
    EXPECT_EQ(p.flags, flags);
    ASSERT_EQ(p.values.size(), 3u);
    EXPECT_EQ(p.values[0].bytes, BytesView("\x00\x00\x00\x01", 4));
    EXPECT_TRUE(p.values[1].is_null());
    EXPECT_EQ(p.values[2].is_unset(), version >= 4);
    EXPECT_EQ(p.values[2].is_null(), version < 4);
    EXPECT_EQ(p.page_size, 5000);
    EXPECT_EQ(p.paging_state, BytesView("page"));
    EXPECT_EQ(p.serial_consistency, 0x0009);
    EXPECT_EQ(p.default_timestamp, 1234567890123);
    if (version >= 5) {
      EXPECT_EQ(p.keyspace, "ks");
      EXPECT_EQ(p.now_in_seconds, 1700000000);
    } else {
      EXPECT_FALSE(p.keyspace);
    }
    EXPECT_FALSE(p.skip_metadata());
  }
}

TEST(RequestTest, QueryNamedValuesAndSkipMetadata) {
  Bytes body;
  AppendLongString(body, "INSERT INTO t (a) VALUES (:a)");
  AppendBE16(body, 1);
  AppendFlags(body, kQueryFlagValues | kQueryFlagNamesForValues | kQueryFlagSkipMetadata, 4);
  AppendBE16(body, 1);
  AppendString(body, "a");
  AppendBytes(body, "v");
  auto m = Decode<QueryMessage>(Opcode::kQuery, body, 4);
  ASSERT_EQ(m.params.names.size(), 1u);
  EXPECT_EQ(m.params.names[0], "a");
  EXPECT_EQ(m.params.values[0].bytes, "v");
  EXPECT_TRUE(m.params.skip_metadata());
}

TEST(RequestTest, V4FlagsAreAByteV5AnInt) {
  Bytes v4;
  AppendLongString(v4, "q");
  AppendBE16(v4, 1);
  AppendU8(v4, kQueryFlagPageSize);
  AppendBE32(v4, 100);
  EXPECT_EQ(Decode<QueryMessage>(Opcode::kQuery, v4, 4).params.page_size, 100);
  // The same bytes in v5 read the flags as an int (0x04000000: no known flag);
  // the bytes after it are left over and ignored, as Cassandra ignores them.
  const auto v5 = Decode<QueryMessage>(Opcode::kQuery, v4, 5);
  EXPECT_EQ(v5.params.flags, 0x04000000u);
  EXPECT_EQ(v5.params.page_size, -1);
}

TEST(RequestTest, ValueLengthBelowMinusTwoIsInvalidFromV4) {
  Bytes body;
  AppendLongString(body, "q");
  AppendBE16(body, 1);
  AppendU8(body, kQueryFlagValues);
  AppendBE16(body, 1);
  AppendBE32(body, static_cast<uint32_t>(-3));
  EXPECT_EQ(ProtocolErrorOf(0x07, body, 4), "Invalid ByteBuf length -3");
  EXPECT_TRUE(Decode<QueryMessage>(Opcode::kQuery, body, 3).params.values[0].is_null());
}

TEST(RequestTest, TruncationAndBadFieldsUseCassandrasMessages) {
  EXPECT_EQ(ProtocolErrorOf(0x07, "\x00\x00\x00\x10q", 4),
            "Not enough bytes to read an UTF8 serialized string preceded by its 4 bytes length");
  Bytes bad_consistency;
  AppendLongString(bad_consistency, "q");
  AppendBE16(bad_consistency, 42);
  AppendU8(bad_consistency, 0);
  EXPECT_EQ(ProtocolErrorOf(0x07, bad_consistency, 4), "Unknown code 42 for a consistency level");
  Bytes min_timestamp;
  AppendLongString(min_timestamp, "q");
  AppendBE16(min_timestamp, 1);
  AppendU8(min_timestamp, kQueryFlagDefaultTimestamp);
  AppendBE64(min_timestamp, 0x8000000000000000ull);
  EXPECT_EQ(ProtocolErrorOf(0x07, min_timestamp, 4),
            "Out of bound timestamp, must be in [-9223372036854775807, 9223372036854775807] "
            "(got -9223372036854775808)");
  // CREDENTIALS: a request type 4.1 knows only to refuse (UnsupportedMessageCodec).
  EXPECT_EQ(ProtocolErrorOf(0x04, "", 4), "Unsupported message");
  EXPECT_EQ(ProtocolErrorOf(0x08, "", 4), "Opcode 8 is not a request");
  // A negative [long string] length fails CBUtil's bounds check.
  EXPECT_EQ(ProtocolErrorOf(0x07, "\xff\xff\xff\xfeq", 4),
            "Not enough bytes to read an UTF8 serialized string preceded by its 4 bytes length");
  // NODE_LOCAL (11) is the last consistency code 4.1 knows.
  Bytes node_local;
  AppendLongString(node_local, "q");
  AppendBE16(node_local, 11);
  AppendU8(node_local, 0);
  EXPECT_EQ(Decode<QueryMessage>(Opcode::kQuery, node_local, 4).params.consistency, 11);
  EXPECT_STREQ(ConsistencyName(11), "NODE_LOCAL");
}

// Strings that are not UTF-8 are refused as CBUtil.readString refuses them:
// the bytes from the first malformed sequence, and the length Java's decoder reports.
TEST(RequestTest, StringsMustBeUtf8) {
  auto query_error = [](std::string_view text) {
    Bytes body;
    AppendBE32(body, static_cast<uint32_t>(text.size()));
    body.append(text);
    AppendBE16(body, 1);
    AppendU8(body, 0);
    return ProtocolErrorOf(0x07, body, 4);
  };
  const std::string prefix = "Cannot decode string as UTF8: '";
  const std::string exception = "'; java.nio.charset.MalformedInputException: Input length = ";
  EXPECT_EQ(query_error("ab\xc3\x28"
                        "cd"),
            prefix + "c3286364" + exception + "1");
  EXPECT_EQ(query_error("\xff"), prefix + "ff" + exception + "1");
  EXPECT_EQ(query_error("a\xe2\x82"), prefix + "e282" + exception + "2");  // cut short
  EXPECT_EQ(query_error("\xe2\x82x"), prefix + "e28278" + exception + "2");
  EXPECT_EQ(query_error("\xed\xa0\x80"), prefix + "eda080" + exception + "3");  // a surrogate
  EXPECT_EQ(query_error("\xc0\x80"), prefix + "c080" + exception + "1");        // overlong
  EXPECT_EQ(query_error("\xf0\x9f\x98x"), prefix + "f09f9878" + exception + "3");
  // Every [string] is checked: a STARTUP option here.
  Bytes startup;
  AppendBE16(startup, 1);
  AppendBE16(startup, 1);
  startup.push_back('\xfe');
  AppendString(startup, "v");
  EXPECT_EQ(ProtocolErrorOf(0x01, startup, 4), prefix + "fe" + exception + "1");
  EXPECT_EQ(
      Decode<QueryMessage>(Opcode::kQuery, "\x00\x00\x00\x06\xce\x8e\xce\x94ok\x00\x01\x00"sv, 4)
          .query,
      "\xce\x8e\xce\x94ok");
}

// Frame flag 0x04: the body starts with a [bytes map] that is read and
// dropped; below v4 the flag is refused once the map has been read.
TEST(RequestTest, CustomPayloadComesFirst) {
  Bytes payload;
  AppendBE16(payload, 2);
  AppendString(payload, "k");
  AppendBytes(payload, "v");
  AppendString(payload, "null");
  AppendNullBytes(payload);
  Bytes query = payload;
  AppendLongString(query, "SELECT 1");
  AppendBE16(query, 1);
  AppendU8(query, 0);
  for (int version : {4, 5}) {
    Bytes body = query;
    if (version == 5) body.insert(body.size() - 1, 3, '\0');  // v5 flags are an int
    Request r = DecodeRequest(0x07, kFlagCustomPayload, body, version);
    ASSERT_TRUE(std::holds_alternative<QueryMessage>(r));
    EXPECT_EQ(std::get<QueryMessage>(r).query, "SELECT 1");
  }
  Bytes prepare = payload;
  AppendLongString(prepare, "SELECT 2");
  Request r = DecodeRequest(0x09, kFlagCustomPayload, prepare, 4);
  EXPECT_EQ(std::get<PrepareMessage>(r).query, "SELECT 2");
  try {
    DecodeRequest(0x07, kFlagCustomPayload, query, 3);
    ADD_FAILURE() << "v3 accepted a custom payload";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kProtocolError);
    EXPECT_STREQ(e.what(),
                 "Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4");
  }
  // A truncated map is the map's own error.
  try {
    DecodeRequest(0x07, kFlagCustomPayload, "\x00\x01\x00\x05k"sv, 4);
    ADD_FAILURE() << "truncated map accepted";
  } catch (const CqlError& e) {
    EXPECT_STREQ(
        e.what(),
        "Not enough bytes to read an UTF8 serialized string preceded by its 2 bytes length");
  }
  // Tracing and warning flags add nothing to a request's body.
  const Bytes unflagged = query.substr(payload.size());
  Request traced = DecodeRequest(0x07, kFlagTracing | kFlagWarning, unflagged, 4);
  EXPECT_EQ(std::get<QueryMessage>(traced).query, "SELECT 1");
}

TEST(RequestTest, RegisterTakesEveryEventTypeInAnyCase) {
  Bytes body;
  AppendBE16(body, 2);
  AppendString(body, "schema_change");
  AppendString(body, "TRACE_COMPLETE");
  EXPECT_EQ(Decode<RegisterMessage>(Opcode::kRegister, body, 4).event_types.size(), 2u);
  Bytes bad;
  AppendBE16(bad, 1);
  AppendString(bad, "NOPE");
  EXPECT_EQ(ProtocolErrorOf(0x0B, bad, 4), "Invalid value 'NOPE' for Type");
}

TEST(RequestTest, HugeCountsDoNotAllocate) {
  Bytes body;
  AppendLongString(body, "q");
  AppendBE16(body, 1);
  AppendU8(body, kQueryFlagValues);
  AppendBE16(body, 0xFFFF);  // 65535 values claimed, none present
  EXPECT_NE(ProtocolErrorOf(0x07, body, 4), "");
  Bytes huge_string;
  AppendBE32(huge_string, 0x7FFFFFFF);
  EXPECT_NE(ProtocolErrorOf(0x09, huge_string, 4), "");
}

TEST(RequestTest, Prepare) {
  Bytes v4;
  AppendLongString(v4, "SELECT 1");
  EXPECT_EQ(Decode<PrepareMessage>(Opcode::kPrepare, v4, 4).query, "SELECT 1");
  Bytes v5 = v4;
  AppendBE32(v5, 0x01);
  AppendString(v5, "ks");
  auto m = Decode<PrepareMessage>(Opcode::kPrepare, v5, 5);
  EXPECT_EQ(m.query, "SELECT 1");
  EXPECT_EQ(m.keyspace, "ks");
  Bytes v5_no_keyspace = v4;
  AppendBE32(v5_no_keyspace, 0);
  EXPECT_FALSE(Decode<PrepareMessage>(Opcode::kPrepare, v5_no_keyspace, 5).keyspace);
}

TEST(RequestTest, Execute) {
  for (int version : {4, 5}) {
    Bytes body;
    AppendShortBytes(body, "0123456789abcdef");
    if (version >= 5) AppendShortBytes(body, "metadata-id");
    AppendBE16(body, 1);
    AppendFlags(body, kQueryFlagValues | kQueryFlagSkipMetadata, version);
    AppendBE16(body, 1);
    AppendBytes(body, "x");
    auto m = Decode<ExecuteMessage>(Opcode::kExecute, body, version);
    EXPECT_EQ(m.id, "0123456789abcdef");
    if (version >= 5) {
      EXPECT_EQ(m.result_metadata_id, BytesView("metadata-id"));
    } else {
      EXPECT_FALSE(m.result_metadata_id);
    }
    EXPECT_TRUE(m.params.skip_metadata());
    EXPECT_EQ(m.params.values.size(), 1u);
  }
}

TEST(RequestTest, Batch) {
  for (int version : {3, 4, 5}) {
    Bytes body;
    AppendU8(body, 1);  // UNLOGGED
    AppendBE16(body, 2);
    AppendU8(body, 0);
    AppendLongString(body, "INSERT INTO t (a) VALUES (?)");
    AppendBE16(body, 1);
    AppendBytes(body, "a");
    AppendU8(body, 1);
    AppendShortBytes(body, "prepared-id");
    AppendBE16(body, 2);
    AppendBE32(body, 0xFFFFFFFF);
    AppendBE32(body, 0xFFFFFFFE);
    AppendBE16(body, 0x0004);
    uint32_t flags = kQueryFlagSerialConsistency | kQueryFlagDefaultTimestamp;
    if (version >= 5) flags |= kQueryFlagKeyspace | kQueryFlagNowInSeconds;
    AppendFlags(body, flags, version);
    AppendBE16(body, 0x0008);
    AppendBE64(body, 42);
    if (version >= 5) {
      AppendString(body, "ks");
      AppendBE32(body, 7);
    }
    auto m = Decode<BatchMessage>(Opcode::kBatch, body, version);
    EXPECT_EQ(m.type, BatchType::kUnlogged);
    ASSERT_EQ(m.children.size(), 2u);
    EXPECT_FALSE(m.children[0].is_prepared);
    EXPECT_EQ(m.children[0].query, "INSERT INTO t (a) VALUES (?)");
    EXPECT_EQ(m.children[0].values[0].bytes, "a");
    EXPECT_TRUE(m.children[1].is_prepared);
    EXPECT_EQ(m.children[1].id, "prepared-id");
    EXPECT_TRUE(m.children[1].values[0].is_null());
    EXPECT_EQ(m.children[1].values[1].is_unset(), version >= 4);
    EXPECT_EQ(m.consistency, 0x0004);
    EXPECT_EQ(m.serial_consistency, 0x0008);
    EXPECT_EQ(m.default_timestamp, 42);
    if (version >= 5) {
      EXPECT_EQ(m.keyspace, "ks");
      EXPECT_EQ(m.now_in_seconds, 7);
    }
  }
}

TEST(RequestTest, BatchRejectsBadTypeAndKind) {
  Bytes bad_type;
  AppendU8(bad_type, 3);
  EXPECT_EQ(ProtocolErrorOf(0x0D, bad_type, 4), "Invalid BATCH message type 3");
  Bytes bad_kind;
  AppendU8(bad_kind, 0);
  AppendBE16(bad_kind, 1);
  AppendU8(bad_kind, 2);
  EXPECT_EQ(ProtocolErrorOf(0x0D, bad_kind, 4),
            "Invalid query kind in BATCH messages. Must be 0 or 1 but got 2");
}

TEST(RequestTest, Register) {
  Bytes body;
  AppendBE16(body, 3);
  AppendString(body, "TOPOLOGY_CHANGE");
  AppendString(body, "status_change");
  AppendString(body, "SCHEMA_CHANGE");
  auto m = Decode<RegisterMessage>(Opcode::kRegister, body, 4);
  ASSERT_EQ(m.event_types.size(), 3u);
  EXPECT_EQ(m.event_types[1], "status_change");
  Bytes bad;
  AppendBE16(bad, 1);
  AppendString(bad, "NOPE");
  EXPECT_EQ(ProtocolErrorOf(0x0B, bad, 4), "Invalid value 'NOPE' for Type");
}

TEST(RequestTest, AuthResponse) {
  Bytes body;
  AppendBytes(body, Bytes("\0user\0pass", 10));
  auto m = Decode<AuthResponseMessage>(Opcode::kAuthResponse, body, 4);
  EXPECT_EQ(m.token, BytesView("\0user\0pass", 10));
  Bytes null_token;
  AppendBE32(null_token, 0xFFFFFFFF);
  EXPECT_FALSE(Decode<AuthResponseMessage>(Opcode::kAuthResponse, null_token, 4).token);
}

TEST(RequestTest, ConsistencyNames) {
  EXPECT_STREQ(ConsistencyName(0x0001), "ONE");
  EXPECT_STREQ(ConsistencyName(0x0006), "LOCAL_QUORUM");
  EXPECT_STREQ(ConsistencyName(0x000A), "LOCAL_ONE");
  EXPECT_STREQ(ConsistencyName(0x0042), "UNKNOWN");
}

}  // namespace
}  // namespace sibyl::protocol
