#include "dht/token_range.h"

#include <algorithm>

namespace sibyl::dht {
namespace {

// Positions on a line where a non-wrapping range is a plain interval (L, R]:
// a left bound is itself, a right bound (or a point) at kMinimumToken is the
// ring's end, one past the largest token. Cassandra's minimum token is both
// the ring's start (as a left bound) and its end (as a right bound or point).
using Position = __int128;
constexpr Position kRingEnd = Position{INT64_MAX} + 1;

Position EndPosition(Token t) { return t == kMinimumToken ? kRingEnd : Position{t}; }

struct Interval {
  Position left;   // exclusive
  Position right;  // inclusive
};

// REQUIRES: !range.IsTrulyWrapAround().
Interval ToInterval(const TokenRange& range) {
  return {Position{range.left()}, EndPosition(range.right())};
}

TokenRange FromInterval(const Interval& interval) {
  const Token right =
      interval.right == kRingEnd ? kMinimumToken : static_cast<Token>(interval.right);
  return {static_cast<Token>(interval.left), right};
}

std::vector<Interval> Pieces(const TokenRange& range) {
  std::vector<Interval> pieces;
  for (const TokenRange& piece : range.Unwrap()) pieces.push_back(ToInterval(piece));
  return pieces;
}

}  // namespace

bool TokenRange::Contains(Token token) const {
  if (IsWrapAround()) return token > left_ || token <= right_;
  return token > left_ && token <= right_;
}

bool TokenRange::Contains(const TokenRange& other) const {
  if (IsFullRing()) return true;
  // Not the full ring, so this range's pieces leave a gap between them and
  // each piece of `other` must fit inside one of them.
  const std::vector<Interval> mine = Pieces(*this);
  for (const Interval& piece : Pieces(other)) {
    const bool inside = std::any_of(mine.begin(), mine.end(), [&](const Interval& m) {
      return m.left <= piece.left && piece.right <= m.right;
    });
    if (!inside) return false;
  }
  return true;
}

std::vector<TokenRange> TokenRange::Unwrap() const {
  if (!IsTrulyWrapAround()) return {*this};
  return {TokenRange(left_, kMinimumToken), TokenRange(kMinimumToken, right_)};
}

std::vector<TokenRange> TokenRange::Intersection(const TokenRange& other) const {
  std::vector<Interval> common;
  for (const Interval& a : Pieces(*this)) {
    for (const Interval& b : Pieces(other)) {
      const Interval both{std::max(a.left, b.left), std::min(a.right, b.right)};
      if (both.left < both.right) common.push_back(both);
    }
  }
  std::sort(common.begin(), common.end(),
            [](const Interval& a, const Interval& b) { return a.left < b.left; });
  std::vector<Interval> merged;
  for (const Interval& piece : common) {
    if (!merged.empty() && merged.back().right >= piece.left) {
      merged.back().right = std::max(merged.back().right, piece.right);
    } else {
      merged.push_back(piece);
    }
  }
  std::vector<TokenRange> result;
  for (const Interval& piece : merged) result.push_back(FromInterval(piece));
  return result;
}

TokenCount TokenRange::Size() const {
  const uint64_t size = static_cast<uint64_t>(right_) - static_cast<uint64_t>(left_);
  return size == 0 ? kRingSize : TokenCount{size};
}

double TokenRange::RingFraction() const {
  return static_cast<double>(Size()) / static_cast<double>(kRingSize);
}

}  // namespace sibyl::dht
