#include "cluster/read/stepwise_read.h"

#include <mutex>
#include <optional>

#include "cluster/read/read_result_accumulator.h"
#include "common/error.h"

namespace sibyl::cluster {

namespace {

// Steps of an index read asked at once: a value's rows are sparse over the
// ring, so most ranges answer few rows and a page needs many of them.
constexpr size_t kIndexReadWindow = 4;

class StepwiseRead : public std::enable_shared_from_this<StepwiseRead> {
 public:
  StepwiseRead(std::shared_ptr<const ReadContext> context, const storage::ReadCommand& command,
               std::vector<ReadStep> steps, ReadStepCallback done)
      : context_(std::move(context)),
        steps_(std::move(steps)),
        window_(command.index ? kIndexReadWindow : 1),
        answers_(steps_.size()),
        accumulator_(command),
        done_(std::move(done)) {}

  // Starts steps until `window_` are under way, or answers when none is left.
  void Fill() {
    std::vector<size_t> starting;
    {
      std::unique_lock lock(mutex_);
      if (!done_) return;
      if (delivered_ == steps_.size()) return Finish(lock, nullptr);
      while (started_ < steps_.size() && started_ - delivered_ < window_) {
        starting.push_back(started_++);
      }
    }
    for (size_t i : starting) Start(i);
  }

 private:
  void Start(size_t index) {
    ReadStep& step = steps_[index];
    const KeyspaceReplication* replication =
        context_->view->ReplicationOfTable(step.command.table_id);
    ReadReplicaPlan plan;
    try {
      plan = PlanRead(*context_->view, *context_->services->liveness, *replication, step.replicas,
                      context_->consistency);
    } catch (const CqlError&) {
      return Fail(std::current_exception());
    }
    storage::ReadCommand command;
    {
      std::lock_guard lock(mutex_);
      if (!done_) return;
      command = accumulator_.Limit(std::move(step.command));
    }
    ReadFromReplicas(
        context_, step.verb, std::move(command), std::move(plan),
        [self = shared_from_this(), index](storage::ReadResult result, std::exception_ptr error) {
          if (error) return self->Fail(std::move(error));
          self->Answered(index, std::move(result));
        });
  }

  // Steps answer in any order; they are added in order.
  void Answered(size_t index, storage::ReadResult result) {
    {
      std::unique_lock lock(mutex_);
      if (!done_) return;
      answers_[index] = std::move(result);
      while (delivered_ < steps_.size() && answers_[delivered_]) {
        const bool complete = accumulator_.Add(std::move(*answers_[delivered_]));
        answers_[delivered_].reset();
        ++delivered_;
        if (complete) return Finish(lock, nullptr);
      }
    }
    Fill();
  }

  void Fail(std::exception_ptr error) {
    std::unique_lock lock(mutex_);
    if (done_) Finish(lock, std::move(error));
  }

  // REQUIRES: `lock` holds mutex_ and done_ is set. Releases the lock
  // before running the callback.
  void Finish(std::unique_lock<std::mutex>& lock, std::exception_ptr error) {
    ReadStepCallback done = std::move(done_);
    done_ = nullptr;
    storage::ReadResult result = error ? storage::ReadResult{} : accumulator_.Take();
    lock.unlock();
    done(std::move(result), std::move(error));
  }

  const std::shared_ptr<const ReadContext> context_;
  std::vector<ReadStep> steps_;
  const size_t window_;
  std::mutex mutex_;
  size_t started_ = 0;    // GUARDED_BY(mutex_)
  size_t delivered_ = 0;  // steps added to the accumulator; GUARDED_BY(mutex_)
  std::vector<std::optional<storage::ReadResult>> answers_;  // GUARDED_BY(mutex_)
  ReadResultAccumulator accumulator_;                        // GUARDED_BY(mutex_)
  ReadStepCallback done_;  // GUARDED_BY(mutex_); null once answered
};

}  // namespace

void ReadInSteps(std::shared_ptr<const ReadContext> context, const storage::ReadCommand& command,
                 std::vector<ReadStep> steps, ReadStepCallback done) {
  std::make_shared<StepwiseRead>(std::move(context), command, std::move(steps), std::move(done))
      ->Fill();
}

}  // namespace sibyl::cluster
