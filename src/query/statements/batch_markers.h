#pragma once
// The bind markers of one statement of a batch, renumbered from 0, so that
// the statement can be prepared on its own: a batch's markers are numbered
// across all its statements, each statement's own run of them contiguous.

#include "cql/ast.h"

namespace sibyl::query {

struct RenumberedMarkers {
  int first = 0;  // the batch's index of the statement's first marker (0 when it has none)
  int count = 0;  // the statement's markers
};

// Renumbers `statement`'s markers in place. `marker_count`: the batch's.
RenumberedMarkers RenumberMarkers(cql::ModificationStatement& statement, int marker_count);

}  // namespace sibyl::query
