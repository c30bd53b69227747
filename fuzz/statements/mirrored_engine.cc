#include "fuzz/statements/mirrored_engine.h"

#include "storage/read/read_result_text.h"
#include "types/value_codec.h"

namespace sibyl::fuzz {
namespace {

using storage::ReadCell;
using storage::ReadPartition;
using storage::ReadResult;
using storage::ReadRow;

// Equality under the engine contract (see the header).
class ResultComparer {
 public:
  explicit ResultComparer(const storage::TableLayout* layout) : layout_(layout) {}

  bool Equal(const ReadResult& a, const ReadResult& b) const {
    if (a.partitions.size() != b.partitions.size()) return false;
    for (size_t i = 0; i < a.partitions.size(); ++i) {
      const ReadPartition& x = a.partitions[i];
      const ReadPartition& y = b.partitions[i];
      if (!(x.key == y.key) || x.static_row.has_value() != y.static_row.has_value()) return false;
      if (x.static_row && !Equal(*x.static_row, *y.static_row)) return false;
      if (x.rows.size() != y.rows.size()) return false;
      for (size_t r = 0; r < x.rows.size(); ++r) {
        if (!Equal(x.rows[r], y.rows[r])) return false;
      }
    }
    if (a.next.has_value() != b.next.has_value()) return false;
    if (!a.next) return true;
    const storage::ReadPosition& p = *a.next;
    const storage::ReadPosition& q = *b.next;
    if (!(p.partition == q.partition) || p.last_was_static != q.last_was_static ||
        p.rows_in_partition != q.rows_in_partition ||
        p.last_row.has_value() != q.last_row.has_value()) {
      return false;
    }
    return !p.last_row || SameClustering(*p.last_row, *q.last_row);
  }

 private:
  bool SameClustering(const storage::Clustering& a, const storage::Clustering& b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (layout_ == nullptr || i >= layout_->clustering.size()) {
        if (a[i] != b[i]) return false;
      } else if (types::Compare(*layout_->clustering[i].type, a[i], b[i]) != 0) {
        return false;
      }
    }
    return true;
  }

  bool SamePath(const std::string& column, const std::optional<Bytes>& a,
                const std::optional<Bytes>& b) const {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    const storage::ColumnLayout* c = layout_ ? layout_->FindColumn(column) : nullptr;
    if (c != nullptr &&
        (c->type->kind() == types::Kind::kSet || c->type->kind() == types::Kind::kMap)) {
      return types::Compare(*c->type->params()[0], *a, *b) == 0;
    }
    return *a == *b;
  }

  bool Equal(const ReadRow& a, const ReadRow& b) const {
    if (!SameClustering(a.clustering, b.clustering) || !(a.marker == b.marker) ||
        a.cells.size() != b.cells.size()) {
      return false;
    }
    for (size_t i = 0; i < a.cells.size(); ++i) {
      const ReadCell& x = a.cells[i];
      const ReadCell& y = b.cells[i];
      if (x.column != y.column || !SamePath(x.column, x.path, y.path) || x.value != y.value ||
          x.timestamp != y.timestamp || x.ttl != y.ttl ||
          x.local_expiration_time != y.local_expiration_time) {
        return false;
      }
    }
    return true;
  }

  const storage::TableLayout* layout_;
};

}  // namespace

void MirroredEngine::Fail(std::string description) const {
  if (mismatch_.empty()) mismatch_ = description;
  throw MirrorMismatch(description);
}

template <typename Call>
void MirroredEngine::OnBoth(const char* what, Call&& call) {
  std::string primary_error;
  std::string reference_error;
  try {
    call(primary_);
  } catch (const std::exception& e) {
    primary_error = e.what();
  }
  try {
    call(reference_);
  } catch (const std::exception& e) {
    reference_error = e.what();
  }
  if (primary_error.empty() && reference_error.empty()) return;
  if (primary_error.empty() || reference_error.empty()) {
    Fail(std::string(what) + ": the engines disagree: RocksDB " +
         (primary_error.empty() ? "accepted it" : "refused it (" + primary_error + ")") +
         ", the reference " +
         (reference_error.empty() ? "accepted it" : "refused it (" + reference_error + ")"));
  }
  // Both refused: the query layer produced a write the storage contract forbids.
  throw std::runtime_error(std::string(what) + " refused by both engines: " + primary_error);
}

void MirroredEngine::SyncTables(const std::vector<storage::TableLayout>& tables) {
  layouts_.clear();
  for (const storage::TableLayout& layout : tables) layouts_[layout.id] = layout;
  OnBoth("SyncTables", [&](storage::Engine& engine) { engine.SyncTables(tables); });
}

void MirroredEngine::Apply(const storage::Mutation& mutation) {
  OnBoth("Apply", [&](storage::Engine& engine) { engine.Apply(mutation); });
}

void MirroredEngine::ApplyAll(const std::vector<const storage::Mutation*>& mutations) {
  OnBoth("ApplyAll", [&](storage::Engine& engine) { engine.ApplyAll(mutations); });
}

void MirroredEngine::ApplyAllSynced(const std::vector<const storage::Mutation*>& mutations) {
  OnBoth("ApplyAllSynced", [&](storage::Engine& engine) { engine.ApplyAllSynced(mutations); });
}

void MirroredEngine::Truncate(const types::Uuid& table_id) {
  OnBoth("Truncate", [&](storage::Engine& engine) { engine.Truncate(table_id); });
}

storage::ReadResult MirroredEngine::Read(const storage::ReadCommand& command) const {
  storage::ReadResult primary;
  storage::ReadResult reference;
  std::string primary_error;
  std::string reference_error;
  try {
    primary = primary_.Read(command);
  } catch (const std::exception& e) {
    primary_error = e.what();
  }
  try {
    reference = reference_.Read(command);
  } catch (const std::exception& e) {
    reference_error = e.what();
  }
  if (!primary_error.empty() || !reference_error.empty()) {
    if (primary_error.empty() || reference_error.empty()) {
      Fail("the engines disagree on a " + storage::DescribeReadCommand(command) + ": RocksDB " +
           (primary_error.empty() ? "answered" : "failed (" + primary_error + ")") +
           ", the reference " +
           (reference_error.empty() ? "answered" : "failed (" + reference_error + ")"));
    }
    throw std::runtime_error("a " + storage::DescribeReadCommand(command) +
                             " failed on both engines: " + primary_error);
  }
  auto layout = layouts_.find(command.table_id);
  const ResultComparer comparer(layout == layouts_.end() ? nullptr : &layout->second);
  if (!comparer.Equal(primary, reference)) {
    Fail("the engines answered a " + storage::DescribeReadCommand(command) +
         " differently\n RocksDB:\n" + storage::DescribeReadResult(primary) + " reference:\n" +
         storage::DescribeReadResult(reference));
  }
  return primary;
}

}  // namespace sibyl::fuzz
