#pragma once
// How Restrictions::Prepare turns one WHERE relation into a restriction and
// merges it with the restrictions already on its columns, with the checks and
// messages of Cassandra 4.1's Relation subclasses (SingleColumnRelation,
// MultiColumnRelation, TokenRelation) and restriction classes
// (SingleColumnRestriction, MultiColumnRestriction, TokenRestriction).
// Internal to the restrictions files.

#include <string>
#include <utility>

#include "common/error.h"
#include "cql/ast.h"
#include "query/restrictions/relation_text.h"
#include "query/restrictions/restrictions.h"
#include "query/terms/bind_variables.h"
#include "schema/table_metadata.h"

namespace sibyl::query::restriction_preparation {

// A single-column (or map-element) relation as a restriction of its own.
// REQUIRES: relation.lhs is kColumn or kMapElement, op is not !=, IS NOT or LIKE.
ColumnRestriction PrepareSingleColumn(const schema::TableMetadata& table, size_t column,
                                      const cql::Relation& relation, BindSpecCollector& binds);
// Merges `added` into `existing` (both on one column), as
// SingleColumnRestriction.doMergeWith does: what `existing` is decides.
void MergeSingleColumn(ColumnRestriction& existing, ColumnRestriction added,
                       const schema::ColumnMetadata& column);

// A tuple relation on clustering columns. REQUIRES: relation.lhs == kColumnTuple.
MultiColumnRestriction PrepareMultiColumn(const schema::TableMetadata& table,
                                          const cql::Relation& relation, BindSpecCollector& binds);
// A single-column restriction as a one-column tuple one; nullopt for CONTAINS
// and map entries, which cannot be converted.
std::optional<MultiColumnRestriction> ToMultiColumn(const ColumnRestriction& restriction);
// Merges `added` into `existing`, as MultiColumnRestriction.doMergeWith does;
// the result covers the columns of both.
void MergeMultiColumn(MultiColumnRestriction& existing, MultiColumnRestriction added,
                      const schema::TableMetadata& table);
// The message a CONTAINS restriction gives when merged with another kind.
[[noreturn]] void ThrowContainsMerge(const schema::ColumnMetadata& column);

// token(...) relations. REQUIRES: relation.lhs == kToken.
TokenRestriction PrepareToken(const schema::TableMetadata& table, const cql::Relation& relation,
                              BindSpecCollector& binds);
void MergeToken(TokenRestriction& existing, TokenRestriction added,
                const schema::TableMetadata& table);

// Merges the bounds of two slices on the same columns (`names` as the
// messages show them), with 4.1's checks: one start bound and one end bound
// at most. Slice is any restriction with lower/upper and their inclusivity.
template <typename Slice>
void MergeSliceBounds(Slice& existing, Slice& added, const std::string& names) {
  if (existing.lower && added.lower) {
    ThrowInvalid("More than one restriction was found for the start bound on " + names);
  }
  if (existing.upper && added.upper) {
    ThrowInvalid("More than one restriction was found for the end bound on " + names);
  }
  if (added.lower) {
    existing.lower = std::move(added.lower);
    existing.lower_inclusive = added.lower_inclusive;
  }
  if (added.upper) {
    existing.upper = std::move(added.upper);
    existing.upper_inclusive = added.upper_inclusive;
  }
}

}  // namespace sibyl::query::restriction_preparation
