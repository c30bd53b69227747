#pragma once
// A failed request as cqlsh 4.1 prints it: "<driver exception class>: <text>",
// the class and text being what the DataStax Python driver makes of the
// ERROR (cassandra/protocol.py, cassandra/__init__.py), e.g.
//
//   InvalidRequest: Error from server: code=2200 [Invalid query] message="unconfigured table t"
//   SyntaxException: line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)
//   AlreadyExists: Table 'ks.t' already exists
//   Unavailable: Error from server: code=1000 [Unavailable exception] message="..."
//   info={'consistency': 'QUORUM', 'required_replicas': 2, 'alive_replicas': 1}
//
// and a request that never got an answer as the driver's own errors
// (OperationTimedOut, NoHostAvailable).

#include <string>

#include "client/response_decoder.h"

namespace sibyl::tools::shell {

// The line for a server ERROR.
std::string ErrorText(const client::ErrorResponse& error);
// The line for a request without an answer.
std::string TransportFailureText(const client::TransportFailure& failure);

}  // namespace sibyl::tools::shell
