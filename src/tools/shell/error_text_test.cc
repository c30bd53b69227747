#include "tools/shell/error_text.h"

#include <gtest/gtest.h>

namespace sibyl::tools::shell {
namespace {

client::ErrorResponse Error(ErrorCode code, std::string message, ErrorDetail detail = {}) {
  client::ErrorResponse e;
  e.code = code;
  e.message = std::move(message);
  e.detail = std::move(detail);
  return e;
}

// The lines the DataStax Python driver's exceptions give cqlsh.
TEST(ErrorTextTest, AsCqlshPrintsThem) {
  EXPECT_EQ(ErrorText(Error(ErrorCode::kInvalid, "unconfigured table t")),
            "InvalidRequest: Error from server: code=2200 [Invalid query] "
            "message=\"unconfigured table t\"");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kSyntaxError,
                            "line 1:0 no viable alternative at input "
                            "'SELEC' ([SELEC]...)")),
            "SyntaxException: line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kAlreadyExists, "x", AlreadyExistsInfo{"ks", "t"})),
            "AlreadyExists: Table 'ks.t' already exists");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kAlreadyExists, "x", AlreadyExistsInfo{"ks", ""})),
            "AlreadyExists: Keyspace 'ks' already exists");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kUnauthorized, "no")),
            "Unauthorized: Error from server: code=2100 [Unauthorized] message=\"no\"");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kServerError, "boom")), "ServerError: boom");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kConfigError, "bad")), "ConfigurationException: bad");
}

TEST(ErrorTextTest, CoordinatorErrorsShowTheirInfo) {
  EXPECT_EQ(ErrorText(Error(ErrorCode::kUnavailable, "Cannot achieve consistency level QUORUM",
                            UnavailableInfo{4, 2, 1})),
            "Unavailable: Error from server: code=1000 [Unavailable exception] "
            "message=\"Cannot achieve consistency level QUORUM\" info={'consistency': 'QUORUM', "
            "'required_replicas': 2, 'alive_replicas': 1}");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kWriteTimeout, "timed out",
                            WriteTimeoutInfo{1, 0, 1, "BATCH_LOG"})),
            "WriteTimeout: Error from server: code=1100 [Coordinator node timed out waiting for "
            "replica nodes' responses] message=\"timed out\" info={'consistency': 'ONE', "
            "'required_responses': 1, 'received_responses': 0, 'write_type': 4}");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kReadTimeout, "timed out", ReadTimeoutInfo{6, 1, 2, false})),
            "ReadTimeout: Error from server: code=1200 [Coordinator node timed out waiting for "
            "replica nodes' responses] message=\"timed out\" info={'consistency': 'LOCAL_QUORUM', "
            "'required_responses': 2, 'received_responses': 1, 'data_retrieved': False}");
  EXPECT_EQ(ErrorText(Error(ErrorCode::kReadFailure, "failed",
                            ReadFailureInfo{1, 0, 1, {{Bytes("\x7f\0\0\1", 4), 1}}, false})),
            "ReadFailure: Error from server: code=1300 [Replica(s) failed to execute read] "
            "message=\"failed\" info={'consistency': 'ONE', 'required_responses': 1, "
            "'received_responses': 0, 'failures': 1, 'error_code_map': {'127.0.0.1': '0x0001'}}");
}

TEST(ErrorTextTest, RequestsWithoutAnswer) {
  EXPECT_EQ(TransportFailureText({"request timed out", true}),
            "OperationTimedOut: errors={}, last_host=None: request timed out");
  EXPECT_EQ(TransportFailureText({"connection closed", false}),
            "NoHostAvailable: connection closed");
}

}  // namespace
}  // namespace sibyl::tools::shell
