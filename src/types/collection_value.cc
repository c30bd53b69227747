#include "types/collection_value.h"

#include <algorithm>

#include "common/check.h"
#include "types/value_codec.h"
#include "types/vector_layout.h"
#include "types/vint.h"

namespace sibyl::types {

Bytes BuildSetValue(const CqlType& element_type, std::vector<Bytes> elements) {
  std::stable_sort(elements.begin(), elements.end(),
                   [&](const Bytes& a, const Bytes& b) { return Compare(element_type, a, b) < 0; });
  elements.erase(
      std::unique(elements.begin(), elements.end(),
                  [&](const Bytes& a, const Bytes& b) { return Compare(element_type, a, b) == 0; }),
      elements.end());
  return EncodeList(elements);
}

Bytes BuildMapValue(const CqlType& key_type, std::vector<std::pair<Bytes, Bytes>> entries) {
  // Stable, so that among equal keys the one written last stays last, and
  // wins as in Cassandra's TreeMap.put.
  std::stable_sort(entries.begin(), entries.end(), [&](const auto& a, const auto& b) {
    return Compare(key_type, a.first, b.first) < 0;
  });
  std::vector<std::pair<Bytes, Bytes>> distinct;
  distinct.reserve(entries.size());
  for (auto& entry : entries) {
    if (!distinct.empty() && Compare(key_type, distinct.back().first, entry.first) == 0) {
      distinct.back() = std::move(entry);
    } else {
      distinct.push_back(std::move(entry));
    }
  }
  return EncodeMap(distinct);
}

Bytes BuildVectorValue(const CqlType& vector_type, const std::vector<Bytes>& elements) {
  SIBYL_CHECK(vector_type.kind() == Kind::kVector);
  SIBYL_CHECK(elements.size() == static_cast<size_t>(vector_type.vector_dimension()));
  const bool fixed = FixedValueLength(*vector_type.params()[0]).has_value();
  Bytes out;
  for (const Bytes& element : elements) {
    if (!fixed) AppendUnsignedVint(out, element.size());
    out += element;
  }
  return out;
}

}  // namespace sibyl::types
