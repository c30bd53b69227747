#include "cluster/paxos/ballot.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "common/check.h"
#include "schema/durable_file.h"

namespace sibyl::cluster::paxos {

namespace {

constexpr int64_t kReservationMicros = 1'000'000;
constexpr uint64_t kVariantMask = 0xC000000000000000ULL;
constexpr uint64_t kVariantRfc4122 = 0x8000000000000000ULL;

uint64_t WithVariant(uint64_t bits) { return (bits & ~kVariantMask) | kVariantRfc4122; }

// The stored bound: its microseconds in decimal, then a newline.
std::optional<int64_t> ReadBound(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    std::error_code error;
    if (!std::filesystem::exists(file, error) && !error) return std::nullopt;
    throw std::runtime_error("Cannot read the Paxos ballot bound " + file.string());
  }
  std::stringstream contents;
  contents << in.rdbuf();
  const std::string text = contents.str();
  int64_t bound = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), bound);
  if (error != std::errc() || end == text.data() || bound <= 0 ||
      std::string_view(end, text.data() + text.size()) != "\n") {
    throw std::runtime_error("The Paxos ballot bound " + file.string() +
                             " is not a number of microseconds: remove it only if no node has "
                             "used this data directory's ballots");
  }
  return bound;
}

}  // namespace

Ballot Ballot::Make(int64_t micros, uint64_t node_bits) {
  SIBYL_CHECK(micros > 0, "a ballot's timestamp is after the Unix epoch");
  Ballot ballot;
  ballot.micros_ = micros;
  ballot.node_bits_ = WithVariant(node_bits);
  return ballot;
}

std::optional<Ballot> Ballot::FromUuid(const types::Uuid& uuid) {
  if (uuid.version() != 1) return std::nullopt;
  const int64_t since_unix = uuid.Timestamp() - types::Uuid::kUnixEpochIn100ns;
  if (since_unix <= 0 || since_unix % 10 != 0) return std::nullopt;
  uint64_t low = 0;
  for (int i = 8; i < 16; ++i) low = low << 8 | uuid.bytes[i];
  if ((low & kVariantMask) != kVariantRfc4122) return std::nullopt;
  return Make(since_unix / 10, low);
}

types::Uuid Ballot::ToUuid() const {
  SIBYL_CHECK(!is_null(), "the null ballot is no timeuuid");
  return types::Uuid::TimeBased(micros_ * 10 + types::Uuid::kUnixEpochIn100ns, node_bits_);
}

BallotGenerator::BallotGenerator(Clock& clock, uint64_t node_bits, std::filesystem::path file)
    : clock_(clock), node_bits_(WithVariant(node_bits)), file_(std::move(file)) {
  if (const std::optional<int64_t> bound = ReadBound(file_)) {
    last_micros_ = *bound;
    reserved_ = *bound;
  }
}

Ballot BallotGenerator::Next(const Ballot& floor) {
  // Observed first, so that the node's next write timestamps, and this
  // ballot, exceed what a replica holds.
  if (!floor.is_null()) clock_.Observe(floor.micros());
  std::lock_guard lock(mutex_);
  int64_t micros = clock_.NextTimestampMicros();
  if (micros <= last_micros_) micros = last_micros_ + 1;
  // The same microsecond as the floor's is above it only with larger bits.
  if (micros == floor.micros() && node_bits_ <= floor.node_bits()) ++micros;
  if (micros > reserved_) Reserve(micros);
  last_micros_ = micros;
  clock_.Observe(micros);  // when above the clock: right after a restart, or past the floor
  return Ballot::Make(micros, node_bits_);
}

void BallotGenerator::Reserve(int64_t micros) {
  const int64_t bound = micros + kReservationMicros;
  const std::string text = std::to_string(bound) + "\n";
  std::filesystem::path temporary = file_;
  temporary += ".tmp";
  schema::ReplaceFileDurably(file_, temporary, BytesView(text));
  reserved_ = bound;
}

uint64_t BallotNodeBits(const types::Uuid& host_id) {
  uint64_t bits = 0;
  for (int i = 8; i < 16; ++i) bits = bits << 8 | host_id.bytes[i];
  return bits;
}

}  // namespace sibyl::cluster::paxos
