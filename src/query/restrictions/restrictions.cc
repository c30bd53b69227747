#include "query/restrictions/restrictions.h"

#include <algorithm>
#include <string>

#include "common/check.h"
#include "common/error.h"
#include "query/restrictions/restriction_preparation.h"

namespace sibyl::query {

using schema::ColumnKind;
using schema::ColumnMetadata;
using schema::TableMetadata;
namespace prep = restriction_preparation;

// Builds a Restrictions relation by relation, with StatementRestrictions'
// checks once all are in.
class RestrictionsBuilder {
 public:
  RestrictionsBuilder(const TableMetadata& table, StatementType type, bool allow_filtering,
                      bool ordered = false)
      : table_(table), type_(type), allow_filtering_(allow_filtering), ordered_(ordered) {}

  void Add(const cql::Relation& relation, BindSpecCollector& binds);
  // SELECT's checks (processPartitionKeyRestrictions and
  // processClusteringColumnsRestrictions for reads, checkNeedsFiltering).
  Restrictions Finish();
  // The same for INSERT, UPDATE and DELETE, in StatementRestrictions' order.
  Restrictions FinishModification(bool static_only);

 private:
  // One restriction on clustering columns [first, last], single or multi-column.
  struct ClusteringEntry {
    size_t first = 0;
    size_t last = 0;
    bool is_slice = false;
    bool is_contains = false;
    int single = -1;  // index in restrictions_, or
    int multi = -1;   // index in multi_
  };
  std::vector<ClusteringEntry> ClusteringEntries() const;
  ColumnRestriction* FindSingle(size_t column);
  void AddClustering(std::optional<ColumnRestriction> single,
                     std::optional<MultiColumnRestriction> multi);
  void CheckClusteringOrder(size_t new_first, bool new_is_slice) const;
  // The gap check of processClusteringColumnsRestrictions: "PRIMARY KEY
  // column ... cannot be restricted as preceding column ... is not restricted".
  void CheckNoClusteringGap(const std::vector<ClusteringEntry>& entries) const;
  void NoteClusteringIn(const std::vector<ClusteringEntry>& entries);
  void CheckModifiedPartitions();
  void CheckModifiedClustering(const std::vector<ClusteringEntry>& entries, bool static_only);
  // The indexes answering restrictions (hasSupportingIndex on each set).
  struct IndexSupport {
    std::optional<IndexChoice> first;  // the first answered restriction, in column order
    bool clustering = false;           // an index answers a clustering restriction
  };
  IndexSupport FindIndexSupport() const;
  // Finish's steps, in 4.1's order; each returns the restrictions it leaves
  // to the row filter.
  size_t FinishPartitionKey(bool has_index);
  size_t FinishClustering(bool has_index, bool clustering_index_in_range);
  size_t FinishNonKey(bool has_index, size_t& contains);

  const TableMetadata& table_;
  const StatementType type_;
  const bool allow_filtering_;
  const bool ordered_;
  Restrictions r_;
};

ColumnRestriction* RestrictionsBuilder::FindSingle(size_t column) {
  for (auto& r : r_.restrictions_) {
    if (r.column == column) return &r;
  }
  return nullptr;
}

std::vector<RestrictionsBuilder::ClusteringEntry> RestrictionsBuilder::ClusteringEntries() const {
  std::vector<ClusteringEntry> entries;
  for (size_t i = 0; i < r_.restrictions_.size(); ++i) {
    const ColumnRestriction& r = r_.restrictions_[i];
    if (table_.columns[r.column].kind != ColumnKind::kClustering) continue;
    entries.push_back({r.column, r.column, r.is_slice(), r.is_contains(), static_cast<int>(i), -1});
  }
  for (size_t i = 0; i < r_.multi_.size(); ++i) {
    const MultiColumnRestriction& m = r_.multi_[i];
    entries.push_back({m.first, m.last(), m.kind == MultiColumnRestriction::Kind::kSlice, false, -1,
                       static_cast<int>(i)});
  }
  std::sort(entries.begin(), entries.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return entries;
}

// ClusteringColumnRestrictions.mergeWith's checks (without ALLOW FILTERING),
// against the restrictions before the new one joined them.
void RestrictionsBuilder::CheckClusteringOrder(size_t new_first, bool new_is_slice) const {
  if (allow_filtering_) return;
  const auto entries = ClusteringEntries();
  if (entries.empty()) return;
  // The restriction on the last restricted column.
  const ClusteringEntry* last = &entries.front();
  for (const auto& e : entries) {
    if (e.last >= last->last) last = &e;
  }
  const std::string& new_name = table_.columns[new_first].name;
  if (last->is_slice && new_first > last->first) {
    ThrowInvalid("Clustering column \"" + new_name +
                 "\" cannot be restricted (preceding column \"" + table_.columns[last->first].name +
                 "\" is restricted by a non-EQ relation)");
  }
  if (new_first < last->first && new_is_slice) {
    // The next restricted column after the new restriction's first one.
    size_t next = last->first;
    for (const auto& e : entries) {
      for (size_t c = e.first; c <= e.last; ++c) {
        if (c > new_first && c < next) next = c;
      }
    }
    ThrowInvalid("PRIMARY KEY column \"" + table_.columns[next].name +
                 "\" cannot be restricted (preceding column \"" + new_name +
                 "\" is restricted by a non-EQ relation)");
  }
}

void RestrictionsBuilder::AddClustering(std::optional<ColumnRestriction> single,
                                        std::optional<MultiColumnRestriction> multi) {
  const size_t first = single ? single->column : multi->first;
  const size_t last = single ? single->column : multi->last();
  const bool is_slice =
      single ? single->is_slice() : multi->kind == MultiColumnRestriction::Kind::kSlice;

  // Merge with the restrictions already on these columns (may throw).
  std::vector<ClusteringEntry> overlapping;
  for (const auto& e : ClusteringEntries()) {
    if (e.last >= first && e.first <= last) overlapping.push_back(e);
  }
  std::optional<ColumnRestriction> merged_single;
  std::optional<MultiColumnRestriction> merged_multi;
  if (overlapping.empty()) {
    merged_single = std::move(single);
    merged_multi = std::move(multi);
  } else if (single && overlapping.size() == 1 && overlapping[0].single >= 0) {
    merged_single = r_.restrictions_[static_cast<size_t>(overlapping[0].single)];
    prep::MergeSingleColumn(*merged_single, std::move(*single), table_.columns[first]);
  } else {
    // A tuple relation is involved: merge in tuple form (3.0+ converts a
    // single-column slice into a one-column tuple, as MultiColumnRestriction.mergeWith).
    std::optional<MultiColumnRestriction> added = multi;
    if (single) {
      added = prep::ToMultiColumn(*single);
      if (!added) {
        // CONTAINS cannot become a tuple relation; whatever exists refuses it.
        added = MultiColumnRestriction{};
        added->first = first;
        added->count = 1;
      }
    }
    for (const auto& e : overlapping) {
      std::optional<MultiColumnRestriction> existing;
      if (e.single >= 0) {
        const ColumnRestriction& s = r_.restrictions_[static_cast<size_t>(e.single)];
        existing = prep::ToMultiColumn(s);
        if (!existing) prep::ThrowContainsMerge(table_.columns[s.column]);
      } else {
        existing = r_.multi_[static_cast<size_t>(e.multi)];
      }
      prep::MergeMultiColumn(*existing, *added, table_);
      merged_multi = std::move(existing);
    }
  }

  CheckClusteringOrder(first, is_slice);

  // Replace the overlapping restrictions by the merged one.
  std::vector<size_t> singles_to_remove;
  std::vector<size_t> multis_to_remove;
  for (const auto& e : overlapping) {
    if (e.single >= 0) singles_to_remove.push_back(static_cast<size_t>(e.single));
    if (e.multi >= 0) multis_to_remove.push_back(static_cast<size_t>(e.multi));
  }
  std::sort(singles_to_remove.rbegin(), singles_to_remove.rend());
  std::sort(multis_to_remove.rbegin(), multis_to_remove.rend());
  for (size_t i : singles_to_remove) r_.restrictions_.erase(r_.restrictions_.begin() + i);
  for (size_t i : multis_to_remove) r_.multi_.erase(r_.multi_.begin() + i);
  if (merged_single) r_.restrictions_.push_back(std::move(*merged_single));
  if (merged_multi) r_.multi_.push_back(std::move(*merged_multi));
}

void RestrictionsBuilder::Add(const cql::Relation& relation, BindSpecCollector& binds) {
  using Op = cql::Relation::Op;
  using Lhs = cql::Relation::Lhs;
  if (relation.lhs == Lhs::kCustomIndexExpression) {
    ThrowInvalid("Custom index expressions are not supported by Sibyl yet");
  }
  // StatementRestrictions refuses IS NOT NULL outside materialized views;
  // Relation.toRestriction refuses != before looking at the columns.
  if (relation.op == Op::kIsNotNull) {
    ThrowInvalid("Unsupported restriction: " + RelationText(relation));
  }
  if (relation.op == Op::kNeq) {
    ThrowInvalid("Unsupported \"!=\" relation: " + RelationText(relation));
  }
  switch (relation.lhs) {
    case Lhs::kToken: {
      TokenRestriction token = prep::PrepareToken(table_, relation, binds);
      if (r_.token_) {
        prep::MergeToken(*r_.token_, std::move(token), table_);
      } else {
        r_.token_ = std::move(token);
      }
      return;
    }
    case Lhs::kColumnTuple:
      AddClustering(std::nullopt, prep::PrepareMultiColumn(table_, relation, binds));
      return;
    default:
      break;
  }
  const size_t index = table_.ExistingColumnIndex(relation.columns.at(0));
  const ColumnMetadata& column = table_.columns[index];
  if (relation.op == Op::kLike) {
    // Only a SASI index answers LIKE, and Sibyl has none.
    ThrowInvalid("LIKE restriction is only supported on properly indexed columns. " +
                 RelationText(relation) + " is not valid.");
  }
  ColumnRestriction restriction = prep::PrepareSingleColumn(table_, index, relation, binds);
  if (column.kind == ColumnKind::kClustering) {
    AddClustering(std::move(restriction), std::nullopt);
    return;
  }
  if (ColumnRestriction* existing = FindSingle(index)) {
    prep::MergeSingleColumn(*existing, std::move(restriction), column);
  } else {
    r_.restrictions_.push_back(std::move(restriction));
  }
}

void RestrictionsBuilder::CheckNoClusteringGap(const std::vector<ClusteringEntry>& entries) const {
  size_t expected = table_.clustering_begin();
  for (const auto& e : entries) {
    for (size_t c = e.first; c <= e.last; ++c, ++expected) {
      if (c != expected) {
        ThrowInvalid("PRIMARY KEY column \"" + table_.columns[c].name +
                     "\" cannot be restricted as preceding column \"" +
                     table_.columns[expected].name + "\" is not restricted");
      }
    }
  }
}

void RestrictionsBuilder::NoteClusteringIn(const std::vector<ClusteringEntry>& entries) {
  for (const auto& e : entries) {
    if (e.single >= 0) {
      r_.clustering_has_in_ |= r_.restrictions_[static_cast<size_t>(e.single)].is_in();
    } else {
      r_.clustering_has_in_ |=
          r_.multi_[static_cast<size_t>(e.multi)].kind == MultiColumnRestriction::Kind::kIn;
    }
  }
}

RestrictionsBuilder::IndexSupport RestrictionsBuilder::FindIndexSupport() const {
  IndexSupport support;
  if (table_.indexes.empty()) return support;
  for (size_t column = 0; column < table_.columns.size(); ++column) {
    std::optional<IndexChoice> choice;
    if (const ColumnRestriction* r = r_.Find(column)) {
      choice = SupportingIndex(table_, *r);
    } else {
      for (const auto& m : r_.multi_) {
        if (m.first == column) choice = SupportingIndex(table_, m);
      }
    }
    if (!choice) continue;
    if (!support.first) support.first = choice;
    if (table_.columns[choice->column].kind == ColumnKind::kClustering) support.clustering = true;
  }
  return support;
}

// StatementRestrictions' constructor for SELECT (processPartitionKeyRestrictions,
// processClusteringColumnsRestrictions, the non-key columns,
// validateSecondaryIndexSelections), then SelectStatement's
// verifyOrderingIsAllowed (its index part) and checkNeedsFiltering.
// processPartitionKeyRestrictions. Returns the partition key restrictions
// left to the row filter.
size_t RestrictionsBuilder::FinishPartitionKey(bool has_index) {
  const size_t pk_size = table_.partition_key_size();
  size_t pk_restricted = 0;
  bool pk_slice = false;
  bool pk_contains = false;
  bool pk_all_eq = true;
  for (size_t i = 0; i < pk_size; ++i) {
    const ColumnRestriction* r = r_.Find(i);
    if (r == nullptr) {
      pk_all_eq = false;
      continue;
    }
    ++pk_restricted;
    pk_slice |= r->is_slice();
    pk_contains |= r->is_contains();
    r_.partition_key_in_ |= r->is_in();
    if (!r->is_eq()) pk_all_eq = false;
  }
  r_.partition_key_needs_filtering_ =
      pk_restricted > 0 && (pk_restricted < pk_size || pk_slice || pk_contains);
  r_.selects_partitions_ = pk_restricted == pk_size && !r_.partition_key_needs_filtering_;
  r_.selects_one_partition_ = r_.selects_partitions_ && pk_all_eq;
  if (r_.partition_key_needs_filtering_ && !allow_filtering_ && !has_index) {
    ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
  }
  if ((pk_restricted == 0 && !r_.token_) || r_.partition_key_needs_filtering_) {
    r_.uses_index_ = has_index;
  }
  return r_.uses_index_ || r_.partition_key_needs_filtering_ ? pk_restricted : 0;
}

// processClusteringColumnsRestrictions. Returns the clustering columns left
// to the row filter.
size_t RestrictionsBuilder::FinishClustering(bool has_index, bool clustering_index_in_range) {
  const auto entries = ClusteringEntries();
  r_.has_clustering_ = !entries.empty();
  bool clustering_contains = false;
  bool clustering_needs_filtering = false;
  size_t clustering_restricted = 0;
  size_t position = table_.clustering_begin();
  for (const auto& e : entries) {
    clustering_contains |= e.is_contains;
    clustering_restricted += e.last - e.first + 1;
    if (e.is_contains || e.first != position) clustering_needs_filtering = true;
    if (!e.is_slice) position = e.last + 1;
  }
  if (clustering_contains && !allow_filtering_ && !has_index) {
    ThrowInvalid(
        "Clustering columns can only be restricted with CONTAINS with a secondary index or "
        "filtering");
  }
  if (clustering_needs_filtering) {
    if (has_index) {
      r_.uses_index_ = true;
    } else if (!allow_filtering_) {
      CheckNoClusteringGap(entries);
    }
  }
  NoteClusteringIn(entries);
  // Covers indexes on the first clustering column (among others).
  if (clustering_index_in_range) r_.uses_index_ = true;
  return r_.uses_index_ || clustering_needs_filtering ? clustering_restricted : 0;
}

// The static and regular columns (nonPrimaryKeyRestrictions). Returns how
// many are restricted; `contains` counts their CONTAINS-like relations.
size_t RestrictionsBuilder::FinishNonKey(bool has_index, size_t& contains) {
  size_t restricted = 0;
  for (const auto& r : r_.restrictions_) {
    if (table_.columns[r.column].is_primary_key()) continue;
    r_.has_non_key_ = true;
    ++restricted;
    contains += r.contains.size() + r.contains_key.size() + r.map_entries.size();
  }
  if (r_.has_non_key_) {
    if (has_index) {
      r_.uses_index_ = true;
    } else if (!allow_filtering_) {
      ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
    }
  }
  return restricted;
}

Restrictions RestrictionsBuilder::Finish() {
  const IndexSupport index = FindIndexSupport();
  const bool has_index = index.first.has_value();  // hasQueriableIndex
  // The restrictions 4.1 puts in the row filter (filterRestrictions), one
  // per column: more than one needs ALLOW FILTERING.
  size_t filtered = FinishPartitionKey(has_index);
  const bool key_range = !r_.selects_partitions_;  // isKeyRange
  filtered += FinishClustering(has_index, key_range && index.clustering);
  size_t contains_count = 0;  // nonPrimaryKeyRestrictions.hasMultipleContains
  filtered += FinishNonKey(has_index, contains_count);
  if (r_.uses_index_ && r_.partition_key_in_) {
    ThrowInvalid(
        "Select on indexed columns and with IN clause for the PRIMARY KEY are not supported");
  }
  if (r_.uses_index_ && ordered_) ThrowInvalid("ORDER BY with 2ndary indexes is not supported.");

  // SelectStatement.checkNeedsFiltering (StatementRestrictions.needFiltering):
  // a range or index read filters when more than one restriction is left to
  // check, when clustering values are checked without any (even where each
  // partition is read by slices), or with several CONTAINS.
  if (!allow_filtering_ && (key_range || r_.uses_index_)) {
    const bool needs_filtering = filtered > 1 || (filtered == 0 && r_.has_clustering_) ||
                                 (filtered != 0 && contains_count > 1);
    if (needs_filtering) ThrowInvalid(std::string(kRequiresAllowFilteringMessage));
  }
  if (has_index && !r_.selects_partitions_) r_.index_choice_ = index.first;
  return std::move(r_);
}

namespace {

std::string JoinNames(const TableMetadata& table, const std::vector<size_t>& columns) {
  std::string out;
  for (size_t c : columns) out += (out.empty() ? "" : ", ") + table.columns[c].name;
  return out;
}

}  // namespace

Restrictions RestrictionsBuilder::FinishModification(bool static_only) {
  CheckModifiedPartitions();
  const auto entries = ClusteringEntries();
  r_.has_clustering_ = !entries.empty();
  if (static_only && r_.has_clustering_ && type_ != StatementType::kInsert) {
    ThrowInvalid(std::string("Invalid restrictions on clustering columns since the ") +
                 StatementTypeName(type_) + " statement modifies only static columns");
  }
  CheckModifiedClustering(entries, static_only);
  NoteClusteringIn(entries);

  // Static and regular columns: named in Cassandra's order (by name).
  std::vector<std::string> non_key;
  for (const auto& r : r_.restrictions_) {
    if (!table_.columns[r.column].is_primary_key())
      non_key.push_back(table_.columns[r.column].name);
  }
  if (!non_key.empty()) {
    std::sort(non_key.begin(), non_key.end());
    std::string names;
    for (const auto& name : non_key) names += (names.empty() ? "" : ", ") + name;
    ThrowInvalid("Non PRIMARY KEY columns found in where clause: " + names + " ");
  }
  return std::move(r_);
}

// processPartitionKeyRestrictions, for statements without partition ranges.
void RestrictionsBuilder::CheckModifiedPartitions() {
  const std::string type = StatementTypeName(type_);
  if (r_.token_) {
    ThrowInvalid("The token function cannot be used in WHERE clauses for " + type + " statements");
  }
  std::vector<size_t> missing;
  bool pk_not_eq = false;
  for (size_t i = 0; i < table_.partition_key_size(); ++i) {
    const ColumnRestriction* r = r_.Find(i);
    if (r == nullptr) {
      missing.push_back(i);
    } else {
      pk_not_eq |= !r->is_eq() && !r->is_in();
      r_.partition_key_in_ |= r->is_in();
    }
  }
  if (!missing.empty()) {
    ThrowInvalid("Some partition key parts are missing: " + JoinNames(table_, missing));
  }
  if (pk_not_eq) {
    ThrowInvalid(
        "Only EQ and IN relation are supported on the partition key (unless you use the "
        "token() function) for " +
        type + " statements");
  }
  r_.selects_partitions_ = true;
  r_.selects_one_partition_ = !r_.partition_key_in_;
}

// processClusteringColumnsRestrictions, for modifications: INSERT and
// UPDATE name whole rows, DELETE a prefix and possibly a slice.
void RestrictionsBuilder::CheckModifiedClustering(const std::vector<ClusteringEntry>& entries,
                                                  bool static_only) {
  bool has_slice = false;
  bool has_contains = false;
  size_t covered = 0;  // clustering columns restricted by = / IN, from the first
  size_t position = table_.clustering_begin();
  bool gap = false;
  for (const auto& e : entries) {
    has_slice |= e.is_slice;
    has_contains |= e.is_contains;
    if (e.first != position || e.is_contains) gap = true;
    if (!gap && !e.is_slice) {
      covered += e.last - e.first + 1;
      position = e.last + 1;
    }
  }
  if (type_ == StatementType::kDelete) {
    if (has_contains) {
      ThrowInvalid(
          "Clustering columns can only be restricted with CONTAINS with a secondary index or "
          "filtering");
    }
    if (gap) CheckNoClusteringGap(entries);
    r_.deletes_ranges_ = r_.has_clustering_ && (has_slice || covered < table_.clustering_size());
    return;
  }
  if (has_slice) {
    ThrowInvalid(std::string("Slice restrictions are not supported on the clustering columns in ") +
                 StatementTypeName(type_) + " statements");
  }
  if (static_only) return;
  std::vector<size_t> missing;
  const size_t begin = table_.clustering_begin();
  for (size_t c = begin; c < begin + table_.clustering_size(); ++c) {
    const bool restricted = std::any_of(entries.begin(), entries.end(),
                                        [&](const auto& e) { return c >= e.first && c <= e.last; });
    if (!restricted) missing.push_back(c);
  }
  if (!missing.empty()) {
    ThrowInvalid("Some clustering keys are missing: " + JoinNames(table_, missing));
  }
}

const char* StatementTypeName(StatementType type) {
  switch (type) {
    case StatementType::kSelect:
      return "SELECT";
    case StatementType::kInsert:
      return "INSERT";
    case StatementType::kUpdate:
      return "UPDATE";
    case StatementType::kDelete:
      return "DELETE";
  }
  return "?";
}

Restrictions Restrictions::Prepare(const TableMetadata& table,
                                   const std::vector<cql::Relation>& where, bool allow_filtering,
                                   BindSpecCollector& binds, bool ordered) {
  RestrictionsBuilder builder(table, StatementType::kSelect, allow_filtering, ordered);
  for (const cql::Relation& relation : where) builder.Add(relation, binds);
  return builder.Finish();
}

Restrictions Restrictions::PrepareModification(const TableMetadata& table,
                                               const std::vector<cql::Relation>& where,
                                               StatementType type, bool static_only,
                                               BindSpecCollector& binds) {
  SIBYL_CHECK(type != StatementType::kSelect);
  // ModificationStatement refuses these before looking at any relation.
  for (const cql::Relation& relation : where) {
    if (relation.lhs == cql::Relation::Lhs::kCustomIndexExpression) {
      ThrowInvalid(
          "Custom index expressions cannot be used in WHERE clauses for UPDATE or DELETE "
          "statements");
    }
  }
  RestrictionsBuilder builder(table, type, /*allow_filtering=*/false);
  for (const cql::Relation& relation : where) builder.Add(relation, binds);
  return builder.FinishModification(static_only);
}

const ColumnRestriction* Restrictions::Find(size_t column) const {
  for (const auto& r : restrictions_) {
    if (r.column == column) return &r;
  }
  return nullptr;
}

bool Restrictions::IsRestrictedByEq(size_t column) const {
  if (const ColumnRestriction* r = Find(column)) return r->is_eq();
  for (const auto& m : multi_) {
    if (column >= m.first && column <= m.last()) return m.kind == MultiColumnRestriction::Kind::kEq;
  }
  return false;
}

std::vector<uint16_t> Restrictions::PartitionKeyMarkers(const TableMetadata& table) const {
  std::vector<uint16_t> markers;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const ColumnRestriction* r = Find(i);
    int marker = -1;
    if (r != nullptr && r->eq && r->eq->kind == PreparedTerm::Kind::kMarker) marker = r->eq->marker;
    if (r != nullptr && r->in_values) {
      for (const auto& term : *r->in_values) {
        if (term.kind == PreparedTerm::Kind::kMarker) marker = term.marker;
      }
    }
    if (marker < 0) return {};
    markers.push_back(static_cast<uint16_t>(marker));
  }
  return markers;
}

}  // namespace sibyl::query
