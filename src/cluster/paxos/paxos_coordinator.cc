#include "cluster/paxos/paxos_coordinator.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

#include "cluster/consistency_level.h"
#include "cluster/paxos/paxos_messages.h"
#include "cluster/paxos/paxos_verb_handlers.h"
#include "common/error.h"
#include "protocol/request.h"
#include "storage/codec/read_command_codec.h"

namespace sibyl::cluster::paxos {

namespace {

using messaging::Reply;
using messaging::Verb;

constexpr auto kQuorum = static_cast<uint16_t>(protocol::Consistency::kQuorum);
constexpr auto kLocalQuorum = static_cast<uint16_t>(protocol::Consistency::kLocalQuorum);

// The answers of one round from the replicas asked, each decoded once as
// it arrives.
template <typename Response>
struct RoundReplies {
  std::vector<std::pair<types::Uuid, Response>> answers;  // the replies that came, by replica
  int yes = 0;                                            // promised, accepted, committed
  int no = 0;                                             // refused
  int silent = 0;  // timed out, unreachable, failed, or unreadable
};

// A PAXOS_COMMIT's reply, which carries nothing.
struct CommitAck {};

CommitAck DecodeCommitAck(BytesView reply) {
  if (!reply.empty()) throw std::runtime_error("Not a Paxos commit reply");
  return {};
}

// When a round is decided before every replica answered (it always is once
// a quorum said yes).
enum class Until {
  kFirstRefusal,  // a prepare: one refusal means a higher ballot is about
  kImpossible,    // finishing another's proposal: once a quorum is out of reach
  kAllAnswered,   // our own proposal: how many accepted matters
};

std::exception_ptr CasTimeout(const std::string& write_type, uint16_t consistency, int received,
                              int block_for, int contentions) {
  return std::make_exception_ptr(
      CqlError(ErrorCode::kWriteTimeout,
               "CAS operation timed out: received " + std::to_string(received) + " of " +
                   std::to_string(block_for) + " required responses after " +
                   std::to_string(contentions) + " contention retries",
               WriteTimeoutInfo{consistency, received, block_for, write_type,
                                static_cast<int16_t>(std::min(contentions, 0x7fff)),
                                /*cas_timeout=*/true}));
}

const CqlError* AsCqlError(const std::exception_ptr& error, std::exception_ptr& holder) {
  holder = error;
  try {
    std::rethrow_exception(error);
  } catch (const CqlError& e) {
    return &e;  // lives as long as `holder`
  } catch (...) {
  }
  return nullptr;
}

// A commit's WriteTimeout as 4.1's doPaxos reports it: the CAS message
// with the contentions, the write type the commit's ("SIMPLE"), or CAS
// while still preparing (an unfinished round's commit).
std::exception_ptr AsCasTimeout(std::exception_ptr error, bool preparing, int contentions) {
  std::exception_ptr holder;
  const CqlError* e = AsCqlError(error, holder);
  if (e == nullptr || e->code() != ErrorCode::kWriteTimeout) return error;
  const auto* info = std::get_if<WriteTimeoutInfo>(&e->detail());
  if (info == nullptr) return error;
  return CasTimeout(preparing ? std::string("CAS") : info->write_type, info->consistency,
                    info->received, info->block_for, contentions);
}

// What a SERIAL read reports for the write-side errors of its Paxos round
// (4.1's readWithPaxos).
std::exception_ptr AsReadError(std::exception_ptr error, uint16_t consistency, int block_for) {
  std::exception_ptr holder;
  const CqlError* e = AsCqlError(error, holder);
  if (e == nullptr) return error;
  if (e->code() == ErrorCode::kWriteTimeout || e->code() == ErrorCode::kCasWriteUnknown) {
    return std::make_exception_ptr(CqlError(ErrorCode::kReadTimeout,
                                            "Operation timed out - received only 0 responses.",
                                            ReadTimeoutInfo{consistency, 0, block_for, false}));
  }
  if (e->code() == ErrorCode::kWriteFailure) {
    const auto* info = std::get_if<WriteFailureInfo>(&e->detail());
    if (info == nullptr) return error;
    return std::make_exception_ptr(CqlError(
        ErrorCode::kReadFailure,
        "Operation failed - received " + std::to_string(info->received) + " responses and " +
            std::to_string(info->failures.size()) + " failures",
        ReadFailureInfo{consistency, info->received, info->block_for, info->failures, false}));
  }
  return error;
}

// Where a Paxos operation at `serial_consistency` reads and replays: QUORUM,
// LOCAL_QUORUM for LOCAL_SERIAL (4.1's consistencyForCommitOrFetch).
uint16_t QuorumLevelFor(uint16_t serial_consistency) {
  return serial_consistency == kConsistencyLocalSerial ? kLocalQuorum : kQuorum;
}

bool Promised(const PrepareResponse& reply) { return reply.promised; }
bool Accepted(const ProposeResponse& reply) { return reply.accepted; }
bool Answered(const CommitAck&) { return true; }

}  // namespace

int32_t PaxosTtlSeconds(const ClusterViewPtr& view, const types::Uuid& table_id) {
  const schema::TableMetadata* table = view ? view->TableById(table_id) : nullptr;
  return LegacyPaxosTtlSeconds(table ? table->params.gc_grace_seconds : 0);
}

// One operation's attempts, each a sequence of rounds; one round is under
// way at a time, so its members are touched by one thread at a time (each
// round's completion hands over to the next under the round's mutex).
class PaxosCoordinator::Attempts : public std::enable_shared_from_this<Attempts> {
 public:
  Attempts(PaxosCoordinator& owner, CasOperation operation, PaxosOperation kind, CasCallback done)
      : owner_(owner),
        op_(std::move(operation)),
        kind_(kind),
        serial_read_(kind != PaxosOperation::kTransaction),
        done_(std::move(done)),
        start_(owner.services_.scheduler->Now()) {}

  void Attempt() {
    try {
      Plan();
    } catch (...) {
      Finish(std::current_exception());
      return;
    }
    if (owner_.services_.scheduler->Now() - start_ >= owner_.services_.timeouts.cas_contention) {
      Finish(CasTimeout("CAS", op_.serial_consistency, 0, required_, contentions_));
      return;
    }
    try {
      ballot_ = owner_.ballots_.Next(floor_);
    } catch (...) {
      Finish(std::current_exception());
      return;
    }
    const bool read_at_prepare = owner_.services_.paxos_variant == PaxosVariant::kV2;
    Proposal prepare{ballot_, EmptyUpdate()};
    Send(
        read_at_prepare ? Verb::kPaxosPrepareAndRead : Verb::kPaxosPrepare,
        read_at_prepare ? EncodePrepareAndReadRequest(prepare, op_.reads) : EncodeProposal(prepare),
        Until::kFirstRefusal, DecodePrepareResponse, Promised,
        [self = shared_from_this()](RoundReplies<PrepareResponse> r) {
          self->OnPrepared(std::move(r));
        });
  }

 private:
  // The participants of this attempt (natural replicas; of the local
  // datacenter for LOCAL_SERIAL) and the quorum of them. Throws Unavailable.
  void Plan() {
    view_ = owner_.services_.views->Get();
    const KeyspaceReplication* replication = view_->ReplicationOfTable(op_.table_id);
    if (replication == nullptr) {
      throw CqlError(ErrorCode::kServerError,
                     "The cluster's schema has no table with id " + op_.table_id.ToString());
    }
    const std::string& local_dc = view_->DatacenterOf(view_->local_id());
    const bool local_only = op_.serial_consistency == kConsistencyLocalSerial;
    live_.clear();
    int participants = 0;
    int pending_participants = 0;
    std::vector<std::string_view> live_dcs;
    auto add = [&](const types::Uuid& replica) {
      if (local_only && view_->DatacenterOf(replica) != local_dc) return false;
      ++participants;
      if (replica == view_->local_id() || owner_.services_.liveness->IsAlive(replica)) {
        live_.push_back(replica);
        live_dcs.push_back(view_->DatacenterOf(replica));
      }
      return true;
    };
    const dht::Token token{op_.partition.token};
    for (const types::Uuid& replica : replication->placement->ReplicasFor(token)) add(replica);
    // 4.1's ReplicaPlans.forPaxos: the replicas gaining the range take
    // part, and a quorum is of natural and pending together.
    for (const types::Uuid& replica : replication->PendingReplicasFor(token)) {
      pending_participants += add(replica) ? 1 : 0;
    }
    required_ = participants / 2 + 1;
    AssureSufficientLiveReplicas(op_.serial_consistency, replication->strategy(), local_dc,
                                 live_dcs, required_);
    if (pending_participants > 1) {
      // CASSANDRA-8346; the count 4.1 prints is of every participant, and
      // it asks for one more than there are, whatever is alive.
      throw CqlError(ErrorCode::kUnavailable,
                     "Cannot perform LWT operation as there is more than one (" +
                         std::to_string(participants) + ") pending range movement",
                     UnavailableInfo{op_.serial_consistency, participants + 1,
                                     static_cast<int>(live_.size())});
    }
  }

  void OnPrepared(RoundReplies<PrepareResponse> replies) {
    std::vector<std::pair<types::Uuid, PrepareResponse>> promises;
    for (auto& [replica, response] : replies.answers) {
      if (!response.promised) {
        floor_ = std::max(floor_, response.refused_by);
        continue;
      }
      promises.emplace_back(replica, std::move(response));
    }
    if (replies.no > 0) return Contended();
    if (replies.yes < required_) {
      return Finish(
          CasTimeout("CAS", op_.serial_consistency, replies.yes, required_, contentions_));
    }
    const Proposal* latest = nullptr;       // the most recent commit
    const Proposal* in_progress = nullptr;  // the newest accepted proposal
    for (const auto& [replica, promise] : promises) {
      if (promise.committed && (latest == nullptr || promise.committed->ballot > latest->ballot)) {
        latest = &*promise.committed;
      }
      if (promise.accepted &&
          (in_progress == nullptr || promise.accepted->ballot > in_progress->ballot)) {
        in_progress = &*promise.accepted;
      }
    }
    const bool unfinished = in_progress != nullptr && !in_progress->update.empty() &&
                            (latest == nullptr || in_progress->ballot > latest->ballot);
    // Our writes (a decision's, or an unfinished round's we finish) must be
    // timestamped after every decision before them: a ballot of the same
    // microsecond (another node's) is first retried above. A SERIAL read
    // finishing nothing writes nothing.
    if (!serial_read_ || unfinished) {
      for (const Proposal* seen : {latest, in_progress}) {
        if (seen != nullptr && seen->ballot.micros() >= ballot_.micros()) {
          floor_ = std::max(floor_, seen->ballot);
          return Attempt();
        }
      }
    }
    if (unfinished) return FinishInProgress(in_progress->update);
    // A commit older than Paxos state lives may be missing anywhere, its
    // state expired: hints and repair carry it, not us (else replicas whose
    // state expired would be sent it by every round: CASSANDRA-12043).
    if (latest != nullptr && !OutlivedItsState(latest->ballot)) {
      std::vector<types::Uuid> behind;
      for (const auto& [replica, promise] : promises) {
        if (!promise.committed || promise.committed->ballot != latest->ballot) {
          behind.push_back(replica);
        }
      }
      if (!behind.empty()) return RepairBehind(*latest, std::move(behind));
    }
    if (std::optional<std::vector<storage::ReadResult>> agreed = AgreedReads(promises)) {
      owner_.metrics_.Add(kind_, PaxosMetrics::Count::kDecidedAtPrepare);
      if (serial_read_) {
        seen_ = std::move(*agreed);
        return Finish(nullptr);
      }
      return owner_.RunBlocking([self = shared_from_this(), agreed = std::move(*agreed)]() mutable {
        self->Decide(std::move(agreed), /*read_at_prepare=*/true);
      });
    }
    if (serial_read_) return ProposeOwn(EmptyUpdate());
    ReadAndDecide();
  }

  // Paxos v2's fast path (4.1's "Fast Read / Failed Write"), once nothing
  // is in flight and every promiser holds the last commit: the reads the
  // promises carried, when every promiser answered them alike. Each
  // promiser read under the promise of our ballot, so the state they show
  // is the one any proposal of ours would replace: a decision after it
  // needs a higher ballot, which a quorum of them would have to promise
  // and so refuse ours; a proposal below ours that some replica outside
  // them accepted can no longer reach a quorum. So a SERIAL read or a
  // failed condition is linearized at the prepare and proposes nothing.
  // Replicas that differ (a write that reached some of them) fall back to
  // v1's QUORUM read, which repairs them; so does a reply that cannot be
  // read back.
  std::optional<std::vector<storage::ReadResult>> AgreedReads(
      const std::vector<std::pair<types::Uuid, PrepareResponse>>& promises) const {
    if (owner_.services_.paxos_variant != PaxosVariant::kV2 || promises.empty()) {
      return std::nullopt;
    }
    const std::vector<Bytes>& first = promises.front().second.reads;
    if (first.size() != op_.reads.size()) return std::nullopt;
    for (const auto& [replica, promise] : promises) {
      if (promise.reads != first) return std::nullopt;
    }
    std::vector<storage::ReadResult> results;
    results.reserve(first.size());
    try {
      for (const Bytes& read : first) results.push_back(storage::DeserializeReadResult(read));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    return results;
  }

  // "Finishing incomplete paxos round": the proposal again under our
  // ballot, committed at the replay level, then a new attempt.
  void FinishInProgress(storage::Mutation update) {
    owner_.metrics_.Add(kind_, PaxosMetrics::Count::kUnfinishedCommit);
    Proposal refreshed{ballot_, std::move(update)};
    StampWithBallot(refreshed.update, ballot_.micros());
    Bytes payload = EncodeProposal(refreshed);
    Send(Verb::kPaxosPropose, std::move(payload), Until::kImpossible, DecodeProposeResponse,
         Accepted,
         [self = shared_from_this(),
          refreshed = std::move(refreshed)](RoundReplies<ProposeResponse> r) mutable {
           if (r.yes >= self->required_) {
             return self->Commit(std::move(refreshed), self->ReplayConsistency(),
                                 /*allow_hints=*/false, /*preparing=*/true,
                                 [self] { self->Attempt(); });
           }
           self->RaiseFloor(r);
           if (r.no > 0) return self->Contended();
           self->Finish(CasTimeout("CAS", self->op_.serial_consistency,
                                   static_cast<int>(r.answers.size()),
                                   static_cast<int>(self->live_.size()), self->contentions_));
         });
  }

  // Sends the most recent commit to the promising replicas that lack it,
  // waits for them, and starts again.
  void RepairBehind(const Proposal& latest, std::vector<types::Uuid> behind) {
    Send(
        Verb::kPaxosCommit, EncodeProposal(latest), Until::kAllAnswered, DecodeCommitAck, Answered,
        [self = shared_from_this()](RoundReplies<CommitAck>) { self->Attempt(); },
        std::move(behind));
  }

  void ReadAndDecide() {
    struct Reads {
      std::mutex mutex;
      std::vector<storage::ReadResult> results;  // GUARDED_BY(mutex)
      std::exception_ptr error;                  // GUARDED_BY(mutex)
      size_t waiting;                            // GUARDED_BY(mutex)
    };
    if (op_.reads.empty()) return Decide({}, /*read_at_prepare=*/false);
    auto reads = std::make_shared<Reads>();
    reads->results.resize(op_.reads.size());
    reads->waiting = op_.reads.size();
    for (size_t i = 0; i < op_.reads.size(); ++i) {
      owner_.reads_.Read(op_.reads[i], QuorumLevel(),
                         [self = shared_from_this(), reads, i](storage::ReadResult result,
                                                               std::exception_ptr error) {
                           {
                             std::lock_guard lock(reads->mutex);
                             reads->results[i] = std::move(result);
                             if (error && !reads->error) reads->error = error;
                             if (--reads->waiting > 0) return;
                           }
                           if (reads->error) return self->Finish(reads->error);
                           self->owner_.RunBlocking([self, reads] {
                             self->Decide(std::move(reads->results), /*read_at_prepare=*/false);
                           });
                         });
    }
  }

  // A condition that failed on reads the promises carried proposes
  // nothing (AgreedReads); on v1's QUORUM read it proposes an empty update,
  // which makes it linearizable as v1 does.
  void Decide(std::vector<storage::ReadResult> results, bool read_at_prepare) {
    std::optional<storage::Mutation> update;
    try {
      update = op_.decide(results, ballot_.micros());
    } catch (...) {
      return Finish(std::current_exception());
    }
    if (!update) owner_.metrics_.Add(kind_, PaxosMetrics::Count::kConditionNotMet);
    seen_ = std::move(results);
    if (!update && read_at_prepare) return Finish(nullptr);
    ProposeOwn(update ? std::move(*update) : EmptyUpdate());
  }

  void ProposeOwn(storage::Mutation update) {
    Proposal proposal{ballot_, std::move(update)};
    Bytes payload = EncodeProposal(proposal);
    Send(Verb::kPaxosPropose, std::move(payload), Until::kAllAnswered, DecodeProposeResponse,
         Accepted,
         [self = shared_from_this(),
          proposal = std::move(proposal)](RoundReplies<ProposeResponse> r) mutable {
           if (r.yes >= self->required_) {
             // An empty update is not committed: nothing to apply, and a
             // later round does not finish it either (OnPrepared).
             if (proposal.update.empty()) return self->Succeed();
             return self->Commit(std::move(proposal), self->op_.commit_consistency,
                                 /*allow_hints=*/true, /*preparing=*/false,
                                 [self] { self->Succeed(); });
           }
           self->RaiseFloor(r);
           // A SERIAL read's empty proposal only fences off older rounds:
           // refused by enough replicas that it could not succeed, it is
           // contention, whoever accepted it (4.1's proposePaxos without
           // timeoutIfPartial).
           const int participants = static_cast<int>(self->live_.size());
           if (self->serial_read_ && participants - r.no < self->required_) {
             return self->Contended();
           }
           if (r.silent > 0) {
             return self->Finish(
                 CasTimeout("CAS", self->op_.serial_consistency, static_cast<int>(r.answers.size()),
                            static_cast<int>(self->live_.size()), self->contentions_));
           }
           if (r.yes > 0) {
             return self->Finish(std::make_exception_ptr(CqlError(
                 ErrorCode::kCasWriteUnknown,
                 "CAS operation result is unknown - proposal accepted by " + std::to_string(r.yes) +
                     " but not a quorum.",
                 CasWriteUnknownInfo{self->op_.serial_consistency, r.yes, self->required_})));
           }
           self->Contended();
         });
  }

  void Commit(Proposal decision, uint16_t consistency, bool allow_hints, bool preparing,
              std::function<void()> then) {
    owner_.metrics_.AddRound(PaxosPhase::kCommit);
    auto shared = std::make_shared<const Proposal>(std::move(decision));
    auto self = shared_from_this();
    owner_.writes_.CommitPaxos(
        shared->update, EncodeProposal(*shared), consistency, allow_hints,
        [self, shared](std::function<void(bool)> committed) {
          self->owner_.RunBlocking([self, shared, committed = std::move(committed)] {
            bool ok = true;
            try {
              self->owner_.acceptor_.Commit(*shared);
            } catch (const std::exception&) {
              ok = false;
            }
            committed(ok);
          });
        },
        [self, preparing, then = std::move(then)](std::exception_ptr error) {
          if (error) return self->Finish(AsCasTimeout(error, preparing, self->contentions_));
          then();
        });
  }

  void Succeed() {
    if (!serial_read_ || op_.reads.empty()) return Finish(nullptr);
    owner_.reads_.Read(
        op_.reads.front(), QuorumLevel(),
        [self = shared_from_this()](storage::ReadResult result, std::exception_ptr error) {
          self->seen_.clear();
          self->seen_.push_back(std::move(result));
          self->Finish(error);
        });
  }

  void RaiseFloor(const RoundReplies<ProposeResponse>& replies) {
    for (const auto& [replica, response] : replies.answers) {
      if (!response.accepted) floor_ = std::max(floor_, response.refused_by);
    }
  }

  // Another proposer won the round: back off, then try above its ballot.
  void Contended() {
    ++contentions_;
    owner_.metrics_.Add(kind_, PaxosMetrics::Count::kContention);
    owner_.services_.scheduler->RunAfter(owner_.Backoff(),
                                         [self = shared_from_this()] { self->Attempt(); });
  }

  void Finish(std::exception_ptr error) {
    if (finished_.exchange(true)) return;
    if (error && serial_read_) error = AsReadError(error, op_.serial_consistency, required_);
    if (error) owner_.CountFailure(kind_, error);
    done_(error ? std::vector<storage::ReadResult>() : std::move(seen_), error);
  }

  // Sends `payload` under `verb` to `to` (this attempt's live participants
  // when empty), this node's part to its acceptor; `then` gets the replies,
  // each decoded by `decode` (undecodable counts as silent) and counted by
  // `vote`, once the round is decided (`until`, or a quorum said yes).
  template <typename Response>
  void Send(Verb verb, Bytes payload, Until until, Response (*decode)(BytesView),
            bool (*vote)(const Response&),
            std::type_identity_t<std::function<void(RoundReplies<Response>)>> then,
            std::vector<types::Uuid> to = {}) {
    struct Round {
      std::mutex mutex;
      RoundReplies<Response> replies;  // GUARDED_BY(mutex)
      size_t waiting = 0;              // GUARDED_BY(mutex)
      bool decided = false;            // GUARDED_BY(mutex)
    };
    if (to.empty()) to = live_;
    const int required = until == Until::kAllAnswered && verb == Verb::kPaxosCommit
                             ? static_cast<int>(to.size())
                             : required_;
    auto round = std::make_shared<Round>();
    round->waiting = to.size();
    owner_.metrics_.AddRound(verb == Verb::kPaxosPrepare || verb == Verb::kPaxosPrepareAndRead
                                 ? PaxosPhase::kPrepare
                             : verb == Verb::kPaxosPropose ? PaxosPhase::kPropose
                                                           : PaxosPhase::kCommit);
    auto record = [round, required, until, decode, vote, then = std::move(then)](
                      const types::Uuid& from, std::optional<Bytes> answer) {
      std::optional<Response> response;
      if (answer) {
        try {
          response = decode(*answer);
        } catch (const std::exception&) {
        }
      }
      std::optional<RoundReplies<Response>> decided;
      {
        std::lock_guard lock(round->mutex);
        if (round->decided) return;
        RoundReplies<Response>& r = round->replies;
        --round->waiting;
        if (response) {
          ++(vote(*response) ? r.yes : r.no);
          r.answers.emplace_back(from, std::move(*response));
        } else {
          ++r.silent;
        }
        const int waiting = static_cast<int>(round->waiting);
        if (r.yes >= required || waiting == 0 || (until == Until::kFirstRefusal && r.no > 0) ||
            (until == Until::kImpossible && r.yes + waiting < required)) {
          round->decided = true;
          decided = std::move(r);
        }
      }
      if (decided) then(std::move(*decided));
    };
    // Remote replicas first: a local answer may decide the round at once,
    // and the next round may start inside this call.
    const ClusterViewPtr view = view_;
    const auto shared_payload = std::make_shared<const Bytes>(std::move(payload));
    bool local = false;
    for (const types::Uuid& replica : to) {
      if (replica == view->local_id()) {
        local = true;
        continue;
      }
      owner_.services_.messaging->SendRequest(
          view->AddressOf(replica), verb, *shared_payload, owner_.services_.timeouts.write,
          [record, replica](Reply reply) {
            record(replica,
                   reply.ok() ? std::optional<Bytes>(std::move(reply.payload)) : std::nullopt);
          });
    }
    if (local) {
      owner_.AskLocalAcceptor(verb, shared_payload,
                              [record, replica = view->local_id()](std::optional<Bytes> answer) {
                                record(replica, std::move(answer));
                              });
    }
  }

  storage::Mutation EmptyUpdate() const {
    storage::Mutation update;
    update.table_id = op_.table_id;
    update.partition = op_.partition;
    return update;
  }

  // Whether Paxos state written under `ballot` has expired by now (our
  // ballot's time).
  bool OutlivedItsState(const Ballot& ballot) const {
    constexpr int64_t kMicrosPerSecond = 1'000'000;
    const int64_t ttl = PaxosTtlSeconds(view_, op_.table_id);
    return ballot.micros() / kMicrosPerSecond + ttl < ballot_.micros() / kMicrosPerSecond;
  }

  // Where an unfinished round is committed: the statement's level for a
  // CAS, QUORUM / LOCAL_QUORUM for a SERIAL read (which then reads there).
  uint16_t ReplayConsistency() const {
    if (!serial_read_) return op_.commit_consistency;
    return QuorumLevel();
  }

  // Where a CAS reads its condition and a SERIAL read its answer.
  uint16_t QuorumLevel() const { return QuorumLevelFor(op_.serial_consistency); }

  PaxosCoordinator& owner_;
  const CasOperation op_;
  const PaxosOperation kind_;
  const bool serial_read_;  // a SERIAL read's round (of a partition, or for a scan)
  const CasCallback done_;
  const messaging::TimePoint start_;
  std::atomic<bool> finished_{false};
  // The current attempt's.
  ClusterViewPtr view_;
  std::vector<types::Uuid> live_;  // participants believed alive
  int required_ = 0;               // a quorum of the participants
  Ballot ballot_;
  Ballot floor_;  // the next ballot must exceed it
  int contentions_ = 0;
  std::vector<storage::ReadResult> seen_;  // what the last decision read
};

PaxosCoordinator::PaxosCoordinator(const ClusterServices& services, ReadCoordinator& reads,
                                   WriteCoordinator& writes, PaxosAcceptor& acceptor,
                                   BallotGenerator& ballots, uint64_t seed)
    : services_(services),
      reads_(reads),
      writes_(writes),
      acceptor_(acceptor),
      ballots_(ballots),
      random_(seed) {}

void PaxosCoordinator::CountFailure(PaxosOperation kind, const std::exception_ptr& error) {
  std::exception_ptr holder;
  const CqlError* e = AsCqlError(error, holder);
  if (e == nullptr) return;
  switch (e->code()) {
    case ErrorCode::kWriteTimeout:
    case ErrorCode::kReadTimeout:
      return metrics_.Add(kind, PaxosMetrics::Count::kTimeout);
    case ErrorCode::kUnavailable:
      return metrics_.Add(kind, PaxosMetrics::Count::kUnavailable);
    case ErrorCode::kCasWriteUnknown:
      return metrics_.Add(kind, PaxosMetrics::Count::kUnknownResult);
    default:
      return;
  }
}

void PaxosCoordinator::Cas(CasOperation operation, CasCallback done) {
  metrics_.Add(PaxosOperation::kTransaction, PaxosMetrics::Count::kStarted);
  std::make_shared<Attempts>(*this, std::move(operation), PaxosOperation::kTransaction,
                             std::move(done))
      ->Attempt();
}

void PaxosCoordinator::SerialRead(storage::ReadCommand command, uint16_t consistency,
                                  ReadCoordinator::Callback done) {
  metrics_.Add(PaxosOperation::kSerialRead, PaxosMetrics::Count::kStarted);
  CasOperation operation;
  operation.table_id = command.table_id;
  operation.partition = command.partitions.front();
  operation.serial_consistency = consistency;
  operation.reads.push_back(std::move(command));
  std::make_shared<Attempts>(
      *this, std::move(operation), PaxosOperation::kSerialRead,
      [done = std::move(done)](std::vector<storage::ReadResult> reads, std::exception_ptr error) {
        done(reads.empty() ? storage::ReadResult() : std::move(reads.front()), error);
      })
      ->Attempt();
}

// SerialRangeRead's steps: the question to every node, the rounds on what
// they named, one after the other, then the range read.
class PaxosCoordinator::RangeFinisher : public std::enable_shared_from_this<RangeFinisher> {
 public:
  // `read_after`: the scan's read once every proposal is finished (false:
  // FinishUncommitted, done with an empty result).
  RangeFinisher(PaxosCoordinator& owner, storage::ReadCommand command, uint16_t consistency,
                bool read_after, ReadCoordinator::Callback done)
      : owner_(owner),
        command_(std::move(command)),
        consistency_(consistency),
        read_after_(read_after),
        done_(std::move(done)) {}

  void Start() {
    const ClusterViewPtr view = owner_.services_.views->Get();
    const bool local_only = consistency_ == kConsistencyLocalSerial;
    const std::string& local_dc = view->DatacenterOf(view->local_id());
    std::vector<types::Uuid> asked;
    for (const auto& [id, record] : view->directory().nodes()) {
      if (local_only && view->DatacenterOf(id) != local_dc) continue;
      if (id != view->local_id() && !owner_.services_.liveness->IsAlive(id)) continue;
      asked.push_back(id);
    }
    waiting_ = asked.size();
    asked_ = static_cast<int>(asked.size());
    const auto payload = std::make_shared<const Bytes>(
        EncodeUncommittedRequest({.table_id = command_.table_id, .range = command_.range}));
    for (const types::Uuid& node : asked) {
      if (node == view->local_id()) {
        owner_.AskLocalAcceptor(Verb::kPaxosUncommitted, payload,
                                [self = shared_from_this()](std::optional<Bytes> answer) {
                                  self->OnAnswer(std::move(answer));
                                });
        continue;
      }
      owner_.services_.messaging->SendRequest(
          view->AddressOf(node), Verb::kPaxosUncommitted, *payload, owner_.services_.timeouts.read,
          [self = shared_from_this()](Reply reply) {
            self->OnAnswer(reply.ok() ? std::optional<Bytes>(std::move(reply.payload))
                                      : std::nullopt);
          });
    }
  }

 private:
  void OnAnswer(std::optional<Bytes> answer) {
    std::vector<storage::PartitionKey> keys;
    bool answered = false;
    if (answer) {
      try {
        keys = DecodeUncommittedResponse(*answer);
        answered = true;
      } catch (const std::exception&) {
      }
    }
    {
      std::lock_guard lock(mutex_);
      if (answered) {
        ++received_;
        std::move(keys.begin(), keys.end(), std::back_inserter(unfinished_));
      }
      if (--waiting_ > 0) return;
    }
    if (received_ < asked_) {
      owner_.metrics_.Add(PaxosOperation::kSerialScan, PaxosMetrics::Count::kTimeout);
      return done_({}, std::make_exception_ptr(
                           CqlError(ErrorCode::kReadTimeout,
                                    "Operation timed out - received only " +
                                        std::to_string(received_) + " responses.",
                                    ReadTimeoutInfo{consistency_, received_, asked_, false})));
    }
    // Each partition once, however many replicas named it.
    const auto key_order = [](const storage::PartitionKey& a, const storage::PartitionKey& b) {
      return std::tie(a.token, a.key) < std::tie(b.token, b.key);
    };
    std::sort(unfinished_.begin(), unfinished_.end(), key_order);
    unfinished_.erase(std::unique(unfinished_.begin(), unfinished_.end()), unfinished_.end());
    FinishNext();
  }

  // Finishes the next partition's proposal, then the one after, then reads.
  // Only one step runs at a time: no lock needed past the answers.
  void FinishNext() {
    if (next_ == unfinished_.size()) {
      if (!read_after_) return done_({}, nullptr);
      return owner_.reads_.Read(command_, QuorumLevelFor(consistency_), std::move(done_));
    }
    CasOperation round;
    round.table_id = command_.table_id;
    round.partition = unfinished_[next_++];
    round.serial_consistency = consistency_;
    std::make_shared<Attempts>(
        owner_, std::move(round), PaxosOperation::kSerialScan,
        [self = shared_from_this()](std::vector<storage::ReadResult>, std::exception_ptr error) {
          if (error) return self->done_({}, error);
          self->FinishNext();
        })
        ->Attempt();
  }

  PaxosCoordinator& owner_;
  const storage::ReadCommand command_;
  const uint16_t consistency_;
  const bool read_after_;
  ReadCoordinator::Callback done_;
  std::mutex mutex_;
  size_t waiting_ = 0;                             // GUARDED_BY(mutex_)
  int asked_ = 0;                                  // set before the first answer
  int received_ = 0;                               // GUARDED_BY(mutex_)
  std::vector<storage::PartitionKey> unfinished_;  // GUARDED_BY(mutex_) until all answered
  size_t next_ = 0;
};

void PaxosCoordinator::SerialRangeRead(storage::ReadCommand command, uint16_t consistency,
                                       ReadCoordinator::Callback done) {
  metrics_.Add(PaxosOperation::kSerialScan, PaxosMetrics::Count::kStarted);
  std::make_shared<RangeFinisher>(*this, std::move(command), consistency, /*read_after=*/true,
                                  std::move(done))
      ->Start();
}

void PaxosCoordinator::FinishUncommitted(const types::Uuid& table_id,
                                         const storage::TokenRange& range,
                                         std::function<void(std::exception_ptr)> done) {
  storage::ReadCommand command;
  command.table_id = table_id;
  command.range = range;
  std::make_shared<RangeFinisher>(
      *this, std::move(command), kConsistencySerial, /*read_after=*/false,
      [done = std::move(done)](storage::ReadResult, std::exception_ptr error) { done(error); })
      ->Start();
}

void PaxosCoordinator::RunBlocking(std::function<void()> work) {
  if (services_.blocking) {
    services_.blocking(std::move(work));
  } else {
    work();
  }
}

void PaxosCoordinator::AskLocalAcceptor(messaging::Verb verb, std::shared_ptr<const Bytes> payload,
                                        std::function<void(std::optional<Bytes>)> answer) {
  RunBlocking([this, verb, payload = std::move(payload), answer = std::move(answer)] {
    std::optional<Bytes> reply;
    try {
      reply = AnswerPaxosRequest(acceptor_, verb, *payload);
    } catch (const std::exception&) {
    }
    answer(std::move(reply));
  });
}

messaging::Duration PaxosCoordinator::Backoff() {
  std::lock_guard lock(random_mutex_);
  return std::chrono::milliseconds(std::uniform_int_distribution<int>(0, 99)(random_));
}

}  // namespace sibyl::cluster::paxos
