#include "types/vector_layout.h"

#include "types/vint.h"

namespace sibyl::types {

std::optional<size_t> FixedValueLength(const CqlType& type) {
  switch (type.kind()) {
    case Kind::kBoolean:
    case Kind::kTinyint:
      return 1;
    case Kind::kSmallint:
      return 2;
    case Kind::kInt:
    case Kind::kFloat:
    case Kind::kDate:
      return 4;
    case Kind::kBigint:
    case Kind::kCounter:
    case Kind::kDouble:
    case Kind::kTimestamp:
    case Kind::kTime:
      return 8;
    case Kind::kUuid:
    case Kind::kTimeuuid:
      return 16;
    case Kind::kVector: {
      const auto element = FixedValueLength(*type.params()[0]);
      if (!element) return std::nullopt;
      return *element * static_cast<size_t>(type.vector_dimension());
    }
    default:
      return std::nullopt;
  }
}

std::vector<BytesView> SplitVector(const CqlType& vector_type, BytesView serialized) {
  const auto dimension = static_cast<size_t>(vector_type.vector_dimension());
  std::vector<BytesView> elements;
  elements.reserve(dimension);
  const auto fixed = FixedValueLength(*vector_type.params()[0]);
  size_t offset = 0;
  for (size_t i = 0; i < dimension; ++i) {
    if (fixed) {
      if (serialized.size() - offset < *fixed) break;
      elements.push_back(serialized.substr(offset, *fixed));
      offset += *fixed;
      continue;
    }
    // Malformed input (which Validate would have refused) ends the split
    // early rather than reading past the value.
    const auto length = ReadUnsignedVint(serialized.substr(offset));
    if (!length || length->value > serialized.size() - offset - length->size) break;
    offset += length->size;
    elements.push_back(serialized.substr(offset, static_cast<size_t>(length->value)));
    offset += static_cast<size_t>(length->value);
  }
  return elements;
}

}  // namespace sibyl::types
