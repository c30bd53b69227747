#include "cluster/read/stepwise_read.h"

#include "cluster/read/read_result_accumulator.h"
#include "common/error.h"

namespace sibyl::cluster {

namespace {

class StepwiseRead : public std::enable_shared_from_this<StepwiseRead> {
 public:
  StepwiseRead(std::shared_ptr<const ReadContext> context, const storage::ReadCommand& command,
               std::vector<ReadStep> steps, ReadStepCallback done)
      : context_(std::move(context)),
        steps_(std::move(steps)),
        accumulator_(command),
        done_(std::move(done)) {}

  // Starts step `next_`, or answers when none is left.
  void Next() {
    if (next_ == steps_.size()) return done_(accumulator_.Take(), nullptr);
    ReadStep& step = steps_[next_++];
    const KeyspaceReplication* replication =
        context_->view->ReplicationOfTable(step.command.table_id);
    ReadReplicaPlan plan;
    try {
      plan = PlanRead(*context_->view, *context_->services->liveness, *replication, step.replicas,
                      context_->consistency);
    } catch (const CqlError&) {
      return done_({}, std::current_exception());
    }
    ReadFromReplicas(
        context_, step.verb, accumulator_.Limit(std::move(step.command)), std::move(plan),
        [self = shared_from_this()](storage::ReadResult result, std::exception_ptr error) {
          if (error) return self->done_({}, std::move(error));
          if (self->accumulator_.Add(std::move(result))) {
            return self->done_(self->accumulator_.Take(), nullptr);
          }
          self->Next();
        });
  }

 private:
  const std::shared_ptr<const ReadContext> context_;
  std::vector<ReadStep> steps_;
  size_t next_ = 0;
  ReadResultAccumulator accumulator_;
  ReadStepCallback done_;
};

}  // namespace

void ReadInSteps(std::shared_ptr<const ReadContext> context, const storage::ReadCommand& command,
                 std::vector<ReadStep> steps, ReadStepCallback done) {
  std::make_shared<StepwiseRead>(std::move(context), command, std::move(steps), std::move(done))
      ->Next();
}

}  // namespace sibyl::cluster
