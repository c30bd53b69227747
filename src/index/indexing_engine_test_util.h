#pragma once
// What the indexing engine's tests share: the seed of their random
// histories (SIBYL_INDEX_SEED=<n> replays one) and the engine under test,
// the reference engine or RocksDB, wrapped.

#include <cstdlib>
#include <memory>
#include <random>

#include "index/indexing_engine.h"
#include "storage/random_workload_test_util.h"
#include "storage/reference/reference_engine.h"

namespace sibyl::index::testing {

inline uint32_t Seed() {
  if (const char* seed = std::getenv("SIBYL_INDEX_SEED"))
    return static_cast<uint32_t>(std::atoi(seed));
  return static_cast<uint32_t>(std::random_device{}());
}

// An IndexingEngine over RocksDB in `dir` (`rocksdb`) or the reference engine.
inline std::unique_ptr<IndexingEngine> OpenIndexingEngine(bool rocksdb,
                                                          const storage::testing::ScratchDir& dir,
                                                          Clock& clock) {
  std::unique_ptr<storage::Engine> inner;
  if (rocksdb) {
    inner = storage::Engine::Open({.directory = dir.path()}, clock);
  } else {
    inner = storage::ReferenceEngine::Create();
  }
  return IndexingEngine::Wrap(std::move(inner), clock);
}

}  // namespace sibyl::index::testing
