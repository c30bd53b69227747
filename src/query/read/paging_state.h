#pragma once
// The paging state Sibyl hands clients: where the last page ended, so the
// next page resumes right after the last returned row. Opaque to clients;
// its layout (big-endian):
//
//   [byte]  format version, 1
//   [int]   rows LIMIT still allows, or -1 for no limit
//   [int]   rows already returned from the last row's partition (PER PARTITION LIMIT)
//   [int n] [n bytes]  the partition key (routing key) of the last returned row
//   [short k]          clustering values that follow; 0 resumes after the whole partition
//   k × ([int n] [n bytes])  the last returned row's clustering values
//
// Positions are by value, not by index, so rows inserted or removed between
// pages neither repeat nor skip others.

#include <optional>
#include <vector>

#include "common/bytes.h"

namespace sibyl::query {

struct PagingState {
  int32_t remaining = -1;
  int32_t returned_in_partition = 0;
  Bytes partition_key;
  std::vector<Bytes> clustering;

  Bytes Serialize() const;
  // Throws CqlError(kProtocolError, "Invalid value for the paging state") if malformed.
  [[nodiscard]] static PagingState Parse(BytesView serialized);
};

}  // namespace sibyl::query
