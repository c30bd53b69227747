#include "locator/token_allocation.h"

#include <algorithm>
#include <random>
#include <utility>

#include "common/check.h"
#include "dht/token_range.h"

namespace sibyl::locator {
namespace {

using dht::Token;
using dht::TokenCount;

// A uniform double in [0, 1) from the generator's bits (the standard
// distributions differ between libraries; this does not).
double Uniform(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

Token Advance(Token from, TokenCount by) {
  return static_cast<Token>(static_cast<uint64_t>(from) + static_cast<uint64_t>(by));
}

std::vector<Token> EvenlySpaced(int num_tokens, std::mt19937_64& rng) {
  const TokenCount step = dht::kRingSize / static_cast<unsigned>(num_tokens);
  const auto offset = static_cast<Token>(rng());
  std::vector<Token> tokens;
  for (int i = 0; i < num_tokens; ++i) {
    Token token = Advance(offset, step * static_cast<unsigned>(i));
    if (token == dht::kMinimumToken) ++token;  // steps are far apart: no collision
    tokens.push_back(token);
  }
  std::sort(tokens.begin(), tokens.end());
  return tokens;
}

// The ring being extended: entries sorted by token, owners numbered as the
// ring's nodes with the new node last.
struct Entry {
  Token token;
  uint32_t owner;
};

TokenCount RangeSize(const std::vector<Entry>& entries, size_t i) {
  const size_t previous = i == 0 ? entries.size() - 1 : i - 1;
  return dht::TokenRange(entries[previous].token, entries[i].token).Size();
}

// The index of the entry closing `donor`'s largest range that can take a new
// token (3 tokens wide at least, so that one inside is not kMinimumToken), or
// entries.size() if none can.
size_t LargestRangeOf(const std::vector<Entry>& entries, uint32_t donor) {
  size_t best = entries.size();
  TokenCount best_size = 2;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].owner != donor) continue;
    const TokenCount size = RangeSize(entries, i);
    if (size > best_size) {
      best = i;
      best_size = size;
    }
  }
  return best;
}

// The existing node owning the most that still has a range to cut, or -1.
int MostLoaded(const std::vector<Entry>& entries, const std::vector<TokenCount>& owned,
               uint32_t new_node) {
  std::vector<uint32_t> order;
  for (uint32_t node = 0; node < new_node; ++node) order.push_back(node);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return owned[a] > owned[b]; });
  for (uint32_t node : order) {
    if (LargestRangeOf(entries, node) != entries.size()) return static_cast<int>(node);
  }
  return -1;
}

struct Cut {
  Token token;
  TokenCount taken;
};

// Cuts about `take` tokens off the front of the range closed by entries[i]
// for `new_node`. REQUIRES: that range is 3 tokens wide at least.
Cut CutFront(std::vector<Entry>& entries, size_t i, TokenCount take, uint32_t new_node) {
  const size_t previous = i == 0 ? entries.size() - 1 : i - 1;
  const Token start = entries[previous].token;
  const TokenCount size = RangeSize(entries, i);
  take = std::clamp<TokenCount>(take, 1, size - 1);
  if (Advance(start, take) == dht::kMinimumToken) take = take + 1 < size ? take + 1 : take - 1;
  const Token token = Advance(start, take);
  const auto at = std::lower_bound(entries.begin(), entries.end(), token,
                                   [](const Entry& e, Token t) { return e.token < t; });
  entries.insert(at, Entry{token, new_node});
  return {token, take};
}

}  // namespace

std::vector<Token> AllocateTokens(const TokenRing& ring, int num_tokens, uint64_t seed) {
  SIBYL_CHECK(num_tokens >= 1 && num_tokens <= 65536, "num_tokens " + std::to_string(num_tokens));
  std::mt19937_64 rng(seed);
  if (ring.empty()) return EvenlySpaced(num_tokens, rng);

  const auto new_node = static_cast<uint32_t>(ring.nodes().size());
  std::vector<Entry> entries;
  std::vector<TokenCount> owned(new_node + 1, 0);
  for (size_t i = 0; i < ring.size(); ++i) {
    entries.push_back({ring.TokenAt(i), ring.NodeIndexAt(i)});
    owned[ring.NodeIndexAt(i)] += ring.RangeAt(i).Size();
  }
  const TokenCount target = dht::kRingSize / (new_node + 1);
  std::vector<Token> tokens;
  for (int k = 0; k < num_tokens; ++k) {
    const int donor = MostLoaded(entries, owned, new_node);
    SIBYL_CHECK(donor >= 0, "no range of the ring can be split");
    const size_t range = LargestRangeOf(entries, static_cast<uint32_t>(donor));
    const TokenCount need = owned[new_node] < target ? target - owned[new_node] : 1;
    const TokenCount share = need / static_cast<unsigned>(num_tokens - k);
    const double jitter = 1.0 + (Uniform(rng) - 0.5) / 64.0;
    const auto take = static_cast<TokenCount>(static_cast<double>(share) * jitter);
    const Cut cut = CutFront(entries, range, take, new_node);
    owned[new_node] += cut.taken;
    owned[donor] -= cut.taken;
    tokens.push_back(cut.token);
  }
  std::sort(tokens.begin(), tokens.end());
  return tokens;
}

}  // namespace sibyl::locator
