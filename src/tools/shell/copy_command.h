#pragma once
// COPY, cqlsh's CSV export and import (copyutil.py), on the shell's
// connection:
//
//   COPY [ks.]table [(col, ...)] TO   'file.csv' | STDOUT [WITH opt = value [AND ...]]
//   COPY [ks.]table [(col, ...)] FROM 'file.csv' | STDIN  [WITH opt = value [AND ...]]
//
// TO pages through SELECT and writes CSV; FROM prepares one INSERT and
// keeps many executions in flight on the one connection (pipelined), so a
// million rows load in seconds. Both print a live progress line on a
// terminal and cqlsh's summary; rows FROM could not parse or insert go to
// ERRFILE with the reason on stderr.
//
// Values are written so that they read back as the same value: text as is,
// blobs as 0x..., floats and doubles with every digit, timestamps as cqlsh
// shows them, collections, tuples and user types as CQL literals (which is
// also what cqlsh writes and reads).

#include <atomic>
#include <ostream>
#include <string>

#include "client/client_connection.h"
#include "protocol/request.h"

namespace sibyl::tools::shell {

struct CopySettings {
  protocol::Consistency consistency = protocol::Consistency::kOne;
  std::string keyspace;  // the one in use, for unqualified tables
  bool tty = false;      // progress lines only on a terminal
};

struct CopyOutcome {
  std::string error;    // a message for the shell to print as an error
  bool failed = false;  // some rows failed (the summary said how many)
};

// `connection` must be ready and its io thread running; this runs on
// another thread and waits. `interrupted` (may be null) stops it between
// rows.
CopyOutcome RunCopy(const std::string& statement, client::Connection& connection,
                    const CopySettings& settings, const std::atomic<bool>* interrupted,
                    std::ostream& out, std::ostream& err);

}  // namespace sibyl::tools::shell
