#include "storage/ledger/partition_figures.h"

#include "storage/ledger/ledger_codec.h"

namespace sibyl::storage::ledger {
namespace {

template <typename T, typename Encode>
void AppendList(Bytes& out, const std::vector<T>& list, Encode encode) {
  AppendVarint(out, list.size());
  for (const T& item : list) encode(item);
}

// Reads a list of at most what `in` could hold, each item by `decode`.
template <typename T, typename Decode>
bool ReadList(BytesView& in, std::vector<T>& list, Decode decode) {
  auto size = ReadVarint(in);
  if (!size || *size > in.size()) return false;
  list.resize(*size);
  for (T& item : list) {
    if (!decode(item)) return false;
  }
  return true;
}

bool ReadInto(BytesView& in, uint64_t& out) {
  auto v = ReadVarint(in);
  if (v) out = *v;
  return v.has_value();
}

bool ReadInto(BytesView& in, Bytes& out) {
  auto v = ReadSized(in);
  if (v) out = std::move(*v);
  return v.has_value();
}

bool ReadInto(BytesView& in, bool& out) {
  uint64_t v = 0;
  if (!ReadInto(in, v) || v > 1) return false;
  out = v == 1;
  return true;
}

}  // namespace

void PartitionHistograms::Add(const PartitionFigures& partition) {
  bytes.Add(partition.bytes);
  rows.Add(partition.rows);
  cells.Add(partition.cells);
  tombstones.Add(partition.tombstones);
}

void PartitionHistograms::Remove(const PartitionFigures& partition) {
  bytes.Remove(partition.bytes);
  rows.Remove(partition.rows);
  cells.Remove(partition.cells);
  tombstones.Remove(partition.tombstones);
}

void PartitionHistograms::Merge(const PartitionHistograms& other) {
  bytes.Merge(other.bytes);
  rows.Merge(other.rows);
  cells.Merge(other.cells);
  tombstones.Merge(other.tombstones);
}

Bytes EncodeFileLedger(const FileLedger& ledger) {
  Bytes out;
  AppendList(out, ledger.partitions, [&](const PartitionFigures& p) {
    AppendSized(out, p.prefix);
    for (uint64_t v : {p.bytes, p.rows, p.cells, p.tombstones, p.largest_row_bytes,
                       p.largest_collection_items}) {
      AppendVarint(out, v);
    }
  });
  AppendList(out, ledger.rows, [&](const RowFigures& r) {
    AppendSized(out, r.prefix);
    AppendVarint(out, r.is_static);
    AppendSized(out, r.clustering);
    AppendVarint(out, r.bytes);
    AppendVarint(out, r.cells);
  });
  AppendList(out, ledger.cells, [&](const CellFigures& c) {
    AppendSized(out, c.prefix);
    AppendVarint(out, c.is_static);
    AppendSized(out, c.clustering);
    AppendSized(out, c.column);
    AppendVarint(out, c.bytes);
    AppendVarint(out, c.items);
  });
  for (const MeasureHistogram* h : {&ledger.histograms.bytes, &ledger.histograms.rows,
                                    &ledger.histograms.cells, &ledger.histograms.tombstones}) {
    h->AppendEncoded(out);
  }
  return out;
}

std::optional<FileLedger> DecodeFileLedger(BytesView in) {
  FileLedger ledger;
  const bool ok =
      ReadList(in, ledger.partitions,
               [&](PartitionFigures& p) {
                 return ReadInto(in, p.prefix) && ReadInto(in, p.bytes) && ReadInto(in, p.rows) &&
                        ReadInto(in, p.cells) && ReadInto(in, p.tombstones) &&
                        ReadInto(in, p.largest_row_bytes) &&
                        ReadInto(in, p.largest_collection_items);
               }) &&
      ReadList(in, ledger.rows,
               [&](RowFigures& r) {
                 return ReadInto(in, r.prefix) && ReadInto(in, r.is_static) &&
                        ReadInto(in, r.clustering) && ReadInto(in, r.bytes) &&
                        ReadInto(in, r.cells);
               }) &&
      ReadList(in, ledger.cells, [&](CellFigures& c) {
        return ReadInto(in, c.prefix) && ReadInto(in, c.is_static) && ReadInto(in, c.clustering) &&
               ReadInto(in, c.column) && ReadInto(in, c.bytes) && ReadInto(in, c.items);
      });
  if (!ok) return std::nullopt;
  for (MeasureHistogram* h : {&ledger.histograms.bytes, &ledger.histograms.rows,
                              &ledger.histograms.cells, &ledger.histograms.tombstones}) {
    auto decoded = MeasureHistogram::Decode(in);
    if (!decoded) return std::nullopt;
    *h = *decoded;
  }
  if (!in.empty()) return std::nullopt;
  return ledger;
}

}  // namespace sibyl::storage::ledger
