#pragma once
// COPY FROM's inserts (copy_command.h): one prepared INSERT executed for row
// after row, pipelined on the shell's connection. Rows go to the
// connection's io thread kRowsPerPost at a time and Add waits while
// kMaxInFlight are unanswered, so a file of any size loads in bounded
// memory at the speed of many requests in flight. An insert the node
// refuses is kept, with its reply, until TakeFailures.
//
// Thread-safety: one thread calls the methods (not the connection's io
// thread, which Add and Drain wait on); the callbacks run on the io thread
// and share a mutex-guarded state with it.

#include <memory>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "common/bytes.h"
#include "protocol/request.h"

namespace sibyl::tools::shell {

// A row to insert: its bind values, which view `storage`, and the CSV
// record it came from (for the error file).
struct ImportRow {
  std::vector<Bytes> storage;
  std::vector<Value> values;
  std::string raw;
};

// An insert the node refused (or the connection failed).
struct FailedImport {
  std::string raw;
  client::Reply reply;
};

class ImportInserter {
 public:
  // `connection` must be ready and its io thread running.
  ImportInserter(client::Connection& connection, const client::PreparedResponse& prepared,
                 protocol::Consistency consistency);
  ~ImportInserter();
  ImportInserter(const ImportInserter&) = delete;
  ImportInserter& operator=(const ImportInserter&) = delete;

  // Queues `row`; once kRowsPerPost are queued, sends them and waits until
  // fewer than kMaxInFlight are unanswered.
  void Add(std::unique_ptr<ImportRow> row);
  // Sends the rows not yet sent and waits for every answer.
  void Drain();
  // The inserts that failed since the last call, in the order answered.
  std::vector<FailedImport> TakeFailures();

  long imported() const;       // inserts answered with success
  long insert_errors() const;  // inserts that failed, taken or not

 private:
  struct State;
  static constexpr long kMaxInFlight = 512;
  static constexpr size_t kRowsPerPost = 64;

  void PostBatch();

  client::Connection& connection_;
  const std::shared_ptr<client::Connection> self_;
  const Bytes id_;
  const Bytes metadata_id_;
  const protocol::Consistency consistency_;
  // Shared with the callbacks, which may outlive the inserter when the
  // connection drops them unrun.
  const std::shared_ptr<State> state_;
  std::vector<std::unique_ptr<ImportRow>> batch_;
};

}  // namespace sibyl::tools::shell
