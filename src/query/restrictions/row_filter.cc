// RowFilter::Matches: the conditions a ReadPlan cannot enforce, checked row by row.

#include "query/restrictions/restrictions.h"
#include "types/value_codec.h"

namespace sibyl::query {

bool RowFilter::Matches(const schema::Row& row) const {
  for (const Condition& c : conditions_) {
    const OptBytes& cell = row[c.column];
    if (!cell) return false;  // a null never satisfies a relation
    const BytesView value(*cell);
    const types::CqlType& type = *c.type;
    if (c.has_values) {
      bool any = false;
      for (BytesView candidate : c.values) {
        if (types::Compare(type, value, candidate) == 0) {
          any = true;
          break;
        }
      }
      if (!any) return false;
    }
    if (c.lower) {
      const int cmp = types::Compare(type, value, *c.lower);
      if (cmp < 0 || (cmp == 0 && !c.lower_inclusive)) return false;
    }
    if (c.upper) {
      const int cmp = types::Compare(type, value, *c.upper);
      if (cmp > 0 || (cmp == 0 && !c.upper_inclusive)) return false;
    }
    if (c.contains.empty() && c.contains_key.empty() && c.map_entries.empty()) continue;
    if (type.kind() == types::Kind::kMap) {
      const auto entries = types::DecodeMapEntries(value);
      const types::CqlType& key_type = *type.params()[0];
      const types::CqlType& value_type = *type.params()[1];
      for (BytesView wanted : c.contains) {
        bool found = false;
        for (const auto& entry : entries)
          found |= types::Compare(value_type, entry.second, wanted) == 0;
        if (!found) return false;
      }
      for (BytesView wanted : c.contains_key) {
        bool found = false;
        for (const auto& entry : entries)
          found |= types::Compare(key_type, entry.first, wanted) == 0;
        if (!found) return false;
      }
      for (const auto& [key, mapped] : c.map_entries) {
        bool found = false;
        for (const auto& entry : entries) {
          found |= types::Compare(key_type, entry.first, key) == 0 &&
                   types::Compare(value_type, entry.second, mapped) == 0;
        }
        if (!found) return false;
      }
    } else {
      const auto elements = types::DecodeListElements(value);
      const types::CqlType& element_type = *type.params()[0];
      for (BytesView wanted : c.contains) {
        bool found = false;
        for (BytesView element : elements)
          found |= types::Compare(element_type, element, wanted) == 0;
        if (!found) return false;
      }
    }
  }
  return true;
}

}  // namespace sibyl::query
