#pragma once
// Every combination of one value per position, in order: the partition keys
// (or clustering prefixes) that `=` and IN relations on several columns name.

#include <vector>

#include "common/bytes.h"

namespace sibyl::query {

[[nodiscard]] inline std::vector<std::vector<BytesView>> CartesianProduct(
    const std::vector<std::vector<BytesView>>& per_column) {
  // Sized up front: one allocation per combination plus one, as this runs
  // for every request naming its partition (usually one combination).
  size_t total = 1;
  for (const auto& choices : per_column) total *= choices.size();
  std::vector<std::vector<BytesView>> out(total);
  for (size_t k = 0; k < total; ++k) {
    std::vector<BytesView>& combination = out[k];
    combination.resize(per_column.size());
    // The last column varies fastest.
    size_t rest = k;
    for (size_t i = per_column.size(); i-- > 0;) {
      combination[i] = per_column[i][rest % per_column[i].size()];
      rest /= per_column[i].size();
    }
  }
  return out;
}

}  // namespace sibyl::query
