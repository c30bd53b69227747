#include "cluster/streaming/range_streamer.h"

#include <string>
#include <utility>

#include "cluster/read/read_request_codec.h"
#include "cluster/streaming/stream_messages.h"
#include "cluster/streaming/stream_progress.h"
#include "cluster/streaming/token_slices.h"
#include "common/error.h"

namespace sibyl::cluster::streaming {

std::shared_ptr<RangeStreamer> RangeStreamer::Start(const ClusterServices& services,
                                                    storage::Engine& engine, StreamOptions options,
                                                    std::vector<StreamTask> tasks, Done done) {
  auto streamer =
      std::make_shared<RangeStreamer>(services, engine, std::move(options), std::move(done));
  try {
    streamer->Plan(std::move(tasks));
  } catch (const std::exception& e) {
    streamer->done_(std::make_exception_ptr(
        CqlError(ErrorCode::kServerError, std::string("Stream failed: ") + e.what())));
    return streamer;
  }
  streamer->PullNext();
  return streamer;
}

RangeStreamer::RangeStreamer(const ClusterServices& services, storage::Engine& engine,
                             StreamOptions options, Done done)
    : services_(services), engine_(engine), options_(std::move(options)), done_(std::move(done)) {}

void RangeStreamer::Plan(std::vector<StreamTask> tasks) {
  progress_ = std::make_unique<StreamProgress>(options_.progress_dir, options_.plan_id);
  for (const StreamTask& task : tasks) {
    for (const storage::TokenRange& slice :
         SliceTokenRange(task.range, options_.slices_per_range)) {
      counters_.slices_total.fetch_add(1, std::memory_order_relaxed);
      if (progress_->Done(task.table_id, slice)) {
        counters_.slices_skipped.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      slices_.push_back({task.table_id, slice, task.source});
    }
  }
}

void RangeStreamer::PullNext() {
  if (next_ == slices_.size()) {
    progress_->Remove();
    return done_(nullptr);
  }
  const Slice& slice = slices_[next_++];
  const ClusterViewPtr view = services_.views->Get();
  if (view->directory().Find(slice.source) == nullptr) {
    return Fail(slice, "its source is no longer a member");
  }
  const Bytes request = EncodeStreamPullRequest(
      {.plan_id = options_.plan_id, .table_id = slice.table_id, .slice = slice.range});
  services_.messaging->SendRequest(
      view->AddressOf(slice.source), messaging::Verb::kStreamPull, request, options_.pull_timeout,
      [self = shared_from_this(), slice](messaging::Reply reply) {
        if (!reply.ok()) {
          switch (reply.status) {
            case messaging::Reply::Status::kTimeout:
              return self->Fail(slice, "no answer from its source in time");
            case messaging::Reply::Status::kUnreachable:
              return self->Fail(slice, "its source is unreachable");
            default:
              return self->Fail(slice, "its source failed: " + reply.payload);
          }
        }
        auto apply = [self, slice, payload = std::move(reply.payload)]() mutable {
          self->Apply(slice, std::move(payload));
        };
        if (self->services_.blocking) {
          self->services_.blocking(std::move(apply));
        } else {
          apply();
        }
      });
}

void RangeStreamer::Apply(const Slice& slice, Bytes reply) {
  try {
    const std::vector<storage::Mutation> rows = DecodeUnfiltered(reply);
    std::vector<const storage::Mutation*> batch;
    batch.reserve(rows.size());
    for (const storage::Mutation& row : rows) batch.push_back(&row);
    if (!batch.empty()) engine_.ApplyAllSynced(batch);
    progress_->MarkDone(slice.table_id, slice.range);
  } catch (const std::exception& e) {
    return Fail(slice, std::string("applying it failed: ") + e.what());
  }
  counters_.slices_received.fetch_add(1, std::memory_order_relaxed);
  counters_.bytes_received.fetch_add(reply.size(), std::memory_order_relaxed);
  PullNext();
}

void RangeStreamer::Fail(const Slice& slice, const std::string& why) {
  done_(std::make_exception_ptr(CqlError(
      ErrorCode::kServerError, "Stream failed: slice (" + std::to_string(slice.range.start) + ", " +
                                   std::to_string(slice.range.end) + "] of table " +
                                   slice.table_id.ToString() + " from " + slice.source.ToString() +
                                   ": " + why)));
}

}  // namespace sibyl::cluster::streaming
