#pragma once
// A range of the Murmur3 ring, (left, right], with the semantics of
// Cassandra's Range<Token>:
//
//   - left < right: the tokens t with left < t <= right;
//   - left >= right: the range wraps past the end of the ring;
//   - (t, t] is the whole ring, whatever t;
//   - kMinimumToken is the ring's start and its end: (t, kMinimumToken] runs
//     to the end of the ring (and contains kMinimumToken itself), while
//     (kMinimumToken, t] starts at the beginning. kMinimumToken is never a
//     key's token (dht/token.h), so this matters only to range arithmetic.
//
// A value type; immutable, so safe to share between threads.

#include <compare>
#include <vector>

#include "dht/token.h"

namespace sibyl::dht {

// A count of tokens: up to 2^64 (the whole ring), hence 128 bits.
using TokenCount = unsigned __int128;
inline constexpr TokenCount kRingSize = TokenCount{1} << 64;

class TokenRange {
 public:
  constexpr TokenRange(Token left, Token right) : left_(left), right_(right) {}
  static constexpr TokenRange FullRing() { return {kMinimumToken, kMinimumToken}; }

  constexpr Token left() const { return left_; }
  constexpr Token right() const { return right_; }

  // Cassandra's Range.isWrapAround: left >= right, so the whole ring (t, t]
  // and (t, kMinimumToken] count as wrapping.
  constexpr bool IsWrapAround() const { return left_ >= right_; }
  // Wraps past the end of the ring into its beginning (Range.isTrulyWrapAround):
  // a range ending at kMinimumToken does not.
  constexpr bool IsTrulyWrapAround() const { return IsWrapAround() && right_ != kMinimumToken; }
  constexpr bool IsFullRing() const { return left_ == right_; }

  bool Contains(Token token) const;
  // True when every token of `other` is in this range.
  bool Contains(const TokenRange& other) const;

  // Cassandra's Range.unwrap: a truly wrapping range as (left, kMinimumToken]
  // and (kMinimumToken, right]; any other range as itself.
  std::vector<TokenRange> Unwrap() const;

  // The tokens in both ranges as non-wrapping ranges (none truly wraps),
  // sorted by position on the ring, touching pieces merged: at most two
  // pieces unless both inputs wrap.
  std::vector<TokenRange> Intersection(const TokenRange& other) const;
  bool Intersects(const TokenRange& other) const { return !Intersection(other).empty(); }

  // How many tokens the range holds: right - left modulo 2^64, the whole
  // ring being kRingSize (Murmur3Partitioner.describeOwnership's measure).
  TokenCount Size() const;
  // Size() / kRingSize.
  double RingFraction() const;

  bool operator==(const TokenRange&) const = default;
  // By left, then right: the order of non-wrapping ranges along the ring; a
  // key for ordered containers.
  auto operator<=>(const TokenRange&) const = default;

 private:
  Token left_;
  Token right_;
};

}  // namespace sibyl::dht
