#include "cluster/write/write_response_handler.h"

#include <algorithm>
#include <string>

#include "cluster/consistency_level.h"
#include "common/error.h"

namespace sibyl::cluster {

namespace {

int Get(const std::map<std::string, int, std::less<>>& counts, std::string_view dc) {
  const auto it = counts.find(dc);
  return it == counts.end() ? 0 : it->second;
}

int Sum(const std::map<std::string, int, std::less<>>& counts) {
  int total = 0;
  for (const auto& [dc, n] : counts) total += n;
  return total;
}

}  // namespace

WriteResponseHandler::WriteResponseHandler(WriteCounting counting, Done done)
    : counting_(std::move(counting)), done_(std::move(done)) {}

void WriteResponseHandler::ArmTimeout(messaging::Scheduler& scheduler,
                                      messaging::Duration timeout) {
  std::lock_guard lock(mutex_);
  if (completed_) return;
  scheduler_ = &scheduler;
  // The timer holds the handler: a write nobody answers still completes.
  timer_ = scheduler.RunAfter(timeout, [self = shared_from_this()] { self->OnTimeout(); });
}

void WriteResponseHandler::OnAck(std::string_view dc) {
  Done done;
  {
    std::lock_guard lock(mutex_);
    if (completed_ || !Counts(dc)) return;
    ++acks_;
    ++acks_per_dc_[std::string(dc)];
    if (!Satisfied()) return;
    done = TakeDone();
  }
  Finish(std::move(done), nullptr);
}

void WriteResponseHandler::OnFailure(std::string_view dc, const messaging::PeerAddress& from,
                                     messaging::FailureReason reason) {
  Done done;
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    if (completed_ || !Counts(dc)) return;
    ++fails_per_dc_[std::string(dc)];
    failures_.emplace_back(from, reason);
    if (!FailureIsCertain()) return;
    error = FailureError();
    done = TakeDone();
  }
  Finish(std::move(done), std::move(error));
}

void WriteResponseHandler::OnTimeout() {
  Done done;
  std::exception_ptr error;
  {
    std::lock_guard lock(mutex_);
    if (completed_) return;
    error = TimeoutError();
    done = TakeDone();
  }
  Finish(std::move(done), std::move(error));
}

bool WriteResponseHandler::completed() const {
  std::lock_guard lock(mutex_);
  return completed_;
}

bool WriteResponseHandler::Counts(std::string_view dc) const {
  return !IsDatacenterLocal(counting_.consistency) || dc == counting_.local_dc;
}

bool WriteResponseHandler::Satisfied() const {
  if (counting_.quorum_per_dc.empty()) return acks_ >= counting_.block_for;
  return std::all_of(
      counting_.quorum_per_dc.begin(), counting_.quorum_per_dc.end(),
      [&](const auto& entry) { return Get(acks_per_dc_, entry.first) >= entry.second; });
}

bool WriteResponseHandler::FailureIsCertain() const {
  if (!counting_.quorum_per_dc.empty()) {
    for (const auto& [dc, quorum] : counting_.quorum_per_dc) {
      if (Get(fails_per_dc_, dc) > Get(counting_.candidates_per_dc, dc) - quorum) return true;
    }
    return false;
  }
  if (IsDatacenterLocal(counting_.consistency)) {
    return Get(fails_per_dc_, counting_.local_dc) >
           Get(counting_.candidates_per_dc, counting_.local_dc) - counting_.block_for;
  }
  return Sum(fails_per_dc_) > Sum(counting_.candidates_per_dc) - counting_.block_for;
}

std::exception_ptr WriteResponseHandler::TimeoutError() const {
  // Cassandra reports fewer than block_for even when the last
  // acknowledgement raced the timer: a timeout says "not enough".
  const int received = std::min(acks_, counting_.block_for - 1);
  return std::make_exception_ptr(
      CqlError(ErrorCode::kWriteTimeout,
               "Operation timed out - received only " + std::to_string(received) + " responses.",
               WriteTimeoutInfo{counting_.consistency, received, counting_.block_for,
                                WriteTypeName(counting_.type)}));
}

std::exception_ptr WriteResponseHandler::FailureError() const {
  std::string reasons;
  std::vector<sibyl::FailureReason> detail;
  for (const auto& [from, reason] : failures_) {
    if (!reasons.empty()) reasons += ", ";
    reasons += std::string(messaging::FailureReasonName(reason)) + " from /" + from.ToString();
    detail.push_back({from.IpBytes(), messaging::CassandraReasonCode(reason)});
  }
  return std::make_exception_ptr(
      CqlError(ErrorCode::kWriteFailure,
               "Operation failed - received " + std::to_string(acks_) + " responses and " +
                   std::to_string(failures_.size()) + " failures: " + reasons,
               WriteFailureInfo{counting_.consistency, acks_, counting_.block_for,
                                std::move(detail), WriteTypeName(counting_.type)}));
}

WriteResponseHandler::Done WriteResponseHandler::TakeDone() {
  completed_ = true;
  return std::move(done_);
}

void WriteResponseHandler::Finish(Done done, std::exception_ptr error) {
  messaging::Scheduler* scheduler = nullptr;
  messaging::TimerHandle timer;
  {
    std::lock_guard lock(mutex_);
    scheduler = scheduler_;
    timer = timer_;
  }
  if (scheduler != nullptr && timer.id != 0) scheduler->Cancel(timer);
  done(std::move(error));
}

}  // namespace sibyl::cluster
