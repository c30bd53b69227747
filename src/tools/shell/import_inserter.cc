#include "tools/shell/import_inserter.h"

#include <boost/asio/post.hpp>
#include <condition_variable>
#include <mutex>

namespace sibyl::tools::shell {

// Rows in flight and the failures they came back with.
struct ImportInserter::State {
  std::mutex mutex;
  std::condition_variable changed;
  long in_flight = 0;
  long imported = 0;
  long insert_errors = 0;
  std::vector<FailedImport> failures;  // not yet taken
};

ImportInserter::ImportInserter(client::Connection& connection,
                               const client::PreparedResponse& prepared,
                               protocol::Consistency consistency)
    : connection_(connection),
      self_(connection.shared_from_this()),
      id_(prepared.id),
      metadata_id_(prepared.result_metadata_id),
      consistency_(consistency),
      state_(std::make_shared<State>()) {}

ImportInserter::~ImportInserter() = default;

void ImportInserter::Add(std::unique_ptr<ImportRow> row) {
  batch_.push_back(std::move(row));
  if (batch_.size() >= kRowsPerPost) {
    PostBatch();
    std::unique_lock lock(state_->mutex);
    state_->changed.wait(lock, [&] { return state_->in_flight < kMaxInFlight; });
  }
}

void ImportInserter::Drain() {
  PostBatch();
  std::unique_lock lock(state_->mutex);
  state_->changed.wait(lock, [&] { return state_->in_flight == 0; });
}

std::vector<FailedImport> ImportInserter::TakeFailures() {
  std::vector<FailedImport> failures;
  std::unique_lock lock(state_->mutex);
  failures.swap(state_->failures);
  return failures;
}

long ImportInserter::imported() const {
  std::unique_lock lock(state_->mutex);
  return state_->imported;
}

long ImportInserter::insert_errors() const {
  std::unique_lock lock(state_->mutex);
  return state_->insert_errors;
}

void ImportInserter::PostBatch() {
  if (batch_.empty()) return;
  {
    std::unique_lock lock(state_->mutex);
    state_->in_flight += static_cast<long>(batch_.size());
  }
  auto rows = std::make_shared<std::vector<std::unique_ptr<ImportRow>>>(std::move(batch_));
  batch_.clear();
  boost::asio::post(
      connection_.executor(), [self = self_, rows, state = state_, id = id_,
                               metadata_id = metadata_id_, consistency = consistency_] {
        for (auto& row : *rows) {
          protocol::QueryOptions options;
          options.consistency = consistency;
          options.values = row->values;
          // Shared, not released: a callback dropped unrun (the connection
          // torn down) still frees its row.
          std::shared_ptr<ImportRow> owned(std::move(row));
          self->Execute(id, metadata_id, options, [state, owned](client::Reply&& reply) {
            std::unique_lock lock(state->mutex);
            --state->in_flight;
            if (reply.ok()) {
              ++state->imported;
            } else {
              ++state->insert_errors;
              state->failures.push_back({std::move(owned->raw), std::move(reply)});
            }
            state->changed.notify_all();
          });
        }
      });
}

}  // namespace sibyl::tools::shell
