// Restrictions::Bind: one request's values turn the prepared
// restrictions into a ReadPlan and the RowFilter for what the plan cannot
// enforce, with the messages Cassandra 4.1 gives for null and unset values
// (SingleColumnRestriction / MultiColumnRestriction appendTo, RowFilter's
// Expression.validate, QueryProcessor.validateKey, getTokenBound).

#include <algorithm>
#include <string>

#include "common/check.h"
#include "common/error.h"
#include "dht/token.h"
#include "query/restrictions/cartesian_product.h"
#include "query/restrictions/clustering_slices.h"
#include "query/restrictions/index_support.h"
#include "query/restrictions/key_values.h"
#include "query/restrictions/restrictions.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;

// A value the filter checks (RowFilter.Expression.validate).
BytesView FilterValue(const Value& value, const std::string& column) {
  if (value.is_unset()) ThrowInvalid("Unsupported unset value for column " + column);
  if (value.is_null()) ThrowInvalid("Unsupported null value for column " + column);
  return value.bytes;
}

// The values of `col IN ?`.
std::vector<BytesView> InMarkerValues(const PreparedTerm& marker, const ColumnMetadata& column,
                                      const BoundValues& values) {
  const Value bound = marker.Bind(values);
  if (bound.is_unset()) ThrowInvalid("Invalid unset value for column " + column.name);
  if (bound.is_null()) ThrowInvalid("Invalid null value for column " + column.name);
  std::vector<BytesView> out = types::DecodeListElements(bound.bytes);
  for (BytesView element : out) types::Validate(*column.type, element);
  return out;
}

// = / IN values of a single-column restriction on a key column.
std::vector<BytesView> EqOrInValues(const ColumnRestriction& r, const ColumnMetadata& column,
                                    const BoundValues& values) {
  std::vector<BytesView> out;
  if (r.eq) out.push_back(RequireKeyValue(r.eq->Bind(values), column.name));
  if (r.in_values) {
    for (const auto& term : *r.in_values)
      out.push_back(RequireKeyValue(term.Bind(values), column.name));
  }
  if (r.in_marker) out = InMarkerValues(*r.in_marker, column, values);
  return out;
}

// A single-column restriction as a filter condition.
RowFilter::Condition FilterCondition(const ColumnRestriction& r, const ColumnMetadata& column,
                                     const BoundValues& values) {
  RowFilter::Condition c;
  c.column = r.column;
  c.type = column.type.get();
  if (r.in_values || r.in_marker) {
    // 4.1's INRestriction.addToRowFilter: a filtered IN is refused.
    ThrowInvalid("IN restrictions are not supported on indexed columns");
  }
  if (r.eq) {
    c.has_values = true;
    c.values.push_back(FilterValue(r.eq->Bind(values), column.name));
  }
  if (r.lower) {
    c.lower = FilterValue(r.lower->Bind(values), column.name);
    c.lower_inclusive = r.lower_inclusive;
  }
  if (r.upper) {
    c.upper = FilterValue(r.upper->Bind(values), column.name);
    c.upper_inclusive = r.upper_inclusive;
  }
  for (const auto& t : r.contains) c.contains.push_back(FilterValue(t.Bind(values), column.name));
  for (const auto& t : r.contains_key) {
    c.contains_key.push_back(FilterValue(t.Bind(values), column.name));
  }
  for (const auto& [key, value] : r.map_entries) {
    c.map_entries.emplace_back(FilterValue(key.Bind(values), column.name),
                               FilterValue(value.Bind(values), column.name));
  }
  return c;
}

// The values of a tuple term, one per column; null elements stay nullopt.
std::vector<std::optional<BytesView>> TupleValues(const TableMetadata& table, size_t first,
                                                  const TupleTerm& tuple,
                                                  const BoundValues& values) {
  std::vector<std::optional<BytesView>> out;
  if (tuple.marker) {
    const Value bound = tuple.marker->Bind(values);
    if (bound.is_unset())
      ThrowInvalid("Invalid unset value for column " + table.columns[first].name);
    if (bound.is_null()) ThrowInvalid("Invalid null value for column " + table.columns[first].name);
    out = types::DecodeTupleComponents(bound.bytes);
    out.resize(tuple.size);
    return out;
  }
  out.reserve(tuple.elements.size());
  for (size_t i = 0; i < tuple.elements.size(); ++i) {
    const Value v = tuple.elements[i].Bind(values);
    if (v.is_unset())
      ThrowInvalid("Invalid unset value for column " + table.columns[first + i].name);
    out.push_back(v.is_null() ? std::nullopt : std::optional<BytesView>(v.bytes));
  }
  return out;
}

std::string ColumnList(const TableMetadata& table, const MultiColumnRestriction& m) {
  std::string names = "[";
  for (size_t i = 0; i < m.count; ++i) names += (i ? ", " : "") + table.columns[m.first + i].name;
  return names + "]";
}

// A single-column clustering restriction usable by slices.
BoundClusteringRestriction BindClustering(const TableMetadata& table, const ColumnRestriction& r,
                                          const BoundValues& values) {
  const ColumnMetadata& column = table.columns[r.column];
  BoundClusteringRestriction b;
  b.first = r.column - table.clustering_begin();
  b.count = 1;
  if (r.is_slice()) {
    b.is_slice = true;
    if (r.lower)
      b.lower = {{RequireKeyValue(r.lower->Bind(values), column.name)}, r.lower_inclusive};
    if (r.upper)
      b.upper = {{RequireKeyValue(r.upper->Bind(values), column.name)}, r.upper_inclusive};
    return b;
  }
  for (BytesView v : EqOrInValues(r, column, values)) b.tuples.push_back({v});
  return b;
}

BoundClusteringRestriction BindClustering(const TableMetadata& table,
                                          const MultiColumnRestriction& m,
                                          const BoundValues& values) {
  using Kind = MultiColumnRestriction::Kind;
  BoundClusteringRestriction b;
  b.first = m.first - table.clustering_begin();
  b.count = m.count;
  auto full = [&](const std::vector<std::optional<BytesView>>& tuple, bool eq) {
    std::vector<BytesView> out;
    for (size_t i = 0; i < tuple.size(); ++i) {
      if (!tuple[i]) {
        if (eq) ThrowInvalid("Invalid null value for column " + table.columns[m.first + i].name);
        ThrowInvalid("Invalid null value in condition for columns: " + ColumnList(table, m));
      }
      out.push_back(*tuple[i]);
    }
    return out;
  };
  switch (m.kind) {
    case Kind::kEq:
      b.tuples.push_back(full(TupleValues(table, m.first, *m.eq, values), true));
      break;
    case Kind::kIn:
      if (m.in_marker) {
        const Value bound = m.in_marker->Bind(values);
        if (bound.is_unset()) {
          ThrowInvalid("Invalid unset value for column " + table.columns[m.first].name);
        }
        if (bound.is_null()) ThrowInvalid("Invalid null value for IN restriction");
        for (BytesView element : types::DecodeListElements(bound.bytes)) {
          if (m.in_marker_of_tuples) {
            auto tuple = types::DecodeTupleComponents(element);
            tuple.resize(m.count);
            b.tuples.push_back(full(tuple, false));
          } else {
            b.tuples.push_back({element});
          }
        }
      } else {
        for (const auto& t : m.in_values) {
          b.tuples.push_back(full(TupleValues(table, m.first, t, values), false));
        }
      }
      break;
    case Kind::kSlice: {
      b.is_slice = true;
      auto bound = [&](const TupleTerm& t, bool inclusive) {
        BoundClusteringRestriction::Bound out;
        out.inclusive = inclusive;
        const auto tuple = TupleValues(table, m.first, t, values);
        for (size_t i = 0; i < tuple.size(); ++i) {
          if (!tuple[i]) {
            ThrowInvalid("Invalid null value in condition for column " +
                         table.columns[m.first + i].name);
          }
          out.values.push_back(*tuple[i]);
        }
        return out;
      };
      if (m.lower) b.lower = bound(*m.lower, m.lower_inclusive);
      if (m.upper) b.upper = bound(*m.upper, m.upper_inclusive);
      break;
    }
  }
  return b;
}

// A multi-column restriction the plan cannot use, as filter conditions.
void AddMultiColumnFilter(const TableMetadata& table, const MultiColumnRestriction& m,
                          const BoundValues& values, RowFilter& filter) {
  if (m.kind == MultiColumnRestriction::Kind::kSlice) {
    ThrowInvalid("Slice restrictions are not supported on indexed columns");
  }
  if (m.kind == MultiColumnRestriction::Kind::kIn) {
    ThrowInvalid("IN restrictions are not supported on indexed columns");
  }
  const auto tuple = TupleValues(table, m.first, *m.eq, values);
  for (size_t i = 0; i < m.count; ++i) {
    const ColumnMetadata& column = table.columns[m.first + i];
    if (!tuple[i]) ThrowInvalid("Unsupported null value for column " + column.name);
    RowFilter::Condition c;
    c.column = m.first + i;
    c.type = column.type.get();
    c.has_values = true;
    c.values.push_back(*tuple[i]);
    filter.Add(std::move(c));
  }
}

int64_t TokenValue(const PreparedTerm& term, const BoundValues& values) {
  const Value v = term.Bind(values);
  if (v.is_null()) ThrowInvalid("Invalid null token value");
  if (v.is_unset()) ThrowInvalid("Invalid unset token value");
  // A bigint may be empty; Cassandra then fails reading the token (a Server
  // error from an IndexOutOfBoundsException): refused here as what it is.
  if (v.bytes.empty()) ThrowInvalid("Invalid empty token value");
  return types::DecodeBigint(v.bytes);
}

struct BoundToken {
  std::optional<int64_t> low;
  bool low_inclusive = true;
  std::optional<int64_t> high;
  bool high_inclusive = true;
};

BoundToken BindToken(const TokenRestriction& t, const BoundValues& values) {
  BoundToken b;
  if (t.eq) {
    b.low = b.high = TokenValue(*t.eq, values);
    return b;
  }
  if (t.lower) {
    b.low = TokenValue(*t.lower, values);
    b.low_inclusive = t.lower_inclusive;
  }
  if (t.upper) {
    b.high = TokenValue(*t.upper, values);
    b.high_inclusive = t.upper_inclusive;
  }
  return b;
}

// The ring range of a token restriction, as SelectStatement's
// getPartitionKeyBoundsForTokenRestrictions makes it: a start after the end
// selects nothing (no wrapping), and the minimum token as a bound means the
// ring's start or end. False when the range holds no token.
bool TokenRangeOf(const BoundToken& b, storage::TokenRange& range) {
  constexpr int64_t kMin = dht::kMinimumToken;
  const int64_t start = b.low.value_or(kMin);
  const int64_t end = b.high.value_or(kMin);
  if (start != kMin && end != kMin &&
      (start > end || (start == end && (!b.low_inclusive || !b.high_inclusive)))) {
    return false;
  }
  range.start = (start == kMin || !b.low_inclusive) ? start : start - 1;
  if (end == kMin) {
    range.end = kMin;
  } else {
    range.end = b.high_inclusive ? end : end - 1;
    if (range.end == kMin || range.end <= range.start) return false;
  }
  return true;
}

// TokenFilter: whether a named partition's token passes the token
// restriction (a slice whose start is after its end wraps around the ring here).
bool TokenAccepts(const BoundToken& b, int64_t token) {
  auto above = [&] { return !b.low || token > *b.low || (b.low_inclusive && token == *b.low); };
  auto below = [&] { return !b.high || token < *b.high || (b.high_inclusive && token == *b.high); };
  if (b.low && b.high && *b.low > *b.high) return above() || below();
  if (b.low && b.high && *b.low == *b.high && !(b.low_inclusive && b.high_inclusive)) return false;
  return above() && below();
}

// The partitions named by = / IN on every partition key column, each once,
// in the order of their key values, as Cassandra's MultiCBuilder builds them
// (partitionKeyAsClusteringComparator): rows of several partitions come back
// in that order.
std::vector<storage::PartitionKey> NamedPartitions(const Restrictions& restrictions,
                                                   const TableMetadata& table,
                                                   const BoundValues& values) {
  const size_t key_size = table.partition_key_size();
  std::vector<std::vector<BytesView>> per_column;
  per_column.reserve(key_size);
  for (size_t i = 0; i < key_size; ++i) {
    const ColumnRestriction* r = restrictions.Find(i);
    SIBYL_CHECK(r != nullptr, "partition key column " + table.columns[i].name + " unrestricted");
    per_column.push_back(EqOrInValues(*r, table.columns[i], values));
  }
  std::vector<std::vector<BytesView>> keys = CartesianProduct(per_column);
  auto compare = [&](const std::vector<BytesView>& a, const std::vector<BytesView>& b) {
    for (size_t i = 0; i < a.size(); ++i) {
      const int c = types::Compare(*table.columns[i].type, a[i], b[i]);
      if (c != 0) return c;
    }
    return 0;
  };
  if (keys.size() > 1) {
    std::sort(keys.begin(), keys.end(),
              [&](const auto& a, const auto& b) { return compare(a, b) < 0; });
    keys.erase(std::unique(keys.begin(), keys.end(),
                           [&](const auto& a, const auto& b) { return compare(a, b) == 0; }),
               keys.end());
  }
  std::vector<storage::PartitionKey> partitions;
  partitions.reserve(keys.size());
  for (const auto& components : keys) {
    storage::PartitionKey key;
    key.key = CheckedRoutingKey(components);
    key.token = table.is_virtual ? dht::kMinimumToken : dht::Murmur3Token(key.key);
    partitions.push_back(std::move(key));
  }
  return partitions;
}

// The clustering restrictions: = / IN from the first column on, then one
// slice, bound for the plan; whatever follows a gap, a slice or a CONTAINS
// goes to `filter` (REQUIRES: a filter when anything can follow).
std::vector<BoundClusteringRestriction> BindClusteringRestrictions(const Restrictions& restrictions,
                                                                   const TableMetadata& table,
                                                                   const BoundValues& values,
                                                                   RowFilter* filter) {
  struct Entry {
    size_t first;
    const ColumnRestriction* single;
    const MultiColumnRestriction* multi;
  };
  std::vector<Entry> entries;
  for (const auto& r : restrictions.columns()) {
    if (table.columns[r.column].kind == ColumnKind::kClustering) {
      entries.push_back({r.column, &r, nullptr});
    }
  }
  for (const auto& m : restrictions.multi_column()) entries.push_back({m.first, nullptr, &m});
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.first < b.first; });
  std::vector<BoundClusteringRestriction> usable;
  size_t position = table.clustering_begin();
  bool filtering = false;
  for (const Entry& e : entries) {
    const bool contains = e.single != nullptr && e.single->is_contains();
    if (!filtering && (contains || e.first != position)) filtering = true;
    if (filtering) {
      SIBYL_CHECK(filter != nullptr, "a write's clustering restrictions need filtering");
      if (e.single != nullptr) {
        filter->Add(FilterCondition(*e.single, table.columns[e.first], values));
      } else {
        AddMultiColumnFilter(table, *e.multi, values, *filter);
      }
      continue;
    }
    if (e.single != nullptr) {
      usable.push_back(BindClustering(table, *e.single, values));
    } else {
      usable.push_back(BindClustering(table, *e.multi, values));
    }
    if (usable.back().is_slice) {
      filtering = true;  // nothing after a slice narrows the read
    } else {
      position = e.single != nullptr ? e.first + 1 : e.multi->last() + 1;
    }
  }
  return usable;
}

// The rows of = / IN restrictions covering every clustering column: the
// cartesian product of their tuples, each row once, in clustering order.
std::vector<storage::Clustering> FullClusterings(
    const TableMetadata& table, const std::vector<BoundClusteringRestriction>& restrictions) {
  std::vector<storage::Clustering> rows = ClusteringPrefixes(restrictions);
  if (rows.size() <= 1) return rows;
  auto less = [&](const auto& a, const auto& b) {
    return schema::CompareClusterings(table, a, b) < 0;
  };
  std::sort(rows.begin(), rows.end(), less);
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [&](const auto& a, const auto& b) {
                           return schema::CompareClusterings(table, a, b) == 0;
                         }),
             rows.end());
  return rows;
}

// Bytes (of an index expression) over 64K: CassandraIndex.validate(ReadCommand).
constexpr size_t kMaxIndexValue = 65535;

// The IndexQuery of the index the restrictions read through: the value of
// the (first) term its operator takes. Bound after the filter, whose checks
// and messages (null, unset) come first.
storage::IndexQuery BindIndexQuery(const Restrictions& restrictions, const TableMetadata& table,
                                   const BoundValues& values) {
  const IndexChoice& choice = *restrictions.index_choice();
  const ColumnMetadata& column = table.columns[choice.column];
  storage::IndexQuery query;
  query.index_id = choice.index_id;
  size_t size = 0;
  if (const ColumnRestriction* r = restrictions.Find(choice.column)) {
    auto bind = [&](const PreparedTerm& term) {
      return Bytes(FilterValue(term.Bind(values), column.name));
    };
    switch (choice.op) {
      case IndexOperator::kEq:
        query.value = bind(*r->eq);
        break;
      case IndexOperator::kContains:
        query.value = bind(r->contains.front());
        break;
      case IndexOperator::kContainsKey:
        query.value = bind(r->contains_key.front());
        break;
      case IndexOperator::kMapEntry:
        query.value = bind(r->map_entries.front().first);
        query.entry_value = bind(r->map_entries.front().second);
        // The index value is the entry as a two-component composite.
        size = query.entry_value->size() + 6;
        break;
    }
  } else {
    // `(c1, c2) = (...)` answered by an index on one of its columns.
    for (const MultiColumnRestriction& m : restrictions.multi_column()) {
      if (choice.column < m.first || choice.column > m.last()) continue;
      const auto tuple = TupleValues(table, m.first, *m.eq, values);
      const std::optional<BytesView>& value = tuple[choice.column - m.first];
      if (!value) ThrowInvalid("Unsupported null value for column " + column.name);
      query.value = Bytes(*value);
    }
  }
  size += query.value.size();
  if (size > kMaxIndexValue) ThrowInvalid("Index expression values may not be larger than 64K");
  return query;
}

}  // namespace

BoundRestrictions Restrictions::Bind(const TableMetadata& table, const BoundValues& values) const {
  BoundRestrictions out;
  ReadPlan& plan = out.plan;
  RowFilter& filter = out.filter;
  std::optional<BoundToken> token;
  if (token_) token = BindToken(*token_, values);

  // Partitions: named, or a range of the ring.
  if (selects_partitions_) {
    std::vector<storage::PartitionKey> partitions = NamedPartitions(*this, table, values);
    if (token) {
      std::erase_if(partitions, [&](const storage::PartitionKey& key) {
        return !TokenAccepts(*token, key.token);
      });
    }
    plan.selects_nothing = partitions.empty();
    plan.partitions = std::move(partitions);
  } else {
    if (token && !TokenRangeOf(*token, plan.range)) plan.selects_nothing = true;
    for (size_t i = 0; i < table.partition_key_size(); ++i) {
      if (const ColumnRestriction* r = Find(i)) {
        filter.Add(FilterCondition(*r, table.columns[i], values));
      }
    }
  }

  std::vector<BoundClusteringRestriction> usable =
      BindClusteringRestrictions(*this, table, values, &filter);
  ClusteringSlices slices = BuildClusteringSlices(table, usable);
  plan.slices = std::move(slices.slices);
  plan.selects_nothing |= slices.selects_nothing;

  // Static and regular columns.
  for (const auto& r : restrictions_) {
    if (!table.columns[r.column].is_primary_key()) {
      filter.Add(FilterCondition(r, table.columns[r.column], values));
    }
  }

  // The read goes through an index unless it names its partitions; the
  // index's restriction stays in the filter (the engine's answer is checked
  // again).
  if (index_choice_ && !selects_partitions_) plan.index = BindIndexQuery(*this, table, values);
  return out;
}

BoundWriteKeys Restrictions::BindWrite(const TableMetadata& table,
                                       const BoundValues& values) const {
  BoundWriteKeys out;
  out.partitions = NamedPartitions(*this, table, values);
  if (!has_clustering_) {
    // The whole partition, its static row, or the one row of a table
    // without clustering columns.
    out.clusterings.emplace_back();
    return out;
  }
  const std::vector<BoundClusteringRestriction> clustering =
      BindClusteringRestrictions(*this, table, values, nullptr);
  // Every clustering value a write names is checked once, whatever it names.
  for (const BoundClusteringRestriction& r : clustering) {
    for (const auto& tuple : r.tuples) {
      for (BytesView value : tuple) CheckKeyLength(value.size());
    }
    for (const auto* bound : {&r.lower, &r.upper}) {
      if (!*bound) continue;
      for (BytesView value : (*bound)->values) CheckKeyLength(value.size());
    }
  }
  if (!deletes_ranges_) {
    out.clusterings = FullClusterings(table, clustering);
    return out;
  }
  ClusteringSlices slices = BuildClusteringSlices(table, clustering);
  // An empty range (or IN) deletes nothing, as DeleteStatement.addUpdateForKey.
  if (!slices.selects_nothing) out.ranges = std::move(slices.slices);
  return out;
}

}  // namespace sibyl::query
