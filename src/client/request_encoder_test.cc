// The client's request encoders (protocol/request_encoder.h), checked by
// decoding their output with the server's DecodeRequest.

#include "protocol/request_encoder.h"

#include <gtest/gtest.h>

#include <array>

#include "protocol/request.h"

namespace sibyl::protocol {
namespace {

struct Decoded {
  FrameHeader header;
  Request request;
};

// Checks the envelope is whole and decodes its body as the server would.
Decoded DecodeEnvelope(const Bytes& wire) {
  FrameHeader header;
  EXPECT_EQ(DecodeHeader(wire, header), DecodeStatus::kComplete);
  EXPECT_FALSE(header.is_response);
  EXPECT_EQ(wire.size(), kHeaderSize + header.length);
  BytesView body = BytesView(wire).substr(kHeaderSize);
  return {header, DecodeRequest(header.opcode, header.flags, body, header.version)};
}

class RequestEncoderTest : public ::testing::TestWithParam<int> {
 protected:
  int version() const { return GetParam(); }
};

TEST_P(RequestEncoderTest, StartupCarriesItsOptions) {
  Bytes wire;
  const std::array<StartupOption, 2> options{StartupOption{"CQL_VERSION", "3.0.0"},
                                             StartupOption{"DRIVER_NAME", "sibyl"}};
  EncodeStartup(wire, version(), 7, options);
  Decoded d = DecodeEnvelope(wire);
  EXPECT_EQ(d.header.version, version());
  EXPECT_EQ(d.header.stream, 7);
  EXPECT_EQ(d.header.opcode, static_cast<uint8_t>(Opcode::kStartup));
  const auto& startup = std::get<StartupMessage>(d.request);
  ASSERT_EQ(startup.options.size(), 2u);
  EXPECT_EQ(startup.options[0].first, "CQL_VERSION");
  EXPECT_EQ(startup.options[0].second, "3.0.0");
  EXPECT_EQ(startup.options[1].second, "sibyl");
}

TEST_P(RequestEncoderTest, OptionsHasAnEmptyBody) {
  Bytes wire;
  EncodeOptions(wire, version(), 32767);
  EXPECT_EQ(wire.size(), kHeaderSize);
  Decoded d = DecodeEnvelope(wire);
  EXPECT_EQ(d.header.stream, 32767);
  EXPECT_TRUE(std::holds_alternative<OptionsMessage>(d.request));
}

TEST_P(RequestEncoderTest, QueryWithoutParameters) {
  Bytes wire;
  EncodeQuery(wire, version(), 1, "SELECT * FROM t", QueryOptions{});
  const auto q = std::get<QueryMessage>(DecodeEnvelope(wire).request);
  EXPECT_EQ(q.query, "SELECT * FROM t");
  EXPECT_EQ(q.params.consistency, static_cast<uint16_t>(Consistency::kOne));
  EXPECT_EQ(q.params.flags, 0u);
  EXPECT_TRUE(q.params.values.empty());
}

TEST_P(RequestEncoderTest, QueryWithEveryParameter) {
  const std::array<Value, 3> values{Value::Of("ab"), Value::Null(), Value::Unset()};
  QueryOptions o;
  o.consistency = Consistency::kLocalQuorum;
  o.values = values;
  o.page_size = 100;
  o.paging_state = BytesView("\x01\x02", 2);
  o.serial_consistency = Consistency::kLocalSerial;
  o.default_timestamp = 1234567890123;
  o.keyspace = "ks";
  o.now_in_seconds = 42;
  Bytes wire;
  EncodeQuery(wire, version(), 3, "INSERT", o);
  const auto q = std::get<QueryMessage>(DecodeEnvelope(wire).request);
  const QueryParameters& p = q.params;
  EXPECT_EQ(p.consistency, static_cast<uint16_t>(Consistency::kLocalQuorum));
  ASSERT_EQ(p.values.size(), 3u);
  EXPECT_EQ(p.values[0].bytes, "ab");
  EXPECT_TRUE(p.values[1].is_null());
  EXPECT_TRUE(p.values[2].is_unset());
  EXPECT_EQ(p.page_size, 100);
  ASSERT_TRUE(p.paging_state);
  EXPECT_EQ(*p.paging_state, BytesView("\x01\x02", 2));
  EXPECT_EQ(p.serial_consistency, static_cast<uint16_t>(Consistency::kLocalSerial));
  EXPECT_EQ(p.default_timestamp, 1234567890123);
  if (version() >= 5) {
    EXPECT_EQ(p.keyspace, "ks");
    EXPECT_EQ(p.now_in_seconds, 42);
  } else {
    // v4 has no such fields: they must not be sent.
    EXPECT_FALSE(p.keyspace);
    EXPECT_FALSE(p.now_in_seconds);
  }
}

TEST_P(RequestEncoderTest, PrepareSendsTheKeyspaceOnlyInV5) {
  Bytes wire;
  EncodePrepare(wire, version(), 2, "INSERT INTO kv (k, v) VALUES (?, ?)", "bench");
  const auto p = std::get<PrepareMessage>(DecodeEnvelope(wire).request);
  EXPECT_EQ(p.query, "INSERT INTO kv (k, v) VALUES (?, ?)");
  if (version() >= 5) {
    EXPECT_EQ(p.keyspace, "bench");
  } else {
    EXPECT_FALSE(p.keyspace);
  }
}

TEST_P(RequestEncoderTest, ExecuteCarriesIdsAndValues) {
  const Bytes key("\0\0\0\0\0\0\0\x05", 8);
  const std::array<Value, 2> values{Value::Of(key), Value::Of("blob")};
  QueryOptions o;
  o.values = values;
  o.skip_metadata = true;
  Bytes wire;
  EncodeExecute(wire, version(), 9, "id-16-bytes-long", "metadata-id", o);
  const auto e = std::get<ExecuteMessage>(DecodeEnvelope(wire).request);
  EXPECT_EQ(e.id, "id-16-bytes-long");
  if (version() >= 5) {
    EXPECT_EQ(e.result_metadata_id, "metadata-id");
  } else {
    EXPECT_FALSE(e.result_metadata_id);
  }
  EXPECT_TRUE(e.params.skip_metadata());
  ASSERT_EQ(e.params.values.size(), 2u);
  EXPECT_EQ(e.params.values[0].bytes, key);
  EXPECT_EQ(e.params.values[1].bytes, "blob");
}

TEST_P(RequestEncoderTest, RegisterListsTheEvents) {
  const std::array<std::string_view, 2> events{"SCHEMA_CHANGE", "STATUS_CHANGE"};
  Bytes wire;
  EncodeRegister(wire, version(), 0, events);
  const auto r = std::get<RegisterMessage>(DecodeEnvelope(wire).request);
  ASSERT_EQ(r.event_types.size(), 2u);
  EXPECT_EQ(r.event_types[1], "STATUS_CHANGE");
}

TEST_P(RequestEncoderTest, EnvelopesConcatenateForPipelining) {
  Bytes wire;
  EncodeOptions(wire, version(), 1);
  EncodeQuery(wire, version(), 2, "SELECT 1", {});
  FrameHeader first, second;
  ASSERT_EQ(DecodeHeader(wire, first), DecodeStatus::kComplete);
  const BytesView rest = BytesView(wire).substr(kHeaderSize + first.length);
  ASSERT_EQ(DecodeHeader(rest, second), DecodeStatus::kComplete);
  EXPECT_EQ(second.stream, 2);
  EXPECT_EQ(rest.size(), kHeaderSize + second.length);
}

INSTANTIATE_TEST_SUITE_P(Versions, RequestEncoderTest, ::testing::Values(4, 5));

}  // namespace
}  // namespace sibyl::protocol
