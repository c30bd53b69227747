#include "tools/stress/stress_worker.h"

namespace sibyl::tools {

namespace {
constexpr int32_t kScanPageSize = 1000;
}  // namespace

StressWorker::StressWorker(std::vector<std::shared_ptr<client::Connection>> connections,
                           const TokenAwareRouter* router, StressPhase& phase)
    : connections_(std::move(connections)),
      router_(router),
      phase_(phase),
      binder_(*phase.options, phase.workload, *phase.prepared, *phase.rows),
      timer_(connections_.front()->executor()),
      slots_(static_cast<size_t>(phase.options->concurrency)) {
  query_options_.consistency = phase.options->consistency;
  // Rows are counted, never decoded into values: the metadata is not needed.
  query_options_.skip_metadata = true;
  for (Slot& slot : slots_) {
    slot.worker = this;
    free_slots_.push_back(&slot);
  }
}

void StressWorker::Start() {
  Fill();
  MaybeFinish();
}

bool StressWorker::Claim() {
  const uint64_t n = phase_.next_op.fetch_add(1, std::memory_order_relaxed);
  if (phase_.op_limit && n >= *phase_.op_limit) return false;
  const Clock::time_point intended =
      phase_.schedule ? phase_.schedule->IntendedStart(n) : Clock::now();
  if (intended >= phase_.end) return false;
  waiting_.emplace(n, intended);
  return true;
}

void StressWorker::Fill() {
  while (!free_slots_.empty() && !exhausted_ && Ready()) {
    if (!waiting_ && !Claim()) {
      exhausted_ = true;
      break;
    }
    const auto [n, intended] = *waiting_;
    if (phase_.schedule && intended > Clock::now()) {
      if (!timer_armed_) {
        timer_armed_ = true;
        timer_.expires_at(intended);
        timer_.async_wait([this](const boost::system::error_code&) {
          timer_armed_ = false;
          Fill();
          MaybeFinish();
        });
      }
      break;
    }
    waiting_.reset();
    Slot* slot = free_slots_.back();
    free_slots_.pop_back();
    Issue(slot, n, intended);
  }
}

void StressWorker::Issue(Slot* slot, uint64_t n, Clock::time_point intended) {
  const BoundOperation op = binder_.Bind(n);
  slot->kind = op.kind;
  query_options_.values = op.values;
  if (op.kind == OperationKind::kScanPage) {
    query_options_.page_size = kScanPageSize;
    if (slot->paging_state.empty()) {
      query_options_.paging_state.reset();
    } else {
      query_options_.paging_state = BytesView(slot->paging_state);
    }
  }
  ++outstanding_;
  // [slot, intended]: 16 bytes, stored inside the std::function without allocating.
  Target(op, n).Execute(op.statement->id, op.statement->result_metadata_id, query_options_,
                        [slot, intended](client::Reply&& reply) {
                          slot->worker->OnReply(slot, intended, std::move(reply));
                        });
}

void StressWorker::OnReply(Slot* slot, Clock::time_point intended, client::Reply&& reply) {
  --outstanding_;
  free_slots_.push_back(slot);
  if (reply.ok()) {
    const auto latency = Clock::now() - intended;
    const auto nanos = static_cast<uint64_t>(std::max<int64_t>(0, latency.count()));
    result_.latency.Record(nanos);
    interval_latency_.Record(nanos);
    ++result_.ops;
    if (phase_.workload == Workload::kMixed) {
      (slot->kind == OperationKind::kWrite ? result_.writes : result_.reads).Record(nanos);
    }
    if (auto* rows = std::get_if<client::RowsResult>(&reply.response)) {
      result_.rows += rows->rows.size();
      if (phase_.workload == Workload::kScan) {
        // The next page of this cursor, or the table again from the start.
        if (rows->metadata.paging_state) {
          slot->paging_state = std::move(*rows->metadata.paging_state);
        } else {
          slot->paging_state.clear();
        }
      }
    }
  } else if (auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
    ErrorTally& tally = result_.server_errors[static_cast<int32_t>(error->code)];
    if (tally.count++ == 0) tally.first_message = std::move(error->message);
  } else {
    auto& failure = std::get<client::TransportFailure>(reply.response);
    if (failure.timed_out) {
      ++result_.timeouts;
    } else if (result_.transport_errors++ == 0) {
      result_.first_transport_error = std::move(failure.message);
    }
  }
  Fill();
  MaybeFinish();
}

void StressWorker::MaybeFinish() {
  if (done_ || outstanding_ > 0 || timer_armed_) return;
  if (!exhausted_ && Ready()) return;
  done_ = true;
  result_.elapsed = Clock::now() - phase_.start;
  phase_.finished.fetch_add(1, std::memory_order_acq_rel);
}

client::Connection& StressWorker::Target(const BoundOperation& op, uint64_t n) {
  if (router_ == nullptr) return *connections_.front();
  if (op.values.empty()) return *connections_[n % connections_.size()];
  const std::span<const uint32_t> replicas = router_->ReplicasOf(op.values.front().bytes);
  if (replicas.empty()) return *connections_.front();
  return *connections_[replicas[n % replicas.size()]];
}

bool StressWorker::Ready() const {
  for (const auto& connection : connections_) {
    if (!connection->is_ready()) return false;
  }
  return true;
}

void StressWorker::SnapshotInterval(IntervalSnapshot& out) {
  out.latency.Merge(interval_latency_);
  interval_latency_.Reset();
  out.ops = result_.ops;
  out.errors = result_.errors();
  out.timeouts = result_.timeouts;
}

}  // namespace sibyl::tools
