#pragma once
// Every combination of one value per position, in order: the partition keys
// (or clustering prefixes) that `=` and IN relations on several columns name.

#include <vector>

#include "common/bytes.h"

namespace sibyl::query {

[[nodiscard]] inline std::vector<std::vector<BytesView>> CartesianProduct(
    const std::vector<std::vector<BytesView>>& per_column) {
  std::vector<std::vector<BytesView>> out{{}};
  for (const auto& choices : per_column) {
    std::vector<std::vector<BytesView>> next;
    next.reserve(out.size() * choices.size());
    for (const auto& prefix : out) {
      for (BytesView choice : choices) {
        next.push_back(prefix);
        next.back().push_back(choice);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace sibyl::query
