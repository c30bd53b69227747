#pragma once
// The receiving side of streaming: copies token ranges of tables from the
// sources chosen for them (the replica that loses each range, for a join or
// a leave: Cassandra's strict rule, decided by the caller) into this node's
// engine, one slice at a time (token_slices.h): pull it (STREAM_PULL), apply
// its rows as stored — original timestamps, TTLs, tombstones — durably, mark
// it done (stream_progress.h). Slices the progress already holds are
// skipped, so a stream run again after a crash or a failure resumes where
// it stopped. Applying through the node's engine keeps its secondary
// indexes exact (index/indexing_engine.h maintains them as rows arrive).
//
// Errors: a slice its source does not answer, or fails, ends the stream
// with a CqlError(kServerError) "Stream failed: ..." naming the source and
// the slice; what was applied stays applied and marked.
//
// Thread-safety: Start may be called from any thread; the callback runs
// once, on a messaging or blocking thread. The counters may be read from
// any thread while the stream runs.

#include <atomic>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "cluster/cluster_services.h"
#include "storage/data/read_command.h"
#include "storage/engine.h"
#include "types/uuid.h"

namespace sibyl::cluster::streaming {

struct StreamTask {
  types::Uuid table_id;
  storage::TokenRange range;
  types::Uuid source;  // a member of the cluster view
};

struct StreamOptions {
  types::Uuid plan_id;                 // names the progress file and the pulls
  std::filesystem::path progress_dir;  // where the progress is kept
  int slices_per_range = 4;            // the unit of resumption
  messaging::Duration pull_timeout = std::chrono::seconds(60);  // a throttled slice waits
};

// What a stream did, as netstats shows it.
struct StreamCounters {
  std::atomic<uint64_t> slices_total{0};
  std::atomic<uint64_t> slices_skipped{0};  // done before this run
  std::atomic<uint64_t> slices_received{0};
  std::atomic<uint64_t> bytes_received{0};
};

class RangeStreamer : public std::enable_shared_from_this<RangeStreamer> {
 public:
  using Done = std::function<void(std::exception_ptr error)>;

  // `services` and `engine` must outlive the stream.
  static std::shared_ptr<RangeStreamer> Start(const ClusterServices& services,
                                              storage::Engine& engine, StreamOptions options,
                                              std::vector<StreamTask> tasks, Done done);

  const StreamCounters& counters() const { return counters_; }

  // Private: use Start.
  RangeStreamer(const ClusterServices& services, storage::Engine& engine, StreamOptions options,
                Done done);

 private:
  struct Slice {
    types::Uuid table_id;
    storage::TokenRange range;
    types::Uuid source;
  };

  void Plan(std::vector<StreamTask> tasks);
  void PullNext();
  void Apply(const Slice& slice, Bytes reply);
  void Fail(const Slice& slice, const std::string& why);

  const ClusterServices services_;
  storage::Engine& engine_;
  const StreamOptions options_;
  const Done done_;
  std::unique_ptr<class StreamProgress> progress_;
  std::vector<Slice> slices_;  // in order; one pull in flight at a time
  size_t next_ = 0;
  StreamCounters counters_;
};

}  // namespace sibyl::cluster::streaming
