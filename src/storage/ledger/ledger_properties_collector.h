#pragma once
// Measures every partition of an SSTable while RocksDB writes it (at flush
// and at compaction) and stores what it found as the file's user property
// kFileLedgerProperty (partition_figures.h): the histograms of all
// partitions, and the partitions, rows and cells over the floors by name.
// The file's records come in key order, so a partition, a row and a
// collection are each one run of records (key_codec.h).
//
// A family gets the factory through TableFamilyOptions. The table's layout
// (to find where a clustering ends) comes from the table's TablePurgeState;
// a file written before the layout is known (just after Open) records no
// property and the ledger counts it as not measured.
//
// Thread-safety: the factory is shared by RocksDB's background threads; each
// collector is used by one thread.

#include <rocksdb/table_properties.h>

#include <memory>

#include "storage/compaction/purge_compaction_filter.h"

namespace sibyl::storage::ledger {

class LedgerPropertiesCollectorFactory final : public rocksdb::TablePropertiesCollectorFactory {
 public:
  explicit LedgerPropertiesCollectorFactory(std::shared_ptr<TablePurgeState> table)
      : table_(std::move(table)) {}
  rocksdb::TablePropertiesCollector* CreateTablePropertiesCollector(
      rocksdb::TablePropertiesCollectorFactory::Context context) override;
  const char* Name() const override { return "SibylLedgerPropertiesCollectorFactory"; }

 private:
  std::shared_ptr<TablePurgeState> table_;
};

}  // namespace sibyl::storage::ledger
