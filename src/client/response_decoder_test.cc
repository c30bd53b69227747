// The client's response decoding (client/response.h), fed with bodies made by
// the server's own encoders (protocol/response.h).

#include "client/response_decoder.h"

#include <gtest/gtest.h>

#include "protocol/wire_format.h"
#include "types/cql_type.h"

namespace sibyl::client {
namespace {

using protocol::ColumnSpec;
using protocol::Opcode;
using types::CqlType;
using types::Kind;

protocol::FrameHeader Header(Opcode opcode, int version = 4, uint8_t flags = 0) {
  protocol::FrameHeader h;
  h.version = static_cast<uint8_t>(version);
  h.is_response = true;
  h.flags = flags;
  h.opcode = static_cast<uint8_t>(opcode);
  return h;
}

template <typename T>
T DecodeAs(const Bytes& body, Opcode opcode = Opcode::kResult, int version = 4) {
  Reply reply = DecodeResponse(Header(opcode, version), body);
  EXPECT_TRUE(std::holds_alternative<T>(reply.response)) << Describe(reply.response);
  return std::get<T>(std::move(reply.response));
}

std::vector<ColumnSpec> KvColumns() {
  return {{"bench", "kv", "k", CqlType::Native(Kind::kBigint)},
          {"bench", "kv", "v", CqlType::Native(Kind::kBlob)}};
}

TEST(ResponseTest, VoidResult) {
  Bytes body;
  protocol::EncodeVoidResult(body);
  Reply reply = DecodeResponse(Header(Opcode::kResult), body);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(reply.response));
  EXPECT_TRUE(reply.ok());
  EXPECT_EQ(Describe(reply.response), "VOID");
}

TEST(ResponseTest, ErrorCarriesCodeAndMessage) {
  Bytes body;
  protocol::EncodeError(body, ErrorCode::kInvalid, "Keyspace bench does not exist");
  Reply reply = DecodeResponse(Header(Opcode::kError), body);
  EXPECT_FALSE(reply.ok());
  const auto& e = std::get<ErrorResponse>(reply.response);
  EXPECT_EQ(e.code, ErrorCode::kInvalid);
  EXPECT_EQ(e.message, "Keyspace bench does not exist");
  EXPECT_EQ(Describe(reply.response), "ERROR 0x2200: Keyspace bench does not exist");
}

TEST(ResponseTest, UnpreparedErrorKeepsTheStatementId) {
  Bytes body;
  protocol::EncodeError(body,
                        CqlError(ErrorCode::kUnprepared, "unknown id", UnpreparedInfo{"xyz"}));
  const auto e = DecodeAs<ErrorResponse>(body, Opcode::kError);
  EXPECT_EQ(e.code, ErrorCode::kUnprepared);
  EXPECT_EQ(e.unprepared_id, "xyz");
}

// Each code's extra fields decode as protocol::EncodeError wrote them, in
// both versions (v4 sends a failure count, v5 the reasons).
TEST(ResponseTest, ErrorDetailsRoundTrip) {
  const std::vector<ErrorDetail> details = {
      AlreadyExistsInfo{"ks", "t"},
      UnavailableInfo{4, 2, 1},
      WriteTimeoutInfo{1, 0, 1, "BATCH_LOG"},
      WriteTimeoutInfo{9, 0, 1, "CAS", 3, /*cas_timeout=*/true},
      ReadTimeoutInfo{6, 1, 2, true},
      ReadFailureInfo{1, 0, 1, {{Bytes("\x7f\0\0\1", 4), 0x0001}}, false},
      WriteFailureInfo{1, 0, 1, {{Bytes("\x7f\0\0\1", 4), 0x0002}}, "SIMPLE"},
      FunctionFailureInfo{"ks", "f", {"int", "text"}},
      CasWriteUnknownInfo{9, 0, 2},
  };
  const std::vector<ErrorCode> codes = {
      ErrorCode::kAlreadyExists, ErrorCode::kUnavailable,     ErrorCode::kWriteTimeout,
      ErrorCode::kWriteTimeout,  ErrorCode::kReadTimeout,     ErrorCode::kReadFailure,
      ErrorCode::kWriteFailure,  ErrorCode::kFunctionFailure, ErrorCode::kCasWriteUnknown};
  for (const int version : {4, 5}) {
    for (size_t i = 0; i < details.size(); ++i) {
      SCOPED_TRACE(testing::Message() << "v" << version << " detail " << i);
      Bytes body;
      protocol::EncodeError(body, CqlError(codes[i], "m", details[i]), version);
      const auto e = DecodeAs<ErrorResponse>(body, Opcode::kError, version);
      if (version < 5 && codes[i] == ErrorCode::kCasWriteUnknown) {
        // Before v5 it is a WriteTimeout of type CAS (4.1's ErrorMessage).
        EXPECT_EQ(e.code, ErrorCode::kWriteTimeout);
        EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail).write_type, "CAS");
        EXPECT_EQ(std::get<WriteTimeoutInfo>(e.detail).block_for, 2);
        continue;
      }
      ASSERT_EQ(e.detail.index(), details[i].index());
      if (const auto* f = std::get_if<ReadFailureInfo>(&e.detail)) {
        EXPECT_EQ(f->failures.size(), version >= 5 ? 1u : 0u);
        EXPECT_FALSE(f->data_present);
      } else if (const auto* w = std::get_if<WriteTimeoutInfo>(&e.detail)) {
        const auto& sent = std::get<WriteTimeoutInfo>(details[i]);
        EXPECT_EQ(w->write_type, sent.write_type);
        EXPECT_EQ(w->contentions, version >= 5 ? sent.contentions : 0);
      } else if (const auto* u = std::get_if<UnavailableInfo>(&e.detail)) {
        EXPECT_EQ(u->consistency, 4);
        EXPECT_EQ(u->required, 2);
        EXPECT_EQ(u->alive, 1);
      } else if (const auto* a = std::get_if<AlreadyExistsInfo>(&e.detail)) {
        EXPECT_EQ(a->keyspace, "ks");
        EXPECT_EQ(a->table, "t");
      } else if (const auto* ff = std::get_if<FunctionFailureInfo>(&e.detail)) {
        EXPECT_EQ(ff->argument_types, (std::vector<std::string>{"int", "text"}));
      }
    }
  }
}

TEST(ResponseTest, RowsWithMetadataAndPagingState) {
  Bytes body;
  protocol::RowsWriter rows(body, KvColumns(), 4, /*skip_metadata=*/false, BytesView("page"));
  rows.AddValue(BytesView("\0\0\0\0\0\0\0\x01", 8));
  rows.AddValue(BytesView("one"));
  rows.AddValue(BytesView("\0\0\0\0\0\0\0\x02", 8));
  rows.AddNull();
  rows.Finish();
  const auto r = DecodeAs<RowsResult>(body);
  ASSERT_EQ(r.metadata.columns.size(), 2u);
  EXPECT_EQ(r.metadata.columns[0].keyspace, "bench");
  EXPECT_EQ(r.metadata.columns[1].table, "kv");
  EXPECT_EQ(r.metadata.columns[1].name, "v");
  EXPECT_EQ(r.metadata.columns[0].type->kind(), Kind::kBigint);
  EXPECT_EQ(r.metadata.paging_state, "page");
  ASSERT_EQ(r.rows.size(), 2u);
  EXPECT_EQ(r.rows[0][1], "one");
  EXPECT_FALSE(r.rows[1][1]);
}

TEST(ResponseTest, RowsWithoutMetadata) {
  Bytes body;
  protocol::RowsWriter rows(body, KvColumns(), 4, /*skip_metadata=*/true, std::nullopt);
  rows.AddValue(BytesView("k"));
  rows.AddValue(BytesView("v"));
  rows.Finish();
  const auto r = DecodeAs<RowsResult>(body);
  EXPECT_TRUE(r.metadata.columns.empty());
  EXPECT_EQ(r.metadata.column_count, 2);
  EXPECT_FALSE(r.metadata.paging_state);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0][0], "k");
}

TEST(ResponseTest, ColumnTypesRoundTrip) {
  std::vector<ColumnSpec> columns{
      {"ks", "t", "m", CqlType::Map(CqlType::Native(Kind::kText), CqlType::Native(Kind::kInt))},
      {"ks", "t", "u",
       CqlType::Udt("ks", "addr", {"street", "zip"},
                    {CqlType::Native(Kind::kText), CqlType::Native(Kind::kInt)}, true)},
      {"ks", "t", "tu",
       CqlType::Tuple({CqlType::Native(Kind::kUuid), CqlType::List(CqlType::Native(Kind::kDate))})},
      {"ks", "t2", "c", CqlType::Custom("com.example.MyType")}};
  Bytes body;
  protocol::RowsWriter rows(body, columns, 4, false, std::nullopt);
  rows.Finish();
  const auto r = DecodeAs<RowsResult>(body);
  ASSERT_EQ(r.metadata.columns.size(), 4u);
  EXPECT_EQ(r.metadata.columns[0].type->ToCql(), "map<text, int>");
  EXPECT_EQ(r.metadata.columns[1].type->kind(), Kind::kUdt);
  EXPECT_EQ(r.metadata.columns[1].type->field_names()[1], "zip");
  // Tuple elements are frozen, as Cassandra freezes them.
  EXPECT_EQ(r.metadata.columns[2].type->ToCql(), "frozen<tuple<uuid, frozen<list<date>>>>");
  EXPECT_EQ(r.metadata.columns[3].table, "t2");  // per-column table specs
  EXPECT_EQ(r.metadata.columns[3].type->custom_class(), "com.example.MyType");
}

// Vectors travel as custom types named by their marshal class; the client
// reads them back as vectors, whatever their elements.
TEST(ResponseTest, VectorColumnsComeBackAsVectors) {
  std::vector<ColumnSpec> columns{
      {"ks", "t", "v", CqlType::Vector(CqlType::Native(Kind::kFloat), 3)},
      {"ks", "t", "w",
       CqlType::Vector(CqlType::Map(CqlType::Native(Kind::kText), CqlType::Native(Kind::kInt)), 2)},
      {"ks", "t", "x", CqlType::Vector(CqlType::Vector(CqlType::Native(Kind::kBigint), 2), 2)}};
  Bytes body;
  protocol::RowsWriter rows(body, columns, 4, false, std::nullopt);
  rows.Finish();
  const auto r = DecodeAs<RowsResult>(body);
  ASSERT_EQ(r.metadata.columns.size(), 3u);
  for (size_t i = 0; i < columns.size(); ++i) {
    EXPECT_EQ(r.metadata.columns[i].type->ToCql(), columns[i].type->ToCql());
  }
}

TEST(ResponseTest, PreparedInV4AndV5) {
  for (int version : {4, 5}) {
    protocol::PreparedResult prepared;
    prepared.id = "0123456789abcdef";
    prepared.result_metadata_id = "meta";
    prepared.bind_variables = KvColumns();
    prepared.partition_key_indexes = {0};
    Bytes body;
    protocol::EncodePreparedResult(body, prepared, version);
    const auto p = DecodeAs<PreparedResponse>(body, Opcode::kResult, version);
    EXPECT_EQ(p.id, "0123456789abcdef");
    EXPECT_EQ(p.result_metadata_id, version >= 5 ? "meta" : "");
    ASSERT_EQ(p.bind_variables.size(), 2u);
    EXPECT_EQ(p.bind_variables[1].type->kind(), Kind::kBlob);
    EXPECT_EQ(p.partition_key_indexes, std::vector<uint16_t>{0});
    EXPECT_TRUE(p.result_metadata.flags & protocol::kRowsFlagNoMetadata);
    EXPECT_TRUE(p.result_metadata.columns.empty());
  }
}

TEST(ResponseTest, SetKeyspaceAndSchemaChange) {
  Bytes body;
  protocol::EncodeSetKeyspaceResult(body, "bench");
  EXPECT_EQ(DecodeAs<SetKeyspaceResult>(body).keyspace, "bench");

  protocol::SchemaChange change;
  change.type = protocol::SchemaChange::Type::kCreated;
  change.target = protocol::SchemaChange::Target::kTable;
  change.keyspace = "bench";
  change.name = "kv";
  body.clear();
  protocol::EncodeSchemaChangeResult(body, change);
  const auto c = DecodeAs<SchemaChangeResult>(body);
  EXPECT_EQ(c.change_type, "CREATED");
  EXPECT_EQ(c.target, "TABLE");
  EXPECT_EQ(c.keyspace, "bench");
  EXPECT_EQ(c.name, "kv");

  change.target = protocol::SchemaChange::Target::kFunction;
  change.argument_types = {"int", "text"};
  body.clear();
  protocol::EncodeSchemaChangeEvent(body, change);
  const auto e = DecodeAs<EventResponse>(body, Opcode::kEvent);
  EXPECT_EQ(e.event_type, "SCHEMA_CHANGE");
  EXPECT_EQ(e.schema_change.argument_types, (std::vector<std::string>{"int", "text"}));
}

TEST(ResponseTest, StatusEventAndSupported) {
  Bytes body;
  protocol::EncodeStatusChangeEvent(body, "UP", BytesView("\x7f\0\0\x01", 4), 9042);
  const auto e = DecodeAs<EventResponse>(body, Opcode::kEvent);
  EXPECT_EQ(e.change, "UP");
  EXPECT_EQ(e.address, BytesView("\x7f\0\0\x01", 4));
  EXPECT_EQ(e.port, 9042);

  body.clear();
  protocol::EncodeSupported(body, {{"CQL_VERSION", {"3.4.6"}}, {"COMPRESSION", {"lz4", "snappy"}}});
  const auto s = DecodeAs<SupportedResponse>(body, Opcode::kSupported);
  EXPECT_EQ(s.options.at("COMPRESSION").size(), 2u);
}

TEST(ResponseTest, WarningsAndTracingAreSkippedBeforeTheMessage) {
  Bytes body(16, 'T');  // tracing id
  protocol::AppendStringList(body, std::vector<std::string>{"Batch is large"});
  protocol::EncodeVoidResult(body);
  Reply reply = DecodeResponse(
      Header(Opcode::kResult, 4, protocol::kFlagTracing | protocol::kFlagWarning), body);
  EXPECT_TRUE(std::holds_alternative<VoidResult>(reply.response));
  EXPECT_EQ(reply.warnings, std::vector<std::string>{"Batch is large"});
}

TEST(ResponseTest, MalformedBodiesAreProtocolErrors) {
  Bytes body;
  protocol::RowsWriter rows(body, KvColumns(), 4, false, std::nullopt);
  rows.AddValue(BytesView("k"));
  rows.AddValue(BytesView("v"));
  rows.Finish();
  for (size_t cut = 0; cut < body.size(); ++cut) {
    EXPECT_THROW((void)DecodeResponse(Header(Opcode::kResult), BytesView(body).substr(0, cut)),
                 CqlError)
        << "cut at " << cut;
  }
  Bytes unknown_kind;
  AppendBE32(unknown_kind, 99);
  EXPECT_THROW((void)DecodeResponse(Header(Opcode::kResult), unknown_kind), CqlError);
  EXPECT_THROW((void)DecodeResponse(Header(Opcode::kQuery), ""), CqlError);
  EXPECT_THROW((void)DecodeResponse(Header(Opcode::kResult, 4, protocol::kFlagCompression), body),
               CqlError);
}

}  // namespace
}  // namespace sibyl::client
