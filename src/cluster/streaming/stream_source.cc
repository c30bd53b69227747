#include "cluster/streaming/stream_source.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <memory>
#include <utility>

#include "cluster/read/read_request_codec.h"
#include "cluster/streaming/stream_messages.h"

namespace sibyl::cluster::streaming {

StreamSource::StreamSource(const ClusterServices& services, const storage::Engine& engine,
                           Clock& clock, uint64_t throughput_bytes_per_second)
    : services_(services),
      engine_(engine),
      clock_(clock),
      throughput_(throughput_bytes_per_second) {}

messaging::Duration StreamSource::TakeTurn(size_t bytes) {
  if (throughput_ == 0) return messaging::Duration::zero();
  const auto cost = std::chrono::duration_cast<messaging::Duration>(
      std::chrono::duration<double>(static_cast<double>(bytes) / static_cast<double>(throughput_)));
  std::lock_guard lock(mutex_);
  const messaging::TimePoint now = services_.scheduler->Now();
  const messaging::TimePoint start = std::max(now, next_free_);
  next_free_ = start + cost;
  return start - now;
}

void StreamSource::RegisterHandler() {
  services_.messaging->RegisterHandler(
      messaging::Verb::kStreamPull,
      [this](const messaging::Message& message, messaging::Responder responder) {
        auto shared = std::make_shared<messaging::Responder>(std::move(responder));
        auto work = [this, payload = message.payload, shared] {
          Bytes reply;
          try {
            const StreamPullRequest request = DecodeStreamPullRequest(payload);
            storage::ReadCommand command;
            command.table_id = request.table_id;
            command.range = request.slice;
            command.now_seconds = clock_.NowSeconds();
            reply = EncodeUnfiltered(engine_.ReadUnfiltered(command));
          } catch (const std::exception& e) {
            shared->Fail(messaging::FailureReason::kUnknown, e.what());
            return;
          }
          bytes_sent_.fetch_add(reply.size(), std::memory_order_relaxed);
          const messaging::Duration wait = TakeTurn(reply.size());
          if (wait <= messaging::Duration::zero()) {
            shared->Reply(std::move(reply));
            return;
          }
          auto bytes = std::make_shared<Bytes>(std::move(reply));
          services_.scheduler->RunAfter(wait,
                                        [shared, bytes] { shared->Reply(std::move(*bytes)); });
        };
        if (services_.blocking) {
          services_.blocking(std::move(work));
        } else {
          work();
        }
      });
}

}  // namespace sibyl::cluster::streaming
