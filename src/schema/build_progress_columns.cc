#include "schema/build_progress_columns.h"

#include "types/value_codec.h"

namespace sibyl::schema {

void SetBuildProgress(RowWriter& row, bool built, const std::string& failure,
                      int64_t partitions_built, const std::optional<int64_t>& last_token) {
  const char* status = built ? "built" : (failure.empty() ? "building" : "failed");
  row.Set("status", types::EncodeText(status))
      .Set("partitions_built", types::EncodeBigint(partitions_built));
  if (last_token && !built) {
    row.Set("last_token", types::EncodeBigint(*last_token));
  } else {
    row.SetNull("last_token");
  }
  if (failure.empty()) {
    row.SetNull("failure");
  } else {
    row.Set("failure", types::EncodeText(failure));
  }
}

}  // namespace sibyl::schema
