#pragma once
// Paxos ballots, and the node's generator of them.
//
// A ballot orders the proposals made for one partition. As in Cassandra it
// is a version-1 timeuuid (system.paxos shows it so): its timestamp is the
// microsecond it was made at, and its low 64 bits name the node that made
// it, so that two nodes never make the same ballot. Ballots are ordered by
// timestamp, then by those low bits: the order in which cells written at
// the ballot's timestamp reconcile, since a tie between two cells goes to
// the larger value and a ballot's bytes after the timestamp are those bits.
//
// Paxos is safe only if no ballot is ever used for two proposals. The
// generator therefore makes each ballot strictly above every ballot this
// node made before, across restarts, whatever its clock does: it keeps in
// a file a bound above every ballot it may have handed out, written and
// fsynced before it hands out one past the previous bound, and starts
// above the stored bound. The bound runs one second ahead of the ballots,
// so the file is written at most once a second under load.

#include <compare>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>

#include "common/clock.h"
#include "types/uuid.h"

namespace sibyl::cluster::paxos {

class Ballot {
 public:
  Ballot() = default;  // the null ballot, below every other: nothing promised or accepted

  // REQUIRES: micros > 0. `node_bits` become the timeuuid's clock sequence
  // and node (its variant bits are forced to RFC 4122's).
  static Ballot Make(int64_t micros, uint64_t node_bits);
  // The ballot a version-1 timeuuid is; nullopt for any other UUID (or one
  // whose timestamp is not a whole microsecond after the Unix epoch).
  static std::optional<Ballot> FromUuid(const types::Uuid& uuid);

  bool is_null() const { return micros_ == 0; }
  // Microseconds since the Unix epoch: the write timestamp of what a
  // proposal with this ballot commits.
  int64_t micros() const { return micros_; }
  uint64_t node_bits() const { return node_bits_; }
  // REQUIRES: !is_null().
  types::Uuid ToUuid() const;

  friend auto operator<=>(const Ballot&, const Ballot&) = default;
  friend bool operator==(const Ballot&, const Ballot&) = default;

 private:
  int64_t micros_ = 0;
  uint64_t node_bits_ = 0;
};

// Thread-safe.
class BallotGenerator {
 public:
  // Starts above the bound stored in `file`, when it exists. `node_bits`
  // must differ between the nodes of a cluster (BallotNodeBits). Throws
  // std::runtime_error naming the file when it cannot be read or is not a
  // bound this generator wrote. `clock` must outlive the generator.
  BallotGenerator(Clock& clock, uint64_t node_bits, std::filesystem::path file);

  // A ballot above every ballot this generator (or an earlier one on the
  // same file) made, and above `floor` (a ballot a replica promised, or
  // one it accepted, that the next attempt must exceed). Its timestamp comes
  // from the node's clock (Clock::NextTimestampMicros), which `floor`
  // pushes on: writes this node makes afterwards are timestamped after the
  // commit. Throws std::runtime_error when the bound cannot be written (no
  // ballot is then handed out).
  Ballot Next(const Ballot& floor = Ballot());

 private:
  // REQUIRES: mutex_ held.
  void Reserve(int64_t micros);

  Clock& clock_;
  const uint64_t node_bits_;
  const std::filesystem::path file_;
  std::mutex mutex_;
  int64_t last_micros_ = 0;  // GUARDED_BY(mutex_): the last ballot's
  int64_t reserved_ = 0;     // GUARDED_BY(mutex_): the stored bound
};

// A node's ballot bits, from its host id (a random UUID): the low 64 bits,
// which differ between two nodes but with negligible probability.
uint64_t BallotNodeBits(const types::Uuid& host_id);

}  // namespace sibyl::cluster::paxos
