#include "protocol/response.h"

#include <gtest/gtest.h>

#include "protocol/wire_reader.h"
#include "types/utf8.h"

namespace sibyl::protocol {
namespace {

TEST(ResponseTest, PlainError) {
  Bytes out;
  EncodeError(out, ErrorCode::kSyntaxError, "line 1:0 no viable alternative");
  WireReader r(out);
  EXPECT_EQ(r.ReadInt("code"), 0x2000);
  EXPECT_EQ(r.ReadString(), "line 1:0 no viable alternative");
  EXPECT_EQ(r.remaining(), 0u);
}

// Whatever an error message quotes, it goes out as valid UTF-8 of at most
// 65535 bytes with the right [string] length: a driver drops a connection
// that sends it anything else.
TEST(ResponseTest, ErrorMessagesAreAlwaysValidStrings) {
  Bytes out;
  EncodeError(out, ErrorCode::kInvalid, "bad \xce");
  EXPECT_EQ(out.substr(4), Bytes("\x00\x07"
                                 "bad \xef\xbf\xbd",
                                 9));
  out.clear();
  const std::string huge = "x" + std::string(70000, '\xce');
  EncodeError(out, ErrorCode::kInvalid, huge);
  const uint16_t length = LoadBE16(out.data() + 4);
  EXPECT_EQ(out.size(), 6u + length);
  EXPECT_LE(length, 0xFFFF);
  EXPECT_TRUE(types::IsValidUtf8(out.substr(6)));
  out.clear();
  EncodeError(out, ErrorCode::kInvalid, std::string(70000, 'y'));
  EXPECT_EQ(LoadBE16(out.data() + 4), 0xFFFF);
  EXPECT_EQ(out.size(), 6u + 0xFFFF);
}

TEST(ResponseTest, ErrorDetails) {
  {
    Bytes out;
    EncodeError(out, CqlError(ErrorCode::kAlreadyExists, "exists", AlreadyExistsInfo{"ks", "t"}));
    WireReader r(out);
    EXPECT_EQ(r.ReadInt("code"), 0x2400);
    EXPECT_EQ(r.ReadString(), "exists");
    EXPECT_EQ(r.ReadString(), "ks");
    EXPECT_EQ(r.ReadString(), "t");
    EXPECT_EQ(r.remaining(), 0u);
  }
  {
    Bytes out;
    EncodeError(out, CqlError(ErrorCode::kUnprepared, "unknown", UnpreparedInfo{"\x01\x02"}));
    WireReader r(out);
    r.ReadInt("code");
    r.ReadString();
    EXPECT_EQ(r.ReadShortBytes(), "\x01\x02");
    EXPECT_EQ(r.remaining(), 0u);
  }
  {
    Bytes out;
    EncodeError(out, CqlError(ErrorCode::kUnavailable, "unavailable", UnavailableInfo{4, 2, 1}));
    WireReader r(out);
    r.ReadInt("code");
    r.ReadString();
    EXPECT_EQ(r.ReadShort("cl"), 4);
    EXPECT_EQ(r.ReadInt("required"), 2);
    EXPECT_EQ(r.ReadInt("alive"), 1);
    EXPECT_EQ(r.remaining(), 0u);
  }
}

TEST(ResponseTest, TimeoutAndFailureDetailsDependOnVersion) {
  const CqlError cas_timeout(ErrorCode::kWriteTimeout, "timeout",
                             WriteTimeoutInfo{9, 0, 1, "CAS", 3, /*cas_timeout=*/true});
  Bytes v5;
  EncodeError(v5, cas_timeout, 5);
  WireReader r5(v5);
  EXPECT_EQ(r5.ReadInt("code"), 0x1100);
  EXPECT_EQ(r5.ReadString(), "timeout");
  r5.ReadShort("cl");
  r5.ReadInt("received");
  r5.ReadInt("blockfor");
  EXPECT_EQ(r5.ReadString(), "CAS");
  EXPECT_EQ(r5.ReadShort("contentions"), 3);
  EXPECT_EQ(r5.remaining(), 0u);
  // Before v5: a plain WriteTimeout of type CAS, with its own message; so is
  // a CAS timeout of the commit (type SIMPLE), and CAS_WRITE_UNKNOWN.
  for (const CqlError& error :
       {cas_timeout,
        CqlError(ErrorCode::kWriteTimeout, "commit",
                 WriteTimeoutInfo{4, 1, 2, "SIMPLE", 0, /*cas_timeout=*/true}),
        CqlError(ErrorCode::kCasWriteUnknown, "unknown", CasWriteUnknownInfo{9, 1, 2})}) {
    Bytes v4;
    EncodeError(v4, error, 4);
    WireReader r4(v4);
    EXPECT_EQ(r4.ReadInt("code"), 0x1100);
    const auto [received, block_for] = std::visit(
        [](const auto& d) -> std::pair<int32_t, int32_t> {
          if constexpr (requires { d.received; }) return {d.received, d.block_for};
          return {-1, -1};
        },
        error.detail());
    EXPECT_EQ(r4.ReadString(),
              "Operation timed out - received only " + std::to_string(received) + " responses.");
    r4.ReadShort("cl");
    EXPECT_EQ(r4.ReadInt("received"), received);
    EXPECT_EQ(r4.ReadInt("blockfor"), block_for);
    EXPECT_EQ(r4.ReadString(), "CAS");
    EXPECT_EQ(r4.remaining(), 0u);
  }
  const CqlError read_failure(ErrorCode::kReadFailure, "failed",
                              ReadFailureInfo{1, 0, 1, {{Bytes("\x7f\0\0\1", 4), 0x0001}}, false});
  Bytes f4;
  EncodeError(f4, read_failure, 4);
  WireReader r4(f4);
  r4.ReadInt("code");
  r4.ReadString();
  r4.ReadShort("cl");
  r4.ReadInt("received");
  r4.ReadInt("blockfor");
  EXPECT_EQ(r4.ReadInt("numfailures"), 1);
  EXPECT_EQ(r4.ReadByte("data_present"), 0);
  EXPECT_EQ(r4.remaining(), 0u);
  Bytes f5;
  EncodeError(f5, read_failure, 5);
  EXPECT_EQ(f5.size(), f4.size() + 1 + 4 + 2);  // one reason: [inetaddr][short]
  Bytes rt;
  EncodeError(rt, CqlError(ErrorCode::kReadTimeout, "t", ReadTimeoutInfo{1, 0, 1, true}), 4);
  EXPECT_EQ(rt.back(), 1);
}

TEST(ResponseTest, SupportedMultimap) {
  Bytes out;
  EncodeSupported(out, {{"CQL_VERSION", {"3.4.7", "3.4.6"}}, {"COMPRESSION", {}}});
  WireReader r(out);
  EXPECT_EQ(r.ReadShort("n"), 2);
  EXPECT_EQ(r.ReadString(), "COMPRESSION");  // std::map order
  EXPECT_EQ(r.ReadShort("n"), 0);
  EXPECT_EQ(r.ReadString(), "CQL_VERSION");
  EXPECT_EQ(r.ReadShort("n"), 2);
  EXPECT_EQ(r.ReadString(), "3.4.7");
  EXPECT_EQ(r.ReadString(), "3.4.6");
  EXPECT_EQ(r.remaining(), 0u);
}

TEST(ResponseTest, SimpleResults) {
  Bytes v;
  EncodeVoidResult(v);
  EXPECT_EQ(v, Bytes("\0\0\0\1", 4));
  Bytes ks;
  EncodeSetKeyspaceResult(ks, "ks");
  EXPECT_EQ(ks, Bytes("\0\0\0\3\0\2ks", 8));
  Bytes auth;
  EncodeAuthenticate(auth, "org.apache.cassandra.auth.PasswordAuthenticator");
  WireReader r(auth);
  EXPECT_EQ(r.ReadString(), "org.apache.cassandra.auth.PasswordAuthenticator");
}

TEST(ResponseTest, SchemaChanges) {
  SchemaChange table{SchemaChange::Type::kCreated, SchemaChange::Target::kTable, "ks", "t", {}};
  Bytes result;
  EncodeSchemaChangeResult(result, table);
  WireReader r(result);
  EXPECT_EQ(r.ReadInt("kind"), 5);
  EXPECT_EQ(r.ReadString(), "CREATED");
  EXPECT_EQ(r.ReadString(), "TABLE");
  EXPECT_EQ(r.ReadString(), "ks");
  EXPECT_EQ(r.ReadString(), "t");
  EXPECT_EQ(r.remaining(), 0u);

  SchemaChange keyspace{
      SchemaChange::Type::kDropped, SchemaChange::Target::kKeyspace, "ks", "", {}};
  Bytes event;
  EncodeSchemaChangeEvent(event, keyspace);
  WireReader e(event);
  EXPECT_EQ(e.ReadString(), "SCHEMA_CHANGE");
  EXPECT_EQ(e.ReadString(), "DROPPED");
  EXPECT_EQ(e.ReadString(), "KEYSPACE");
  EXPECT_EQ(e.ReadString(), "ks");
  EXPECT_EQ(e.remaining(), 0u);

  SchemaChange function{
      SchemaChange::Type::kUpdated, SchemaChange::Target::kFunction, "ks", "f", {"int", "text"}};
  Bytes f;
  EncodeSchemaChangeEvent(f, function);
  WireReader fr(f);
  fr.ReadString();
  fr.ReadString();
  EXPECT_EQ(fr.ReadString(), "FUNCTION");
  fr.ReadString();
  EXPECT_EQ(fr.ReadString(), "f");
  EXPECT_EQ(fr.ReadShort("n"), 2);
  EXPECT_EQ(fr.ReadString(), "int");
  EXPECT_EQ(fr.ReadString(), "text");
}

TEST(ResponseTest, NodeEvents) {
  Bytes out;
  EncodeTopologyChangeEvent(out, "NEW_NODE", Bytes("\x0a\0\0\x02", 4), 9042);
  WireReader r(out);
  EXPECT_EQ(r.ReadString(), "TOPOLOGY_CHANGE");
  EXPECT_EQ(r.ReadString(), "NEW_NODE");
  EXPECT_EQ(r.ReadByte("size"), 4);
  r.ReadInt("address");
  EXPECT_EQ(r.ReadInt("port"), 9042);
  EXPECT_EQ(r.remaining(), 0u);
}

}  // namespace
}  // namespace sibyl::protocol
